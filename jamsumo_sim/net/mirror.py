"""A JamSumo client's copy of the match: re-simulated shot by shot, checked against the host.

The host sends each move with the checksum of the shot it made (``MatchState.shot_checksums``).
If the copy here rests differently (another CPU, another library build), the client takes the
host's rest state: :func:`rest_image` on the host, :func:`take_image` here. An image holds the
world's snapshot and the rules' bookkeeping, so the copy goes on exactly as the host's.
"""

from __future__ import annotations

from typing import Any

from jamsumo_sim.turnloop.state import LogEntry, State

# MatchState fields that are plain JSON data (dicts with string keys, lists, numbers, strings)
_PLAIN = (
    "where",
    "rolling",
    "roll_pass",
    "round_turns",
    "results",
    "shot_checksums",
    "last_shot",
    "over",
    "placing",
    "corners",
)
_TURNS = ("tokens", "round", "phase_index", "order", "position", "acted", "passes_in_row")
_TURN_FLAGS = ("round_over", "game_over")


def is_mirrored(state: State) -> bool:
    """Whether clients keep a full copy of this game (perfect information: JamSumo)."""
    return bool(state.game.perfect_information) and hasattr(state, "shot_checksums")


def shot_count(state: State) -> int:
    return len(getattr(state, "shot_checksums", ()))


def rest_image(state: Any) -> dict[str, Any]:
    """Everything a client needs to continue from ``state`` (a JamSumo match between moves)."""
    turns = state.turns
    return {
        "world": state.world.snapshot() if state.world is not None else None,
        "plain": {key: getattr(state, key) for key in _PLAIN},
        "rolls": [[int(k), int(v)] for k, v in sorted(state.rolls.items())],
        "turns": {key: getattr(turns, key) for key in (*_TURNS, *_TURN_FLAGS)},
        "log": [[e.text, None if e.to is None else sorted(e.to)] for e in state.log],
        "pending": state.pending is not None,
    }


def take_image(state: Any, image: dict[str, Any]) -> None:
    """Make ``state`` the host's: its world, dice places, scores, turn and log."""
    from jamsumo_sim.world import World

    if image.get("pending"):  # images are taken between moves, never with a flick in flight
        raise ValueError("a rest state with a flick in flight")
    world = image.get("world")
    state.world = World.from_snapshot(world) if world is not None else None
    for key in _PLAIN:
        setattr(state, key, image["plain"][key])
    state.rolls = {int(k): int(v) for k, v in image["rolls"]}
    for key in (*_TURNS, *_TURN_FLAGS):
        setattr(state.turns, key, image["turns"][key])
    state.log = [LogEntry(t, None if to is None else frozenset(to)) for t, to in image["log"]]
    state._menu = {}  # legal moves are worked out again from the new world
