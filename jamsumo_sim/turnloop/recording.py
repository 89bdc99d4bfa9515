"""Match records: a saved or finished match as a versioned JSON file (never pickle).

A record is ``State.to_json()`` plus who sat where, the result and a digest of the final state,
so ``verify`` can re-play it and say whether it is the game its seed gives.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from jamsumo_sim import __version__
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop.serialize import (
    ChanceMismatch,
    read_json_file,
    state_from_json,
    write_json_atomic,
)
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


# Top-level fields of a record and the JSON types they must have (``game``, ``params``, ``seed``,
# ``version``, ``format`` and ``history`` are checked where the state is rebuilt).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "package_version": (str,),
    "finished": (bool,),
    "result": (dict, type(None)),
    "digest": (str,),
}
_KNOWN_FIELDS = {"kind", "record_version", "game", "version", "format", "params", "seed", "history"}
_KNOWN_FIELDS |= {"seats", *_FIELD_TYPES}
_JSON_NAMES = {str: "a string", bool: "true or false", dict: "an object"}


def _check_fields(data: Mapping[str, Any], where: str) -> None:
    unknown = sorted(str(k) for k in set(data) - _KNOWN_FIELDS)
    if unknown:
        raise UserError(f"{where}: unknown field {unknown[0][:30]!r} in a match record")
    for key, types in _FIELD_TYPES.items():
        if key in data and not isinstance(data[key], types):
            kinds = " or ".join("null" if t is type(None) else _JSON_NAMES[t] for t in types)
            raise UserError(f"{where}: {key!r} must be {kinds}, not {str(data[key])[:30]}")
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) and len(s) < 40 for s in seats):
        raise UserError(f"{where}: 'seats' must be a list of agent names")


def _read_record_data(path: str | os.PathLike[str]) -> dict[str, Any]:
    data = read_json_file(path, "record")
    where = str(path)
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: not a match record (expected a JSON object)")
    kind = data.get("kind")
    if kind == "jamsumo-replay":  # jamsumo_sim.replay.REPLAY_KIND: point the way
        raise UserError(f"{where}: a JamSumo replay — open it with 'jamsumo replay {where}'")
    if kind != RECORD_KIND:
        raise UserError(f"{where}: not a match record (kind is {str(kind)[:30]!r})")
    version = data.get("record_version")
    if isinstance(version, bool) or version != RECORD_VERSION:
        raise UserError(
            f"{where}: record version {str(version)[:30]!r} is not supported "
            f"(this program reads version {RECORD_VERSION})"
        )
    _check_fields(data, where)
    return dict(data)


def _rebuild(data: dict[str, Any], where: str, check_chance: bool = False) -> State:
    state = state_from_json(data, where=where, check_chance=check_chance)
    if len(data["seats"]) != state.num_players:
        raise UserError(
            f"{where}: {len(data['seats'])} seats listed for {state.num_players} players"
        )
    return state


def load_record(path: str | os.PathLike[str]) -> tuple[State, dict[str, Any]]:
    """Read a record and rebuild its state; a one-line UserError if anything is wrong."""
    data = _read_record_data(path)
    return _rebuild(data, str(path)), data


def verify_record(path: str | os.PathLike[str]) -> tuple[bool, str]:
    """Re-play a record; (True, summary) if it is the game its seed gives, else (False, why).

    Checked: every chance outcome is the one the seed gives at that point (a record with an edited
    shuffle or roll is a different game, even if it ends in the same state), then the final state's
    digest, ``finished`` and ``result``. A malformed record or an illegal move is a UserError.
    """
    data = _read_record_data(path)
    try:
        state = _rebuild(data, str(path), check_chance=True)
    except ChanceMismatch as exc:
        return False, str(exc)
    recorded = data.get("digest")
    if state.digest() != recorded:
        return False, (
            f"{path}: the final state differs from the recorded one "
            f"(digest {state.digest()} re-played, {str(recorded)[:20]} recorded)"
        )
    finished = state.is_terminal()
    if data.get("finished") != finished:
        return False, (
            f"{path}: the final state differs from the recorded one: the record says "
            f"finished={str(data.get('finished')).lower()}, the re-play "
            f"{'ends the game' if finished else 'is not finished'}"
        )
    expected = result_summary(state) if finished else None
    if data.get("result") != expected:
        return False, (
            f"{path}: the final state differs from the recorded one: the recorded result "
            f"{json.dumps(data.get('result'))[:80]} is not the re-played {json.dumps(expected)[:80]}"
        )
    moves = len(state.history)
    chances = sum(1 for entry in state.history if "chance" in entry)
    return True, (
        f"{path}: OK — {moves} moves re-played, all {chances} chance outcomes from seed "
        f"{state.seed}, same final state and result"
    )
