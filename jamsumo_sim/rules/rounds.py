"""How many rounds a match has and the mode of each (rulebook: as many rounds as players; JamSumo
plays two Jam rounds, then two Sumo rounds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

JAMSUMO_ROUNDS_PER_MODE = 2


def round_modes(mode: str, params: Mapping[str, Any]) -> list[str]:
    """The mode of each round of a ``mode`` match ("jam", "sumo" or "jamsumo"): as many rounds as
    players (or ``params["rounds"]``), or that many Jam rounds then as many Sumo rounds."""
    rounds = params.get("rounds")
    if mode == "jamsumo":
        k = rounds or JAMSUMO_ROUNDS_PER_MODE
        return ["jam"] * k + ["sumo"] * k
    return [mode] * (rounds or int(params["players"]))
