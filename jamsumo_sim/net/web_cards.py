"""What the card page of ``card-games host GAME --web`` gets inlined (net/web_page.py).

A browser seat of a card game is a client like ``card-games join``: it gets the same messages (its
seat's observation, its log lines, its legal moves) and sends the same moves, which the host checks.
The page draws any observation as HTML with one generic renderer; the few hints it needs per game
(which keys are the seat's own cards, which lists of one value per player are not per seat, what
to leave out) are data, in ``assets/web/cards.toml``.
"""

from __future__ import annotations

import tomllib
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.resources import read_asset_text

HINT_KEYS = ("hidden", "hand", "shared", "mover", "grid", "grid_width")


def card_hints(game: str) -> dict[str, list[str]]:
    """The page's hints for ``game`` (its registry name): the defaults, then the game's own."""
    try:
        data = tomllib.loads(read_asset_text("web", "cards.toml"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"assets/web/cards.toml cannot be read: {exc}") from None
    hints: dict[str, list[str]] = {}
    for key in HINT_KEYS:
        value = data.get(game, {}).get(key, data.get("default", {}).get(key, []))
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise UserError(f"assets/web/cards.toml: [{game}] {key} must be a list of keys")
        hints[key] = value
    return hints


def card_scene(state: Any, seats: list[str], password: bool) -> dict[str, Any]:
    """The fixed part of a hosted card game, inlined in the page: nothing a seat may not see (the
    observations come in the stream, one seat's each)."""
    game = state.game
    labels = getattr(game, "card_labels", None)  # a game whose cards have ids may name them
    return {
        "title": f"{game.title} over the network",
        "game": game.name,
        "players": state.num_players,
        "seats": list(seats),
        "password": password,
        "hints": card_hints(game.name),
        "labels": labels(state.params) if callable(labels) else {},
    }
