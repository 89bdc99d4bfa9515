"""Bots think on a background thread while the window draws: the window must never see a half-built
state (issue 15 §1).  These tests drive the real threaded path (``sync_bots=False``)."""

from __future__ import annotations

import copy
import os
import sys
import threading
import time

import pytest

from jamsumo_sim.rules.match import MatchState
from jamsumo_sim.ui import bot_worker
from tests.ui.bot_matches import (
    new_session,
    play_out,
    rules_only_history,
    short_params,
    threaded_app,
)


class _Probe:
    """Deep-copied along with the state: records what the state looks like while it is being copied."""

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.seen: list[object] = []

    def __deepcopy__(self, memo: dict) -> _Probe:
        self.seen.append(self.state.world)
        return self


def test_clone_never_touches_the_state_it_copies():
    session = new_session("sumo", ["random", "random"], 3)
    state = session.state
    world = state.world
    assert world is not None
    probe = _Probe(state)
    state.probe = probe  # copied in the middle of clone()'s work
    try:
        twin = state.clone()
        deep = copy.deepcopy(state)
    finally:
        del state.probe
    assert probe.seen == [world, world]  # the live world stayed in place throughout
    assert state.world is world
    for other in (twin, deep):
        assert other.world is not world and other.world is not None
        assert other.world.checksum() == world.checksum()
        assert other.digest() == state.digest()
        assert other.board is state.board  # shared read-only data is not copied


def test_a_clone_of_a_state_without_a_world_and_deepcopy_agree():
    session = new_session("jam", ["random", "random"], 4)
    twin = session.state.clone()
    twin.world = None
    again = copy.deepcopy(twin)
    assert again.world is None and again.digest() == twin.digest()


def test_the_bot_thinks_on_a_copy_taken_on_the_window_thread(monkeypatch):
    session = new_session("sumo", ["planner:easy", "random"], 2, short_params("sumo", 2))
    live = session.state
    clones: list[tuple[bool, bool]] = []
    original = MatchState.clone

    def spy(self: MatchState) -> MatchState:
        clones.append((self is live, threading.current_thread() is threading.main_thread()))
        return original(self)

    monkeypatch.setattr(MatchState, "clone", spy)
    app = threaded_app(session)
    frames = 0
    while not app.flicks and frames < 2000:
        app.frame(1 / 60)
        frames += 1
    assert app.flicks, "no bot shot started"
    live_clones = [on_main for is_live, on_main in clones if is_live]
    assert live_clones and all(live_clones), clones  # the live state is only copied on this thread
    assert any(not on_main for is_live, on_main in clones if not is_live)  # the bot ran off-thread


def test_a_bot_answer_to_an_old_position_is_dropped():
    session = new_session("sumo", ["random", "random"], 6)
    session.advance_automatic()
    seat = session.to_move()
    job = bot_worker.start(session, seat, threaded=False)
    assert job.done() and job.matches(session, seat)
    session.commit(job.take())  # the match moves on (as if another path had played)
    assert not job.matches(session, seat)
    other = new_session("sumo", ["random", "random"], 6)
    assert not bot_worker.start(session, session.to_move(), threaded=False).matches(other, seat)


@pytest.mark.parametrize(
    ("mode", "seats"),
    [
        ("jam", ["random", "planner:easy"]),
        ("sumo", ["random", "random", "random"]),
        ("jamsumo", ["random", "random", "random", "random"]),
        ("jam", ["random", "random", "random", "random"]),
        ("sumo", ["planner:easy", "random"]),
        ("jamsumo", ["random", "random", "random"]),
    ],
)
def test_whole_bot_matches_on_the_bot_thread(mode, seats):
    """Every mode, 2-4 seats: the window plays the match to the end, exactly as the rules alone do."""
    params = short_params(mode, len(seats), max_turns=2)
    session = new_session(mode, seats, 11, params)
    app = threaded_app(session)
    played = play_out(app, session)
    assert session.finished() and played.moves >= 1
    assert session.mismatches == 0
    assert session.state.history == rules_only_history(mode, seats, 11, params)
    table = session.table(app.theme)
    assert table is not None and table.title == "Match over"


@pytest.fixture
def frequent_thread_switches():
    """Switch threads every 10 µs (not 5 ms): a window/bot race shows within a few moves, not hours."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


def test_stress_many_bot_moves_at_a_high_frame_rate(frequent_thread_switches):
    """Planners (they copy the state to think) against each other, no pause, frames as fast as
    possible: before the fix the window crashed within 5-15 such moves (the world read as None)."""
    wanted, moves, seed = 30, 0, 0
    started = time.process_time()  # CPU of the window and bot threads: load does not count
    while moves < wanted:
        seats = ["planner:easy", "planner:easy"]
        session = new_session("sumo", seats, seed, short_params("sumo", 2, max_turns=4))
        played = play_out(threaded_app(session), session)
        assert session.mismatches == 0
        moves += played.moves
        seed += 1
    assert time.process_time() - started < 120


def _matches_in_a_row(count: int, full: bool) -> list[int]:
    """``count`` bot-vs-bot matches back to back in one window: every mode, 2, 3 and 4 seats."""
    modes = ("jam", "sumo", "jamsumo")
    app = None
    moves = []
    for k in range(count):
        mode = modes[k % 3]
        seats = ["random"] * (2 + k % 3)
        if k % 4 == 0:
            seats[0] = "planner:easy"
        params = None if full else short_params(mode, len(seats))
        session = new_session(mode, seats, 100 + k, params)
        if app is None:
            app = threaded_app(session)
        played = play_out(app, session, cpu_limit=600.0 if full else 60.0)
        assert session.finished() and session.mismatches == 0
        moves.append(played.moves)
    return moves


def test_matches_in_a_row_in_one_window():
    """50 short matches (one round per mode, one shot a round) back to back in one window."""
    moves = _matches_in_a_row(50, full=False)
    assert len(moves) == 50 and all(m >= 1 for m in moves)


@pytest.mark.skipif(
    not os.environ.get("JAMSUMO_SOAK"),
    reason="opt-in soak test: set JAMSUMO_SOAK=1 (about 17 minutes)",
)
def test_fifty_full_bot_matches_in_a_row():
    """Issue 15's bar: 50 whole bot-vs-bot matches (default rules) in a row on the bot thread."""
    moves = _matches_in_a_row(50, full=True)
    print(f"50 matches, {sum(moves)} bot moves")
