"""Hidden information: a seat sees its own pirate and token, never anybody else's."""

from __future__ import annotations

import json

import numpy as np

from card_games.jumblejack import GAME
from card_games.jumblejack.state import JumbleJackState
from jamsumo_sim.turnloop import RandomAgent, step
from tests.card_games.jumblejack.helpers import C, new_state, standard_start


def secrets_of(state: JumbleJackState, seat: int) -> list[str]:
    """Strings that would give away ``seat``'s hidden pirate or unused, unrevealed token."""
    out = []
    pirate = state.pirates[seat]
    if pirate is not None and seat not in state.revealed:
        out.append(f'"{pirate}"')
        out.append(f"{pirate}:")
    token = state.tokens[seat]
    if token is not None and not state.token_used[seat] and not C.token(token).first_player:
        out += [f'"{token}"', C.token(token).name]
    return out


def assert_no_leak(state: JumbleJackState) -> None:
    for viewer in [None, *range(state.num_players)]:
        obs = state.observation(viewer)
        blob = json.dumps(obs) + "\n" + GAME.render(obs, viewer)
        for other in range(state.num_players):
            if other == viewer:
                continue
            for secret in secrets_of(state, other):
                assert secret not in blob, (viewer, other, secret)


def test_observations_and_views_never_show_other_seats_secrets() -> None:
    for players, seed in [(4, 1), (6, 2), (8, 3)]:
        state = new_state(players, seed)
        agents = [RandomAgent(s, GAME) for s in range(players)]
        while not state.is_terminal():
            step(state, agents)
            assert_no_leak(state)


def test_own_pirate_and_token_are_shown_to_their_seat() -> None:
    state = standard_start(5)
    obs = state.observation(2)
    assert obs["my_pirate"]["id"] == state.pirates[2]
    assert obs["my_token"]["id"] == state.tokens[2]
    text = GAME.render(obs, 2)
    assert "Your secret pirate wears" in text and C.token(state.tokens[2]).name in text
    assert state.observation(None)["my_pirate"] is None


def test_perturbation_really_changes_hidden_information() -> None:
    state = standard_start(6)
    other = state.perturb_hidden(0, np.random.default_rng(5))
    assert other is not None
    assert other.full_state() != state.full_state()
    assert other.pirates[0] == state.pirates[0] and other.tokens[0] == state.tokens[0]
    assert other.observation(0) == state.observation(0)
    assert other.tokens[state.first_player] == state.tokens[state.first_player]  # it is public


def test_the_leak_check_can_fail(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    original = JumbleJackState.observation

    def leaky(self: JumbleJackState, seat: int | None) -> dict:
        return {**original(self, seat), "all": list(self.pirates)}

    monkeypatch.setattr(JumbleJackState, "observation", leaky)
    try:
        assert_no_leak(standard_start(4))
    except AssertionError:
        return
    raise AssertionError("a leaking observation went unnoticed")
