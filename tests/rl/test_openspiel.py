"""The card games as OpenSpiel games, shimmy's PettingZoo wrapper over them, and the IS-MCTS seat."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import card_games.openspiel  # noqa: E402,F401 - registers the games
from card_games.envs import GAMES  # noqa: E402
from card_games.ismcts import ISMCTSAgent, root_state  # noqa: E402
from jamsumo_sim.turnloop import RandomAgent, get_game, play, seat_view  # noqa: E402
from jamsumo_sim.turnloop.driver import seeded_outcome  # noqa: E402
from tests.child_limits import cpu_limited, hang_guard  # noqa: E402

PLAYERS = {"jellyfish": 2, "jumble_jam": 2, "jumblejack": 4, "the_jam": 2}


def load(game: str):
    return pyspiel.load_game(f"python_{game}", {"players": PLAYERS[game]})


@pytest.mark.parametrize("game", GAMES)
def test_registered_game_type_is_truthful(game):
    t = load(game).get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.provides_information_state_string and t.provides_observation_string
    assert get_game(game).perfect_information is False


@pytest.mark.parametrize(
    "game", [g if g == "jellyfish" else pytest.param(g, marks=pytest.mark.slow) for g in GAMES]
)
def test_openspiel_random_simulation_test_passes(game):
    pyspiel.random_sim_test(load(game), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("game", GAMES)
def test_play_through_with_strings_and_chance_distributions(game):
    rng = np.random.default_rng(1)
    state = load(game).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            assert len({a for a, _ in outcomes}) == len(outcomes)
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        player = state.current_player()
        assert state.information_state_string(player).startswith("{")
        assert "log" not in state.observation_string(player)
        legal = state.legal_actions()
        assert legal == sorted(legal)
        state.apply_action(legal[rng.integers(len(legal))])
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game", GAMES)
def test_information_state_ignores_what_the_seat_cannot_see(game):
    from card_games.openspiel.game import CardSpielState

    g = get_game(game)
    inner = g.new_initial_state(g.default_params(PLAYERS[game]), seed=4)
    rng = np.random.default_rng(0)
    checked = 0
    while not inner.is_terminal() and checked < 5:
        if inner.is_chance_node():
            inner.apply_action(seeded_outcome(inner))
            continue
        seat = (inner.simultaneous_seats() or [inner.current_player()])[0]
        other = inner.perturb_hidden(seat, rng)
        if other is not None and other.full_state() != inner.full_state():
            spiel = load(game)
            a, b = CardSpielState(spiel, inner.clone()), CardSpielState(spiel, other)
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
            assert str(a) != str(b)  # the full state does differ
            checked += 1
        if inner.is_simultaneous_node():
            inner.apply_actions({s: inner.legal_actions(s)[0] for s in inner.simultaneous_seats()})
        else:
            legal = inner.legal_actions()
            inner.apply_action(legal[rng.integers(len(legal))])
    assert checked > 0


@pytest.mark.parametrize("game", ["jellyfish", "jumblejack"])
def test_shimmy_wraps_them_as_pettingzoo_games(game):
    shimmy = pytest.importorskip("shimmy")
    env = shimmy.OpenSpielCompatibilityV0(env=load(game), render_mode=None)
    env.reset(seed=0)
    moves = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert isinstance(obs, str) and info["action_mask"].sum() >= 1
        env.step(env.action_space(agent).sample(info["action_mask"]))
        moves += 1
    assert moves > 10
    assert env.game_state.is_terminal() and sum(env.game_state.returns()) == pytest.approx(1.0)


def test_ismcts_root_is_built_from_the_seats_information():
    from card_games.openspiel.game import CardSpielState

    game = get_game("the_jam")
    state = game.new_initial_state(game.default_params(2), seed=3)
    while state.is_chance_node():
        state.apply_action(seeded_outcome(state))
    seat = state.current_player()
    rng = np.random.default_rng(0)
    root = root_state(seat_view(state, seat), rng)
    assert root.current_player() == seat
    real = CardSpielState(load("the_jam"), state.clone())
    assert root.information_state_string(seat) == real.information_state_string(seat)
    assert root.inner.full_state() != state.full_state()  # a re-dealt world, not the real one
    resampled = root.resample_for(seat, rng)
    assert resampled.information_state_string(seat) == root.information_state_string(seat)


def test_ismcts_seat_plays_legal_moves_to_the_end():
    game = get_game("jumblejack")
    agents = [ISMCTSAgent(0, game, simulations=4)] + [RandomAgent(s, game) for s in range(1, 4)]
    result = play(game, agents, seed=1, params={"players": 4})
    assert result.finished


def test_without_the_rl_extra_everything_imports_and_refuses_in_one_line():
    code = """
import sys
for name in ("pettingzoo", "gymnasium", "pyspiel", "shimmy", "open_spiel"):
    sys.modules[name] = None
import card_games, card_games.envs, card_games.envs.catalog, card_games.ismcts, card_games.cli
import jamsumo_sim, jamsumo_sim.envs
from jamsumo_sim.errors import UserError
from card_games.envs import jellyfish_v0
from jamsumo_sim.turnloop import get_game
for attempt in (lambda: jellyfish_v0.env(), lambda: card_games.ismcts.ISMCTSAgent(0, get_game("jellyfish"))):
    try:
        attempt()
    except UserError as exc:
        print(exc)
"""
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=hang_guard(60),
        preexec_fn=cpu_limited(60),
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 2 and all("pip install 'jamsumo[rl]'" in line for line in lines)
