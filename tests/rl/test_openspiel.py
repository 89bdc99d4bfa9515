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
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
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
        assert isinstance(obs, np.ndarray) and info["action_mask"].sum() >= 1
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


@pytest.mark.parametrize("game", GAMES)
def test_tensors_have_the_declared_shapes_and_match_the_pettingzoo_vector(game):
    from card_games.envs import features

    g = load(game)
    width = features.size(game)
    assert g.observation_tensor_shape() == [width]
    assert g.information_state_tensor_shape() == [width + g.num_distinct_actions()]
    state = g.new_initial_state()
    rng = np.random.default_rng(2)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    seat = state.current_player()
    obs = np.array(state.observation_tensor(seat), np.float32)
    assert np.array_equal(obs, features.encode(game, state.inner.observation(seat), seat))
    info = np.array(state.information_state_tensor(seat))
    assert np.array_equal(info[:width], obs) and info[width:].sum() == 0  # no move made yet
    state.apply_action(state.legal_actions()[0])
    if not state.is_chance_node() and not state.is_terminal():
        # the seat's own move is counted in its information state
        assert np.array(state.information_state_tensor(seat))[width:].sum() == 1


@pytest.mark.parametrize("game", GAMES)
def test_rl_environment_steps_through_whole_games(game):
    rl_environment = pytest.importorskip("open_spiel.python.rl_environment")
    g = load(game)
    env = rl_environment.Environment(g, seed=3)
    rng = np.random.default_rng(3)
    step = env.reset()
    moves = 0
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == g.information_state_tensor_size()
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        moves += 1
    assert moves > 5 and sum(step.rewards) == pytest.approx(1.0)
    # every node, chance included, within the declared bound
    assert len(env.get_state.history()) <= g.max_game_length()


@pytest.mark.parametrize("game", GAMES)
def test_shimmy_wrapper_passes_pettingzoos_api_test(game):
    shimmy = pytest.importorskip("shimmy")
    from pettingzoo.test import api_test

    api_test(shimmy.OpenSpielCompatibilityV0(env=load(game)), num_cycles=30)


def test_clone_keeps_history_and_move_number():
    state = load("the_jam").new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(120):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    copy = state.clone()
    assert copy.history() == state.history() and len(copy.history()) == 120
    assert copy.move_number() == state.move_number() > 0
    assert str(copy) == str(state)
    copy.apply_action(copy.legal_actions()[0] if not copy.is_chance_node() else 0)
    assert len(state.history()) == 120  # the copy is independent


@pytest.mark.parametrize("game", GAMES)
def test_openspiels_ismcts_bot_plays_whole_games_through_evaluate_bots(game):
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from open_spiel.python.bots.uniform_random import UniformRandomBot

    from card_games.openspiel.bots import ismcts_bot

    g = load(game)
    n = g.num_players()
    bots = [ismcts_bot(g, simulations=2, seed=5)] + [
        UniformRandomBot(s, np.random.RandomState(s)) for s in range(1, n)
    ]
    returns = evaluate_bots(g.new_initial_state(), bots, np.random.RandomState(7))
    assert sum(returns) == pytest.approx(1.0)


def test_resample_from_infostate_keeps_the_seats_information():
    g = load("jumble_jam")
    state = g.new_initial_state()
    rng = np.random.default_rng(4)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.integers(len(outcomes))][0])
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert str(other) != str(state)  # the unseen cards were dealt again


def decisions_with_hidden_changes(game: str, seed: int, count: int):
    """Positions of a random game with 2+ moves, each with a state only hidden cards tell apart."""
    g = get_game(game)
    state = g.new_initial_state(g.default_params(PLAYERS[game]), seed=seed)
    rng = np.random.default_rng(seed)
    found = 0
    while not state.is_terminal() and found < count:
        if state.is_chance_node():
            state.apply_action(seeded_outcome(state))
            continue
        if state.is_simultaneous_node():
            state.apply_actions({s: state.legal_actions(s)[0] for s in state.simultaneous_seats()})
            continue
        seat = state.current_player()
        legal = state.legal_actions()
        other = state.perturb_hidden(seat, rng)
        if len(legal) > 1 and other is not None and other.full_state() != state.full_state():
            yield state.clone(), other, seat
            found += 1
        state.apply_action(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("game", GAMES)
def test_ismcts_seats_decision_ignores_hidden_changes(game):
    """Same information, same seed: the same move, wherever the hidden cards really lie."""
    g = get_game(game)
    checked = 0
    for real, other, seat in decisions_with_hidden_changes(game, seed=6, count=2):
        a = ISMCTSAgent(seat, g, simulations=4).act(seat_view(real, seat))
        b = ISMCTSAgent(seat, g, simulations=4).act(seat_view(other, seat))
        assert a.name == b.name
        checked += 1
    assert checked > 0


def test_tournament_seats_ismcts_in_card_games():
    from jamsumo_sim.errors import UserError
    from jamsumo_sim.sweep.tournament import make_agent

    assert isinstance(make_agent(get_game("jellyfish"), 0, "ismcts"), ISMCTSAgent)
    assert make_agent(get_game("jellyfish"), 0, "ismcts:200").simulations == 200  # ismcts:N
    for bad in ("ismcts:0", "ismcts:x", "ismcts:-5"):
        with pytest.raises(UserError, match="simulations per decision"):
            make_agent(get_game("jellyfish"), 0, bad)
    with pytest.raises(UserError, match="unknown bot"):
        make_agent(get_game("jam"), 0, "ismcts")  # JamSumo has no IS-MCTS seat


def test_the_jams_resampling_re_deals_face_down_ingredients():
    """A face-down ingredient shows others only its fruit: a re-dealt world may hold any unseen
    card of that fruit there, and the seat's view (hence its search) stays the same."""
    from card_games.the_jam.rules import FACE_DOWN, SEEN_BY

    g = get_game("the_jam")
    for seed in range(40):
        state = g.new_initial_state(g.default_params(2), seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(seeded_outcome(state))
                continue
            seat = state.current_player()
            hidden = [r for m in state.made for r in m if FACE_DOWN in r and seat not in r[SEEN_BY]]
            if hidden:
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        if not state.is_terminal():
            break
    else:
        pytest.fail("no face-down ingredient in 40 random games")
    real = hidden[0][FACE_DOWN][0]
    fruit = state.card(real).bottom
    drawn = set()
    for k in range(30):
        world = state.perturb_hidden(seat, np.random.default_rng(k))
        assert world.observation(seat) == state.observation(seat)
        recipe = next(r for m in world.made for r in m if r["since"] == hidden[0]["since"])
        card = recipe[FACE_DOWN][0]
        assert card in recipe["under"] and world.card(card).bottom == fruit
        drawn.add(card)
    assert len(drawn) > 1  # not always the true card
    assert sorted(world.all_cards()) == sorted(state.all_cards())  # no card lost or doubled


def test_a_shared_win_returns_a_kth_to_each_winner():
    """A real three-way tie (JumbleJack, 4 seats, seed 2, random bots): OpenSpiel's returns pay
    each winner 1/3 and sum to 1 (the utility is constant-sum, sum 1, as registered)."""
    from card_games.openspiel.game import CardSpielState

    g = get_game("jumblejack")
    result = play(g, [RandomAgent(s, g) for s in range(4)], seed=2, params={"players": 4})
    assert sorted(result.winners) == [0, 2, 3]
    returns = CardSpielState(load("jumblejack"), result.state).returns()
    assert returns == pytest.approx([1 / 3, 0.0, 1 / 3, 1 / 3])
    assert sum(returns) == pytest.approx(1.0)


def test_resample_for_re_draws_the_other_seats_pending_choices():
    state = load("jumblejack").new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node() or not state.inner.is_simultaneous_node():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
        else:
            state.apply_action(state.legal_actions()[0])
    first = state.current_player()
    state.apply_action(state.legal_actions()[-1])  # the first pointer's hidden choice
    second = state.current_player()
    state.apply_action(state.legal_actions()[0])
    third = state.current_player()
    assert set(state.pending) == {first, second}
    drawn = set()
    for k in range(20):
        world = state.resample_for(second, np.random.default_rng(k))
        assert world.pending[second] == state.pending[second]  # its own choice is known
        assert world.pending[first] in world.inner.legal_actions(first)
        drawn.add(world.pending[first].name)
        assert world.information_state_string(second) == state.information_state_string(second)
    assert len(drawn) > 1  # the other seat's choice is re-drawn, not copied
    assert third not in state.pending


def test_the_trained_baseline_script_runs(monkeypatch, capsys):
    """A short run of examples/rl/train_linear_baseline.py (the full run is in the README)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "rl" / "train_linear_baseline.py"
    spec = importlib.util.spec_from_file_location("train_linear_baseline", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    argv = ["x", "--games", "60", "--eval", "20", "--block", "30", "--seed", "1"]
    monkeypatch.setattr(sys, "argv", argv)
    mod.main()
    out = capsys.readouterr().out
    assert out.count("win share in training") == 2 and "greedy vs random" in out
    assert mod.binomial_p(573, 1000, 0.5) < 1e-5 < mod.binomial_p(500, 1000, 0.5)
