"""The card games' PettingZoo environments: PettingZoo's own checks, the fixed action index,
and observations that hold only what the seat may see."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from card_games.envs import (
    GAMES,  # noqa: E402
    features,  # noqa: E402
)
from card_games.envs.catalog import catalog  # noqa: E402
from jamsumo_sim.errors import UserError  # noqa: E402
from jamsumo_sim.turnloop import get_game  # noqa: E402
from jamsumo_sim.turnloop.driver import seeded_outcome  # noqa: E402

PLAYERS = {"jellyfish": 3, "jumble_jam": 2, "jumblejack": 4, "the_jam": 2}


def module(game: str):
    return importlib.import_module(f"card_games.envs.{game}_v0")


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_and_seed_tests_pass(game):
    mod = module(game)
    api_test(mod.env(players=PLAYERS[game]), num_cycles=60)
    seed_test(lambda **kw: mod.env(players=PLAYERS[game], **kw), num_cycles=60)


def random_positions(game: str, players: int, variant: str, seed: int):
    """Every decision node of one random game (chance from the seed, moves from a generator)."""
    g = get_game(game)
    state = g.new_initial_state(g.validate_params({"players": players, "variant": variant}), seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(seeded_outcome(state))
            continue
        yield state
        if state.is_simultaneous_node():
            joint = {}
            for seat in state.simultaneous_seats():
                legal = state.legal_actions(seat)
                joint[seat] = legal[rng.integers(len(legal))]
            state.apply_actions(joint)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_move_has_its_fixed_index_and_views_fit(game):
    g = get_game(game)
    cat = catalog(game)
    seen = set()
    space = module(game).raw_env(players=g.min_players).observation_space("player_0")
    for variant in g.variants:
        for players in (g.min_players, g.max_players):
            for state in random_positions(game, players, variant, seed=players):
                seats = state.simultaneous_seats() or [state.current_player()]
                for seat in seats:
                    names = [a.name for a in state.legal_actions(seat)]
                    assert len(set(names)) == len(names), "names must be unique per decision"
                    seen.update(cat.action_index(a) for a in state.legal_actions(seat))
                    vector = features.encode(game, state.observation(seat), seat)
                    assert space["observation"].contains(vector)  # fixed shape, within bounds
    assert len(seen) > 10


def test_catalog_refuses_a_move_it_does_not_know():
    from jamsumo_sim.turnloop import Action

    with pytest.raises(UserError, match="not in the action catalog"):
        catalog("jellyfish").action_index(Action("fly to the moon"))


@pytest.mark.parametrize("game", GAMES)
def test_observation_hides_what_the_seat_may_not_see(game):
    """Changing only hidden information (the games' own ``perturb_hidden``) leaves the seat's
    observation and mask unchanged, while the full state does change."""
    env = module(game).raw_env(players=PLAYERS[game])
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(40):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        agent = env.agent_selection
        seat = env.seat_of(agent)
        before = env.observe(agent)
        text = env.observe_text(agent)
        other = env.match.perturb_hidden(seat, rng)
        if other is not None and other.full_state() != env.match.full_state():
            real = env.state_
            env.state_ = other
            after = env.observe(agent)
            env.state_ = real
            assert np.array_equal(before["observation"], after["observation"])
            assert env.observe_text(agent) == text
            assert np.array_equal(before["action_mask"], after["action_mask"])
            checked += 1
        mask = before["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 0


@pytest.mark.parametrize("game", GAMES)
def test_observation_is_the_seats_own_view(game):
    env = module(game).raw_env(players=PLAYERS[game])
    env.reset(seed=1)
    agent = env.agent_selection
    import json

    view = json.loads(env.observe_text(agent))
    expected = env.match.observation(env.seat_of(agent))
    expected.pop("log", None)
    assert view == json.loads(json.dumps(expected))
    vector = env.observe(agent)["observation"]
    assert np.array_equal(vector, features.encode(game, expected, env.seat_of(agent)))
    fields = features.layout(game)
    assert fields[-1].offset + fields[-1].size == vector.shape[0]
    assert all(f.doc for f in fields) and len({f.name for f in fields}) == len(fields)
    mask = env.observe(agent)["action_mask"]
    legal = {a.name for a in env.match.legal_actions(env.seat_of(agent))}
    assert {catalog(game).names[i] for i in np.flatnonzero(mask)} == legal


def test_an_illegal_index_is_refused_in_one_line():
    env = module("jellyfish").raw_env(players=2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(UserError, match="is not legal"):
        env.step(bad)


def test_reset_seed_replays_the_same_match_and_max_cycles_truncates():
    env = module("the_jam").raw_env(players=2, max_cycles=3)
    env.reset(seed=9)
    first = env.match.full_state()
    moves = 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
        moves += 1
    assert moves == 3 * 2
    env.reset(seed=9)
    assert env.match.full_state() == first


def test_jumblejack_pointing_is_asked_seat_by_seat_without_showing_choices():
    env = module("jumblejack").raw_env(players=4)
    env.reset(seed=2)
    while not env.match.is_simultaneous_node():
        agent = env.agent_selection
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    first = env.agent_selection
    seen_before = env.observe(agent := env.possible_agents[-1])["observation"].copy()
    env.step(int(np.flatnonzero(env.observe(first)["action_mask"])[0]))
    assert env.agent_selection != first and env.match.is_simultaneous_node()
    assert np.array_equal(env.observe(agent)["observation"], seen_before)


def test_render_prints_the_spectators_table(capsys):
    env = module("jellyfish").env(players=2, render_mode="human")
    env.reset(seed=0)
    env.render()
    assert "seat" in capsys.readouterr().out.lower()
    ansi = module("jellyfish").raw_env(players=2, render_mode="ansi")
    ansi.reset(seed=0)
    assert isinstance(ansi.render(), str)


def test_observation_fields_follow_the_seat_relatively():
    """Per-seat fields start at the observing seat: seat 1's "hand_sizes" slot 0 is its own."""
    env = module("the_jam").raw_env(players=2)
    env.reset(seed=3)
    f = {x.name: x for x in features.layout("the_jam")}["hand_sizes"]
    for seat in (0, 1):
        vec = env.observe(f"player_{seat}")["observation"]
        sizes = env.match.observation(seat)["hand_sizes"]
        assert vec[f.offset] == sizes[seat] and vec[f.offset + 1] == sizes[1 - seat]


def test_agents_not_due_to_move_get_all_zero_masks():
    """Only the selected agent has a move to make: at JumbleJack's pointing the seats still to
    point (not selected yet) and the one that pointed (due no more) all see zeros."""
    env = module("jumblejack").raw_env(players=4)
    env.reset(seed=2)

    def check_masks() -> None:
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            assert (mask.sum() > 0) == (agent == env.agent_selection), agent

    while not env.match.is_simultaneous_node():
        check_masks()
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    pointers = [env.possible_agents[s] for s in env.match.simultaneous_seats()]
    assert len(pointers) > 2  # seats still to point beside the selected one
    for _ in pointers:  # every pointer in turn, then the joint move is applied
        check_masks()
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    check_masks()


def test_a_shared_win_pays_each_winner_a_kth():
    """A real three-way tie (JumbleJack, 4 seats, seed 1, seeded random moves): each winner is
    paid 1/3, the loser 0, and the rewards sum to 1 (OpenSpiel's side: tests/rl/test_openspiel)."""
    from card_games.envs.card_env import win_shares

    env = module("jumblejack").env(players=4)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    final = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    match = env.unwrapped.match
    winners = match.winners()
    assert len(winners) == 3 and match.is_terminal()
    for seat, agent in enumerate(env.possible_agents):
        assert final[agent] == pytest.approx(1 / 3 if seat in winners else 0.0)
    assert sum(final.values()) == pytest.approx(1.0)
    assert win_shares(match) == [final[a] for a in env.possible_agents]  # as OpenSpiel's returns
