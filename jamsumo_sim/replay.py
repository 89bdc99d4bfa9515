"""Versioned JSON replays of Jam, Sumo and JamSumo matches: save, load, verify, iterate shots.

A replay holds the schema version, the package and pymunk versions, the board and physics
parameters in full, the seed, the starting state, every history entry (flicks with their exact
parameters, every chance outcome), a checksum of the world's rest state after every shot, the
result, and a sha256 of the whole content (so tampering and truncation are caught before any
simulation). Files are written atomically and never pickled.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pymunk

from jamsumo_sim import __version__
from jamsumo_sim.board import board_to_dict, load_board
from jamsumo_sim.errors import IllegalAction, UserError
from jamsumo_sim.params import PhysicsParams
from jamsumo_sim.turnloop import Action, get_game, read_json_file, write_json_atomic

REPLAY_KIND = "jamsumo-replay"
SCHEMA_VERSION = 1
GAMES = ("jam", "sumo", "jamsumo")
_REQUIRED = {
    "kind": str,
    "schema": int,
    "package_version": str,
    "pymunk_version": str,
    "game": str,
    "rules_version": int,
    "params": dict,
    "seed": int,
    "seats": list,
    "start": dict,
    "history": list,
    "shots": list,
    "finished": bool,
    "digest": str,
    "content_sha256": str,
}


def content_hash(data: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of everything but the hash itself."""
    body = {k: v for k, v in data.items() if k != "content_sha256"}
    blob = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def frozen_params(state: Any) -> dict[str, Any]:
    """The state's params with the board and physics written out in full (no file lookups)."""
    params = dict(state.params)
    params["board"] = board_to_dict(state.board)
    params["physics"] = state.physics.to_dict()
    return json.loads(json.dumps(params))


def _result(state: Any) -> dict[str, Any]:
    return {
        "rounds": json.loads(json.dumps(state.results)),
        "totals": state.totals(),
        "returns": state.returns(),
        "winner": state.winners(),
        "turns": state.turns_played(),
    }


def _shot_table(state: Any) -> list[dict[str, Any]]:
    """One row per flick: its history index, round, seat, die and the rest-state checksum."""
    rows = []
    k = 0
    for index, entry in enumerate(state.history):
        if "action" not in entry or entry["action"]["name"] == "pass":
            continue
        args = entry["action"].get("args", {})
        rows.append(
            {
                "shot": k + 1,
                "move": index,
                "seat": entry["seat"],
                "die": args.get("die"),
                "checksum": state.shot_checksums[k],
            }
        )
        k += 1
    return rows


def make_replay(state: Any, seats: list[str]) -> dict[str, Any]:
    """The replay document of ``state`` (finished or not: a saved match resumes from it)."""
    params = frozen_params(state)
    start = state.game.new_initial_state(state.game.validate_params(params), seed=state.seed)
    finished = state.is_terminal()
    data: dict[str, Any] = {
        "kind": REPLAY_KIND,
        "schema": SCHEMA_VERSION,
        "package_version": __version__,
        "pymunk_version": pymunk.version,
        "game": state.game.name,
        "rules_version": state.game.version,
        "params": params,
        "seed": state.seed,
        "seats": list(seats),
        "start": {
            "round_modes": list(start.round_modes),
            "dice": start.dice_table(None),
            "world": start.world.checksum(),
        },
        "history": json.loads(json.dumps(state.history)),
        "shots": _shot_table(state),
        "finished": finished,
        "result": _result(state) if finished else None,
        "digest": state.digest(),
    }
    data["content_sha256"] = content_hash(data)
    return data


def save_replay(path: str | os.PathLike[str], state: Any, seats: list[str]) -> None:
    """Write ``state``'s replay atomically (the old file or the whole new one, never half)."""
    write_json_atomic(path, make_replay(state, seats), "replay")


@dataclass
class Replay:
    """A loaded, validated replay file (nothing simulated yet)."""

    path: str
    data: dict[str, Any]

    @property
    def game(self) -> Any:
        return get_game(self.data["game"])

    @property
    def seats(self) -> list[str]:
        return list(self.data["seats"])

    @property
    def seed(self) -> int:
        return int(self.data["seed"])

    @property
    def history(self) -> list[dict[str, Any]]:
        return self.data["history"]

    @property
    def shots(self) -> list[dict[str, Any]]:
        return self.data["shots"]

    def initial_state(self) -> Any:
        """The match before its first move, built from the recorded board, params and seed."""
        game = self.game
        try:
            params = game.validate_params(self.data["params"])
        except UserError as exc:
            raise UserError(f"{self.path}: {exc}") from None
        return game.new_initial_state(params, seed=self.seed)

    def iter_moves(self) -> Iterator[tuple[int, dict[str, Any], Any]]:
        """Yield ``(index, entry, state before it)`` for each history entry, then apply it.

        The yielded state is live: look (or ``state.preview(action)``), do not change it.
        """
        state = self.initial_state()
        for index, entry in enumerate(self.history):
            yield index, entry, state
            _apply_entry(state, entry, self.path, index)

    def iter_shots(self) -> Iterator[ReplayShot]:
        """Yield every flick with a copy of the state before it (chance and passes applied silently).

        The copy is the viewer's to keep or to ``preview`` on; the replay goes on regardless.
        """
        rows = {row["move"]: row for row in self.shots}
        for index, entry, state in self.iter_moves():
            if index in rows:
                row = rows[index]
                yield ReplayShot(
                    number=int(row["shot"]),
                    move=index,
                    round=state.round,
                    seat=int(entry["seat"]),
                    action=Action.from_json(entry["action"]),
                    checksum=str(row["checksum"]),
                    state=state.clone(),
                )

    def final_state(self) -> Any:
        state = self.initial_state()
        for index, entry in enumerate(self.history):
            _apply_entry(state, entry, self.path, index)
        return state


@dataclass
class ReplayShot:
    """One recorded flick: (a copy of) the state before it, and the action."""

    number: int
    move: int
    round: int
    seat: int
    action: Action
    checksum: str
    state: Any


def _apply_entry(state: Any, entry: Mapping[str, Any], path: str, index: int) -> None:
    try:
        if "chance" in entry:
            state.apply_action(Action.from_json(entry["chance"]))
        elif "action" in entry:
            if entry.get("seat") != state.current_player():
                raise UserError(
                    f"recorded seat {entry.get('seat')} but seat {state.current_player()} is to move"
                )
            state.apply_action(Action.from_json(entry["action"]))
        else:
            raise UserError("entry has neither 'action' nor 'chance'")
    except (UserError, ValueError, TypeError, KeyError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"{path}: move {index + 1} cannot be replayed: {msg}") from None


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read and validate a replay; a one-line UserError for anything malformed or tampered with."""
    where = str(path)
    data = read_json_file(path, "replay")
    if not isinstance(data, dict):
        raise UserError(f"{where}: not a JamSumo replay (expected a JSON object)")
    if data.get("kind") != REPLAY_KIND:
        raise UserError(f"{where}: not a JamSumo replay (kind is {data.get('kind')!r})")
    schema = data.get("schema")
    if schema != SCHEMA_VERSION:
        raise UserError(
            f"{where}: replay schema version {schema!r} is not supported "
            f"(this program reads version {SCHEMA_VERSION})"
        )
    for key, typ in _REQUIRED.items():
        if key not in data:
            raise UserError(f"{where}: missing field {key!r}")
        value = data[key]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            raise UserError(f"{where}: field {key!r} must be of type {typ.__name__}")
    if content_hash(data) != data["content_sha256"]:
        raise UserError(
            f"{where}: the content checksum does not match: the file was changed or damaged"
        )
    if data["game"] not in GAMES:
        raise UserError(f"{where}: unknown game {data['game']!r}")
    game = get_game(data["game"])
    if data["rules_version"] != game.version:
        raise UserError(
            f"{where}: {game.title} rules version {data['rules_version']} is not supported "
            f"(this program has version {game.version})"
        )
    if data["seed"] < 0:
        raise UserError(f"{where}: the seed must be non-negative")
    if len(data["seats"]) != data["params"].get("players") or not all(
        isinstance(s, str) for s in data["seats"]
    ):
        raise UserError(f"{where}: 'seats' must name one agent per player")
    for i, row in enumerate(data["shots"]):
        if not isinstance(row, dict) or not {"shot", "move", "seat", "checksum"} <= set(row):
            raise UserError(f"{where}: shots[{i}] is malformed")
    for i, entry in enumerate(data["history"]):
        if not isinstance(entry, dict) or not ({"action", "chance"} & set(entry)):
            raise UserError(f"{where}: history[{i}] is malformed")
    try:  # the recorded board and params must still load
        board = load_board(data["params"].get("board", "standard"))
        PhysicsParams.from_board(board).with_overrides(data["params"].get("physics") or {})
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None
    return Replay(where, data)


@dataclass(frozen=True)
class VerifyReport:
    """The outcome of :func:`verify_replay`: ``ok`` or the first shot that diverged."""

    ok: bool
    shots: int
    message: str
    first_divergence: int | None = None


def verify_replay(path: str | os.PathLike[str], progress: Any = None) -> VerifyReport:
    """Re-simulate every shot of a replay and compare each rest state with the recorded checksum.

    Raises UserError (exit 2) for an unreadable, malformed, tampered or unsupported file.
    ``progress(k, total)`` is called after each shot if given.
    """
    replay = load_replay(path)
    rows = {row["move"]: row for row in replay.shots}
    total = len(rows)
    state = replay.initial_state()
    if state.world.checksum() != replay.data["start"].get("world"):
        return VerifyReport(
            False, 0, f"{path}: the starting position differs from the recorded one", 0
        )
    done = 0
    for index, entry in enumerate(replay.history):
        row = rows.get(index)
        if row is None and "action" in entry and entry["action"].get("name") != "pass":
            raise UserError(f"{path}: move {index + 1} is a flick with no recorded checksum")
        try:
            _apply_entry(state, entry, str(path), index)
        except (UserError, IllegalAction) as exc:
            if row is None:
                raise
            return VerifyReport(
                False,
                done,
                f"{path}: shot {row['shot']} (move {index + 1}) diverges: {exc}",
                row["shot"],
            )
        if row is None:
            continue
        got = state.shot_checksums[-1]
        if got != row["checksum"]:
            return VerifyReport(
                False,
                done,
                f"{path}: shot {row['shot']} (move {index + 1}, seat {row['seat']}, die {row.get('die')}) "
                f"diverges: rest state {got[:12]}… recorded {str(row['checksum'])[:12]}…"
                f"{_versions_note(replay)}",
                int(row["shot"]),
            )
        done += 1
        if progress is not None:
            progress(done, total)
    if done != total:
        raise UserError(f"{path}: {total} shots listed but {done} flicks in the history")
    if state.digest() != replay.data["digest"]:
        return VerifyReport(False, done, f"{path}: the final state differs from the recorded one")
    if replay.data["finished"] != state.is_terminal():
        return VerifyReport(
            False, done, f"{path}: recorded finished={replay.data['finished']}, re-play disagrees"
        )
    if state.is_terminal() and replay.data.get("result") != _result(state):
        return VerifyReport(
            False, done, f"{path}: the recorded result differs from the re-played one"
        )
    return VerifyReport(
        True,
        done,
        f"{path}: OK — {done} shots re-simulated, all rest states match{_versions_note(replay)}",
    )


def _versions_note(replay: Replay) -> str:
    """Which recorded program versions differ from this one (a reason a replay may diverge)."""
    notes = [
        f"{name} {recorded}, now {now}"
        for name, recorded, now in (
            ("jamsumo", replay.data["package_version"], __version__),
            ("pymunk", replay.data["pymunk_version"], pymunk.version),
        )
        if recorded != now
    ]
    return f" (recorded with {'; '.join(notes)})" if notes else ""
