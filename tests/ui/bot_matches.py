"""Whole bot-vs-bot matches in the play window on the real threaded path (``sync_bots=False``)."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pygame

from jamsumo_sim.turnloop import get_game
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.match_session import MatchSession
from tests.child_limits import cpu_deadline
from tests.ui.helpers import DT

# Playback this fast turns a shot's few simulated seconds into a frame or two: frames come as fast as
# the machine draws them (no waiting), so the bot thread and the drawing loop overlap all the time.
FAST = 64.0


@dataclass
class Played:
    session: MatchSession
    frames: int
    moves: int


def short_params(mode: str, players: int, max_turns: int = 1) -> dict:
    """One round per mode and ``max_turns`` shots a round: a whole match in a few moves."""
    game = get_game(mode)
    return game.validate_params(
        {**game.default_params(players), "rounds": 1, "max_turns": max_turns}
    )


def new_session(mode: str, seats: list[str], seed: int, params: dict | None = None) -> MatchSession:
    game = get_game(mode)
    full = params if params is not None else game.validate_params(game.default_params(len(seats)))
    return MatchSession(game.new_initial_state(full, seed=seed), seats)


def threaded_app(session: MatchSession) -> App:
    app = App(session, size=(1024, 640), sync_bots=False, autosave_enabled=False)
    app.bot_pause = 0.0  # ask the bot the moment its turn comes
    app.speeds, app.speed_index = [FAST], 0
    return app


def play_out(app: App, session: MatchSession, cpu_limit: float = 60.0) -> Played:
    """Step frames until ``session``'s match is over and still; round tables are clicked away.
    ``cpu_limit``: this process's CPU seconds (window and bot thread) before it counts as stuck."""
    if app.session is not session:
        app.session = session
        app._sync_view()
    frames = 0
    moves = len(app.flicks)
    stuck = cpu_deadline(cpu_limit)  # CPU, not wall time: load does not trip it
    while not (session.finished() and not app.busy):
        if session.table(app.theme) is not None and not session.finished():
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
        app.frame(DT)
        frames += 1
        seat = session.to_move()
        if seat is not None and not session.is_human(seat) and not app.busy:
            # the real loop waits for the next frame here (clock.tick), which lets the bot's thread
            # run; a loop that never waits starves it of the GIL (a 10 ms move then takes seconds)
            time.sleep(0.001)
        assert not stuck(), f"match not over after {frames} frames"
    return Played(session, frames, len(app.flicks) - moves)


def rules_only_history(mode: str, seats: list[str], seed: int, params: dict) -> list:
    """The same match played by the turn loop alone (no window, no thread)."""
    from jamsumo_sim.rules.match_cli import make_agents
    from jamsumo_sim.turnloop import play

    game = get_game(mode)
    return play(game, make_agents(game, seats), seed=seed, params=params).state.history
