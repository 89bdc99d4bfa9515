"""The practice heat map's shots, run off the window's thread without taking its frames (issue 20).

The window takes a copy of the position on its own thread (:func:`start`, like ``bot_worker``); only
that copy goes to the worker.  Each cell of the map is one aimed flick executed ``repeats`` times
with the execution noise of a level (``jamsumo_sim/noise.py``, the same as the sweeps and the
``--table`` matches), each from a fresh copy of the position, run to rest.  Results are appended
cell by cell, so the window draws a map that fills in.

Frames first: Python runs one thread at a time, and a shot holds the interpreter for milliseconds
(a thread that simply ran would take it from the window for up to 5 ms at a time, the interpreter's
switch interval).  So the worker runs only while its gate is open — the window closes it while it
builds a frame (:meth:`HeatJob.pause`) and opens it until just before the next frame is due
(:meth:`HeatJob.resume`) — and it looks at the gate every ``SLICE_STEPS`` physics steps, so the
window finds the interpreter free when it wakes up for the next frame.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jamsumo_sim import noise
from jamsumo_sim.physics.datatypes import IN_HOLE, OFF, ON_BOARD, IllegalAction
from jamsumo_sim.physics.flick import Flick

SLICE_STEPS = 2  # physics steps between two looks at the gate (~0.05–0.3 ms of CPU)
STARVED_TURNS = 3  # frames the worker waited for a long enough turn: then it takes a short one

# what a shot can do that matters, by the session's mode (the overlay shows one at a time)
MEASURES: dict[str, tuple[str, ...]] = {
    "jam": ("in_hole", "on_platform", "off_board"),
    "sumo": ("knocked_off", "own_lost"),
    "sandbox": ("knocked_off", "off_board", "in_hole"),
}
LABELS: dict[str, str] = {
    "in_hole": "die ends in the hole",
    "on_platform": "die ends on a platform",
    "off_board": "die leaves the board",
    "knocked_off": "an opponent's die knocked out",
    "own_lost": "own die lost",
}


def measures_for(mode: str) -> tuple[str, ...]:
    return MEASURES.get(mode, MEASURES["sandbox"])


@dataclass(frozen=True)
class HeatPlan:
    """What to compute: the aimed flicks (one a cell), repeats, the noise level, the time cap."""

    die: str
    flicks: tuple[Flick, ...]
    measures: tuple[str, ...]
    repeats: int
    level: str
    max_time: float
    seed: int


@dataclass(frozen=True)
class Cell:
    """One aimed flick's outcome over its noisy repeats."""

    index: int
    direction: float  # rad, as aimed
    x: float  # m: the mean rest point of the repeats that stayed on the board (else of all)
    y: float
    shots: int  # fair executions (refused ones are not counted)
    p: tuple[float, ...]  # probability of each of the plan's measures


def outcome(
    before: dict[str, str], world: Any, die: str, colour_of: dict[str, str]
) -> dict[str, bool]:
    """What one shot did: ``before`` is each die's status before the flick, ``colour_of`` its colour."""
    st = world.state(die)
    mine = colour_of.get(die)
    knocked = False
    for other in world.states():
        if other.id == die or colour_of.get(other.id) == mine:
            continue
        was_in = before.get(other.id) == ON_BOARD
        now_out = other.status != ON_BOARD or other.on_platform is not None
        knocked = knocked or (was_in and now_out)
    return {
        "in_hole": st.status == IN_HOLE,
        "off_board": st.status == OFF,
        "on_platform": st.status == ON_BOARD and st.on_platform is not None,
        "own_lost": st.status != ON_BOARD or st.on_platform is not None,
        "knocked_off": knocked,
    }


@dataclass
class HeatJob:
    """One map in the making; ``cells`` grows on the worker's thread (appends only)."""

    plan: HeatPlan
    key: Hashable
    cells: list[Cell] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)
    stopped: threading.Event = field(default_factory=threading.Event)
    thread: threading.Thread | None = None
    # the gate: open, until this perf_counter() time (read without the lock: a stale read costs
    # one slice at most); changes are signalled through the condition
    is_open: bool = True
    until: float = math.inf
    turns: int = 0  # resume() calls so far
    copy_time: float = 0.0  # s a copy of the position takes (it cannot be cut into slices)
    _last_turn: int = 0  # the turn the worker last got on with its work
    _cv: threading.Condition = field(default_factory=threading.Condition)

    @property
    def total(self) -> int:
        return len(self.plan.flicks)

    def done(self) -> bool:
        return len(self.cells) >= self.total or bool(self.error) or self.stopped.is_set()

    def pause(self) -> None:
        """The window builds a frame: the worker stops at its next look at the gate."""
        with self._cv:
            self.is_open = False

    def resume(self, until: float = math.inf) -> None:
        """The worker may run until ``until`` (a ``time.perf_counter()`` time: the next frame)."""
        with self._cv:
            self.is_open, self.until = True, until
            self.turns += 1
            self._cv.notify_all()

    def cancel(self) -> None:
        self.stopped.set()
        with self._cv:
            self._cv.notify_all()  # a waiting worker wakes up to see it is stopped

    def _may_run(self, need: float) -> bool:
        """The gate is open for ``need`` seconds more (any time left, after waiting too long)."""
        if not self.is_open:
            return False
        left = self.until - time.perf_counter()
        starved = self.turns - self._last_turn >= STARVED_TURNS
        return left > (0.0 if starved else need)

    def _wait(self, need: float = 0.0) -> bool:
        """Block until the gate is open for ``need`` s of work; False once the job is cancelled."""
        if not self._may_run(need):
            with self._cv:
                while not self.stopped.is_set() and not self._may_run(need):
                    self._cv.wait()  # the next resume() or cancel()
        self._last_turn = self.turns
        return not self.stopped.is_set()

    def _copy(self, position: Any) -> Any:
        """A fresh copy of the position, taken when a frame is not due before it is done."""
        if not self._wait(1.5 * self.copy_time):
            return None
        t0 = time.perf_counter()
        world = position.copy()
        took = time.perf_counter() - t0
        self.copy_time = took if self.copy_time == 0.0 else 0.8 * self.copy_time + 0.2 * took
        return world

    def _shot(self, world: Any, flick: Flick) -> Any | None:
        """Run one flick on ``world`` to rest in slices; None if refused or cancelled."""
        try:
            world.apply_flick(flick)
        except IllegalAction:
            return None
        dt = world.params.step
        limit = world.steps + max(1, math.ceil(self.plan.max_time / dt - 1e-9))
        while world.steps < limit:
            if not self._wait():
                return None
            # run_until_rest stops at rest (and settles) or after the slice, whichever first
            if world.run_until_rest(SLICE_STEPS * dt).rested:
                break
        return world

    def run(self, position: Any, colour_of: dict[str, str]) -> None:
        """The whole map (on the worker's thread; ``position`` is this job's own copy)."""
        plan = self.plan
        before = {s.id: s.status for s in position.states()}
        for index, aimed in enumerate(plan.flicks):
            rng = np.random.default_rng(np.random.SeedSequence(plan.seed, spawn_key=(index,)))
            hits = np.zeros(len(plan.measures))
            points: list[tuple[float, float, bool]] = []
            for _ in range(plan.repeats):
                fresh = self._copy(position)
                if fresh is None:
                    return
                world = self._shot(fresh, noise.apply(aimed, plan.level, rng))
                if self.stopped.is_set():
                    return
                if world is None:
                    continue
                got = outcome(before, world, plan.die, colour_of)
                hits += [got[m] for m in plan.measures]
                st = world.state(plan.die)
                points.append((st.x, st.y, st.status == ON_BOARD))
            self.cells.append(_cell(index, aimed.direction, hits, points))


def _cell(
    index: int, direction: float, hits: np.ndarray, points: Sequence[tuple[float, float, bool]]
) -> Cell:
    n = len(points)
    kept = [p for p in points if p[2]] or list(points)
    x = float(np.mean([p[0] for p in kept])) if kept else math.nan
    y = float(np.mean([p[1] for p in kept])) if kept else math.nan
    p = tuple(float(h / n) if n else math.nan for h in hits)
    return Cell(index, direction, x, y, n, p)


def _run(job: HeatJob, position: Any, colour_of: dict[str, str]) -> None:
    try:
        job.run(position, colour_of)
    except BaseException as exc:  # noqa: BLE001 - handed to the window's thread to report
        job.error.append(exc)


def start(
    world: Any, plan: HeatPlan, key: Hashable, colour_of: dict[str, str], threaded: bool = True
) -> HeatJob:
    """Start the map of ``plan`` on a copy of ``world`` taken here, on the window's thread."""
    position = world.copy()
    job = HeatJob(plan, key)
    if threaded:
        job.thread = threading.Thread(
            target=_run, args=(job, position, colour_of), daemon=True, name="heat-map"
        )
        job.thread.start()
    else:
        _run(job, position, colour_of)
    return job
