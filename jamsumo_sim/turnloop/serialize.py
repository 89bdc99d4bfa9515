"""Restore states from ``to_json`` data, and read/write match files safely."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from jamsumo_sim import fileio
from jamsumo_sim.errors import IllegalAction, UserError
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.registry import get_game
from jamsumo_sim.turnloop.state import FORMAT_VERSION, State


def replay_history(state: State, history: list[Any], where: str = "history") -> State:
    """Apply every recorded entry to ``state`` (chance outcomes included); return it."""
    for index, entry in enumerate(history):
        try:
            if not isinstance(entry, Mapping):
                raise UserError("entry is not an object")
            if "chance" in entry:
                state.apply_action(Action.from_json(entry["chance"]))
            elif "joint" in entry:
                joint = entry["joint"]
                if not isinstance(joint, Mapping):
                    raise UserError("'joint' must be an object")
                state.apply_actions({int(s): Action.from_json(a) for s, a in joint.items()})
            elif "action" in entry:
                seat = entry.get("seat")
                if seat != state.current_player():
                    raise UserError(
                        f"recorded seat {seat} but seat {state.current_player()} is to move"
                    )
                state.apply_action(Action.from_json(entry["action"]))
            else:
                raise UserError("entry has none of 'action', 'chance', 'joint'")
        except (UserError, IllegalAction, ValueError, TypeError, KeyError) as exc:
            msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise UserError(f"{where}: move {index + 1} cannot be replayed: {msg}") from None
    return state


def state_from_json(data: Any, where: str = "saved game") -> State:
    """Rebuild a state from ``State.to_json()`` output: same position, turn, phase and round."""
    if not isinstance(data, Mapping):
        raise UserError(f"{where}: expected a JSON object")
    for key in ("game", "params", "history"):
        if key not in data:
            raise UserError(f"{where}: missing field {key!r}")
    fmt = data.get("format", FORMAT_VERSION)
    if fmt != FORMAT_VERSION:
        raise UserError(
            f"{where}: unsupported format version {fmt!r} (this program reads {FORMAT_VERSION})"
        )
    game = get_game(str(data["game"]))
    version = data.get("version", game.version)
    if version != game.version and version not in game.reads_versions:
        raise UserError(
            f"{where}: {game.title} rules version {data.get('version')!r} is not supported "
            f"(this program has version {game.version})"
        )
    if not isinstance(data["history"], list):
        raise UserError(f"{where}: 'history' must be a list")
    params = game.validate_params(data["params"])
    seed = data.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise UserError(f"{where}: 'seed' must be a non-negative integer, not {seed!r}")
    state = game.new_initial_state(params, seed=seed)
    return replay_history(state, data["history"], where)


def write_json_atomic(path: str | os.PathLike[str], data: Any, what: str = "file") -> None:
    """Write JSON so that the file is either the old one or the complete new one, never half."""
    fileio.write_json(path, data, what)


def read_json_file(path: str | os.PathLike[str], what: str = "file") -> Any:
    """Read a JSON file; any problem becomes a one-line UserError naming the file and place."""
    return fileio.read_json(path, what)
