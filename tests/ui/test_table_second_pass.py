"""Issue #35 §5, the small things: R after a bot's shot, a die dropping into the hole in Jam said as
good news, chain hits in the "what was hit" line and those lines surviving a resume, "U undo" listed
only where undo is allowed, quitting while a bot thinks. Real frames (dummy video driver)."""

from __future__ import annotations

import math
import os
import tempfile
import threading
from pathlib import Path

import pygame

from jamsumo_sim.physics.events import Event
from jamsumo_sim.ui import autosave
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.gesture import DieSpot, flick_from_drag
from jamsumo_sim.ui.match_session import new_match, resume_match
from jamsumo_sim.ui.panel_status import help_lines
from jamsumo_sim.ui.session import Placement
from jamsumo_sim.ui.shot_preview import draw_preview, predict
from jamsumo_sim.ui.shot_story import describe
from tests.ui.helpers import DT, key, run_until_idle

SHOTS = Path(os.environ.get("JAMSUMO_UI_SHOTS", tempfile.gettempdir())) / "jamsumo-ui-shots"


def test_r_replays_a_bots_shot():
    session = new_match("jam", ["human", "planner:easy"], 4)
    app = App(session, size=(1024, 640), sync_bots=True, autosave_enabled=False)
    app.bot_pause = 0.0
    bot_shot = False
    for _ in range(3000):
        app.frame(DT)
        bot_shot |= app.shot is not None and app.shot.seat == 1
        if bot_shot and not app.busy and session.to_move() == 0 and app.turning is None:
            break
    assert bot_shot and app.last_shot is not None and app.last_shot.seat == 1
    key(app, pygame.K_r)
    assert app.replaying and app.busy
    n = len(session.log())
    run_until_idle(app)
    assert not app.replaying and len(session.log()) == n  # for show only


def _hole_flick(app: App):
    session = app.session
    seat = session.to_move()
    p = session.params
    zone = min(session.board.platforms, key=lambda z: z.name)
    die = DieSpot(session.hand(seat)[0], zone.x, zone.y, 0.0, p.die_size)
    toward = math.atan2(-zone.y, -zone.x)
    for pull in (0.03, 0.035, 0.04, 0.045, 0.05):
        back = (zone.x - pull * math.cos(toward), zone.y - pull * math.sin(toward))
        params = flick_from_drag(
            die, (die.x, die.y), back, 0.5, app.gesture, p.max_launch_speed, p.die_mass, physics=p
        )
        placement = Placement(die.id, zone.name, zone.x, zone.y, 0.0)
        action = session.make_action(seat, params, placement)
        preview = predict(session, seat, action, die.id)
        if preview.good:
            return preview
    raise AssertionError("no pull drops the die into the hole")


def test_a_die_dropping_into_the_hole_in_jam_is_good_news_not_a_warning():
    app = App(new_match("jam", ["human", "human"], 3), size=(1024, 640), autosave_enabled=False)
    app.frame(DT)
    run_until_idle(app)
    preview = _hole_flick(app)
    assert preview.warnings and "dropped into the hole" in preview.warnings[0]
    theme = app.theme
    app.screen.fill((0, 0, 0))
    draw_preview(app.screen, app.view(), preview, app.session.params.die_size,
                 theme.colour("aim"), theme.colour("warning"), good_colour=theme.colour("good"))  # fmt: skip
    seen = {tuple(c)[:3] for c in pygame.surfarray.array3d(app.screen).reshape(-1, 3)}
    assert theme.colour("good") in seen and theme.colour("warning") not in seen
    SHOTS.mkdir(exist_ok=True)
    pygame.image.save(app.screen, str(SHOTS / "hole-good-news.png"))


def test_the_hit_line_names_chain_hits():
    events = [
        Event(0.1, "collision", ("red1", "blue2"), {"kind": "die"}),
        Event(0.2, "collision", ("blue2", "blue5"), {"kind": "die"}),
        Event(0.3, "collision", ("blue5", "red4"), {"kind": "die"}),
        Event(0.4, "collision", ("green1", "green2"), {"kind": "die"}),  # not set moving by it
    ]
    assert describe("red1", events) == "red1 hit blue2; hit blue5 and red4 in a chain"


def test_the_hit_lines_survive_a_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    session = new_match("jam", ["human", "human"], 5)
    app = App(session, size=(1024, 640), autosave_enabled=True)
    app.frame(DT)
    run_until_idle(app)
    n = len(session.log())
    app.stories = [(n, "red1 hit blue2; hit blue5 in a chain")]
    app.autosave()
    data = autosave.read(autosave.autosave_path())
    again = App(resume_match(data), size=(1024, 640), autosave_enabled=False)
    assert again.stories == app.stories
    again.frame(DT)
    assert "red1 hit blue2; hit blue5 in a chain" in again._with_stories(tuple(session.log()))
    # a damaged list is dropped, not an error (an untrusted file)
    data["stories"] = [["x", 1], [10**9, "too late"], "junk"]
    assert resume_match(data).saved_stories == []


def test_u_undo_is_listed_only_where_undo_is_allowed():
    table = App(new_match("jam", ["human", "human"], 1, noise="table"), size=(1024, 640),
                autosave_enabled=False)  # fmt: skip
    practice = App(new_match("jam", ["human", "human"], 1, noise="practice"), size=(1024, 640),
                   autosave_enabled=False)  # fmt: skip
    assert not any("U undo" in line for line in help_lines(table))
    assert any("U undo" in line for line in help_lines(practice))


class _Stubborn:
    """A bot that thinks until told to stop (cancel), like a long planner search."""

    def __init__(self) -> None:
        self.stop = threading.Event()

    def cancel(self) -> None:
        self.stop.set()

    def act(self, view):
        self.stop.wait(60)  # hang guard only
        raise RuntimeError("cancelled")


def test_quitting_while_a_bot_thinks_stops_the_bot_at_once():
    session = new_match("jam", ["planner:easy", "planner:easy"], 2)
    bots = {0: _Stubborn(), 1: _Stubborn()}
    session.agents.update(bots)
    app = App(session, size=(1024, 640), sync_bots=False, autosave_enabled=False)
    app.bot_pause = 0.0
    for _ in range(20):
        app.frame(DT)
    job = app._bot_job
    assert job is not None and job.thread.is_alive()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.frame(DT)
    assert not app.running
    assert not job.thread.is_alive()  # told to stop, and joined: nothing holds the exit
