"""The JAM platforms: climb (tumble up, up to the first die in the way) or bounce at a wall, land on
the top, straddle the edge (not flat) when stepping off, and leave."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import pitch, tumbles, view
from .board import Platform
from .datatypes import DieRecord
from .edges import speed_after_trip, trip_speed
from .events import PLATFORM, Event
from .space import FILTER_HIGH, FILTER_LOW

if TYPE_CHECKING:
    from .state import WorldState


def nearest_platform(w: WorldState, d: DieRecord) -> Platform | None:
    x, y = d.body.position
    best, bd = None, math.inf
    for plat in w.board.platforms:
        x0, y0, x1, y1 = plat.bounds
        dist = math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))
        if dist < bd:
            best, bd = plat, dist
    return best


def maybe_climb(w: WorldState, d: DieRecord, plat: Platform) -> None:
    """A die that hit a platform's wall fast enough tumbles up onto it (physics.md s4 step trip);
    slower ones keep the wall's bounce (restitution_wood) that the solver already applied."""
    p = w.params
    i = w._index[d.id]
    x, y = d.body.position  # after this collision step
    v_i = view.pre_vc(w)[i]
    vx, vy = v_i.real, v_i.imag
    x0, y0, x1, y1 = plat.bounds
    # outward normal of the side the die is at
    dists = {(-1, 0): x0 - x, (1, 0): x - x1, (0, -1): y0 - y, (0, 1): y - y1}
    n = max(dists, key=dists.get)
    vn = -(vx * n[0] + vy * n[1])
    # the step from the local surface: the bowl at the wall's foot lies below the flat
    step = w._surface.step_up(plat.height, min(max(x, x0), x1), min(max(y, y0), y1))
    if vn < trip_speed(step, p):
        return
    v_in = speed_after_trip(vn, step, p)
    vt = (vx + vn * n[0], vy + vn * n[1])  # tangential part
    a = p.die_size
    nx = min(max(x, x0 + a / 2), x1 - a / 2) if n[0] == 0 else x - n[0] * (a / 2 + abs(dists[n]))
    ny = min(max(y, y0 + a / 2), y1 - a / 2) if n[1] == 0 else y - n[1] * (a / 2 + abs(dists[n]))
    # the jump stops at the first die in the way and the die strikes it (physics.md s8.2)
    hit = tumbles.sweep(w, d, (nx - x, ny - y), walls=False)
    b = d.body
    b.velocity = (vt[0] - n[0] * v_in, vt[1] - n[1] * v_in)  # the motion it carries over the edge
    if hit is not None and hit.other is not None:
        nx, ny = x + hit.s * (nx - x), y + hit.s * (ny - y)
        if not plat.contains(nx, ny):
            # met before its centre is over the top: it cannot climb; it stays below the edge and
            # the motion it would carry over strikes the die in the way
            b.angular_velocity = 0.0
            tumbles.impact(w, d, hit.other, hit.normal)
            return
    b.position = (nx, ny)
    w._moved.add(d)  # its batch row is stale (view.read)
    b.angular_velocity = 0.0
    d.level = plat.name
    d.shape.filter = FILTER_HIGH
    w.space.reindex_shapes_for_body(b)
    heading = math.atan2(-n[1], -n[0]) - b.angle
    tumbles.tumble(w, d, heading, "step")
    # the landing on the top leaves a pitch: it may tumble on or rock (physics/pitch.py)
    pitch.start(w, d, heading, pitch.trip_rate(vn, step, p), "step")
    w.events.append(Event(w.time, PLATFORM, (d.id,), {"platform": plat.name, "action": "landed"}))
    if hit is not None and hit.other is not None:
        tumbles.impact(w, d, hit.other, hit.normal)  # landed against a die: it strikes it
    w._special = True
    view.mark(w, d)


def climb_back(w: WorldState, d: DieRecord, plat: Platform, x: float, y: float) -> bool:
    """A die straddling ``plat``'s edge, its centre back over the top at (x, y): standing on the
    top again lifts its centre of mass from the surface beside the platform (where it dropped
    when it stepped off: the local step, Surface.step_up) to the top, paid from its motion into
    the platform across the edge nearest its centre (1/2 v_in^2 >= g dh): then it is on the top
    (a ``landed`` event, as a climb).  Too slow, it cannot rise and tips back: its motion into
    the platform stops and it stays straddling (no energy made either way).  True if anything
    changed."""
    p = w.params
    b = d.body
    vx, vy = b.velocity  # (a pitch step may have changed it since the step's read)
    x0, y0, x1, y1 = plat.bounds
    # outward normal of the side its centre is nearest to (it came in across that edge)
    dists = {(-1, 0): x - x0, (1, 0): x1 - x, (0, -1): y - y0, (0, 1): y1 - y}
    n = min(dists, key=dists.get)
    v_in = -(vx * n[0] + vy * n[1])
    need = 2.0 * p.gravity * w._surface.step_up(plat.height, x, y)
    if v_in > 0.0 and v_in * v_in >= need:
        dv = v_in - math.sqrt(v_in * v_in - need)
        b.velocity = (vx + dv * n[0], vy + dv * n[1])
        d.level, d.straddle = plat.name, None
        w.events.append(
            Event(w.time, PLATFORM, (d.id,), {"platform": plat.name, "action": "landed"})
        )
    elif v_in > 0.0:
        b.velocity = (vx + v_in * n[0], vy + v_in * n[1])
    else:
        return False
    w._current = False
    w._special = True
    return True


def footprint_overlaps(w: WorldState, i: int, plat: Platform) -> bool:
    x, y = view.pos(w)[i]
    a = view.ang(w)[i]
    c, s = math.cos(a), math.sin(a)
    fp = w._footprint
    px = x + c * fp[:, 0] - s * fp[:, 1]
    py = y + s * fp[:, 0] + c * fp[:, 1]
    x0, y0, x1, y1 = plat.bounds
    return bool(((px > x0) & (px < x1) & (py > y0) & (py < y1)).any())


def platform_logic(w: WorldState, d: DieRecord, i: int) -> bool:
    x, y = view.pos(w)[i]
    if d.level:
        plat = w.board.platform(d.level)
        if plat.contains(x, y):
            return False
        d.level = None
        d.straddle = plat.name
        w.events.append(Event(w.time, PLATFORM, (d.id,), {"platform": plat.name, "action": "left"}))
        return True
    plat = w.board.platform(d.straddle)
    if plat.contains(x, y):  # pushed back over the top: it climbs back if its motion pays
        return climb_back(w, d, plat, x, y)
    if footprint_overlaps(w, i, plat):
        return False
    d.straddle = None
    d.shape.filter = FILTER_LOW
    return True
