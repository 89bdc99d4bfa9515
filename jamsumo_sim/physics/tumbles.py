"""Face changes: a quarter turn about the horizontal axis across the motion, logged as a ``tumble``
event (the pitch that decides *when* a die turns over lives in :mod:`.pitch`, the trip thresholds
in :mod:`.edges`); and the position jumps of tumbles that carry a die over an edge (a climb onto a
platform, a trip over the hole's far rim, a pitched die's quarter turn).

A jump must not land inside what is there (physics.md s8.2): :func:`sweep` moves the die's square
footprint along the jump and finds the first contact with another die (or a platform wall);
the caller stops the die there and turns its motion into an :func:`impact` with the die it met
(or drops the jump when the die's centre has not passed the edge it tumbles over).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .datatypes import DieRecord
from .die import tumble as turn
from .events import COLLISION, TUMBLE, Event
from .fastbody import angle, position

if TYPE_CHECKING:
    from .state import WorldState

# A jump may end at most this fraction of the collision slop deeper inside another shape than it
# started (a touch, not an overlap: the contact solver takes over from there).
TOUCH_FRACTION = 0.5

Vec = tuple[float, float]


@dataclass(frozen=True)
class Hit:
    """The first contact met by a swept jump."""

    s: float  # fraction of the jump done at first contact (0 < s <= 1)
    other: DieRecord | None  # the die met (None: a platform wall)
    normal: Vec  # unit contact normal, from the jumping die towards what it met


def tumble(w: WorldState, d: DieRecord, body_dir: float, cause: str) -> None:
    """Tumble ``d`` towards ``body_dir`` (radians in the die's frame); cause "flick" | "rim" |
    "step" | "impact"."""
    before = d.orientation.top
    d.orientation = turn(d.orientation, body_dir)
    data = {"before": before, "after": d.orientation.top, "cause": cause}
    w.events.append(Event(w.time, TUMBLE, (d.id,), data))


def _box_axes(angle: float) -> tuple[Vec, Vec]:
    c, s = math.cos(angle), math.sin(angle)
    return (c, s), (-s, c)


def first_contact(
    start: Vec, move: Vec, half: float, angle: float, box: tuple[Vec, Vec, Vec, Vec], tol: float
) -> tuple[float, Vec] | None:
    """Where a square (centre ``start``, half-size ``half``, rotated by ``angle``) moved by
    ``s * move`` (0 <= s <= 1) first overlaps ``box`` (centre, half-sizes, two unit axes) by more
    than ``tol`` beyond the overlap it had at s = 0: (s, unit normal towards the box) or None.

    Separating axes (the four face normals): on each the overlap R - |c + s m| is concave in s, so
    the overlap depth (their minimum) exceeds a level on one interval of s; sharp squares (the
    rounded die lies inside its square, so the contact is found no later than the solver's)."""
    centre, (hx, hy), bx, by = box
    ax, ay = _box_axes(angle)
    dx, dy = start[0] - centre[0], start[1] - centre[1]
    proj = []  # (reach R, centre distance c, rate m, axis) per separating axis
    for n in (ax, ay, bx, by):
        reach = half * (abs(n[0] * ax[0] + n[1] * ax[1]) + abs(n[0] * ay[0] + n[1] * ay[1]))
        reach += hx * abs(n[0] * bx[0] + n[1] * bx[1]) + hy * abs(n[0] * by[0] + n[1] * by[1])
        proj.append((reach, n[0] * dx + n[1] * dy, n[0] * move[0] + n[1] * move[1], n))
    depth0 = min(r - abs(c) for r, c, _m, _n in proj)
    level = max(depth0, 0.0) + tol
    s_in, s_out, axis = -math.inf, math.inf, None
    for reach, c, m, n in proj:
        lim = reach - level
        if m == 0.0:
            if abs(c) >= lim:
                return None  # separated on this axis all along the jump
            continue
        lo, hi = sorted(((-lim - c) / m, (lim - c) / m))
        if lo > s_in:
            s_in, axis = lo, (c + lo * m, n)
        s_out = min(s_out, hi)
    if axis is None or s_in >= s_out or s_in > 1.0 or s_out <= 0.0:
        return None
    c_in, n = axis
    sign = -1.0 if c_in > 0 else 1.0  # the die is on the axis' positive side: the box lies along -n
    return max(s_in, 0.0), (sign * n[0], sign * n[1])


def sweep(w: WorldState, d: DieRecord, move: Vec, walls: bool) -> Hit | None:
    """The first die of ``d``'s contact group (or, with ``walls``, platform wall) that ``d``'s
    footprint meets when moved by ``move`` (m) from where it is; None if the way is clear."""
    p = w.params
    half = 0.5 * p.die_size
    b = d.body
    start = position(b)  # (fastbody: pymunk's getters' C calls, minus building a Vec2d)
    b_angle = angle(b)
    tol = TOUCH_FRACTION * p.collision_slop
    best: Hit | None = None
    # dice whose centres lie farther than this cannot be met (the jump plus both half-diagonals)
    reach = math.hypot(move[0], move[1]) + 2.0 * w._half_diag + tol
    # dice in insertion order, then walls: ties go to the first, so the result is reproducible
    for other in w._dice.values():
        if other is d or not other.in_space or other.group != d.group:
            continue
        ob = other.body
        o_pos = position(ob)
        if math.hypot(o_pos[0] - start[0], o_pos[1] - start[1]) > reach:
            continue
        box = (o_pos, (half, half), *_box_axes(angle(ob)))
        found = first_contact(start, move, half, b_angle, box, tol)
        if found is not None and (best is None or found[0] < best.s):
            best = Hit(found[0], other, found[1])
    if walls:
        for plat in w.board.platforms:
            x0, y0, x1, y1 = plat.bounds
            box = ((0.5 * (x0 + x1), 0.5 * (y0 + y1)), (0.5 * (x1 - x0), 0.5 * (y1 - y0)))
            found = first_contact(start, move, half, b_angle, (*box, (1.0, 0.0), (0.0, 1.0)), tol)
            if found is not None and (best is None or found[0] < best.s):
                best = Hit(found[0], None, found[1])
    return best


def impact(w: WorldState, d: DieRecord, other: DieRecord, normal: Vec) -> None:
    """``d``, stopped against ``other`` by a jump, strikes it with the motion it has: a frictionless
    central impact along the contact normal with the die-die restitution e.  Equal masses: each
    die's normal velocity changes by (1 + e)/2 of the closing speed; momentum is kept and
    (1 - e^2)/4 m v_n^2 of energy is lost (physics.md s5).  Logged as a die ``collision``."""
    p = w.params
    nx, ny = normal
    (ax, ay), (bx, by) = d.body.velocity, other.body.velocity
    closing = (ax - bx) * nx + (ay - by) * ny
    if closing <= 0.0:
        return  # already parting: nothing to exchange
    dv = 0.5 * (1.0 + p.restitution) * closing
    d.body.velocity = (ax - dv * nx, ay - dv * ny)
    other.body.velocity = (bx + dv * nx, by + dv * ny)
    ids = tuple(sorted((d.id, other.id)))
    w.events.append(Event(w.time, COLLISION, ids, {"impulse": p.die_mass * dv, "kind": "die"}))
    w._current = False
