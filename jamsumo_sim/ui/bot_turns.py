"""A bot's turn in the window: wait a moment, think (on a worker thread, on its own copy of the
match), show its aim for a moment, then shoot through the App like a person's flick."""

from __future__ import annotations

from typing import Any

from jamsumo_sim.ui import bot_worker
from jamsumo_sim.ui.bot_aim import BotAim, flick_of


def update(app: Any, dt: float) -> None:
    """One frame of the bot to move: its aim on show, or its thinking."""
    if not app.running:
        return  # the window is closing: no bot is asked (one thinking was told to stop)
    if app.bot_aim is not None:
        _show_aim(app, dt)
    else:
        _think(app, dt)


def _think(app: Any, dt: float) -> None:
    session = app.session
    seat = session.to_move()
    if seat is None or session.is_human(seat) or app.busy or app.table_shown():
        app.bot_wait = 0.0
        return
    if app.paused:
        return
    job = app._bot_job
    if job is None:
        app.bot_wait += dt
        if app.bot_wait < app.bot_pause:
            return
        # the bot's copy of the match is taken here, on this thread (see bot_worker)
        app._bot_job = job = bot_worker.start(session, seat, threaded=not app.sync_bots)
    if not job.done():
        return
    app._bot_job = None
    if not job.matches(session, seat):
        return  # the match moved on while the bot thought: ask again
    app.bot_wait = 0.0
    try:
        action = job.take()
    except Exception as exc:
        app.message = f"Bot failed: {exc}"
        raise
    # the bot's aim shows for a moment before it shoots
    shown = None if session.is_pass(action) else flick_of(action, session.params.die_mass)
    app.bot_aim = BotAim(seat, action, shown, app.bot_aim_time if shown else 0.0)


def _show_aim(app: Any, dt: float) -> None:
    aim = app.bot_aim
    if aim is None or app.paused:
        return
    if aim.advance(dt):
        app.bot_aim = None
        app.start_shot(aim.seat, aim.action)
