"""The replay viewer steps through a recorded match and draws it like play."""

from __future__ import annotations

import pygame
import pytest

from jamsumo_sim.turnloop import get_game, play
from jamsumo_sim.ui.replay_viewer import ReplayApp, ReplaySession, load_states
from tests.ui.helpers import DT, key


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory):
    from jamsumo_sim.replay import save_replay
    from jamsumo_sim.rules.match_cli import make_agents

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 1})
    result = play(game, make_agents(game, ["random", "random"]), seed=4, params=params)
    path = tmp_path_factory.mktemp("replays") / "sumo.json"
    save_replay(path, result.state, ["random", "random"])
    return path


def test_states_before_every_shot(replay_file):
    states, actions, seats = load_states(str(replay_file))
    assert len(states) == len(actions) + 1 >= 3
    assert seats == ["random", "random"]
    assert states[-1].is_terminal()
    # each state is the one before its shot: the next state has one more recorded move
    assert len(states[1].history) > len(states[0].history)


def test_viewer_steps_forward_and_back(replay_file):
    states, actions, seats = load_states(str(replay_file))
    app = ReplayApp(ReplaySession(states, actions, seats), size=(1024, 640))
    key(app, pygame.K_SPACE)  # pause: nothing moves by itself
    assert not app.playing
    for _ in range(60):
        app.frame(DT)
    assert app.session.position == 0 and app.anim is None
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    assert app.session.position == 2
    assert len(app.session.state.history) == len(states[2].history)
    key(app, pygame.K_LEFT)
    assert app.session.position == 1
    key(app, pygame.K_HOME)
    assert app.session.position == 0


def test_viewer_plays_shots_with_animation(replay_file):
    states, actions, seats = load_states(str(replay_file))
    app = ReplayApp(ReplaySession(states, actions, seats), speed=4.0, size=(1024, 640))
    saw_anim = False
    frames = 0
    while app.session.position < 2 and frames < 2000:
        app.frame(DT)
        saw_anim = saw_anim or app.anim is not None
        frames += 1
    assert app.session.position >= 2
    assert saw_anim
    assert "Shot" in app.session.panel(app.theme).turn_text


def test_replay_command_writes_a_screenshot(replay_file, tmp_path):
    from jamsumo_sim.cli import main

    out = tmp_path / "replay.png"
    assert main(["replay", str(replay_file), "--frames", "5", "--screenshot", str(out)]) == 0
    assert out.stat().st_size > 1000
