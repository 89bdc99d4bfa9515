"""Issue #35 §6: an idle window is idle: with nothing moving it sleeps in pygame.event.wait and draws
nothing until an event comes; an event draws one frame; a shot, a bot's turn or an aim keep frames
coming. (The CPU figure is benchmarks/bench_ui.py --idle.)"""

from __future__ import annotations

import pygame

from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.match_session import new_match
from tests.ui.helpers import DT, run_until_idle


def idle_app() -> App:
    app = App(new_match("jam", ["human", "human"], 3), size=(1024, 640), autosave_enabled=False)
    for _ in range(240):
        app.frame(DT)
        if app.idle():
            break
    run_until_idle(app)
    assert app.idle()
    return app


def test_a_still_window_sleeps_until_an_event_and_draws_one_frame_for_it():
    app = idle_app()
    start = app.frames
    # an event, then quit: both arrive after at least one idle timeout (the timers fire
    # late, never early), and only they draw frames
    pygame.time.set_timer(pygame.USEREVENT, app.idle_timeout_ms + 300, loops=1)
    pygame.time.set_timer(pygame.QUIT, 2 * app.idle_timeout_ms + 600, loops=1)
    app.run()
    assert not app.running
    assert app.idle_waits >= 1  # it slept through timeouts without drawing
    assert app.frames - start <= 2  # the event's frame and the quitting one


def test_moving_things_keep_the_frames_coming():
    app = idle_app()
    from jamsumo_sim.ui.aiming import Aim
    from jamsumo_sim.ui.gesture import DieSpot

    app.aim = Aim(DieSpot("red1", 0.0, -0.18, 0.0, 0.016), (0.0, -0.18), (0.0, -0.2))
    assert not app.idle()  # aiming: the preview and the spread update on their own clocks
    app.aim = None
    bots = App(new_match("jam", ["planner:easy", "human"], 3), size=(1024, 640),
               autosave_enabled=False, sync_bots=True)  # fmt: skip
    bots.frame(DT)
    if bots.session.to_move() == 0:
        assert not bots.idle()  # a bot about to move
