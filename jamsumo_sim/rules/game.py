"""The three games on the turn loop: JAM, SUMO and JAMSUMO (registry names jam, sumo, jamsumo)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.rules.rounds import round_modes
from jamsumo_sim.turnloop import Game

MODES = ("jam", "sumo", "jamsumo")
DEFAULT_MAX_TURNS = 400  # per round: a safeguard, far above a real round's length
DEFAULT_MAX_REROLLS = 10
DEFAULT_SHOT_TIME = 20.0  # s of simulated time before a shot is called at rest
# How Sumo rounds open: "choose" (each player chooses a corner and places their dice: a set-up
# action each) or "grid" (the old fixed 3×2 grid in the front-left corner: implied by replays and
# saves written before set-up actions existed, which lack this parameter; see replay.py).
SUMO_SETUPS = ("choose", "grid")


class JamSumoGame(Game):
    """Jam, Sumo or the full JamSumo match (two rounds of each), for 2–4 players."""

    min_players = 2
    max_players = 4
    version = 1
    perfect_information = True

    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        self.mode = mode
        self.name = mode
        self.title = {"jam": "Jam", "sumo": "Sumo", "jamsumo": "JamSumo"}[mode]

    # -- params ---------------------------------------------------------------------------------
    def default_params(self, players: int, variant: str | None = None) -> dict[str, Any]:
        return {
            "players": players,
            "variant": variant or self.variants[0],
            "board": "standard",
            "physics": {},
            "max_turns": DEFAULT_MAX_TURNS,
            "max_rerolls": DEFAULT_MAX_REROLLS,
            "shot_time": DEFAULT_SHOT_TIME,
            "rounds": None,
            "sumo_setup": "choose",
            "noise": "practice",  # execution noise level (jamsumo_sim.noise; assets/noise.toml)
        }

    def validate_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        out = super().validate_params(params)
        known = set(self.default_params(2))
        unknown = sorted(set(out) - known)
        if unknown:
            raise UserError(f"{self.title}: unknown parameter {unknown[0]!r}")
        for key in ("max_turns", "max_rerolls"):
            v = out[key]
            if (
                isinstance(v, bool)
                or not isinstance(v, int)
                or v < (1 if key == "max_turns" else 0)
            ):
                raise UserError(f"{self.title}: {key} must be a whole number ≥ 1, not {v!r}")
        rounds = out["rounds"]
        if rounds is not None and (
            isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1
        ):
            raise UserError(f"{self.title}: rounds must be a whole number ≥ 1, not {rounds!r}")
        shot = out["shot_time"]
        if isinstance(shot, bool) or not isinstance(shot, int | float) or not shot > 0:
            raise UserError(f"{self.title}: shot_time must be a positive number of seconds")
        out["shot_time"] = float(shot)
        if not isinstance(out["board"], str | Mapping):
            raise UserError(f"{self.title}: board must be a board name, a path or a table")
        if not isinstance(out["physics"], Mapping):
            raise UserError(f"{self.title}: physics must be a table of parameter overrides")
        out["physics"] = dict(out["physics"])
        if out["sumo_setup"] not in SUMO_SETUPS:
            raise UserError(
                f"{self.title}: sumo_setup must be one of {', '.join(SUMO_SETUPS)}, "
                f"not {str(out['sumo_setup'])[:30]!r}"
            )
        from jamsumo_sim import noise

        try:
            noise.level(out["noise"])
        except UserError as exc:
            raise UserError(f"{self.title}: {exc}") from None
        if isinstance(out["board"], Mapping):
            out["board"] = json.loads(json.dumps(out["board"]))  # plain JSON data
        board = load_board(out["board"])  # raises a one-line UserError on a bad board
        PhysicsParams.from_board(board).with_overrides(out["physics"])
        if len(board.platforms) == 0 and self.mode != "sumo":
            raise UserError(f"{self.title} needs a board with JAM zones")
        if len(board.sumo_areas) < out["players"] and self.mode != "jam":
            raise UserError(f"{self.title} needs a SUMO area per player")
        return out

    def round_modes(self, params: Mapping[str, Any]) -> list[str]:
        """The mode of each round: as many rounds as players, or 2 Jam + 2 Sumo for JamSumo."""
        return round_modes(self.mode, params)

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        modes = self.round_modes(params)
        from jamsumo_sim import noise

        blocks = 1 + sum(1 for a, b in zip(modes, modes[1:], strict=False) if a != b)
        players = int(params["players"])
        rolls = blocks * players * (int(params["max_rerolls"]) + 1)
        # with execution noise every flick is followed by its chance outcome
        per_turn = 1 if noise.level(params.get("noise", noise.PRACTICE)).exact else 2
        setups = 0
        if params.get("sumo_setup", "choose") == "choose":
            setups = players * sum(1 for m in modes if m == "sumo")
        return len(modes) * int(params["max_turns"]) * per_turn + rolls + setups

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0):  # noqa: ANN201
        from jamsumo_sim.rules.match import MatchState

        return MatchState(self, params, seed)

    def bots(self) -> dict[str, type]:
        from jamsumo_sim.rules.bots import PlannerBot, RandomBot

        return {"random": RandomBot, "planner": PlannerBot}

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        """A text view: round, scores, and each die (positions in mm, in this seat's view)."""
        lines = [
            f"{self.title} — round {observation['round']}/{observation['rounds']} "
            f"({observation['mode']}), turn {observation['round_turns'] + 1}, "
            f"marker: seat {observation['marker']}",
            f"totals: {observation['totals']}",
        ]
        for row in observation["dice"]:
            if row["where"] == "board":
                flat = "" if row["flat"] else " (not flat)"
                lines.append(
                    f"  {row['id']:8} board  ({row['x'] * 1000:7.1f}, {row['y'] * 1000:7.1f}) mm "
                    f"face {row['face']}{flat}"
                )
            else:
                lines.append(f"  {row['id']:8} {row['where']}")
        lines.extend(f"  | {text}" for text in observation["log"][-5:])
        return "\n".join(lines)


JAM = JamSumoGame("jam")
SUMO = JamSumoGame("sumo")
JAMSUMO = JamSumoGame("jamsumo")
