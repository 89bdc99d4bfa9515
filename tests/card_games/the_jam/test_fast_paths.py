"""The Jam's shortcuts past the generic turn-loop protocol give what the generic code gives."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from card_games.the_jam import GAME
from jamsumo_sim.turnloop import CHANCE, Action, RandomAgent, play
from jamsumo_sim.turnloop.state import State


def _random_game(players: int, variant: str, seed: int) -> State:
    agents = [RandomAgent(s, GAME) for s in range(players)]
    return play(GAME, agents, seed=seed, params={"players": players, "variant": variant}).state


@pytest.mark.parametrize("variant", GAME.variants)
def test_history_entries_are_the_generic_json_and_never_shared(variant: str) -> None:
    for seed in range(3):
        history = _random_game(3, variant, seed).history
        for entry in history:
            key = "chance" if "chance" in entry else "action"
            assert entry[key] == Action.from_json(entry[key]).to_json()
        moves = [e["action"] for e in history if "action" in e]
        args = [m["args"] for m in moves if "args" in m]
        assert len({id(m) for m in moves}) == len(moves)
        assert len({id(a) for a in args}) == len(args)


def test_legal_actions_asked_for_another_seat_leave_the_seat_to_move_alone() -> None:
    st = GAME.new_initial_state(GAME.validate_params({"players": 3, "variant": "standard"}), 4)
    rng = np.random.default_rng(0)
    for _ in range(60):
        player = st.current_player()
        if player == CHANCE:
            st.apply_action(st.chance_outcomes().sample(rng))
            continue
        legal = st.legal_actions()
        # a move checked for another seat (a typed move) lists moves as if that seat were to move
        st.is_legal((player + 1) % 3, Action.make("no trade", trade="none"))
        st.apply_action(legal[len(st.history) % len(legal)], known_legal=legal)
        assert st.history[-1]["seat"] == player


def test_play_gives_the_garbage_collector_its_thresholds_back() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        _random_game(2, "kids", 0)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(50_000, 5, 5)  # already higher: left alone
        _random_game(2, "kids", 1)
        assert gc.get_threshold() == (50_000, 5, 5)
    finally:
        gc.set_threshold(*before)
