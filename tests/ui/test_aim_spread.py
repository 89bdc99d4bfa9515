"""The aim hint shows the hand's spread at --table (an ellipse at the predicted rest point and a
fan of directions), nothing extra at --practice; a human's shot animates the executed flick."""

from __future__ import annotations

import math
from pathlib import Path

import pygame

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


def test_spread_is_drawn_at_table_and_not_at_practice(tmp_path):
    for level in ("table", "practice"):
        app = make_app(level)
        session = app.session
        p = session.params
        die = DieSpot("red1", -0.05, -0.12, 0.0, p.die_size)
        from jamsumo_sim.ui.gesture import flick_from_drag

        params = flick_from_drag(
            die,
            (die.x, die.y),
            (die.x, die.y - 0.04),
            0.5,
            app.gesture,
            p.max_launch_speed,
            p.die_mass,
            physics=p,
        )
        view = app.view()
        app.screen.fill((0, 0, 0))
        before = pygame.surfarray.array3d(app.screen).copy()
        spread = aim_spread.draw(app.screen, view, app.theme, session, die, params)
        after = pygame.surfarray.array3d(app.screen)
        changed = int((before != after).any(axis=2).sum())
        if level == "practice":
            assert spread is None and changed == 0
            continue
        assert spread is not None and spread.major > 0 and spread.minor > 0
        # the predicted point lies along the push (+y here), at the free-slide reach
        assert abs(spread.x - die.x) < 1e-9 and spread.y > die.y
        # the ellipse's long axis is along the push (speed spread), its width the aim spread
        assert abs(math.sin(spread.angle)) > 0.99
        assert changed > 100
        cx, cy = px(view.to_screen(spread.x, spread.y))
        assert tuple(app.screen.get_at((cx, cy)))[:3] == app.theme.colour("aim")
        Path(SHOTS).mkdir(exist_ok=True)
        app.draw()
        aim_spread.draw(app.screen, view, app.theme, session, die, params)
        pygame.image.save(app.screen, str(Path(SHOTS) / "aim-spread.png"))


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
