"""The practice heat map (H): computed off the window's thread, drawn as it fills in, dropped when the
position changes, never at the table; its colours stay ordered for every kind of colour vision."""

from __future__ import annotations

import math
import sys
import time

import numpy as np
import pygame

from jamsumo_sim.ui import heat_worker, palette
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.heat_overlay import HeatSettings, colour_at, plan_for, spread_order
from tests.child_limits import HANG_GUARD_S
from tests.ui.helpers import DT, key
from tests.ui.test_views import SHOTS, sandbox, shoot

# 16 directions: from the corner die fewer leave too few cells whose dots lie clear of the dice and
# the hovered die's name tag to check the colours of (two with 8 on model 0.15, two with 12 on 0.18)
SMALL = HeatSettings(directions=16, finger_speeds=(1.5,), repeats=3)


def _hover(app: App, die) -> None:
    """Move the pointer over ``die`` (a real MOUSEMOTION event)."""
    at = tuple(round(c) for c in app.view().to_screen(die.x, die.y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    app.frame(DT)


def _corner_die(session):
    return max(session.world().states(), key=lambda s: abs(s.x) + abs(s.y))


def _app_with_map():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    app.heat.settings = SMALL
    app.frame(DT)
    die = _corner_die(s)
    _hover(app, die)
    key(app, pygame.K_h)
    return s, app, die


def _idle(seconds: float = 0.004) -> None:
    """The window's wait for the next frame (clock.tick): the worker's time to run."""
    time.sleep(seconds)


def test_viridis_gets_lighter_for_every_colour_vision():
    ps = np.linspace(0.0, 1.0, 21)
    for vision in palette.VISIONS:
        lightness = [palette.seen_as(colour_at(p), vision)[0] for p in ps]
        assert all(b > a + 1.0 for a, b in zip(lightness, lightness[1:], strict=False)), vision
    assert palette.delta_e(colour_at(0.0), colour_at(1.0), "greyscale") > 60


def test_spread_order_covers_every_cell_once_and_halves_first():
    assert spread_order(8)[:2] == [0, 4] and sorted(spread_order(8)) == list(range(8))
    assert sorted(spread_order(24)) == list(range(24))


def test_map_fills_in_while_frames_keep_coming_and_is_drawn():
    switch = sys.getswitchinterval()
    s, app, die = _app_with_map()
    assert sys.getswitchinterval() < switch  # the window gets the interpreter back sooner
    job = app.heat.job
    assert job is not None and job.plan.die == die.id and job.total == SMALL.directions
    seen = []
    frames0 = app.frames
    hang_guard = time.monotonic() + HANG_GUARD_S
    while time.monotonic() < hang_guard:  # frames until the map is done, however slow the machine
        app.frame(DT)
        seen.append(len(job.cells))
        if job.done():
            break
        _idle()
    app.frame(DT)
    assert job.done() and not job.error and len(job.cells) == SMALL.directions
    assert app.frames - frames0 == len(seen) + 1  # a frame every time, never blocked by the map
    assert len(set(seen)) >= 4  # partial maps were shown on the way: 0, some cells, ..., all
    assert seen[0] < SMALL.directions
    path = SHOTS / "heat_overlay.png"
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(path))
    # each cell's dot is at its mean rest point, in the colour of its probability
    view, drawn = app.view(), 0
    dice = s.world().states()
    for cell in job.cells:
        if cell.shots == 0:
            continue
        at = tuple(round(c) for c in view.to_screen(cell.x, cell.y))
        if at[0] < 230 and at[1] < 120:  # under the legend
            continue
        # the dice (and the hovered die's name tag above it) are drawn over the map
        size = s.params.die_size
        if any(abs(d.x - cell.x) < 0.75 * size and abs(d.y - cell.y) < 0.75 * size for d in dice):
            continue
        if abs(cell.x - die.x) < 2 * size and 0 < cell.y - die.y < 2.5 * size:
            continue
        got = app.screen.get_at(at)[:3]
        want = colour_at(cell.p[app.heat.measure])
        covered = any(  # another cell's dot may lie on top: any cell's colour there
            app.screen.get_at(at)[:3] == colour_at(c.p[app.heat.measure]) for c in job.cells
        )
        assert got == want or covered, (cell, got, want)
        drawn += 1
    assert drawn >= 3
    # the legend's colour bar runs from viridis' dark end to its light end
    legend = {app.screen.get_at((x, y))[:3] for x in range(8, 240) for y in range(8, 60)}
    assert {colour_at(1 / 199), colour_at(100 / 199), colour_at(198 / 199)} <= legend  # 200 px
    key(app, pygame.K_h)
    assert app.heat.job is None and "off" in app.message
    assert sys.getswitchinterval() == switch  # the interpreter's own setting is back


def test_the_worker_waits_while_the_window_builds_a_frame():
    s = sandbox()
    st = _corner_die(s)
    plan = plan_for(st.id, None, "sandbox", SMALL, 0.5, 20.0)
    colours = {d.id: s.die_colour_name(d.id) for d in s.world().states()}
    job = heat_worker.start(s.world(), plan, None, colours)
    try:
        while not job.cells and not job.done():
            time.sleep(0.005)
        job.pause()
        held = len(job.cells)
        time.sleep(
            0.4
        )  # several shots' worth of time (on a busy machine fewer: never a false alarm)
        assert len(job.cells) <= held + 1  # at most the cell whose last shot was finishing
        job.resume()
        job.thread.join(timeout=HANG_GUARD_S)
        assert len(job.cells) == SMALL.directions
    finally:
        job.cancel()


def test_a_shot_cancels_the_map():
    s, app, die = _app_with_map()
    job = app.heat.job
    assert job is not None
    app.frame(DT)
    app.start_shot(0, shoot(s, die.id, math.atan2(-die.y, -die.x), 0.6))
    app.frame(DT)
    assert app.heat.job is None and "position changed" in app.message
    assert job.stopped.is_set()
    job.thread.join(timeout=HANG_GUARD_S)
    assert not job.thread.is_alive()


def test_undo_cancels_the_map():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    app.heat.settings = SMALL
    a = _corner_die(s)
    s.commit(shoot(s, a.id, math.atan2(-a.y, -a.x), 0.4))
    app.frame(DT)
    _hover(app, _corner_die(s))
    key(app, pygame.K_h)
    job = app.heat.job
    assert job is not None
    key(app, pygame.K_u)
    assert app.heat.job is None and job.stopped.is_set()


def test_shift_h_shows_the_next_outcome():
    s, app, _ = _app_with_map()
    assert app.heat.measure == 0
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_h, mod=pygame.KMOD_LSHIFT, unicode="H")
    )
    app.frame(DT)
    assert app.heat.measure == 1 and "leaves the board" in app.message
    app.heat.stop()


def test_no_heat_map_at_the_table():
    from jamsumo_sim.ui.match_session import new_match

    session = new_match("sumo", ["human", "human"], 3, noise="table", sumo_setup="grid")
    app = App(session, size=(1024, 640), autosave_enabled=False)
    app.frame(DT)
    seat = session.to_move()
    die = next(st for st in session.world().states() if st.id in session.flickable(seat))
    _hover(app, die)
    key(app, pygame.K_h)
    assert app.heat.job is None and "practice" in app.message
