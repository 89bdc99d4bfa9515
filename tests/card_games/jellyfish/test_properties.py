"""Properties over random playouts: no card lost or duplicated, zones consistent, secrets kept."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from card_games.jellyfish import GAME
from card_games.jellyfish.bots import SmartAgent
from card_games.jellyfish.state import JellyfishState
from jamsumo_sim.turnloop import CHANCE, RandomAgent, play

DECK_CARDS = sorted(GAME.deck.cards)


def check_invariants(state: JellyfishState, views: bool = True) -> None:
    assert sorted(state.all_cards()) == DECK_CARDS, "a card was lost or duplicated"
    kind_of, character_of = GAME.deck.kind_of, GAME.deck.character_of
    for seat in range(state.num_players):
        for kind, cards in state.groups[seat].items():
            assert 1 <= len(cards) < state.set_size
            assert all(kind_of[c] == kind for c in cards)
        if not state.over:
            assert set(state.covers[seat]) <= set(state.groups[seat]), "a Cover card on nothing"
        chars = [character_of[k] for k in state.completed[seat]]
        assert len(chars) == len(set(chars)), "two sets of one character"
        for kind, cards in state.completed[seat].items():
            assert len(cards) == state.set_size and all(kind_of[c] == kind for c in cards)
    if not views:
        return
    # nobody — the owner included — sees an unknown Cover card
    secret = [c["card"] for covers in state.covers for c in covers.values() if not c["public"]]
    for seat in [None, *range(state.num_players)]:
        text = json.dumps(state.observation(seat))
        assert not any(f'"{card}"' in text for card in secret)


def random_game(players: int, seed: int) -> JellyfishState:
    rng = np.random.default_rng(seed)
    state = GAME.new_initial_state({"players": players}, seed=seed)
    while not state.is_terminal():
        check_invariants(state, views=len(state.history) % 4 == 0)
        if state.current_player() == CHANCE:
            state.apply_action(state.chance_outcomes().sample(rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    check_invariants(state)
    return state


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_no_card_is_ever_lost_or_duplicated(players: int, seed: int) -> None:
    state = random_game(players, seed)
    assert state.winners()
    assert len(state.history) <= GAME.max_game_length(state.params)


def test_smart_games_keep_the_invariants_too() -> None:
    ends = Counter()
    for seed, players in enumerate([2, 3, 4, 5, 6, 2]):
        agents = [
            SmartAgent(s, GAME) if s % 2 == 0 else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players})
        check_invariants(result.state)
        ends[result.state.end_reason.split()[-1]] += 1
    assert sum(ends.values()) == 6


def test_the_invariant_check_can_fail() -> None:
    state = GAME.new_initial_state({"players": 3}, seed=1)
    state.pile.append(state.pile[0])
    try:
        check_invariants(state)
    except AssertionError as err:
        assert "lost or duplicated" in str(err)
    else:  # pragma: no cover - the check is broken
        raise AssertionError("a duplicated card went unnoticed")
