"""Match records: a saved or finished match as a versioned JSON file (never pickle).

A record is ``State.to_json()`` plus who sat where, the result and a digest of the final state,
so ``verify`` can re-play it and say whether it is the game its seed gives.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from jamsumo_sim import __version__
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.serialize import (
    ChanceMismatch,
    read_json_file,
    state_from_json,
    write_json_atomic,
)
from jamsumo_sim.turnloop.state import State

RECORD_KIND = "turnloop-match"
RECORD_VERSION = 1
# Seat kinds any game may record besides its own bots (``Game.bots()``): a person, a player over
# the network (card_games.net) and the search bot card_games.ismcts adds to every card game.
COMMON_SEAT_KINDS = ("human", "remote", "ismcts")
# Hex digits kept of each move's check: an accidental or hand edit is caught at its move.
_CHECK_HEX = 10

# A seating: from which move on (``from``) which agent kinds sat where (``seats``); a resumed
# match with other seats (``resume --seats``) adds one.
Seating = dict[str, Any]


def _hash(*parts: Any) -> str:
    blob = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:_CHECK_HEX]


def move_checks(data: Mapping[str, Any]) -> list[str]:
    """One check per history entry, chained from the game, seed and params: the first check that
    differs in a record is the first move that was changed (later ones differ too)."""
    check = _hash(data.get("game"), data.get("seed"), data.get("params"))
    out = []
    for entry in data.get("history") or []:
        check = _hash(check, entry)
        out.append(check)
    return out


def seats_check(seatings: Sequence[Seating]) -> str:
    return _hash(list(seatings))


def make_record(
    state: State, seats: list[str], seatings: Sequence[Seating] | None = None
) -> dict[str, Any]:
    """The record of ``state`` (finished or not) with the seats' agent kinds; ``seatings`` are the
    earlier seats of a resumed match (default: these seats from the first move)."""
    data = state.to_json()
    finished = state.is_terminal()
    seated = [dict(s) for s in seatings] if seatings else []
    if not seated or seated[-1]["seats"] != list(seats):
        seated.append({"from": len(state.history) if seated else 0, "seats": list(seats)})
    return {
        "kind": RECORD_KIND,
        "record_version": RECORD_VERSION,
        "package_version": __version__,
        **data,
        "seats": list(seats),
        "finished": finished,
        "result": result_summary(state) if finished else None,
        "digest": state.digest(),
        "move_checks": move_checks(data),
        "seatings": seated,
        "seats_check": seats_check(seated),
    }


def result_summary(state: State) -> dict[str, Any]:
    return {
        "scores": state.returns(),
        "winner": state.winners(),
        "turns": state.turns_played(),
    }


def save_record(
    path: str | os.PathLike[str],
    state: State,
    seats: list[str],
    seatings: Sequence[Seating] | None = None,
) -> None:
    write_json_atomic(path, make_record(state, seats, seatings), "record")


# Top-level fields of a record and the JSON types they must have (``game``, ``params``, ``seed``,
# ``version``, ``format`` and ``history`` are checked where the state is rebuilt).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "package_version": (str,),
    "finished": (bool,),
    "result": (dict, type(None)),
    "digest": (str,),
    "move_checks": (list,),
    "seatings": (list,),
    "seats_check": (str,),
}
_KNOWN_FIELDS = {"kind", "record_version", "game", "version", "format", "params", "seed", "history"}
_KNOWN_FIELDS |= {"seats", *_FIELD_TYPES}
_JSON_NAMES = {str: "a string", bool: "true or false", dict: "an object", list: "a list"}


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
    for seating in data.get("seatings") or []:
        ok = isinstance(seating, Mapping) and set(seating) == {"from", "seats"}
        listed = seating.get("seats") if ok else None
        if not (
            ok
            and isinstance(seating["from"], int)
            and not isinstance(seating["from"], bool)
            and isinstance(listed, list)
            and all(isinstance(s, str) and len(s) < 40 for s in listed)
        ):
            raise UserError(
                f"{where}: each of 'seatings' must be {{'from': move, 'seats': [names]}}"
            )


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


def _check_seat_kinds(data: Mapping[str, Any], state: State, where: str) -> None:
    """Every seat kind in ``seats`` and ``seatings`` is one the game knows: one line if not."""
    known = {*COMMON_SEAT_KINDS, *state.game.bots()}
    listed = [data["seats"], *(s["seats"] for s in data.get("seatings") or [])]
    for seats in listed:
        for seat, kind in enumerate(seats):
            if kind not in known:
                raise UserError(
                    f"{where}: seat {seat} is {kind[:30]!r}, not a seat kind of "
                    f"{state.game.title} ({', '.join(sorted(known))})"
                )


def _seat_difference(data: Mapping[str, Any]) -> str | None:
    """Why ``seats``/``seatings`` are not those the match was played with, if they are not."""
    seatings = data.get("seatings")
    if seatings is None:  # a record from before seatings were kept: nothing to compare
        return None
    played = seatings[-1]["seats"] if seatings else None
    if data["seats"] != played:
        return (
            f"'seats' lists {', '.join(data['seats'])[:80]} but the game was played by "
            f"{', '.join(played or [])[:80]}: the seats were changed after play"
        )
    if data.get("seats_check") != seats_check(seatings):
        return "the seat labels in 'seatings' were changed after play (their check differs)"
    return None


def _first_changed_move(data: Mapping[str, Any]) -> int | None:
    """The index of the first history entry whose recorded check differs (None: all agree)."""
    recorded = data.get("move_checks")
    if recorded is None:  # a record from before move checks were kept
        return None
    history = data["history"]
    if not isinstance(history, list):  # malformed: the re-play says so
        return None
    worked = move_checks(data)
    for index, check in enumerate(worked):
        if index >= len(recorded) or recorded[index] != check:
            return index
    return len(history) if len(recorded) != len(history) else None


def _describe_entry(entry: Any) -> str:
    """A history entry in words for a message (``seat 1: bid 3``), best effort."""
    try:
        if "action" in entry:
            return f"seat {entry.get('seat')}: {Action.from_json(entry['action']).name}"
        if "chance" in entry:
            return f"chance: {Action.from_json(entry['chance']).name}"
        return "a joint move"
    except (UserError, ValueError, TypeError, KeyError, AttributeError):
        return "an unreadable entry"


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
    where = str(path)
    changed = _first_changed_move(data)
    if changed is not None:
        # re-play up to and with the changed move: a fault found there (a malformed or illegal
        # move, a chance outcome the seed does not give) says more than "changed"
        head = {**data, "history": data["history"][: changed + 1]}
        try:
            state = _rebuild(head, where, check_chance=True)
        except ChanceMismatch as exc:
            return False, str(exc)
        _check_seat_kinds(data, state, where)
        if changed >= len(data["history"]):
            return False, f"{where}: moves were removed after move {changed} (the checks list more)"
        return False, (
            f"{where}: move {changed + 1} ({_describe_entry(data['history'][changed])[:80]}) "
            f"is not the move played there: the record was changed at this move"
        )
    try:
        state = _rebuild(data, where, check_chance=True)
    except ChanceMismatch as exc:
        return False, str(exc)
    _check_seat_kinds(data, state, where)
    seat_problem = _seat_difference(data)
    if seat_problem is not None:
        return False, f"{where}: {seat_problem}"
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
