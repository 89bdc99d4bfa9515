"""The shared conformance kit, and hidden information in observations, views and perturbations."""

from __future__ import annotations

import json

import numpy as np

from card_games.jellyfish import GAME
from jamsumo_sim.turnloop.conformance import check_game, random_playout
from tests.card_games.jellyfish.helpers import DECK, A, B, C, D, E, act, build, draw, label


def test_conformance_kit_every_player_count() -> None:
    # every split (variant) at every player count: the rules must hold whatever the deck
    played = check_game(GAME, players=[2, 3, 4, 5, 6], seeds=range(1), check_every=9)
    assert played == 5 * len(GAME.variants)


def test_conformance_kit_at_every_node_of_a_two_player_game() -> None:
    final = random_playout(GAME, GAME.validate_params({"players": 2}), seed=5, check_every=3)
    assert final.is_terminal()


def _covered_position():
    state = build(
        3,
        {0: {"partial": {A: 2, B: 1}}, 1: {"partial": {C: 2}}, 2: {"partial": {D: 1}}},
        step="cover",
    )
    act(state, f"cover your {label(A)}")
    draw(state, E)  # the only E off the pile: nobody may learn it
    return state


def test_perturbing_hidden_cards_changes_the_state_but_no_observation() -> None:
    state = _covered_position()
    changed = 0
    for i in range(10):
        other = state.perturb_hidden(1, np.random.default_rng(i))
        assert other is not None
        for seat in (0, 1, 2):
            assert other.observation(seat) == state.observation(seat)
        changed += other.covers[0][A]["card"] != state.covers[0][A]["card"]
        assert sorted(other.all_cards()) == sorted(state.all_cards())
    assert changed >= 8  # a real perturbation, not a copy


def test_no_view_shows_an_unknown_cover_card() -> None:
    state = _covered_position()
    for seat in (None, 0, 1, 2):
        obs = state.observation(seat)
        text = json.dumps(obs) + GAME.render(obs, seat) + "\n".join(state.log_for(seat))
        assert label(E) not in text and E not in text
    # the engine knows it
    assert DECK.kind_of[state.covers[0][A]["card"]] == E


def test_render_shows_own_position_and_counts() -> None:
    state = _covered_position()
    text = GAME.render(state.observation(0), 0)
    assert "Seat 0 (you)" in text and f"{label(A)} x2 [covered]" in text
    assert f"Draw pile: {state.pile_size()} cards" in text
    assert "Seat 1 (you)" not in text
