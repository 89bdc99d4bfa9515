"""Undo of the last shot in a practice match (refused at the table level), and the replay viewer
animating a `--table` shot as it was executed (with its recorded noise), not as it was aimed."""

from __future__ import annotations

import numpy as np
import pygame

from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.turnloop import get_game, play, seat_view
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.match_session import new_match
from jamsumo_sim.ui.replay_viewer import ReplayApp, ReplaySession, load_states
from tests.ui.helpers import DT, fast, key, run_until_idle


def hot_seat(noise: str) -> App:
    session = new_match("sumo", ["human", "human"], 3, noise=noise, sumo_setup="grid")
    app = App(session, size=(1024, 640), sync_bots=True, autosave_enabled=False)
    app.frame(DT)  # the round-marker roll
    run_until_idle(app)
    return app


def scene(app: App) -> tuple:
    st = app.session.state
    dice = tuple((s.id, s.status, round(s.x, 9), round(s.y, 9)) for s in st.world.states())
    return dice, tuple(st.current_scores()), tuple(st.totals()), len(st.history)


def shoot_once(app: App) -> None:
    """The seat to move plays a (random, legal) flick through the window and it comes to rest."""
    st = app.session.state
    seat = app.session.to_move()
    action = RandomBot(seat, st.game).act(seat_view(st, seat))
    assert not app.session.is_pass(action)
    app.start_shot(seat, action)
    fast(app)
    run_until_idle(app)


def test_practice_undo_puts_the_dice_and_score_back():
    app = hot_seat("practice")
    before = scene(app)
    first = app.session.to_move()
    shoot_once(app)
    assert scene(app) != before
    key(app, pygame.K_u)
    assert app.message == "Last shot taken back.", app.message
    assert scene(app) == before
    assert app.session.to_move() == first
    key(app, pygame.K_u)  # nothing left to take back: says so, changes nothing
    assert app.message == "Undo: nothing to take back yet." and scene(app) == before


def test_undo_is_refused_at_the_table_level_with_one_line():
    app = hot_seat("table")
    shoot_once(app)
    after = scene(app)
    key(app, pygame.K_u)
    assert "No undo at the table level" in app.message and "\n" not in app.message
    assert scene(app) == after


def _table_replay(tmp_path):
    from jamsumo_sim.replay import save_replay
    from jamsumo_sim.rules.match_cli import make_agents

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 1, "noise": "table"})
    result = play(game, make_agents(game, ["random", "random"]), seed=5, params=params)
    path = tmp_path / "table.json"
    save_replay(path, result.state, ["random", "random"])
    return load_states(str(path))


def test_the_replay_viewer_animates_the_executed_shot_at_the_table_level(tmp_path):
    states, actions, seats = _table_replay(tmp_path)
    session = ReplaySession(states, actions, seats)
    app = ReplayApp(session, speed=4.0, size=(1024, 640))
    for _ in range(200):  # the pause before the first shot, then its animation starts
        app.frame(DT)
        if app.anim is not None:
            break
    assert app.anim is not None and session.position == 0
    shown = app.anim.world
    shown.run_until_rest(float(states[0].shot_time))
    # what the rules did: the flick and, right after it in the history, its execution error
    ref = states[0].clone()
    ref.apply_action(actions[0])
    assert ref.pending is not None  # at the table level the hand's error is a chance move
    from jamsumo_sim.turnloop.driver import seeded_outcome

    ref.apply_action(seeded_outcome(ref))
    aimed = states[0].preview(actions[0])
    aimed.run_until_rest(float(states[0].shot_time))

    def spots(world):
        return np.array([(world.state(s.id).x, world.state(s.id).y) for s in ref.world.states()])

    assert np.allclose(spots(shown), spots(ref.world), atol=1e-9)
    assert not np.allclose(spots(aimed), spots(ref.world), atol=1e-6)  # the noise mattered


def test_the_set_up_hides_the_strike_height_and_names_its_own_controls():
    from jamsumo_sim.ui.placement import SETUP_HELP

    session = new_match("sumo", ["human", "human"], 2)
    app = App(session, size=(1024, 640), sync_bots=True, autosave_enabled=False)
    app.frame(DT)  # the round-marker roll
    run_until_idle(app)
    assert session.setting_up() is not None and app.human_to_move() is not None
    app.frame(DT)
    info = app._decorate(session.panel(app.theme), None)
    assert not any("strike height" in line for line in info.aim), info.aim
    assert info.help_lines == SETUP_HELP
