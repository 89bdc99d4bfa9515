"""The finger: the fair-flick check (limits, and the finger's box behind the struck face touching no
other die) and the flick itself (the finger's impulse, within the friction cone, at the pad's lever
on the struck face, within the energy caps of flick.strike; a high strike pitches the die:
physics/pitch.py; a low one turns it back and lifts it: :func:`start_pitch`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .. import flight, pitch, view
from ..datatypes import ON_BOARD, DieRecord, IllegalAction
from ..edges import low_strike_start
from ..events import FLICK, Event
from .laws import (
    STRENGTHS,
    Flick,
    contact_point,
    launch_speed,
    lever,
    strike,
    struck_side,
)

if TYPE_CHECKING:
    from ..params import PhysicsParams
    from ..state import WorldState


def check_flick(w: WorldState, flick: Flick) -> str | None:
    """Why ``flick`` is not a fair flick, or None if it is."""
    p = w.params
    d = w._dice.get(flick.die)
    if d is None:
        return f"no die {flick.die!r}"
    if d.status != ON_BOARD or not d.in_space:
        return f"die {flick.die!r} is not in play ({d.status})"
    given = [k for k in STRENGTHS if getattr(flick, k) is not None]
    if len(given) != 1:
        return "give exactly one of impulse and finger_speed"
    for name in ("direction", "offset", "height", given[0]):
        v = getattr(flick, name)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            return f"{name} must be a finite number"
    if getattr(flick, given[0]) <= 0:
        return f"{given[0]} must be > 0"
    v0 = launch_speed(flick, p, off_normal(flick, d.body.angle))
    if v0 > p.max_launch_speed:
        return f"launch speed {v0:.3g} m/s is above the {p.max_launch_speed:g} m/s cap"
    if flick.height > 1:
        return "the finger would strike the top face (height > 1)"
    if flick.height < 0:
        return "the finger would strike the board, not the die (height < 0)"
    if abs(flick.offset) > 0.5:
        return "the finger would miss the face (|offset| > 0.5)"
    other = finger_hits_other(w, flick, d)
    if other is not None:
        return f"the finger would strike more than one die ({flick.die!r} and {other!r})"
    return None


def finger_hits_other(w: WorldState, flick: Flick, d: DieRecord) -> str | None:
    """Another die inside the finger's rectangle behind the struck face (touching it counts)."""
    p = w.params
    x, y = d.body.position
    ang = d.body.angle
    k = struck_side(flick.direction, ang)
    na = ang + k * math.pi / 2
    n = np.array([math.cos(na), math.sin(na)])
    t = np.array([n[1], -n[0]])
    cx, cy = contact_point(flick, x, y, ang, p.die_size)
    centre = np.array([cx, cy]) + n * (p.finger_depth / 2)
    half = np.array([p.finger_depth / 2, p.finger_width / 2])
    axes_f = np.stack([n, t])
    tol = p.collision_slop
    for o in w._dice.values():
        if o is d or not o.in_space or o.on_die is not None or o.airborne:
            continue  # a die on another die (or in the air) is above the finger
        ox, oy = o.body.position
        if math.hypot(ox - centre[0], oy - centre[1]) > (w._half_diag + math.hypot(*half) + tol):
            continue
        oa = o.body.angle
        axes_o = np.array([[math.cos(oa), math.sin(oa)], [-math.sin(oa), math.cos(oa)]])
        if boxes_overlap(
            centre, axes_f, half, np.array([ox, oy]), axes_o, np.full(2, p.die_size / 2), tol
        ):
            return o.id
    return None


def boxes_overlap(c1, ax1, h1, c2, ax2, h2, tol: float) -> bool:
    """Separating-axis test of two oriented rectangles (centres, unit axes as rows, half sizes)."""
    dvec = c2 - c1
    for axes in (ax1, ax2):
        for u in axes:
            r1 = abs(ax1[0] @ u) * h1[0] + abs(ax1[1] @ u) * h1[1]
            r2 = abs(ax2[0] @ u) * h2[0] + abs(ax2[1] @ u) * h2[1]
            if abs(dvec @ u) > r1 + r2 + tol:
                return False
    return True


def off_normal(flick: Flick, angle: float) -> float:
    """The push's angle (radians, counter-clockwise) from the struck face's inward normal on a die
    turned ``angle``."""
    na = angle + struck_side(flick.direction, angle) * math.pi / 2  # the face's outward normal
    return math.remainder(flick.direction - (na + math.pi), 2 * math.pi)


def launch(
    flick: Flick, x: float, y: float, angle: float, p: PhysicsParams, inertia: float
) -> tuple[float, float, float, float, float]:
    """(dvx, dvy, domega, pitch rate, rise) a fair ``flick`` gives a die at (x, y) turned ``angle``:
    flick.strike's impulse at the pad's lever on the struck face (also sweep/lone.py's launch);
    the pitch forward (> 0) or back (< 0, then rising at ``rise`` m/s: flick.strike)."""
    na = angle + struck_side(flick.direction, angle) * math.pi / 2  # the struck face's normal
    # the push acts at the pad's lever, not beyond it (finger_pad_width)
    off = off_normal(flick, angle)
    at = Flick(flick.die, flick.direction, 0.0, lever(flick, p, off), flick.height)
    cx, cy = contact_point(at, x, y, angle, p.die_size)
    s = strike(flick, p, off)
    if off != 0.0 or s.gripped:  # the delivered impulse: J_n along the inward normal, J_t along it
        jn, jt = s.jn * s.scale, s.jt * s.scale
        inx, iny = -math.cos(na), -math.sin(na)
        jx, jy = jn * inx - jt * iny, jn * iny + jt * inx
        j = math.hypot(jx, jy)
        dx, dy = jx / j, jy / j
    else:  # pushed along the normal: the impulse goes where aimed (bit for bit as before)
        j = s.j * s.scale
        dx, dy = math.cos(flick.direction), math.sin(flick.direction)
    rx, ry = cx - x, cy - y
    return (
        j * dx / p.die_mass,
        j * dy / p.die_mass,
        (rx * dy - ry * dx) * j / inertia,
        s.pitch,
        s.rise,
    )


def start_pitch(
    flick: Flick, angle: float, rate: float, rise: float, p: PhysicsParams
) -> tuple[float, float, float]:
    """(the way it tips in the die's frame (radians), pitch rate >= 0, rise (m/s) it leaves the
    board with, or 0) of a die turned ``angle`` that a strike gave the signed pitch ``rate`` and
    ``rise`` (:func:`launch`).  Struck high it tips forward over its leading edge; struck low it
    turns back and leaves the board, or stands on its rear edge (edges.low_strike_start)."""
    ahead = flick.direction - angle
    if rate >= 0.0:
        return ahead, rate, 0.0
    turn, vz = low_strike_start(-rate, rise, p)
    return ahead + math.pi, turn, vz


def apply_flick(w: WorldState, flick: Flick) -> None:
    """Strike a die: the finger's impulse J along ``direction`` (given, or from its speed), at the
    pad's lever on the struck face; its part along the face is at most mu_finger times its normal
    part (beyond, the pad slips and only that much is delivered); scaled down if the die would hold
    more energy than the launch cap or the finger's impact allow (flick.strike).

    Raises :class:`IllegalAction` with the reason if the flick is not fair.
    """
    reason = check_flick(w, flick)
    if reason is not None:
        raise IllegalAction(f"illegal flick: {reason}")
    p = w.params
    d = w._dice[flick.die]
    b = d.body
    x, y = b.position
    ang = b.angle
    k = struck_side(flick.direction, ang)
    dvx, dvy, dw, rate, rise = launch(flick, x, y, ang, p, w._inertia)
    b.velocity = (b.velocity.x + dvx, b.velocity.y + dvy)
    b.angular_velocity = b.angular_velocity + dw
    d.fresh = True
    w._current = False
    w._unchecked = True
    face = d.orientation.face_towards(k * math.pi / 2)
    w.events.append(Event(w.time, FLICK, (d.id,), {**flick.to_json(), "face_struck": face}))
    # a strike above mid-height tips the die up on its leading edge (physics/pitch.py): it
    # tumbles as often as the pitch's energy allows, or rocks back; one below the centre turns it
    # back and lifts it (flick.strike)
    way, rate, vz = start_pitch(flick, ang, rate, rise, p)
    pitch.start(w, d, way, rate, "flick")
    if vz > 0.0:
        flight.launch(w, d, vz)
    else:
        flight.leave_if_lifting(w, d)
    view.mark(w, d)
    w._canonical = False
