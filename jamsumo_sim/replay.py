"""Versioned JSON replays of Jam, Sumo and JamSumo matches: save, load, verify, iterate shots.

A replay holds the schema version, the package and pymunk versions, the board and physics
parameters in full, the seed, the starting state, every history entry (flicks with their exact
parameters, every chance outcome), a checksum of the world's rest state after every shot, the
result, and a sha256 of the whole content (so tampering and truncation are caught before any
simulation). Files are read and written through :mod:`jamsumo_sim.fileio` (bounded, atomic) and
never pickled. Loading checks the whole structure, so a malformed file is one line and exit 2,
never a "divergence".
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pymunk

from jamsumo_sim import __version__, fileio
from jamsumo_sim.errors import IllegalAction, UserError
from jamsumo_sim.limits import check_count, check_seed
from jamsumo_sim.physics.board import board_to_dict
from jamsumo_sim.turnloop import Action, get_game

REPLAY_KIND = "jamsumo-replay"
SCHEMA_VERSION = 1
GAMES = ("jam", "sumo", "jamsumo")

# The size of a match, for `jamsumo match` and every replay: far above a real match (two rounds
# of each mode, a few dozen turns a round, 20 s shots) and far below a run that never ends or a
# round list that fills memory. One place: match_cli reads these too.
MATCH_LIMITS: dict[str, tuple[int, int]] = {
    "rounds": (1, 20),  # rounds (JamSumo: of each mode); default: players (Jam, Sumo) or 2
    "max_turns": (1, 1000),  # per-round turn cap; default 400
    "max_rerolls": (
        0,
        100,
    ),  # tied marker roll-offs before the first tied seat takes it; default 10
}
MAX_SHOT_TIME = 120.0  # s of simulated time before a shot is called at rest; default 20
MAX_LABEL_CHARS = 100  # seat specs and version strings: short words, echoed in messages
MAX_NAME_CHARS = 1000  # an action's name (a flick's is under 100)

_HEX64 = re.compile(r"[0-9a-f]{64}")  # a sha256 (content, shot checksums)
_DIGEST = re.compile(r"[0-9a-f]{16,64}")  # State.digest(): a sha256 prefix
_FIELDS: dict[str, type | tuple[type, ...]] = {
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
    "result": (dict, type(None)),
    "digest": str,
    "content_sha256": str,
}
_TYPE_NAMES = {str: "a string", int: "a whole number", dict: "an object", list: "a list"}
_SHOT_KEYS = ("shot", "move", "seat", "die", "checksum")
_RESULT_KEYS = {"rounds", "totals", "returns", "winner", "turns"}


def check_match_params(params: Mapping[str, Any], where: str) -> None:
    """The match-size parameters within :data:`MATCH_LIMITS` and :data:`MAX_SHOT_TIME`."""
    for key, (low, high) in MATCH_LIMITS.items():
        value = params.get(key)
        if value is not None or key != "rounds":
            check_count(value, f"{where}{key}", low, high)
    shot = params.get("shot_time")
    if isinstance(shot, bool) or not isinstance(shot, int | float) or not 0 < shot <= MAX_SHOT_TIME:
        raise UserError(
            f"{where}shot_time must be a number of seconds in (0, {MAX_SHOT_TIME:g}], "
            f"not {str(shot)[:30]}"
        )


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


# Replays (and saved matches) written before the Sumo set-up action existed lack the parameter
# ``sumo_setup``: their Sumo rounds opened with the fixed 3×2 grid, which is what they re-play with.
LEGACY_SUMO_SETUP = "grid"


def with_legacy_defaults(params: Mapping[str, Any]) -> dict[str, Any]:
    """Recorded params with what a record from before a parameter existed implies (a copy)."""
    out = dict(params)
    out.setdefault("sumo_setup", LEGACY_SUMO_SETUP)
    return out


def _is_flick(entry: Mapping[str, Any]) -> bool:
    from jamsumo_sim.rules.setup import is_setup

    return (
        "action" in entry
        and entry["action"].get("name") != "pass"
        and not is_setup(entry["action"])
    )


def _shot_table(state: Any) -> list[dict[str, Any]]:
    """One row per executed flick: its history index, seat, die and the rest-state checksum
    (a flick still waiting for its execution outcome has no row yet)."""
    rows = []
    for index, entry in enumerate(state.history):
        if not _is_flick(entry):
            continue
        if len(rows) >= len(state.shot_checksums):
            break
        rows.append(
            {
                "shot": len(rows) + 1,
                "move": index,
                "seat": entry["seat"],
                "die": entry["action"].get("args", {}).get("die"),
                "checksum": state.shot_checksums[len(rows)],
            }
        )
    return rows


def start_summary(state: Any) -> dict[str, Any]:
    """The recorded start of ``state``'s match: round modes, every die, the world checksum."""
    params = frozen_params(state)
    start = state.game.new_initial_state(state.game.validate_params(params), seed=state.seed)
    return {
        "round_modes": list(start.round_modes),
        "dice": start.dice_table(None),
        "world": start.world.checksum(),
    }


class ReplayRecorder:
    """Replays of one match as it goes: the parts fixed for the match are built once, and
    :meth:`capture` takes what changes after a move cheaply (shallow copies: history entries are
    never changed once appended), so a caller can keep the last whole move of a live match.
    """

    def __init__(self, state: Any, seats: list[str]) -> None:
        self.head: dict[str, Any] = {
            "kind": REPLAY_KIND,
            "schema": SCHEMA_VERSION,
            "package_version": __version__,
            "pymunk_version": pymunk.version,
            "game": state.game.name,
            "rules_version": state.game.version,
            "params": frozen_params(state),
            "seed": state.seed,
            "seats": list(seats),
            "start": start_summary(state),
        }

    def capture(self, state: Any) -> dict[str, Any]:
        """The replay of ``state`` (between moves) without its content hash; see :meth:`document`."""
        finished = state.is_terminal()
        return {
            **self.head,
            "history": list(state.history),
            "shots": _shot_table(state),
            "finished": finished,
            "result": _result(state) if finished else None,
            "digest": state.digest(),
        }

    @staticmethod
    def document(captured: Mapping[str, Any]) -> dict[str, Any]:
        """A captured replay, sealed with its content hash: what a file holds."""
        data = dict(captured)
        data["content_sha256"] = content_hash(data)
        return data


def make_replay(state: Any, seats: list[str]) -> dict[str, Any]:
    """The replay document of ``state`` (finished or not: a saved match resumes from it)."""
    recorder = ReplayRecorder(state, seats)
    return json.loads(json.dumps(recorder.document(recorder.capture(state))))  # a deep copy


def save_replay(path: str | os.PathLike[str], state: Any, seats: list[str]) -> dict[str, Any]:
    """Write ``state``'s replay atomically (the old file or the whole new one); return it."""
    data = make_replay(state, seats)
    fileio.write_json(path, data, "replay")
    return data


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
            params = game.validate_params(with_legacy_defaults(self.data["params"]))
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
            self._apply(state, entry, index)

    def iter_shots(self) -> Iterator[ReplayShot]:
        """Yield every flick with a copy of the state before it (chance and passes applied silently).

        The copy is the viewer's to keep or to ``preview`` on; the replay goes on regardless.
        """
        rows = {row["move"]: row for row in self.shots}
        for index, entry, state in self.iter_moves():
            if index in rows:
                row = rows[index]
                action = Action.from_json(entry["action"])
                following = self.history[index + 1] if index + 1 < len(self.history) else {}
                execution = None
                if not state.noise.exact and "chance" in following:
                    execution = Action.from_json(following["chance"])
                yield ReplayShot(
                    number=int(row["shot"]),
                    move=index,
                    round=state.round,
                    seat=int(entry["seat"]),
                    action=action,
                    checksum=str(row["checksum"]),
                    state=state.clone(),
                    execution=execution,
                )

    def final_state(self) -> Any:
        state = self.initial_state()
        for index, entry in enumerate(self.history):
            self._apply(state, entry, index)
        return state

    def _apply(self, state: Any, entry: Mapping[str, Any], index: int) -> None:
        try:
            _apply_entry(state, entry)
        except UserError as exc:
            raise UserError(f"{self.path}: move {index + 1} cannot be replayed: {exc}") from None


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
    execution: Action | None = None  # the hand's recorded execution error (noise levels)

    @property
    def executed(self) -> Action:
        """The flick as it was executed (the recorded action with its execution error applied):
        ``state.preview(shot.executed)`` animates what happened."""
        if self.execution is None:
            return self.action
        from jamsumo_sim.rules.bots import _spec_action
        from jamsumo_sim.rules.flick_actions import read_flick

        return _spec_action(self.state.executed_spec(read_flick(self.action), self.execution))

    def preview(self) -> Any:
        """The world of :attr:`state` with the executed flick applied, ready to step."""
        return self.state.preview(self.action, self.execution)


def _apply_entry(state: Any, entry: Mapping[str, Any]) -> None:
    """Apply one (validated) history entry; a UserError (the reason only) if it cannot be."""
    try:
        if "chance" in entry:
            state.apply_action(Action.from_json(entry["chance"]))
            return
        if entry["seat"] != state.current_player():
            raise IllegalAction(
                f"recorded for seat {entry['seat']} but seat {state.current_player()} is to move"
            )
        state.apply_action(Action.from_json(entry["action"]))
    except UserError:
        raise
    except (ValueError, TypeError, KeyError) as exc:  # defensive: validation should catch these
        raise UserError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None


# --- loading and validation -----------------------------------------------------------------------


def load_replay(path: str | os.PathLike[str]) -> Replay:
    """Read and validate a replay; a one-line UserError for anything malformed or tampered with."""
    where = str(path)
    data = fileio.read_json(path, "replay")
    if not isinstance(data, dict):
        raise UserError(f"{where}: not a JamSumo replay (expected a JSON object)")
    if data.get("kind") != REPLAY_KIND:
        kind = data.get("kind")
        raise UserError(f"{where}: not a JamSumo replay (kind is {str(kind)[:40]!r})")
    schema = data.get("schema")
    if schema != SCHEMA_VERSION:
        raise UserError(
            f"{where}: replay schema version {str(schema)[:20]} is not supported "
            f"(this program reads version {SCHEMA_VERSION})"
        )
    _check_fields(data, where)
    if content_hash(data) != data["content_sha256"]:
        raise UserError(
            f"{where}: the content checksum does not match: the file was changed or damaged"
        )
    if data["game"] not in GAMES:
        raise UserError(f"{where}: unknown game {data['game'][:40]!r}")
    game = get_game(data["game"])
    if data["rules_version"] != game.version:
        raise UserError(
            f"{where}: {game.title} rules version {data['rules_version']} is not supported "
            f"(this program has version {game.version})"
        )
    check_seed(data["seed"], f"{where}: field 'seed'")
    params = _check_params(game, data["params"], where)
    seats = data["seats"]
    if len(seats) != params["players"] or not all(
        isinstance(s, str) and 0 < len(s) <= MAX_LABEL_CHARS for s in seats
    ):
        raise UserError(f"{where}: 'seats' must name one agent per player")
    start = data["start"]
    if not isinstance(start.get("world"), str) or not {"round_modes", "dice"} <= set(start):
        raise UserError(f"{where}: 'start' must hold round_modes, dice and the world checksum")
    limit = game.max_game_length(params)
    if len(data["history"]) > limit:
        raise UserError(
            f"{where}: {len(data['history'])} moves in the history; this match ends within {limit}"
        )
    flicks = _check_history(data["history"], params["players"], where)
    from jamsumo_sim import noise

    # with execution noise, a replay saved between a flick and its outcome lacks that shot's row
    pending = not data["finished"] and not noise.level(params["noise"]).exact
    _check_shots(data["shots"], data["history"], flicks, where, pending)
    result = data["result"]
    if result is not None and set(result) != _RESULT_KEYS:
        raise UserError(f"{where}: 'result' must hold exactly {', '.join(sorted(_RESULT_KEYS))}")
    return Replay(where, data)


def _check_fields(data: Mapping[str, Any], where: str) -> None:
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        raise UserError(f"{where}: unknown field {unknown[0][:40]!r} (not part of schema 1)")
    for key, typ in _FIELDS.items():
        if key not in data:
            raise UserError(f"{where}: missing field {key!r}")
        value = data[key]
        if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
            name = _TYPE_NAMES.get(typ, "an object or null") if typ is not bool else "true/false"
            raise UserError(f"{where}: field {key!r} must be {name}")
    for key in ("package_version", "pymunk_version"):
        if len(data[key]) > MAX_LABEL_CHARS:
            raise UserError(f"{where}: field {key!r} is too long")
    if not _HEX64.fullmatch(data["content_sha256"]):
        raise UserError(f"{where}: field 'content_sha256' must be a sha256 (64 hex digits)")
    if not _DIGEST.fullmatch(data["digest"]):
        raise UserError(f"{where}: field 'digest' must be 16 to 64 hex digits")


def _check_params(game: Any, params: dict[str, Any], where: str) -> dict[str, Any]:
    """The recorded params, validated as a new match's would be (board, physics ranges, sizes)."""
    if not isinstance(params.get("board"), dict):
        raise UserError(
            f"{where}: params.board must be the board written out in full "
            "(a replay never reads a board file)"
        )
    try:
        full = game.validate_params(with_legacy_defaults(params))  # board, physics, levels
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None
    check_match_params(full, f"{where}: params.")
    return full


def _check_action(value: Any, where: str) -> Action:
    """A recorded action: ``{"name": str, "args": {name: number|string|bool|null}}``."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        raise UserError(f"{where} must be an object with a 'name' string")
    if set(value) - {"name", "args"}:
        raise UserError(f"{where} has unknown keys (only 'name' and 'args')")
    args = value.get("args", {})
    if not isinstance(args, dict) or not all(
        isinstance(v, str | int | float | bool) or v is None for v in args.values()
    ):
        raise UserError(f"{where}: 'args' must map names to numbers or strings")
    if len(value["name"]) > MAX_NAME_CHARS:
        raise UserError(f"{where}: the action's name is too long")
    return Action.from_json(value)


def _check_history(history: list[Any], players: int, where: str) -> list[int]:
    """Every entry well formed (a chance outcome, or a seat's pass or readable flick).

    Returns the history indices of the flicks. Whether each move is *legal* is the re-play's
    question (a different physics may make a recorded flick illegal: a divergence, exit 1).
    """
    from jamsumo_sim.rules.flick_actions import PASS, read_flick
    from jamsumo_sim.rules.setup import is_setup, read_setup

    flicks = []
    for i, entry in enumerate(history):
        at = f"{where}: history[{i}]"
        if not isinstance(entry, dict):
            raise UserError(f"{at} is malformed (expected an object)")
        keys = set(entry)
        if keys == {"chance"}:
            _check_action(entry["chance"], f"{at}.chance")
            continue
        if keys != {"seat", "action"}:
            raise UserError(
                f"{at} is malformed: expected {{'chance'}} or {{'seat', 'action'}}, "
                f"got {sorted(keys)[:4]}"
            )
        seat = entry["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise UserError(f"{at}.seat must be a seat number 0 to {players - 1}")
        action = _check_action(entry["action"], f"{at}.action")
        if action == PASS:
            continue
        if is_setup(action):
            try:
                read_setup(action)
            except UserError as exc:
                raise UserError(f"{at}.action is not a valid set-up: {exc}") from None
            continue
        try:
            read_flick(action)
        except UserError as exc:
            raise UserError(f"{at}.action is not a valid flick: {exc}") from None
        flicks.append(i)
    return flicks


def _check_shots(
    rows: list[Any], history: list[Any], flicks: list[int], where: str, pending: bool = False
) -> None:
    """One row per flick, in order, agreeing with the history; each with a sha256 checksum.

    A replay saved while the last flick waited for its execution outcome has no row for it.
    """
    if pending and flicks and flicks[-1] == len(history) - 1 and len(rows) == len(flicks) - 1:
        flicks = flicks[:-1]
    if len(rows) != len(flicks):
        raise UserError(
            f"{where}: {len(rows)} shots listed but {len(flicks)} flicks in the history"
        )
    for k, (row, index) in enumerate(zip(rows, flicks, strict=True)):
        at = f"{where}: shots[{k}]"
        if not isinstance(row, dict) or set(row) != set(_SHOT_KEYS):
            raise UserError(f"{at} is malformed (expected {', '.join(_SHOT_KEYS)})")
        entry = history[index]
        expected = {
            "shot": k + 1,
            "move": index,
            "seat": entry["seat"],
            "die": entry["action"]["args"]["die"],
        }
        for key, value in expected.items():
            got = row[key]
            if got != value or type(got) is not type(value):
                raise UserError(
                    f"{at}.{key} must be {value!r} (from the history), not {str(got)[:30]}"
                )
        if not isinstance(row["checksum"], str) or not _HEX64.fullmatch(row["checksum"]):
            raise UserError(f"{at}.checksum must be a sha256 (64 hex digits)")


# --- verification ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyReport:
    """The outcome of :func:`verify_replay`: ``ok`` or the first shot that diverged."""

    ok: bool
    shots: int
    message: str
    first_divergence: int | None = None


def verify_replay(path: str | os.PathLike[str], progress: Any = None) -> VerifyReport:
    """Re-simulate every shot of a replay and compare each rest state with the recorded checksum,
    then the final state (digest, finished, result) with the recorded one.

    Raises UserError (exit 2) for an unreadable, malformed, tampered or unsupported file.
    ``progress(k, total)`` is called after each shot if given.
    """
    from jamsumo_sim.rules.setup import is_setup

    replay = load_replay(path)
    where = replay.path
    table = list(replay.shots)
    rows = {row["move"]: row for row in table}
    total = len(rows)
    state = replay.initial_state()
    if state.world.checksum() != replay.data["start"]["world"]:
        return VerifyReport(
            False, 0, f"{where}: the starting position differs from the recorded one", 0
        )
    done = 0
    for index, entry in enumerate(replay.history):
        row = rows.get(index)
        try:
            _apply_entry(state, entry)
        except UserError as exc:
            if "chance" in entry:  # a roll that cannot happen here: a bad file
                raise UserError(f"{where}: move {index + 1} cannot be replayed: {exc}") from None
            # a recorded move the re-play finds illegal: the physics (or the rules) differ
            kind = "a set-up" if is_setup(entry.get("action", {})) else "a pass"
            what = f"shot {row['shot']} (move {index + 1})" if row else f"move {index + 1} ({kind})"
            return VerifyReport(
                False,
                done,
                f"{where}: {what} diverges: {exc}{_versions_note(replay)}",
                row["shot"] if row else None,
            )
        # a shot is checked when it was executed: at its flick, or (with execution noise) at
        # the chance outcome that follows it
        if len(state.shot_checksums) <= done or done >= len(table):
            continue
        row = table[done]
        got = state.shot_checksums[-1]
        if got != row["checksum"]:
            return VerifyReport(
                False,
                done,
                f"{where}: shot {row['shot']} (move {index + 1}, seat {row['seat']}, "
                f"die {row['die']}) diverges: rest state {got[:12]}… recorded "
                f"{row['checksum'][:12]}…{_versions_note(replay)}",
                int(row["shot"]),
            )
        done += 1
        if progress is not None:
            progress(done, total)
    problem = _final_state_problem(replay, state)
    if problem:
        return VerifyReport(
            False, done, f"{where}: the final state differs from the recorded one: {problem}"
        )
    return VerifyReport(
        True,
        done,
        f"{where}: OK — {done} shots re-simulated, all rest states match{_versions_note(replay)}",
    )


def _final_state_problem(replay: Replay, state: Any) -> str | None:
    """What of the recorded end (digest, finished, result) the re-played state contradicts."""
    data = replay.data
    if state.digest() != data["digest"]:
        return f"digest {state.digest()[:12]}…, recorded {data['digest'][:12]}…"
    if data["finished"] != state.is_terminal():
        return f"recorded finished={str(data['finished']).lower()}, the re-play disagrees"
    recorded = data["result"]
    replayed = _result(state) if state.is_terminal() else None
    if recorded != replayed:
        return "the recorded result is not the re-played one"
    return None


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
