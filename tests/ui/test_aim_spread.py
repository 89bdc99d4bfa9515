"""The aim hint shows the hand's spread at --table (drawn executions stepped through the physics),
nothing extra at --practice; a human's shot animates the executed flick."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from jamsumo_sim.ui import aim_spread
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.gesture import DieSpot
from jamsumo_sim.ui.match_session import new_match
from tests.ui.helpers import DT, px, run_until_idle

SHOTS = "/tmp/jamsumo-shots"


def make_app(level: str) -> App:
    session = new_match("jam", ["human", "human"], 3, noise=level)
    app = App(session, size=(1024, 640), sync_bots=True, autosave_enabled=False)
    app.frame(DT)
    run_until_idle(app)
    return app


def test_the_spread_is_executions_stepped_through_the_physics_at_table_only(tmp_path):
    """Issue #35: one answer to "where will it stop": at --table the spread is drawn executions of
    the aimed flick stepped through the match's own physics (the same as the real shot given that
    error), nothing at --practice; the draws are seeded (the same cloud for the same aim)."""
    from jamsumo_sim import noise

    for level in ("table", "practice"):
        app = make_app(level)
        session = app.session
        seat = session.to_move()
        p = session.params
        st = (
            next(s for s in session.world().states() if s.id in session.flickable(seat))
            if (session.flickable(seat))
            else None
        )
        from jamsumo_sim.ui.gesture import flick_from_drag
        from jamsumo_sim.ui.session import Placement
        from jamsumo_sim.ui.tray import zone_at

        zone = session.board.platforms[0]
        die_id = session.hand(seat)[0] if st is None else st.id
        x, y = (zone.x, zone.y) if st is None else (st.x, st.y)
        placement = Placement(die_id, zone.name, x, y, 0.0) if st is None else None
        assert zone_at(session.board, x, y) is not None or st is not None
        die = DieSpot(die_id, x, y, 0.0, p.die_size)
        toward = math.atan2(-y, -x)
        back = (x - 0.04 * math.cos(toward), y - 0.04 * math.sin(toward))
        params = flick_from_drag(
            die, (x, y), back, 0.5, app.gesture, p.max_launch_speed, p.die_mass, physics=p
        )
        action = session.make_action(seat, params, placement)
        assert session.why_illegal(seat, action) is None
        points = aim_spread.sample_rests(session, action, die_id, 6)
        if level == "practice":
            assert points == []
            continue
        assert len(points) == 6
        assert points == aim_spread.sample_rests(session, action, die_id, 6)  # seeded
        # each point is the real shot with that error: the match's own preview, run to rest
        rng = np.random.default_rng(aim_spread.SEED)
        execution = noise.as_action(noise.draw(session.state.noise, rng))
        world = session.state.preview(action, execution)
        world.run_until_rest(session.state.shot_time)
        first = world.state(die_id)
        assert (points[0].x, points[0].y, points[0].status) == (first.x, first.y, first.status)
        assert len({(q.x, q.y) for q in points}) > 1  # a spread, not one point
        # drawn in the window while aiming (after the cache's interval)
        from jamsumo_sim.ui.aiming import Aim

        app.aim = Aim(die, (x, y), back, placement)
        for _ in range(20):
            app.frame(DT)
        assert app.spreads.value and app.spreads.key == (params, placement)
        view = app.view()
        c = px(view.to_screen(app.spreads.value[0].x, app.spreads.value[0].y))
        ring = max(3, round(view.length(p.die_size) * 0.25))
        near = [
            tuple(app.screen.get_at((c[0] + dx, c[1] + dy)))[:3]
            for dx in range(-ring - 1, ring + 2)
            for dy in range(-ring - 1, ring + 2)
        ]
        assert app.theme.colour("aim") in near
        Path(SHOTS).mkdir(exist_ok=True)
        app.screenshot(str(Path(SHOTS) / "aim-spread.png"))


def test_a_table_flick_animates_and_commits_the_executed_shot():
    app = make_app("table")
    session = app.session
    seat = session.to_move()
    # a die on the board: put one there through the rules' own placement from hand
    from jamsumo_sim.ui.gesture import FlickParams

    zone = session.board.platforms[0]
    mass = session.params.die_mass
    d = math.atan2(-zone.y, -zone.x)
    die = "red1" if seat == 0 else "blue1"
    fp = FlickParams(die, d, 1.0 * mass, 0.0, 0.5, 1.0, 0.3, d + math.pi)
    from jamsumo_sim.ui.session import Placement

    place = Placement(fp.die, zone.name, zone.x, zone.y, 0.0)
    assert app.try_flick(seat, fp, place), app.message
    executed = session.state.next_execution()
    assert executed is not None
    run_until_idle(app)
    assert session.mismatches == 0  # the animation ended where the rules' executed shot did
    hist = session.state.history
    assert hist[-1]["chance"]["name"] == executed.name
