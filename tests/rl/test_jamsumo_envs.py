"""JamSumo's PettingZoo environment and the Gymnasium practice environment."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from jamsumo_sim.envs import jamsumo_v0  # noqa: E402
from jamsumo_sim.envs import spaces_jamsumo as L  # noqa: E402


@pytest.mark.slow
def test_pettingzoo_api_test_passes_for_sumo():
    api_test(jamsumo_v0.env(mode="sumo", players=2, rounds=1), num_cycles=6)


def test_pettingzoo_seed_test_passes_for_jam():
    seed_test(lambda **kw: jamsumo_v0.env(mode="jam", players=2, rounds=1, **kw), num_cycles=3)


def test_mask_matches_the_games_menu_and_placement_from_hand():
    env = jamsumo_v0.raw_env(mode="jam", players=3, rounds=1)
    env.reset(seed=2)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    assert np.array_equal(env.infos[agent]["action_mask"]["choice"], mask)
    # Jam starts with every die in hand: only the JAM zones are open, one index per zone
    zones = mask[L.DICE_PER_SEAT : L.DICE_PER_SEAT + len(env.zones)]
    assert zones.all() and not mask[: L.DICE_PER_SEAT].any() and not mask[-1]
    choice = L.DICE_PER_SEAT  # the first zone, flicked straight "up the board"
    env.step({"choice": choice, "flick": np.array([math.pi / 2, 0.8, 0.0, 0.5], np.float32)})
    history = env.match.history
    assert any(e.get("action", {}).get("args", {}).get("place") == env.zones[0] for e in history)


def unfair_direction(env, agent):
    """A direction (seat view) in which flicking the seat's first flickable die is refused."""
    seat = env.possible_agents.index(agent)
    mask = env.observe(agent)["action_mask"]
    die = int(np.flatnonzero(mask[: L.DICE_PER_SEAT])[0])
    angles = [k * math.pi / 36 - math.pi for k in range(72)]
    refused = [
        not env.match.is_legal(seat, env.to_action(agent, (die, np.array([a, 2.0, 0.0, 0.5]))))
        for a in angles
    ]
    for k in range(72):  # the middle of a blocked run, well away from its edges
        if refused[k - 1] and refused[k] and refused[(k + 1) % 72]:
            return die, angles[k]
    return None


def test_an_unfair_flick_is_re_asked_with_a_penalty():
    env = jamsumo_v0.raw_env(mode="sumo", players=2, rounds=1)
    env.reset(seed=1)
    for _ in range(2):  # both seats set up (the first canonical set-up each)
        agent = env.agent_selection
        env.step((int(np.flatnonzero(env.observe(agent)["action_mask"])[0]), np.zeros(4)))
    agent = env.agent_selection
    found = unfair_direction(env, agent)
    assert found is not None, "packed Sumo dice must have some blocked direction"
    die, direction = found
    before = len(env.match.history)
    env.step((die, np.array([direction, 2.0, 0.0, 0.5], np.float32)))
    assert env.agent_selection == agent and len(env.match.history) == before
    assert env.rewards[agent] == L.REFUSAL_PENALTY and "refused" in env.infos[agent]
    env.step((L.DICE_PER_SEAT + len(env.zones), np.zeros(4)))  # a set-up slot, mid-round
    assert env.agent_selection == agent and len(env.match.history) == before
    assert env.infos[agent]["refused"] == "choice not available"  # refused, not raised


def test_rgb_array_draws_the_board_and_dice_headless():
    env = jamsumo_v0.raw_env(mode="sumo", players=2, rounds=1, render_mode="rgb_array")
    env.reset(seed=1)
    empty = env.render()
    agent = env.agent_selection
    env.step((int(np.flatnonzero(env.observe(agent)["action_mask"])[0]), np.zeros(4)))
    picture = env.render()
    assert picture.shape == (480, 480, 3) and picture.dtype == np.uint8
    changed = np.any(picture != empty, axis=2)
    assert 200 < changed.sum() < 480 * 480 // 4  # six dice appeared, the board stayed


def test_practice_env_is_registered_and_pays_for_holed_dice():
    gymnasium = pytest.importorskip("gymnasium")
    import jamsumo_sim.envs.practice as practice

    env = gymnasium.make(practice.ENV_ID)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs) and info["holed"] == 0
    _, reward, *_ = env.step({"choice": L.DICE_PER_SEAT + 99, "flick": np.zeros(4)})
    assert reward == L.REFUSAL_PENALTY  # an index out of range is refused, not raised
    choice = L.DICE_PER_SEAT  # first zone, straight at the hole from it
    zone = env.unwrapped.multi.match.board.platform(env.unwrapped.multi.zones[0])
    from jamsumo_sim.rules.seats import to_view

    _, _, aim = to_view(0, 2, 0.0, 0.0, math.atan2(-zone.y, -zone.x))
    _, reward, _, _, info = env.step({"choice": choice, "flick": np.array([aim, 1.0, 0, 0.5])})
    assert reward == pytest.approx(practice.FLICK_COST + info["holed"])


@pytest.mark.slow
def test_practice_env_passes_gymnasium_check_env():
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import jamsumo_sim.envs.practice as practice

    check_env(gymnasium.make(practice.ENV_ID).unwrapped)


def test_obs_action_mask_drives_pettingzoos_render_test_and_benchmark(monkeypatch):
    import importlib
    import random

    from pettingzoo.test import performance_benchmark, render_test

    bench = importlib.import_module("pettingzoo.test.performance_benchmark")

    render_test(lambda **kw: jamsumo_v0.env(mode="sumo", players=2, rounds=1, **kw))

    class Clock:  # the benchmark stops after 5 "seconds": a clock ticking 1 s a call, so the
        now = 0.0  # test never depends on the machine's speed

        def time(self):
            self.now += 1.0
            return self.now

    monkeypatch.setattr(bench, "time", Clock())
    random.seed(0)
    performance_benchmark(jamsumo_v0.env(mode="sumo", players=2, rounds=1))


def test_a_policy_of_refused_moves_is_truncated():
    env = jamsumo_v0.raw_env(mode="sumo", players=2, rounds=1, max_cycles=3)
    env.reset(seed=0)
    assert jamsumo_v0.raw_env(mode="sumo", players=2).max_cycles > 100  # a cap by default
    steps = 0
    before = len(env.match.history)
    while not any(env.truncations.values()):
        agent = env.agent_selection
        closed = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
        env.step(closed)  # a bare integer: the choice, with the default flick
        steps += 1
        assert steps <= 6
    assert steps == 6 and len(env.match.history) == before  # nothing moved, every step counted


def test_practice_env_truncates_a_policy_of_refused_moves():
    gymnasium = pytest.importorskip("gymnasium")
    import jamsumo_sim.envs.practice as practice

    env = gymnasium.make(practice.ENV_ID, max_flicks=4)
    env.reset(seed=0)
    ends = [env.step({"choice": 0, "flick": np.zeros(4)})[3] for _ in range(4)]
    assert ends == [False, False, False, True]
