"""Property tests over random playouts: no card is ever lost or duplicated, the game always ends."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from card_games.the_jam import GAME
from jamsumo_sim.turnloop import RandomAgent, step
from tests.card_games.the_jam.helpers import TradingAgent


@settings(max_examples=16, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.sampled_from(GAME.variants), st.booleans())
def test_no_card_lost_or_duplicated(seed: int, players: int, variant: str, trading: bool) -> None:
    params = GAME.validate_params({"players": players, "variant": variant})
    state = GAME.new_initial_state(params, seed=seed)
    kind = TradingAgent if trading else RandomAgent
    agents = [kind(s, GAME) for s in range(players)]
    expected = Counter(GAME.cards.game_card_ids(kids=variant == "kids"))
    bound = GAME.max_game_length(params)
    while not state.is_terminal():
        step(state, agents)
        assert Counter(state.all_cards()) == expected, f"after {len(state.history)} moves"
        assert len(state.history) <= bound
    assert not state.deck and not any(state.hands)


def test_clone_is_independent_of_the_original() -> None:
    params = GAME.validate_params({"players": 3, "variant": "standard"})
    state = GAME.new_initial_state(params, seed=3)
    agents = [RandomAgent(s, GAME) for s in range(3)]
    for _ in range(60):  # into the game, with made recipes, hands and a basket
        step(state, agents)
    assert state.made[0] and state.hands[0] and state.basket and not state.is_terminal()
    before = state.digest()
    legal = list(state.legal_actions())
    clone = state.clone()
    assert clone.digest() == before and clone.legal_actions() == legal
    for _ in range(150):
        if clone.is_terminal():
            break
        step(clone, agents)
    assert clone.digest() != before
    assert state.digest() == before and state.legal_actions() == legal


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4))
def test_bundle_moves_are_the_bundle_candidates(seed: int, players: int) -> None:
    """The trade moves sliced from the per-proposal tables offer exactly the recipes
    ``bundle_candidates`` lists (one per distinct card, after the last one chosen), in order."""
    from card_games.the_jam.moves import bundle_candidates

    params = GAME.validate_params({"players": players, "variant": "standard"})
    state = GAME.new_initial_state(params, seed=seed)
    agents = [TradingAgent(s, GAME) for s in range(players)]
    checked = 0
    while not state.is_terminal():
        trade = state.trade
        if trade is not None and trade["stage"] == "build" and not state.pending:
            legal = state.legal_actions()
            mine = [a["pick"] for a in legal if a.get("trade") == "mine"]
            theirs = [a["pick"] for a in legal if a.get("trade") == "theirs"]
            assert mine == bundle_candidates(state, state.active, trade["mine"])
            assert theirs == bundle_candidates(state, trade["partner"], trade["theirs"])
            checked += 1
        step(state, agents)
    assert checked > 0
