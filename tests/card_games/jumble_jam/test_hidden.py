"""Hidden information: a seat's observation and screen show its own hand, never another's."""

from __future__ import annotations

import json

import numpy as np

from card_games.jumble_jam import GAME
from jamsumo_sim.turnloop import RandomAgent, step
from tests.card_games.jumble_jam.helpers import new_state, set_hand


def test_observation_holds_only_own_hand_and_public_counts() -> None:
    state = new_state(3, seed=4)
    agents = [RandomAgent(s, GAME) for s in range(3)]
    while state.phase_name() != "getting orders ready":
        step(state, agents)
    set_hand(state, 0, ["jam2-1", "pie3-1"])
    set_hand(state, 1, ["cookie3-1", "croissant3-1", "kitty-1"])
    obs = state.observation(0)
    assert obs["hand"] == ["2 jam", "3 pie"]
    assert obs["hand_sizes"][1] == 3
    screen = GAME.render(obs, 0)
    assert "Your hand: 2 jam, 3 pie" in screen
    # swap seat 1's cards with face-down deck cards: seat 0 sees no difference, seat 1 does
    before = (json.dumps(state.observation(0)), screen, json.dumps(state.observation(1)))
    hidden, state.hands[1] = state.hands[1], sorted(state.deck[:3])
    state.deck[:3] = hidden
    assert json.dumps(state.observation(0)) == before[0]
    assert GAME.render(state.observation(0), 0) == before[1]
    assert json.dumps(state.observation(1)) != before[2]
    assert state.observation(None)["hand"] is None
    assert "Your hand" not in GAME.render(state.observation(None), None)


def test_screen_does_not_change_when_hidden_cards_change() -> None:
    rng = np.random.default_rng(0)
    for seed in range(3):
        state = new_state(4, "kickstarter", seed=seed)
        agents = [RandomAgent(s, GAME) for s in range(4)]
        for k in range(400):
            if state.is_terminal():
                break
            step(state, agents)
            if k % 20:
                continue
            for seat in range(4):
                other = state.perturb_hidden(seat, rng)
                if other is None:  # nothing hidden yet (before the opening shuffle)
                    continue
                assert other.observation(seat) == state.observation(seat)
                assert GAME.render(other.observation(seat), seat) == GAME.render(
                    state.observation(seat), seat
                )


def test_perturbation_really_changes_other_hands() -> None:
    state = new_state(2, seed=1)
    agents = [RandomAgent(s, GAME) for s in range(2)]
    while not any(state.hands):
        step(state, agents)
    seat = 0 if state.hands[1] else 1
    rng = np.random.default_rng(3)
    changed = any(
        state.perturb_hidden(seat, rng).hands[1 - seat] != state.hands[1 - seat] for _ in range(5)
    )
    assert changed
    # the kit itself catches a leak: showing the other hand would differ under perturbation
    other = state.perturb_hidden(seat, rng)
    assert other.hands[seat] == state.hands[seat]


def test_public_replay_log_never_names_a_stolen_card() -> None:
    for seed in range(6):
        state = new_state(3, "kickstarter", seed=seed)
        agents = [RandomAgent(s, GAME) for s in range(3)]
        while not state.is_terminal():
            step(state, agents)
        public = state.log_for(None)
        assert not any("the Kitty moved" in line for line in public)
        assert any("random card" in line for line in public) or seed < 5
