"""Shared set-up for the JamSumo rules tests: short matches and scripted positions."""

from __future__ import annotations

import math
from typing import Any

from jamsumo_sim.rules.flick_actions import flick_action
from jamsumo_sim.rules.game import JAM, JAMSUMO, SUMO
from jamsumo_sim.rules.match import MatchState
from jamsumo_sim.rules.scoring import BOARD, OUT
from jamsumo_sim.turnloop import Action

GAMES = {"jam": JAM, "sumo": SUMO, "jamsumo": JAMSUMO}


def new_state(mode: str, players: int = 2, seed: int = 0, **params: Any) -> MatchState:
    # the scripted Sumo positions of these tests start from the fixed grid opening
    params.setdefault("sumo_setup", "grid")
    game = GAMES[mode]
    full = game.validate_params({"players": players, **params})
    return game.new_initial_state(full, seed=seed)


def roll(state: MatchState, seat: int, value: int) -> None:
    """Apply one scripted set-up roll (a chance outcome)."""
    assert state.rolling and state.rolling[0] == seat, (state.rolling, seat)
    colour = state.seat_name(seat).lower()
    state.apply_action(Action.make(f"{colour} rolls {value}", seat=seat, value=value))


def settle_marker(state: MatchState, first: int) -> None:
    """Scripted rolls that give ``first`` the marker (lowest in Jam, highest in Sumo)."""
    jam = state.mode == "jam"
    for seat in list(state.rolling):
        win = 1 if jam else 6
        lose = 5 if jam else 2
        roll(state, seat, win if seat == first else lose)
    assert state.current_player() == first


def speed_action(
    die: str, direction: float, speed: float, mass: float = 0.0045, **kw: Any
) -> Action:
    return flick_action(die, direction, speed * mass, **kw)


def at(state: MatchState, die: str, x: float, y: float, face: int = 3, angle: float = 0.0) -> None:
    """Put ``die`` on the board at (x, y) (scenario set-up)."""
    world = state.world
    if die in world.die_ids:
        world.remove_die(die)
    world.add_die(die, x, y, angle, face=face)
    state.where[die] = BOARD
    state._menu = {}


def take_out(state: MatchState, die: str, where: str = OUT) -> None:
    """Remove ``die`` from the board (scenario set-up)."""
    if die in state.world.die_ids:
        state.world.remove_die(die)
    state.where[die] = where
    state._menu = {}


def toward(state: MatchState, die: str, x: float, y: float) -> float:
    st = state.world.state(die)
    return math.atan2(y - st.y, x - st.x)
