"""Issue #35: a bot thinking shows a cue with how far its search is; the planner reports its search's
progress exactly (simulations done over its budget). Real threaded bot path, screenshot kept."""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path

from jamsumo_sim.rules.bots import PlannerBot
from jamsumo_sim.rules.game import JAM
from jamsumo_sim.turnloop import seat_view
from jamsumo_sim.ui import thinking
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.match_session import new_match
from tests.jamsumo.helpers import new_state
from tests.ui.helpers import DT

SHOTS = Path(os.environ.get("JAMSUMO_UI_SHOTS", tempfile.gettempdir())) / "jamsumo-ui-shots"


def test_the_planner_reports_its_search_progress_up_to_its_budget():
    state = new_state("jam", seed=3, rounds=1)
    while state.current_player() < 0:
        from jamsumo_sim.turnloop.driver import seeded_outcome

        state.apply_action(seeded_outcome(state))
    seat = state.current_player()
    bot = PlannerBot(seat, JAM, level="easy")
    assert bot.progress() is None  # nothing searched yet
    seen: list[float] = []
    evaluate = bot.evaluate

    def watched(*args, **kwargs):
        value = evaluate(*args, **kwargs)
        seen.append(bot.progress())
        return value

    bot.evaluate = watched  # type: ignore[method-assign]
    bot.act(seat_view(state, seat))
    assert seen and seen == sorted(seen) and seen[0] > 0
    assert seen[-1] == 1.0  # the budget is exactly the simulations the search makes


class _SlowBot:
    """Thinks until released, saying it is 40 % through."""

    def __init__(self, action) -> None:
        self.action = action
        self.release = threading.Event()

    def progress(self) -> float:
        return 0.4

    def act(self, view):
        self.release.wait(60)  # hang guard only: the test releases it
        return self.action


def test_the_window_shows_who_is_thinking_and_how_far_then_clears():
    session = new_match("jam", ["planner:easy", "planner:easy"], 3)
    slow = {seat: _SlowBot(None) for seat in (0, 1)}
    session.agents.update(slow)
    app = App(session, size=(1024, 640), sync_bots=False, autosave_enabled=False)
    app.bot_pause = 0.0
    for _ in range(10):
        app.frame(DT)
    seat = session.to_move()
    assert seat is not None and app._bot_job is not None
    cue = thinking.text_of(app)
    assert cue is not None and cue[1] == 0.4
    assert "is thinking… 40 %" in cue[0] and session.seat_colour_name(seat).capitalize() in cue[0]
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / "thinking-cue.png"))
    colour = app.theme.dice_colour(session.seat_colour_name(seat))
    rect = app.layout().board_rect
    top = [
        tuple(app.screen.get_at((x, y)))[:3]
        for x in range(rect[0], rect[0] + rect[2])
        for y in range(rect[1], rect[1] + 60)
    ]
    assert colour in top  # the card's frame and the bar in the seat's colour
    slow[seat].action = session.state.legal_actions(seat)[0]
    slow[seat].release.set()
    app._bot_job.thread.join(30)  # hang guard only
    for _ in range(3):
        app.frame(DT)
    assert thinking.text_of(app) is None
