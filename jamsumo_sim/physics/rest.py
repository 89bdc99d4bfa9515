"""Rest: the criterion (no die falling, every die in play slower than rest_speed / rest_spin), the
run-to-rest loop, and settling: zero every velocity exactly and rebuild the Space from the rest state
(dropping Chipmunk's cached contact impulses), so a rest state is canonical and a world restored from
a snapshot re-simulates bit-identically."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import evolve, step_kernels, view
from .datatypes import ShotResult
from .events import PLATFORM, Event
from .space import build_space

if TYPE_CHECKING:
    from .state import WorldState


def at_rest(w: WorldState) -> bool:
    """True when no die falls and every die in play is slower than rest_speed / rest_spin.

    False right after dice were added or flicked, until a step has checked their support.
    """
    if w._unchecked:
        return False
    view.read(w)
    if not w._order:
        return True
    if not w._all_grounded:
        return False
    if w._screened < 0:
        w._screened = step_kernels.screen(w._rbase, w._rows, w._prm)[0]
    return bool(w._screened & step_kernels.ALL_RESTING)


def resting(w: WorldState) -> bool:
    """Every die in play exactly still and none falling (support need not be checked yet)."""
    for d in w._dice.values():
        if d.in_space:
            b = d.body
            if d.fall_time is not None or b.angular_velocity != 0 or b.velocity != (0, 0):
                return False
    return True


def canonicalise_if_resting(w: WorldState) -> None:
    """Between shots (the rules adding, placing or removing dice) keep the Space canonical:
    rebuilt in insertion order with no cached contacts, as after run_until_rest."""
    if not w._canonical and resting(w):
        build_space(w, reuse=True)


def settle(w: WorldState) -> None:
    """Zero all velocities and rebuild the Space: the rest state becomes canonical."""
    view.read(w)
    if w._order:
        w._wbuf[:] = 0.0
        view.push_velocities(w)
    for d in w._dice.values():
        d.fresh = False
    for d in w._dice.values():
        if d.in_space and d.level:
            w.events.append(
                Event(w.time, PLATFORM, (d.id,), {"platform": d.level, "action": "rest"})
            )
    build_space(w, reuse=True)


def run_until_rest(w: WorldState, max_time: float = 30.0) -> ShotResult:
    """Step until at rest (then settle) or ``max_time`` seconds have passed; see World."""
    start_steps = w.steps
    start_events = len(w.events)
    limit = start_steps + max(1, int(math.ceil(max_time / w.params.step - 1e-9)))
    rested = at_rest(w)
    moving = step_kernels.ALL_RESTING
    while not rested and w.steps < limit:
        # as many steps as need no Python in one call (the same steps as one at a time)
        evolve.step(w, limit - w.steps, stop_at_rest=True)
        # the step's own screen says some die moves and nothing changed since: not at rest
        # (what at_rest would find, without the call)
        if w._screened >= 0 and not w._screened & moving and w._current and not w._dirty:
            continue
        rested = at_rest(w)
    if rested:
        settle(w)
    return ShotResult(
        time_to_rest=(w.steps - start_steps) * w.params.step,
        steps=w.steps - start_steps,
        events=tuple(w.events[start_events:]),
        rested=rested,
    )
