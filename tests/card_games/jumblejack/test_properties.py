"""Property tests over random playouts: nothing is ever lost or duplicated."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from card_games.jumblejack import GAME
from card_games.jumblejack.state import JumbleJackState
from jamsumo_sim.turnloop import RandomAgent, step
from tests.card_games.jumblejack.helpers import C, new_state


def check_zones(state: JumbleJackState) -> None:
    n = state.num_players
    # Pirate cards: the Doll's card, the players' cards and the box hold each card exactly once
    pirates = [p for p in state.pirates if p is not None] + state.box_pirates
    if state.doll_card is not None:
        pirates.append(state.doll_card)
    assert Counter(pirates) == Counter(p for p, _ in C.pirates)
    # Accessory cards: piles plus the players' stacks, per accessory
    for i, total in enumerate(C.accessory_cards):
        placed = sum(1 for stack in state.stacks for a, _ in stack if a == i)
        assert state.piles[i] + placed == total and state.piles[i] >= 0
    # Rings: the centre, the fingers and the box
    assert state.centre + sum(state.fingers) + state.box_rings == C.rings_total
    assert state.centre >= 0 and state.box_rings >= 0 and min(state.fingers) >= 1
    # Pieces of Eight: the players, the box, the discard pile, and (before the deal) the pool
    tokens = [t for t in state.tokens if t is not None]
    tokens += state.box_tokens + state.discarded_tokens + state.in_play_tokens
    assert Counter(tokens) == Counter(t.id for t in C.tokens)
    assert sum(1 for t in state.tokens if t is not None) in (0, n)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(4, 8), seed=st.integers(0, 10**6))
def test_no_component_is_lost_or_duplicated(players: int, seed: int) -> None:
    state = new_state(players, seed)
    agents = [RandomAgent(s, GAME) for s in range(players)]
    check_zones(state)
    while not state.is_terminal():
        step(state, agents)
        check_zones(state)
        # a Ring leaves the centre exactly when a target declares (truly or with a Disguise)
        said = sum(1 for d in state.declarations if d["kind"] != "setup")
        assert state.centre == C.centre_rings - said
    assert len(state.history) <= GAME.max_game_length(state.params)
    assert sorted(state.returns()) in (
        [0.0] + [1.0] * (players - 1),
        [0.0] * (players - 1) + [1.0],
    )
