"""Support after a model step, for the dice the screen found near the edge or the hole or in a
special state: off the side (``off_board``), over the hole (fall, then drop in, ride over the far
rim on the rounded edge, or trip over it: physics.md s3, s4), and the platform checks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import fastbody, flight, pitch, platforms, stacking, step_kernels, view
from .datatypes import IN_HOLE, OFF, ON_BOARD, DieRecord
from .edges import speed_after_trip, trip_speed
from .events import HOLE, OFF_BOARD, SKIM, Event
from .space import remove_body
from .tumbles import Hit, impact, sweep, tumble

if TYPE_CHECKING:
    from .state import WorldState


def after_step(w: WorldState, n_cand: int) -> None:
    """Edge, hole and platform bookkeeping after a model step, for the ``n_cand`` dice the step's
    screen listed in ``w._cand`` (step_kernels.support_candidates: past the edge, over the hole,
    or special)."""
    order = w._order
    cand = w._cand[: 2 * n_cand].tolist()
    for k in range(0, 2 * n_cand, 2):
        d = order[cand[k]]
        if d.status == ON_BOARD and _after_step_die(w, d, cand[k], cand[k + 1]):
            view.mark(w, d)  # its flags changed: refreshed in place at the next read
    if w._row_patch:
        view.patch_rows(w)


def _after_step_die(w: WorldState, d: DieRecord, i: int, code: int) -> bool:
    """One die's support bookkeeping after a step; True if its status changed."""
    ch = False
    if d.airborne:
        # its centre as read after the step, unless a jump moved it since
        if d in w._moved:
            x, y = d.body.position
        else:
            row = w._rows[i]
            x, y = float(w._rbase[row, 0]), float(w._rbase[row, 1])
        landed, rest = flight.step_die(w, d, x, y, i)
        ch |= landed
        if rest > 0.0:
            # landed on its edge within the step: the pitch (its swing, the edge's friction)
            # takes the rest of the step, as it would have had the landing been at a step's end
            # (a die hopping off its edge at a high strike lands at once and lost a whole step
            # of the edge's friction: 0.4 rad/s of spin, 7 deg at rest, at the default step)
            ch |= pitch.step_die(w, d, span=rest)
            if d.pitch is not None and not d.airborne and tips_in(w, d):
                ch = True
    elif d.pitch is not None:
        ch |= pitch.step_die(w, d)
        if d.pitch is not None and not d.airborne and tips_in(w, d):
            ch = True
    if d.on_die is not None or d.lean is not None:
        ch |= stacking.step_die(w, d)
    if code & step_kernels.PAST_EDGE:
        to_off_board(w, d)
        return True
    if d.airborne or d.on_die is not None:
        return ch  # over the hole in the air or on a die: it does not fall in (yet)
    near = bool(code & step_kernels.OVER_HOLE)
    if d.fall_time is not None or d.riding or near:
        ch |= hole_logic(w, d, i, near)
    if d.level or d.straddle:
        ch |= platforms.platform_logic(w, d, i)
    return ch


def tips_in(w: WorldState, d: DieRecord) -> bool:
    """A pitched die stands on one edge only: once that whole edge lies over the hole (both its
    ends inside the rim) it turns about the rim instead, and it drops in as soon as its centre of
    mass is past the rim, earlier than a die lying flat would (whose footprint's corners still
    reach the board; docs/physics.md "The hole")."""
    p = w.params
    pt = d.pitch
    if d.level or d.straddle or d.fall_time is not None or pt is None:
        return False
    b = d.body
    x, y = fastbody.position(b)
    r = w._hole_r
    reach = r + p.die_size
    if x * x + y * y > reach * reach:
        return False
    half = 0.5 * p.die_size
    ang = b.angle + pt.side * pitch.QUARTER
    c, s = math.cos(ang), math.sin(ang)
    mx, my = x + half * c, y + half * s  # the edge's middle, its ends half a width to each side
    for k in (-1.0, 1.0):
        ex, ey = mx - k * half * s, my + k * half * c
        if ex * ex + ey * ey >= r * r:
            return False
    # it then turns about the rim: in once its centre of mass is past it (over the hole)
    lead = half * (1.0 - math.cos(pt.phi) + math.sin(pt.phi))
    gx, gy = x + lead * c, y + lead * s
    if gx * gx + gy * gy >= r * r:
        return False
    d.pitch = None
    to_hole(w, d, 0.0)
    return True


def supported(w: WorldState, i: int) -> bool:
    """Centre of mass inside the convex hull of the footprint's part outside the hole disk."""
    st = w._rbase[w._rows[i]]
    return step_kernels.supported(st[0], st[1], st[2], w._footprint, w.board.hole_radius)


def unsupported_for(w: WorldState, i: int, dt: float) -> float:
    """How long (s, within ``dt``) the die in row ``i``, unsupported now, has been: the support
    test along its motion back over the step (bisection; its motion taken as uniform)."""
    st = w._rbase[w._rows[i]]
    x, y, a, vx, vy, om = (float(v) for v in st[:6])
    foot, r = w._footprint, w.board.hole_radius
    if not step_kernels.supported(x - vx * dt, y - vy * dt, a - om * dt, foot, r):
        return dt  # unsupported at the step's start too (put down, or stopped, over the hole)
    lo, hi = 0.0, dt  # unsupported lo before the end, supported hi before it
    for _ in range(12):
        mid = 0.5 * (lo + hi)
        if step_kernels.supported(x - vx * mid, y - vy * mid, a - om * mid, foot, r):
            hi = mid
        else:
            lo = mid
    return max(0.5 * (lo + hi), 1e-6)


def hole_logic(w: WorldState, d: DieRecord, i: int, over_hole: bool) -> bool:
    """Falling at the hole: ballistic drop while unsupported; at the far rim drop in, ride over
    (drop within the rounded edge) or trip over the rim edge (physics.md s3, s4)."""
    p = w.params
    v_i = view.vc(w)[i]
    vx, vy = v_i.real, v_i.imag
    v = math.hypot(vx, vy)
    if d.riding:
        # sliding up over the far rim on its rounded edge: supported by the rim until clear
        if over_hole and v > 0:
            return False
        d.riding = False
        view.mark(w, d)  # no longer special
    if d.fall_time is None:
        if supported(w, i):
            return False
        # it has fallen since it lost its support within the step just taken (the whole step for
        # a die put down or stopped over the hole), so `hole` fires at the free-fall time
        d.fall_time = unsupported_for(w, i, p.step)
        w._special = True
        return True
    d.fall_time += p.step
    depth = 0.5 * p.gravity * d.fall_time**2
    catch = p.hole_catch_fraction * p.die_size
    x, y = view.pos(w)[i]
    rim = False
    back = 0.0  # how long before the step's end the leading face met the far rim (s)
    if v > 0:
        # the leading face's midpoint has reached the far rim
        ux, uy = vx / v, vy / v
        fx, fy = x + 0.5 * p.die_size * ux, y + 0.5 * p.die_size * uy
        r = w.board.hole_radius
        rim = fx * fx + fy * fy >= r * r and fx * vx + fy * vy > 0
        if rim:
            # it met the rim when |f - u v t| = r, this far back: the rim's drop and the trip
            # are taken there, not a step's slide past it (first order in dt: physics.md s9.2)
            b_half = fx * ux + fy * uy
            disc = b_half * b_half - (fx * fx + fy * fy - r * r)
            back = min(max((b_half - math.sqrt(max(disc, 0.0))) / v, 0.0), p.step)
            depth = 0.5 * p.gravity * max(d.fall_time - back, 0.0) ** 2
    if depth >= catch:
        to_hole(w, d, depth)
        return True
    if not rim and not supported(w, i):
        return False
    # the die meets the far rim (or lands back on its support), an edge `step` above its base:
    # its drop plus how far the far rim lies above the near one (physics.md s8.7: a tilt)
    rise = w._surface.rim_step(x, y, vx, vy, w.board.hole_radius)
    step = max(0.0, depth + rise)
    # the rise is paid from its motion, and so is the dish's rise under its centre over the step
    # (a die falling over the hole feels no slope force, yet its base is the dish's height less
    # the fall: without it a fast skim up the bowl's side made a few nJ)
    surf = w._surface
    dish = float(surf.height(x, y)) - float(surf.height(x - vx * p.step, y - vy * p.step))
    step_paid = step + max(0.0, dish)
    b = d.body
    if step <= p.die_edge_radius and v * v >= 2 * p.gravity * step_paid:
        # back up the drop on its rounded edge, paid from its motion (too slow: it cannot rise)
        v_out = math.sqrt(max(0.0, v * v - 2 * p.gravity * step_paid))
        # at the far rim it slides up on its rounded edge, held by the rim until clear of the hole
        d.riding = rim
        tumbled = False
    elif v >= trip_speed(step, p):
        v_out = speed_after_trip(v, step_paid, p)
        stop, hit = rim_jump(w, d, x, y, (p.die_size * vx / v, p.die_size * vy / v))
        if stop is None:
            # blocked before its centre is past the rim: it cannot tumble over; it strikes what
            # blocks it and drops in
            b.velocity = (vx * v_out / v, vy * v_out / v)
            if hit is not None and hit.other is not None:
                impact(w, d, hit.other, hit.normal)
            to_hole(w, d, depth)
            return True
        tumbled = True
    elif rim:
        # too slow to trip over: it strikes the hole's far wall below the rim edge and rebounds
        # (restitution_wood) still falling: back over the hole it drops in, or meets the other
        # side's wall (docs/physics.md "The hole")
        rebound(w, d, x + 0.5 * p.die_size * vx / v, y + 0.5 * p.die_size * vy / v, vx, vy)
        if back > 0.0:  # back from the wall since it met it, not a step's slide through it
            (nvx, nvy), (px, py) = d.body.velocity, d.body.position
            d.body.position = (px + (nvx - vx) * back, py + (nvy - vy) * back)
            w._moved.add(d)
            w.space.reindex_shapes_for_body(d.body)
        return True
    else:
        to_hole(w, d, depth)
        return True
    d.fall_time = None
    scale = v_out / v if v > 0 else 0.0
    b.velocity = (vx * scale, vy * scale)
    w._current = False
    w.events.append(Event(w.time, SKIM, (d.id,), {"depth": depth, "speed": v}))
    # from the rim on it moved at v_out, not v (the step's collisions moved it at v)
    shift = (v_out - v) * back
    if tumbled:
        b.position = (stop[0] + shift * vx / v, stop[1] + shift * vy / v)
        w._moved.add(d)  # its batch row is stale (view.read)
        # it tripped when it met the rim, ``back`` before the step's end: its spin stops there,
        # and the face leading then is the one it tumbles over (read at the step's end, a die
        # spinning at 100 rad/s had turned up to 11 degrees on, and at the default step tumbled
        # onto another face than refine 4 in 10 of 400 skims)
        angle = view.ang(w)[i] - view.omega(w)[i] * back
        b.angle = angle
        b.angular_velocity = 0.0
        w.space.reindex_shapes_for_body(b)
        heading = math.atan2(vy, vx) - angle
        tumble(w, d, heading, "rim")
        # the landing after the trip leaves a pitch: it may tumble on or rock (physics/pitch.py)
        pitch.start(w, d, heading, pitch.trip_rate(v, step, p), "rim")
        if hit is not None and hit.other is not None:
            impact(w, d, hit.other, hit.normal)  # stopped against a die: it strikes it
    elif shift != 0.0:
        px, py = b.position
        b.position = (px + shift * vx / v, py + shift * vy / v)
        w._moved.add(d)
        w.space.reindex_shapes_for_body(b)
    return True


def rebound(w: WorldState, d: DieRecord, fx: float, fy: float, vx: float, vy: float) -> None:
    """The die's leading face, at (fx, fy) on the hole's wall, strikes it: the velocity's part
    into the wall (along the radius there) reverses, times restitution_wood (no energy made)."""
    r = math.hypot(fx, fy)
    if r == 0.0:
        return
    nx, ny = fx / r, fy / r
    vn = vx * nx + vy * ny
    if vn > 0.0:
        k = (1.0 + w.params.restitution_wood) * vn
        d.body.velocity = (vx - k * nx, vy - k * ny)
        w._current = False


def rim_jump(
    w: WorldState, d: DieRecord, x: float, y: float, jump: tuple[float, float]
) -> tuple[tuple[float, float] | None, Hit | None]:
    """Where rolling over the rim edge carries the die's centre from (x, y): ``jump`` (one die width
    forward), or up to the first die or platform wall in the way (physics.md s8.2); the stop is
    None if that is met before the centre is past the rim (then it cannot tumble over)."""
    hit = sweep(w, d, jump, walls=True)
    if hit is None:
        return (x + jump[0], y + jump[1]), None
    sx, sy = x + hit.s * jump[0], y + hit.s * jump[1]
    r = w.board.hole_radius
    return ((sx, sy) if sx * sx + sy * sy >= r * r else None), hit


def to_hole(w: WorldState, d: DieRecord, depth: float) -> None:
    remove_body(w, d)
    d.status = IN_HOLE
    d.fall_time = None
    d.vx = d.vy = d.omega = 0.0
    w.events.append(Event(w.time, HOLE, (d.id,), {"depth": depth}))


def to_off_board(w: WorldState, d: DieRecord) -> None:
    remove_body(w, d)
    d.status = OFF
    d.fall_time = None
    d.level = d.straddle = None
    d.vx = d.vy = d.omega = 0.0
    w.events.append(Event(w.time, OFF_BOARD, (d.id,), {}))
