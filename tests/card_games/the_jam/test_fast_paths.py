"""The Jam's shortcuts past the generic turn-loop protocol give what the generic code gives."""

from __future__ import annotations

import gc
import json

import numpy as np
import pytest

from card_games.the_jam import GAME
from card_games.the_jam.basket import BasketIndex
from card_games.the_jam.state import JamState
from jamsumo_sim.turnloop import CHANCE, Action, RandomAgent, play
from jamsumo_sim.turnloop.serialize import state_from_json
from jamsumo_sim.turnloop.state import State
from tests.card_games.the_jam.helpers import TradingAgent


def _random_game(players: int, variant: str, seed: int) -> State:
    # seat 0 opens every trade it may, so trade moves are among those checked
    agents = [(TradingAgent if s == 0 else RandomAgent)(s, GAME) for s in range(players)]
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


def _fresh_index(st: JamState) -> BasketIndex:
    tb = st.tb
    return BasketIndex(st.basket, st.accessible_basket(), tb.label, tb.kind, tb.bottom)


def _index_fields(index: BasketIndex) -> tuple[object, ...]:
    return (index.cards, index.distinct, index.by_bottom, index.recipes)


def _same_groups(a: BasketIndex, b: BasketIndex) -> bool:
    """Equal up to emptied ingredient groups (an update leaves an empty list, a rebuild none)."""
    nonempty = {k: v for k, v in a.by_bottom.items() if v}
    return (a.cards, a.distinct, nonempty, a.recipes) == (
        b.cards,
        b.distinct,
        b.by_bottom,
        b.recipes,
    )


@pytest.mark.parametrize("variant", GAME.variants)
def test_basket_index_follows_the_basket_through_a_game_clones_and_saves(variant: str) -> None:
    """The index kept card by card is what a rebuild from the basket gives, after every move; a
    clone and a state restored from its saved history get one that describes their basket."""
    for seed in range(4):
        st = GAME.new_initial_state(
            GAME.validate_params({"players": 3, "variant": variant}), seed=seed
        )
        rng = np.random.default_rng(seed)
        while not st.is_terminal():
            if st.current_player() == CHANCE:
                st.apply_action(st.chance_outcomes().sample(rng))
                continue
            legal = st.legal_actions()
            st.apply_action(legal[len(st.history) % len(legal)], known_legal=legal)
            if st.step == "play" and st.trade is None:
                assert _same_groups(st.basket_index(), _fresh_index(st))
                twin = st.clone()
                if st._basket_index is not None:  # kept (travel lists it afresh each time)
                    assert twin._basket_index is not st._basket_index  # never shared
                assert twin.legal_actions() == st.legal_actions()
                restored = state_from_json(json.loads(json.dumps(st.to_json())))
                assert restored.legal_actions() == st.legal_actions()
                assert _same_groups(restored.basket_index(), _fresh_index(st))


def test_basket_index_of_a_clone_changes_alone() -> None:
    """A card taken from a clone's basket leaves the original's index (and moves) as they were."""
    st = GAME.new_initial_state(GAME.validate_params({"players": 2, "variant": "standard"}), 3)
    rng = np.random.default_rng(3)
    while st.current_player() == CHANCE or st.step != "play" or st.trade is not None:
        if st.current_player() == CHANCE:
            st.apply_action(st.chance_outcomes().sample(rng))
        else:
            legal = st.legal_actions()
            st.apply_action(legal[0], known_legal=legal)
    before = list(st.legal_actions())
    index = st.basket_index()
    fields = _index_fields(index)
    twin = st.clone()
    twin.take_from_basket(twin.basket[0])
    twin.to_basket(twin.hands[twin.active][0])
    assert _same_groups(twin.basket_index(), _fresh_index(twin))
    assert st.basket_index() is index and _index_fields(index) == fields
    st._legal_cache = None
    assert st.legal_actions() == before


def test_basket_index_notices_a_basket_changed_behind_its_back() -> None:
    """A basket set or changed directly (as the test positions do) gets a rebuilt index."""
    st = GAME.new_initial_state(GAME.validate_params({"players": 2, "variant": "standard"}), 0)
    ids = [c for c, k in st.tb.kind.items() if k != "special"]
    st.basket = ids[:6]
    assert _index_fields(st.basket_index()) == _index_fields(_fresh_index(st))
    st.basket.append(ids[6])  # in place, not through to_basket
    assert _index_fields(st.basket_index()) == _index_fields(_fresh_index(st))
    st.basket = ids[3:9]  # a new list with the same length
    st.to_basket(ids[9])  # an update to an index that no longer describes the basket
    assert _index_fields(st.basket_index()) == _index_fields(_fresh_index(st))
