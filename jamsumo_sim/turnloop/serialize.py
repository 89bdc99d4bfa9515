"""Restore states from ``to_json`` data, and read/write match files safely."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import check_seed
from jamsumo_sim.turnloop.actions import CHANCE, SIMULTANEOUS, TERMINAL, Action
from jamsumo_sim.turnloop.driver import seeded_outcome
from jamsumo_sim.turnloop.registry import get_game
from jamsumo_sim.turnloop.state import FORMAT_VERSION, State


class ChanceMismatch(UserError):
    """A well-formed history whose chance outcome is not what the match seed gives: a different
    game (e.g. an edited shuffle), reported by ``replay --verify`` as a divergence (exit 1)."""

    exit_code = 1


def describe_mover(player: int) -> str:
    """Who is to move, in words (``current_player()`` is a seat or a negative sentinel)."""
    if player == CHANCE:
        return "a chance outcome is due"
    if player == SIMULTANEOUS:
        return "a joint move of several seats is due"
    if player == TERMINAL:
        return "the game is over"
    return f"seat {player} is to move"


def _outcome_difference(recorded: Action, expected: Action) -> str:
    """How a recorded chance outcome differs from the seeded one, briefly (first difference)."""
    if recorded.name != expected.name:
        return f"{recorded.name!r} recorded, {expected.name!r} from the seed"
    mine, theirs = dict(recorded.args), dict(expected.args)
    for key in sorted(set(mine) | set(theirs)):
        a, b = mine.get(key), theirs.get(key)
        if a == b:
            continue
        if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
            i = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
            return f"{key}[{i}] is {a[i]!r} in the record, {b[i]!r} from the seed"
        return f"{key} is {str(a)[:40]} in the record, {str(b)[:40]} from the seed"
    return "they differ"  # pragma: no cover - equal names and args are equal actions


def _apply_entry(state: State, entry: Any, check_chance: bool) -> None:
    if not isinstance(entry, Mapping):
        raise UserError("entry is not an object")
    player = state.current_player()
    if "chance" in entry:
        if player != CHANCE:
            raise UserError(f"a chance outcome is recorded but {describe_mover(player)}")
        recorded = Action.from_json(entry["chance"])
        if check_chance and state.chance_outcomes().is_possible(recorded):  # else: malformed
            expected = seeded_outcome(state)
            if recorded != expected:
                raise ChanceMismatch(
                    f"the recorded chance outcome is not what seed {state.seed} gives "
                    f"({_outcome_difference(recorded, expected)})"
                )
        state.apply_action(recorded)
    elif "joint" in entry:
        joint = entry["joint"]
        if not isinstance(joint, Mapping):
            raise UserError("'joint' must be an object")
        if player != SIMULTANEOUS:
            raise UserError(f"a joint move is recorded but {describe_mover(player)}")
        moves = {}
        for seat, action in joint.items():
            if not str(seat).isdigit() or len(str(seat)) > 3:
                raise UserError(f"'joint' names seat {str(seat)[:20]!r}, not a seat number")
            moves[int(seat)] = Action.from_json(action)
        state.apply_actions(moves)
    elif "action" in entry:
        seat = entry.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
            raise UserError(f"'seat' must be a seat number, not {str(seat)[:20]}")
        if seat != player:
            raise UserError(f"recorded seat {seat} but {describe_mover(player)}")
        state.apply_action(Action.from_json(entry["action"]))
    else:
        raise UserError("entry has none of 'action', 'chance', 'joint'")


def replay_history(
    state: State, history: list[Any], where: str = "history", check_chance: bool = False
) -> State:
    """Apply every recorded entry to ``state`` (chance outcomes included); return it.

    With ``check_chance`` every recorded chance outcome must also be the one the match seed gives
    (:func:`~jamsumo_sim.turnloop.driver.seeded_outcome`); the first that is not raises
    :class:`ChanceMismatch`. Any other problem is a one-line UserError naming ``where`` and the move.
    """
    for index, entry in enumerate(history):
        try:
            _apply_entry(state, entry, check_chance)
        except ChanceMismatch as exc:
            raise ChanceMismatch(f"{where}: move {index + 1}: {exc}") from None
        except (UserError, ValueError, TypeError, KeyError) as exc:  # IllegalAction is a UserError
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UserError(f"{where}: move {index + 1} cannot be replayed: {msg}") from None
    return state


def _whole_number(data: Mapping[str, Any], key: str, default: Any, where: str) -> Any:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(f"{where}: {key!r} must be a whole number, not {str(value)[:30]}")
    return value


def state_from_json(data: Any, where: str = "saved game", check_chance: bool = False) -> State:
    """Rebuild a state from ``State.to_json()`` output: same position, turn, phase and round.

    ``check_chance``: also require every chance outcome to be the seed's (see :func:`replay_history`).
    """
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: expected a JSON object")
    for key in ("game", "params", "history"):
        if key not in data:
            raise UserError(f"{where}: missing field {key!r}")
    fmt = _whole_number(data, "format", FORMAT_VERSION, where)
    if fmt != FORMAT_VERSION:
        raise UserError(
            f"{where}: unsupported format version {fmt!r} (this program reads {FORMAT_VERSION})"
        )
    if not isinstance(data["game"], str) or len(data["game"]) > 40:
        raise UserError(f"{where}: 'game' must be a game's name, not {str(data['game'])[:30]}")
    try:
        game = get_game(data["game"])
    except UserError as exc:
        raise UserError(f"{where}: {exc}") from None
    version = _whole_number(data, "version", game.version, where)
    if version != game.version and version not in game.reads_versions:
        raise UserError(
            f"{where}: {game.title} rules version {version!r} is not supported "
            f"(this program has version {game.version})"
        )
    if not isinstance(data["history"], list):
        raise UserError(f"{where}: 'history' must be a list")
    if not isinstance(data["params"], Mapping):
        raise UserError(f"{where}: 'params' must be an object, not {str(data['params'])[:30]}")
    try:
        params = game.validate_params(data["params"])
    except UserError as exc:
        raise UserError(f"{where}: 'params': {exc}") from None
    seed = check_seed(_whole_number(data, "seed", 0, where), f"{where}: 'seed'")
    state = game.new_initial_state(params, seed=seed)
    return replay_history(state, data["history"], where, check_chance)


def write_json_atomic(path: str | os.PathLike[str], data: Any, what: str = "file") -> None:
    """Write JSON so that the file is either the old one or the complete new one, never half."""
    fileio.write_json(path, data, what)


def read_json_file(path: str | os.PathLike[str], what: str = "file") -> Any:
    """Read a JSON file; any problem becomes a one-line UserError naming the file and place."""
    return fileio.read_json(path, what)
