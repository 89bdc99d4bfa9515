"""Property tests over random playouts: no card or order is ever lost or duplicated."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from card_games.jumble_jam import GAME
from card_games.jumble_jam.state import SHUFFLE_ORDERS, SHUFFLE_PASTRIES
from jamsumo_sim.turnloop import RandomAgent, step
from tests.card_games.jumble_jam.helpers import all_cards, all_orders, new_state


def check_invariants(state) -> None:
    cat = state.cat
    n = state.num_players
    if SHUFFLE_PASTRIES not in state.pending and not state.setup_queue:
        expected = Counter([*cat.pastry_ids, *cat.kitty_ids[:n]])
        assert all_cards(state) == expected
    if SHUFFLE_ORDERS not in state.pending and not state.setup_queue:
        assert all_orders(state) == Counter(cat.order_ids)
    assert len(state.display) <= n + 1
    for seat in range(n):
        assert state.coins[seat] == sum(c["coins"] for c in state.completed[seat])
        assert 0 <= state.pastry_tokens[seat] <= cat.pastry_tokens_per_type
        assert state.kitty_tokens[seat] >= 0
    if state.phase_name() == "getting orders ready" and not state.discard_queue:
        # the hand limit is checked when cards are won (a Kitty may push a hand over later)
        assert all(len(h) <= cat.hand_limit + 2 * n for h in state.hands)
    jars = Counter(j for j in state.jars if j is not None)
    assert all(v <= cat.jars_per_player for v in jars.values())
    for e, seat in enumerate(state.jars):
        if seat is not None:
            a, b = state.grid.edges[e]
            assert state.layout[a] is not None and state.layout[b] is not None


@settings(max_examples=12, deadline=None)
@given(
    players=st.integers(2, 5),
    variant=st.sampled_from(GAME.variants),
    seed=st.integers(0, 10_000),
)
def test_no_card_is_lost_or_duplicated(players: int, variant: str, seed: int) -> None:
    state = new_state(players, variant, seed)
    agents = [RandomAgent(s, GAME) for s in range(players)]
    bound = GAME.max_game_length(state.params)
    while not state.is_terminal():
        check_invariants(state)
        step(state, agents)
        assert len(state.history) <= bound
    check_invariants(state)
    assert state.end_reason
    assert set(state.winners()) <= set(range(players))


def test_clone_is_independent() -> None:
    state = new_state(3, "kickstarter", seed=5)
    agents = [RandomAgent(s, GAME) for s in range(3)]
    for _ in range(80):
        step(state, agents)
    before = state.full_state()
    copy = state.clone()
    while not copy.is_terminal():
        step(copy, agents)
    assert state.full_state() == before
