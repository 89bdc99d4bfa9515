"""The window as a network client: real mouse events flick, the host plays every move, and the
match ends with the same result on the host and in the window (dummy SDL driver)."""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from dataclasses import replace

import pygame
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from jamsumo_sim.errors import UserError  # noqa: E402
from jamsumo_sim.net.client import JoinOptions, own_result  # noqa: E402
from jamsumo_sim.net.host import Host, HostOptions  # noqa: E402
from jamsumo_sim.net.limits import net_limits  # noqa: E402
from jamsumo_sim.physics.board import from_seat  # noqa: E402
from jamsumo_sim.turnloop import get_game  # noqa: E402
from tests.child_limits import HANG_GUARD_S, cpu_deadline  # noqa: E402
from tests.net.helpers import bot, result_of  # noqa: E402
from tests.ui.helpers import DT, fast, post_drag, px  # noqa: E402

# A safety stop far beyond the match's length, in this process's CPU time (window and host thread):
# under load a fixed number of fast frames, or a wall-clock deadline, could end before the host's
# moves arrive; CPU time only runs while something here works.
STUCK_CPU_S = 180.0


@pytest.fixture(autouse=True)
def _window_env(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    yield
    pygame.quit()


class HostThread:
    """A host serving on the loopback from its own thread (the window needs the test's thread)."""

    def __init__(self, mode: str, seats: list[str], noise: str = "practice") -> None:
        game = get_game(mode)
        params = {"players": len(seats), "max_turns": 4, "rounds": 1, "noise": noise}
        state = game.new_initial_state(game.validate_params(params), seed=5)
        agents = {s: bot(game, s) for s, kind in enumerate(seats) if kind != "remote"}
        self.host = Host(
            state,
            seats,
            agents,
            lambda seat: bot(game, seat),
            lambda s: result_of(s, seats),
            # wall-time limits far beyond a loaded machine's pauses (the window's first flick
            # compiles the physics kernels): only the hang guard may end this test
            HostOptions(
                port=0,
                linger=HANG_GUARD_S,
                grace=HANG_GUARD_S,  # a window closed and opened again finds its seat still open
                limits=replace(
                    net_limits(), handshake_timeout_s=HANG_GUARD_S, hello_timeout_s=HANG_GUARD_S
                ),
            ),
            say=lambda text: None,
        )
        self.result: dict | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(HANG_GUARD_S)

    def _run(self) -> None:
        async def main() -> dict:
            task = asyncio.create_task(self.host.run())
            await self.host.ready.wait()
            self.ready.set()
            return await task

        self.result = asyncio.run(main())

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.host.port}"


def _flick_from_tray_or_board(app) -> None:
    """The person's turn with real mouse events: a die from the tray onto the nearest JAM zone
    and flicked towards the hole, or (hand empty) a die on the board flicked towards it."""
    session = app.session
    seat = session.me
    view = app.view()
    if session.hand(seat):
        slot = app.hand_slots(seat)[0]
        side = session.view_side(seat)
        here = from_seat(side, 0.0, -0.18)
        zone = min(session.board.platforms, key=lambda p: math.hypot(p.x - here[0], p.y - here[1]))
        post_drag(app, px(view.to_screen(slot.x, slot.y)), px(view.to_screen(zone.x, zone.y)))
        x, y = app.placement.x, app.placement.y
    else:
        die = session.world().state(session.flickable(seat)[0])
        x, y = die.x, die.y
    d = math.atan2(-y, -x)
    start = px(view.to_screen(x, y))
    end = px(view.to_screen(x - 0.03 * math.cos(d), y - 0.03 * math.sin(d)))
    post_drag(app, start, end)


def test_a_window_client_flicks_and_ends_with_the_hosts_result(tmp_path):
    from jamsumo_sim.ui.app import App
    from jamsumo_sim.ui.net_session import join_window

    served = HostThread("jam", ["remote", "planner"])
    notes: list[str] = []
    session = join_window(served.url, JoinOptions(seat=0, name="win"), notes.append)
    app = App(session, size=(1024, 640), autosave_enabled=False)
    fast(app)
    app.bot_aim_time = 0.05
    # a chat line typed in the window (C opens it, Enter sends it) comes back from the host
    for k, ch in ((pygame.K_c, ""), (pygame.K_h, "h"), (pygame.K_i, "i"), (pygame.K_RETURN, "")):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=ch))
    app.frame(DT)
    mine = 0
    shot_seen_busy = False
    try:
        stuck = cpu_deadline(STUCK_CPU_S)
        while not stuck():
            if app.table_shown() and not session.finished():
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
            if app.human_to_move() == 0:
                before = len(app.flicks)
                _flick_from_tray_or_board(app)
                assert len(app.flicks) == before + 1, app.message
                mine += 1
            app.frame(DT)
            if not app.busy:
                time.sleep(0.001)  # waiting for the host: leave it the CPU
            shot_seen_busy |= app.busy and app.shot is not None and app.shot.seat == 1
            if session.finished() and session.link.result is not None and not app.busy:
                break
        else:
            client = session.link.client
            pytest.fail(
                f"no end: window at {len(session.state.history)} to move {session.to_move()} "
                f"sent {session.sent_at}, host at {len(served.host.state.history)}, client at "
                f"{client.at} turn {client.turn and client.turn[0]} sent {client.sent and client.sent[0]}"
                f" busy {app.busy} table {app.table_shown()} turning {app.turning}"
            )
        app.frame(DT)
        shot = tmp_path / "net_window.png"  # looked at: the final table, panel with the chat
        app.screenshot(str(shot))
    finally:
        session.link.close()
    served.thread.join(HANG_GUARD_S)
    result = session.link.outcome()
    assert mine >= 2  # the person's flicks, by mouse, went to the host and were played
    # each move started once: the host's echo of the person's own move is not a second flick
    played = [e for e in session.state.history if "seat" in e]
    assert len(app.flicks) == len(played)
    assert sum(1 for e in played if e["seat"] == 0) == mine
    assert shot_seen_busy  # the host bot's shot was animated here, not just applied
    assert result == served.result
    # the window's own copy (advanced shot by shot with the animation) ends as the host's
    assert own_result(session.state, result) == result
    assert len(session.state.history) == len(served.host.state.history)
    assert shot.stat().st_size > 10_000
    assert "[seat 0] hi" in session.link.lines  # the host passed the window's chat line on
    shown = app._decorate(session.panel(app.theme), None)  # the panel as the window draws it
    assert "» [seat 0] hi" in shown.log and "Network: 1 connected" in shown.round_text


def _join_command_options(url: str) -> JoinOptions:
    """The options `jamsumo join URL --seat 0 --name win` plays with (it remembers the token)."""
    from jamsumo_sim.cli import build_parser
    from jamsumo_sim.net.run import join_options

    return join_options(build_parser().parse_args(["join", url, "--seat", "0", "--name", "win"]))


def _open_window(url: str, options: JoinOptions, notes: list[str]):
    from jamsumo_sim.ui.app import App
    from jamsumo_sim.ui.net_session import join_window

    session = join_window(url, options, notes.append)
    app = App(session, size=(1024, 640), autosave_enabled=False)
    fast(app)
    app.bot_aim_time = 0.05
    return session, app


def _play_until(app, session, served, done) -> int:
    """Frames, with the person's flicks by posted mouse events, until ``done(flicks made)``; the
    flicks made."""
    mine = 0
    stuck = cpu_deadline(STUCK_CPU_S)
    while not done(mine):
        if stuck():
            pytest.fail(
                f"stuck: window at {len(session.state.history)} to move {session.to_move()} sent "
                f"{session.sent_at}, host at {len(served.host.state.history)}, busy {app.busy}"
            )
        if app.table_shown() and not session.finished():
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
        if app.human_to_move() == 0:
            before = len(app.flicks)
            _flick_from_tray_or_board(app)
            assert len(app.flicks) == before + 1, app.message
            mine += 1
        app.frame(DT)
        if not app.busy:
            time.sleep(0.001)  # waiting for the host: leave it the CPU
    return mine


def test_a_closed_window_opened_again_with_the_same_command_rejoins_its_seat(tmp_path):
    served = HostThread("jam", ["remote", "planner"])
    options = _join_command_options(served.url)
    notes: list[str] = []
    session, app = _open_window(served.url, options, notes)
    try:
        assert session.me == 0
        # play until the person's second turn: their first flick and the bot's answer are played
        first = _play_until(
            app, session, served, lambda mine: mine > 0 and app.human_to_move() == 0
        )
        assert first >= 1 and not session.finished()
        seen = len(session.state.history)
        entries = [session.link.entry(at) for at in range(seen)]
        # the player closes the window (its close button): the App handles the QUIT, and the
        # window leaves the match as `jamsumo join` does when the App returns
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        app.run(frames=app.frames + 5)  # a bound, in case the QUIT went unheard
        assert not app.running
    finally:
        session.link.close()  # also on a failure: its waiting agent thread would block the exit
    pygame.quit()
    session.link.thread.join(HANG_GUARD_S)
    with pytest.raises(UserError, match="join again with the same command"):
        session.link.outcome()

    # the same command again: the kept token takes seat 0 back, with the match so far
    session, app = _open_window(served.url, options, notes)
    try:
        assert not any("seat" in line and "taken" in line for line in notes), notes
        assert session.me == 0
        # the match so far: in the start message, or (the host had no acknowledgement from the
        # closed window to trim its stream by) that stream sent again from its start
        stuck = cpu_deadline(STUCK_CPU_S)
        while session.link.entry(seen - 1) is None and not stuck():
            app.frame(DT)
            time.sleep(0.001)
        assert [session.link.entry(at) for at in range(seen)] == entries
        assert session.link.entry(seen) is None  # the host waited for this seat's move
        again = _play_until(
            app,
            session,
            served,
            lambda mine: session.finished() and session.link.result is not None and not app.busy,
        )
        app.frame(DT)
        shot = tmp_path / "net_window_rejoined.png"  # looked at: seat 0 is "you" in the panel
        app.screenshot(str(shot))
    finally:
        session.link.close()
    served.thread.join(HANG_GUARD_S)
    result = session.link.outcome()
    assert again >= 1  # the rejoined window flicked, and the host played it
    assert result == served.result
    assert own_result(session.state, result) == result
    assert len(session.state.history) == len(served.host.state.history)
    shown = app._decorate(session.panel(app.theme), None)
    assert [row.kind for row in shown.players if row.seat == 0] == ["you"]
    assert shot.stat().st_size > 10_000
