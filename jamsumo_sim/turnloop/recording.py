"""Match records: a saved or finished match as a versioned JSON file (never pickle).

A record is ``State.to_json()`` plus who sat where, the result and a digest of the final state,
so ``verify`` can re-play it and say whether it still gives the same game.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jamsumo_sim import __version__
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop.serialize import read_json_file, state_from_json, write_json_atomic
from jamsumo_sim.turnloop.state import State

RECORD_KIND = "turnloop-match"
RECORD_VERSION = 1


def make_record(state: State, seats: list[str]) -> dict[str, Any]:
    """The record of ``state`` (finished or not) with the seats' agent kinds."""
    data = state.to_json()
    finished = state.is_terminal()
    return {
        "kind": RECORD_KIND,
        "record_version": RECORD_VERSION,
        "package_version": __version__,
        **data,
        "seats": list(seats),
        "finished": finished,
        "result": result_summary(state) if finished else None,
        "digest": state.digest(),
    }


def result_summary(state: State) -> dict[str, Any]:
    return {
        "scores": state.returns(),
        "winner": state.winners(),
        "turns": state.turns_played(),
    }


def save_record(path: str | os.PathLike[str], state: State, seats: list[str]) -> None:
    write_json_atomic(path, make_record(state, seats), "record")


def load_record(path: str | os.PathLike[str]) -> tuple[State, dict[str, Any]]:
    """Read a record and rebuild its state; a one-line UserError if anything is wrong."""
    data = read_json_file(path, "record")
    if not isinstance(data, Mapping):
        raise UserError(f"{path}: not a match record (expected a JSON object)")
    if data.get("kind") == "jamsumo-replay":  # jamsumo_sim.replay.REPLAY_KIND: point the way
        raise UserError(f"{path}: a JamSumo replay — open it with 'jamsumo replay {path}'")
    if data.get("kind") != RECORD_KIND:
        raise UserError(f"{path}: not a match record (kind is {data.get('kind')!r})")
    if data.get("record_version") != RECORD_VERSION:
        raise UserError(
            f"{path}: record version {data.get('record_version')!r} is not supported "
            f"(this program reads version {RECORD_VERSION})"
        )
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise UserError(f"{path}: 'seats' must be a list of agent names")
    state = state_from_json(data, where=str(path))
    if len(seats) != state.num_players:
        raise UserError(f"{path}: {len(seats)} seats listed for {state.num_players} players")
    return state, dict(data)


def verify_record(path: str | os.PathLike[str]) -> tuple[bool, str]:
    """Re-play a record; (True, summary) if it reproduces its digest and result, else (False, why)."""
    state, data = load_record(path)
    if state.digest() != data.get("digest"):
        return False, f"{path}: the re-played state differs from the recorded one (digest mismatch)"
    if data.get("finished") != state.is_terminal():
        return (
            False,
            f"{path}: the record says finished={data.get('finished')} but the re-play disagrees",
        )
    if state.is_terminal() and data.get("result") != result_summary(state):
        return False, f"{path}: the recorded result differs from the re-played result"
    moves = len(state.history)
    return True, f"{path}: OK — {moves} moves re-played, same state and result"
