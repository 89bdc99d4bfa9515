"""A compiled model of one lone die's shot, step for step as its World would run it (numba).

Covered: sliding flat (on the board, on a platform's top, straddling its edge, across the hole
while its footprint holds it up), pitched on an edge (physics/pitch.py: the pendulum in
step_kernels.pitch_step, the World's own compiled step; quarter turns with their jump, unless it
meets a wall, and landing; rocking back; lifting off), in flight (physics/flight.py: ballistic
height, turns in the air, the landing on the board or a platform's top, flat or on an edge, and
its rebound) and off the side, as long as no contact is possible.  One model step is the World's
(physics/evolve.py), bit for bit:

- the kick the World would make at the step's start when it has none pending (after a flick: a
  half step; after a pitched step or a status change): step_kernels.swept_substeps and kick;
- Chipmunk's collision steps of a free body (no gravity, damping 1, no contacts): per collision
  step of length h, ``x += vx h``, ``y += vy h``, ``angle += w h`` (cpBodyUpdatePosition; the
  velocity update adds exactly zero);
- :func:`jamsumo_sim.physics.step_kernels.finish_step` on the state read back (screen, kick, next
  collision steps), then the bookkeeping the World's support.after_step would do (platforms,
  pitch, flight) in the same arithmetic, in the same order.

:func:`run_lone` stops *before* a step that may do something it does not model (a platform wall
within reach, falling into the hole, pitched or flying over it, a pitched die tipping in at its
rim, a quarter turn's jump that meets a wall, a lift-off too close to call: ``WHY_*``) and the
World takes that step; it ends the shot itself at rest, off the board or out of steps.
sweep/lone.py hands shots back and forth; tests/sweep/test_batch_lone.py and test_lone_paths.py
check whole shots.

Where the World's step is compiled already (step_kernels: kick, finish_step, swept_substeps,
pitch_step, supported, wall_gap_at, py_hypot) the kernel calls it; what the World does in Python
(pitch.step_die's loop past a landing or a lift-off, flight.step_die and _land, tumbles.sweep's
first contact, support.tips_in) is restated here line for line, the same operations in the same
order, and the tests hold the two to each other bit for bit.
"""

from __future__ import annotations

import math

import numpy as np

from ..physics import kernel_cache, step_kernels
from ..physics.flight import FLAT_PITCH, MAX_AIR_TURNS
from ..physics.pitch import MAX_SUBSTEP_ANGLE, MAX_TURNS_PER_STEP, QUARTER

_CACHE = kernel_cache.configure()  # before numba compiles anything (same folder as step_kernels)

from numba import njit  # noqa: E402

# run_plain's exit codes
NEEDS_WORLD = 0  # the next step may do something the kernel does not model: the World takes it
RESTED = 1  # every velocity under the rest thresholds after the last step (the World settles)
OFF = 2  # the centre passed the board's edge in the last step (the World's to_off_board)
OUT_OF_STEPS = 3  # the step limit was reached, not at rest

# Why run_lone handed a step to the World (its ``why[0]`` with NEEDS_WORLD; the benchmark counts them)
WHY_WALL = 1  # a platform wall could be touched this step (Chipmunk's contact)
WHY_PITCH_WALL = 2  # a quarter turn's jump meets a platform wall (tumbles.sweep)
WHY_PITCH_HOLE = 3  # pitched near the hole (support.tips_in)
WHY_HOLE = 4  # the centre over the hole's disc (support.hole_logic)
WHY_PITCH_HIGH = 5  # the same on or at a platform's top
WHY_LIFT_CLOSE = 6  # a lift-off too close to call (the edge's normal force within _LIFT_MARGIN)
WHY_LOG = 7  # the quarter-turn log is full (sweep/lone.py reads it after each call)
WHY_CLIMB_BACK = 8  # straddling a top's edge, its centre back over the top (platforms.climb_back)
# what run_lone's ``why`` array counts after its first entry (tests and the benchmark see that the
# kernel took these steps itself)
N_LIFT_OFFS, N_LANDINGS, N_HOLE_SLIDES = 1, 2, 3
N_WHY = 4

# Clearance (m) a wall must keep from a sliding or flying die's square all step (Chipmunk makes a
# contact only between touching shapes: this only absorbs rounding).
CONTACT_MARGIN = 1.0e-5

_JIT = {"cache": _CACHE, "nogil": True, "error_model": "numpy"}


@njit(**_JIT)
def _footprint_overlaps(x, y, a, footprint, box):
    """platforms.footprint_overlaps: a footprint point strictly inside the platform's box."""
    c = math.cos(a)
    s = math.sin(a)
    for k in range(footprint.shape[0]):
        px = x + c * footprint[k, 0] - s * footprint[k, 1]
        py = y + s * footprint[k, 0] + c * footprint[k, 1]
        if px > box[0] and px < box[2] and py > box[1] and py < box[3]:
            return True
    return False


@njit(**_JIT)
def _platform_logic(x, y, a, where, tops, walls, footprint):
    """platforms.platform_logic for a die on a top (``where[0]`` = its platform) or straddling
    one's edge (``where[1]``); updates ``where``, returns True if the die's status changed."""
    lv = where[0]
    if lv >= 0:
        if abs(x - tops[lv, 0]) <= tops[lv, 2] and abs(y - tops[lv, 1]) <= tops[lv, 3]:
            return False
        where[0] = -1
        where[1] = lv  # stepped off: straddles the edge
        return True
    st = where[1]
    # (back over the top: run_lone hands that step to the World, platforms.climb_back)
    if _footprint_overlaps(x, y, a, footprint, walls[st]):
        return False
    where[1] = -1  # clear of the platform: on the board
    return True


# layout of the pitch parameter vector (pitch_params)
_Q_A, _Q_G, _Q_MU_PITCH, _Q_MU_LANDING, _Q_HOP_LIFT, _Q_HOP_MIN, _Q_TIP_RATE, _Q_I_EDGE = range(8)
_Q_MASS, _Q_DT, _Q_E_LANDING, _Q_MAX_ANGLE = 8, 9, 10, 11
_N_PITCH_PARAMS = 12
# layout of a pitch (physics/datatypes.Pitch; ``cause`` stays with the World's record)
PITCHED, PHI, RATE, SIDE, HEADING = range(5)
# layout of a flight (physics/flight.py: the DieRecord's airborne, z, vz)
AIRBORNE, Z, VZ = range(3)


# CPython's math.hypot bit for bit (physics/pitch.py computes in Python): the physics kernels' copy
py_hypot = step_kernels.py_hypot


@njit(**_JIT)
def _lift(phi, a):
    return 0.5 * a * (math.cos(phi) + math.sin(phi) - 1.0)


@njit(**_JIT)
def _pitch_energy(phi, rate, q):
    return 0.5 * q[_Q_I_EDGE] * rate * rate + q[_Q_MASS] * q[_Q_G] * _lift(phi, q[_Q_A])


@njit(**_JIT)
def _accel(phi, k):
    return k * (math.sin(phi) - math.cos(phi))


@njit(**_JIT)
def _swing(phi, rate, h, q):
    """pitch.swing: one RK4 step of the pendulum about the edge, energy projected back."""
    k = 0.75 * q[_Q_G] / q[_Q_A]
    k1p, k1v = rate, _accel(phi, k)
    k2p, k2v = rate + 0.5 * h * k1v, _accel(phi + 0.5 * h * k1p, k)
    k3p, k3v = rate + 0.5 * h * k2v, _accel(phi + 0.5 * h * k2p, k)
    k4p, k4v = rate + h * k3v, _accel(phi + h * k3p, k)
    phi1 = phi + h * (k1p + 2 * k2p + 2 * k3p + k4p) / 6
    rate1 = rate + h * (k1v + 2 * k2v + 2 * k3v + k4v) / 6
    left = _pitch_energy(phi, rate, q) - q[_Q_MASS] * q[_Q_G] * _lift(phi1, q[_Q_A])
    if left <= 0.0:
        return phi, 0.0
    return phi1, math.copysign(math.sqrt(2.0 * left / q[_Q_I_EDGE]), rate1)


# a lift-off decided this close to the edge's zero normal force (m/s^2) is the World's: Python's
# (c - s) ** 2 is the C library's pow, the kernel's a product (step_kernels' own margin)
LIFT_MARGIN = step_kernels._LIFT_MARGIN
# _lift_off's answers
_STAYS, _LIFTS, _TOO_CLOSE = 0, 1, 2


@njit(**_JIT)
def _lift_off(phi, rate, q):
    """flight.lifts_off and the rise it needs (pitch.step_die's test): _LIFTS, _STAYS, or
    _TOO_CLOSE when the normal force is within LIFT_MARGIN of zero (the World decides)."""
    if not (rate > 0.0 and phi < 0.25 * math.pi):
        return _STAYS
    half_a = 0.5 * q[_Q_A]
    c = math.cos(phi)
    s = math.sin(phi)
    if not q[_Q_HOP_LIFT] * (half_a * (c - s) * rate) > q[_Q_HOP_MIN]:
        return _STAYS
    force = step_kernels.edge_leave_force(c, s, rate, q[_Q_G], half_a)
    if force < -LIFT_MARGIN:
        return _LIFTS
    if force < LIFT_MARGIN:
        return _TOO_CLOSE
    return _STAYS


@njit(**_JIT)
def _round_half_even(x):
    """Python's round() of a float to an int (ties to even)."""
    f = math.floor(x)
    d = x - f
    r = int(f)
    if d > 0.5 or (d == 0.5 and r % 2 != 0):
        r += 1
    return r


@njit(**_JIT)
def _meets_box(sx, sy, mx, my, half, angle, box, tol):
    """tumbles.first_contact(start, move, half, angle, the wall box, tol) is not None: the square
    at (sx, sy) moved by s (mx, my), 0 <= s <= 1, overlaps the box by more than ``tol`` beyond
    its overlap at s = 0 (line for line: the same products and comparisons)."""
    cx = 0.5 * (box[0] + box[2])
    cy = 0.5 * (box[1] + box[3])
    hx = 0.5 * (box[2] - box[0])
    hy = 0.5 * (box[3] - box[1])
    c = math.cos(angle)
    s = math.sin(angle)
    ax0, ax1, ay0, ay1 = c, s, -s, c
    dx, dy = sx - cx, sy - cy
    reach = np.empty(4)
    cen = np.empty(4)
    rate = np.empty(4)
    depth0 = math.inf
    for k in range(4):
        if k == 0:
            n0, n1 = ax0, ax1
        elif k == 1:
            n0, n1 = ay0, ay1
        elif k == 2:
            n0, n1 = 1.0, 0.0
        else:
            n0, n1 = 0.0, 1.0
        r = half * (abs(n0 * ax0 + n1 * ax1) + abs(n0 * ay0 + n1 * ay1))
        r += hx * abs(n0 * 1.0 + n1 * 0.0) + hy * abs(n0 * 0.0 + n1 * 1.0)
        reach[k] = r
        cen[k] = n0 * dx + n1 * dy
        rate[k] = n0 * mx + n1 * my
        d = r - abs(cen[k])
        if k == 0 or d < depth0:  # Python's min: the first of equals
            depth0 = d
    level = (0.0 if depth0 < 0.0 else depth0) + tol  # Python's max(depth0, 0.0)
    s_in = -math.inf
    s_out = math.inf
    found = False
    for k in range(4):
        lim = reach[k] - level
        c = cen[k]
        m = rate[k]
        if m == 0.0:
            if abs(c) >= lim:
                return False  # separated on this axis all along the jump
            continue
        p = (-lim - c) / m
        q = (lim - c) / m
        lo, hi = (q, p) if q < p else (p, q)  # sorted()
        if lo > s_in:
            s_in = lo
            found = True
        if hi < s_out:
            s_out = hi
    return not (not found or s_in >= s_out or s_in > 1.0 or s_out <= 0.0)


@njit(**_JIT)
def _jump_blocked(x, y, angle, mx, my, walls, half, tol):
    """tumbles.sweep(walls=True) of a lone die finds a platform wall on the jump (mx, my)."""
    for k in range(walls.shape[0]):  # noqa: SIM110 (a loop numba compiles)
        if _meets_box(x, y, mx, my, half, angle, walls[k], tol):
            return True
    return False


@njit(**_JIT)
def _slope_paid(x, y, vx, vy, pit, h_all, prm, q):
    """pitch._slope_paid: a pitched die's slide pays the dish's rise over the ``h_all`` seconds it
    moved on the board (``pit``'s rate what the slide cannot pay); the new (vx, vy)."""
    vx1, vy1, rate = step_kernels.climb_paid(
        x - vx * h_all, y - vy * h_all, x, y, vx, vy, pit[RATE], prm, q[_Q_I_EDGE] / q[_Q_MASS]
    )
    pit[RATE] = rate
    return vx1, vy1


# _pitch_step's answers (a negative one: -WHY_..., the World takes the step)
_PITCH_DONE, _LIFTED = 1, 2


@njit(**_JIT)
def _pitch_step(x, y, a, vx, vy, spin, pit, q, high, log, base, air, walls, tol, span, prm, on_top):
    """pitch.step_die's Python loop over one model step (after its collision steps) from the
    body's pose and velocities, for the steps step_kernels.pitch_step leaves to it: quarter turns
    (their jump and landing) and lift-offs.  Returns (answer, x, y, vx, vy, spin) with ``pit``
    and ``log`` (the quarter turns' sides, ``log[0]`` of them) updated; _LIFTED: it left the
    surface (flight.launch: ``air`` holds its height over ``base`` and rise), -WHY_...: the World
    must take this step (``pit`` and ``log`` then partly updated: the caller restores them):
    a quarter turn whose jump meets a platform wall (tumbles.sweep's ``tol``: pitch._land stops
    it there, strikes the wall, may fall back) is the World's.  ``span``: 0 for the whole step,
    else the last ``span`` seconds of it (pitch.step_die's, after a landing on an edge).
    ``prm``: the kick's parameters (the dish under a jump, step_kernels.climb_paid); ``on_top``:
    on a platform's top (the World's ``level``: no dish there)."""
    phi = pit[PHI]
    rate = pit[RATE]
    side = int(pit[SIDE])
    heading = pit[HEADING]
    h_all = span if span > 0.0 else q[_Q_DT]
    n = max(1, math.ceil(h_all * (abs(rate) + q[_Q_TIP_RATE]) / q[_Q_MAX_ANGLE]))
    h = h_all / n
    mu_h = q[_Q_MU_PITCH] * h
    spin_mu_h = 1.5 * q[_Q_MU_PITCH] / q[_Q_A] * h
    half_a = 0.5 * q[_Q_A]
    turns = 0
    pitched = True
    n_log = log[0]
    for i in range(n):
        # the lift-off test at each substep's start (pitch.step_die)
        off = _lift_off(phi, rate, q)
        if off == _TOO_CLOSE:
            return -WHY_LIFT_CLOSE, x, y, vx, vy, spin
        if off == _LIFTS:
            # flight.launch: the pitch turns on in the air at hop_lift of its rate, the centre
            # rising at hop_lift of the rise its turn about the edge gives
            vz = q[_Q_HOP_LIFT] * (half_a * (math.cos(phi) - math.sin(phi)) * rate)
            log[0] = n_log
            pit[PITCHED] = 1.0
            pit[PHI] = phi
            pit[RATE] = q[_Q_HOP_LIFT] * rate
            pit[SIDE] = side
            air[AIRBORNE] = 1.0
            # flight.launch's ``ahead``: it left h_all - i h before the step's end, and its pitch
            # has turned on in the air since
            ahead = h_all - i * h
            air[Z], air[VZ] = step_kernels.flown(base + _lift(phi, q[_Q_A]), vz, ahead, q[_Q_G])
            pit[PHI] = step_kernels.turned_in_air(phi, pit[RATE], ahead)
            return _LIFTED, x, y, vx, vy, spin
        # the edge's friction from the pivot's own normal force (pitch.step_die)
        load = step_kernels.pivot_load(math.cos(phi), math.sin(phi), rate, q[_Q_G], half_a)
        vx, vy, spin = step_kernels.rub(vx, vy, spin, mu_h * load, spin_mu_h * load)
        phi_before = phi
        phi, rate = _swing(phi, rate, h, q)
        if phi <= 0.0 and rate <= 0.0:
            # the slap's friction (pitch.step_die)
            fall = half_a * (math.cos(phi) - math.sin(phi)) * -rate
            mu = q[_Q_MU_PITCH]
            vx, vy, spin = step_kernels.rub(vx, vy, spin, mu * fall, 1.5 * mu / q[_Q_A] * fall)
            pitched = False
            break
        if phi >= QUARTER:
            if n_log + 1 >= log.shape[0]:
                return -WHY_LOG, x, y, vx, vy, spin
            # pitch.step_die: when in the step it landed; pitch._land: the jump along the body's
            # side as it was then, the new velocity from then on
            f = (QUARTER - phi_before) / (phi - phi_before) if phi > phi_before else 1.0
            back = h_all - (i + min(f, 1.0)) * h
            at = a - spin * back
            ang = at + side * QUARTER
            cx, cy = math.cos(ang), math.sin(ang)
            mx, my = q[_Q_A] * cx, q[_Q_A] * cy
            if _jump_blocked(x, y, a, mx, my, walls, 0.5 * q[_Q_A], tol):
                return -(WHY_PITCH_HIGH if high else WHY_PITCH_WALL), x, y, vx, vy, spin
            turns += 1
            land_rate = math.sqrt(2.0 * _pitch_energy(phi, rate, q) / q[_Q_I_EDGE])
            n_log += 1
            log[n_log] = side
            u = vx * cx + vy * cy
            rate, u1 = step_kernels.centre_landing(land_rate, u, q[_Q_MU_LANDING], q[_Q_A])
            vx1, vy1 = vx + (u1 - u) * cx, vy + (u1 - u) * cy
            # the jump (nothing in the way: checked before), then the new velocity's rest of step;
            # on the board it pays the dish's rise (pitch._climb_paid)
            x1, y1 = x + 1.0 * mx + (vx1 - vx) * back, y + 1.0 * my + (vy1 - vy) * back
            if not on_top:
                vx1, vy1, rate = step_kernels.climb_paid(
                    x, y, x1, y1, vx1, vy1, rate, prm, q[_Q_I_EDGE] / q[_Q_MASS]
                )
                x1, y1 = x + 1.0 * mx + (vx1 - vx) * back, y + 1.0 * my + (vy1 - vy) * back
            x, y = x1, y1
            vx, vy = vx1, vy1
            phi = 0.0
            side = _round_half_even((heading - at) / QUARTER) % 4
            if rate <= 0.0 or turns >= MAX_TURNS_PER_STEP:
                pitched = False
                break
    log[0] = n_log
    pit[PITCHED] = 1.0 if pitched else 0.0
    pit[PHI] = phi
    pit[RATE] = rate
    pit[SIDE] = side
    return _PITCH_DONE, x, y, vx, vy, spin


def pitch_params(
    *, a: float, g: float, mu_pitch: float, mu_landing: float, hop_lift: float,
    hop_min_speed: float, tip_rate: float, edge_inertia: float, mass: float, dt: float,
    restitution_landing: float, refine: int = 1,
) -> np.ndarray:  # fmt: skip
    """The pitch model's parameters as one vector (computed by physics/pitch.py's functions)."""
    q = np.empty(_N_PITCH_PARAMS)
    q[_Q_A], q[_Q_G], q[_Q_MU_PITCH], q[_Q_MU_LANDING] = a, g, mu_pitch, mu_landing
    q[_Q_HOP_LIFT], q[_Q_HOP_MIN], q[_Q_TIP_RATE] = hop_lift, hop_min_speed, tip_rate
    q[_Q_I_EDGE], q[_Q_MASS], q[_Q_DT] = edge_inertia, mass, dt
    q[_Q_E_LANDING] = restitution_landing
    q[_Q_MAX_ANGLE] = MAX_SUBSTEP_ANGLE / refine  # as pitch.py divides it
    return q


@njit(**_JIT)
def _land(phi, top, z1, vz1, vx, vy, pitched, pit, q):
    """flight._land for a lone die (nothing but the board or a platform's top under it): the
    landing impact.  Returns (rebounds, vx, vy, the rebound's vz, the pitch rate after);
    ``pit[PHI]`` is the pitch's phi (updated by the caller)."""
    a = q[_Q_A]
    hop_min = q[_Q_HOP_MIN]
    mu = q[_Q_MU_LANDING]
    # the rise to the surface paid as flight._land pays it (step_kernels.landing_rise)
    phi, zc, vz, rate0, k = step_kernels.landing_rise(
        phi, z1, vz1, top, pit[RATE] if pitched else 0.0, vx * vx + vy * vy, a, q[_Q_G]
    )
    if k != 1.0:
        vx, vy = vx * k, vy * k
    if pitched:
        pit[RATE] = rate0
        pit[PHI] = phi
    e = q[_Q_E_LANDING]
    rate = pit[RATE]
    if not pitched or (phi < FLAT_PITCH and rate == 0.0):
        if e * -vz < hop_min:
            e = 0.0
        v = py_hypot(vx, vy)
        if v > 0.0:
            t = v - mu * (1.0 + e) * -vz
            keep = (t if t > 0.0 else 0.0) / v
            vx, vy = vx * keep, vy * keep
        vz_out, rate1 = -e * vz, 0.0
        flies = vz_out > 0.0
    else:
        hx, hy = math.cos(pit[HEADING]), math.sin(pit[HEADING])
        u = vx * hx + vy * hy
        rate1, u1, vz_out, vcz = step_kernels.edge_landing(phi, rate, u, vz, e, mu, a)
        flies = vcz >= hop_min and vz_out > 0.0
        if not flies:
            rate1, u1, vz_out, vcz = step_kernels.edge_landing(phi, rate, u, vz, 0.0, mu, a)
            # flight.edge_normal_force(phi, rate1) < 0: it leaves at once
            c, s = math.cos(phi), math.sin(phi)
            flies = step_kernels.edge_leave_force(c, s, rate1, q[_Q_G], 0.5 * a) < 0.0
            if not flies:
                vz_out = 0.0
        slide = u1  # the centre's, on the edge as in the air (flight._land, model 0.17)
        if not flies:
            a2 = a * a
            e_in = 0.5 * (u * u + vz * vz) + a2 * rate * rate / 12.0
            e_out = 0.5 * slide * slide + a2 * rate1 * rate1 / 3.0
            if e_out > e_in:
                f = math.sqrt(e_in / e_out)
                slide, rate1 = slide * f, rate1 * f
        vx, vy = vx + (slide - u) * hx, vy + (slide - u) * hy
    return flies, vx, vy, vz_out, rate1


# _flight_step's answers
_FLIES, _LANDED, _FLIGHT_WORLD = 0, 1, 2


@njit(**_JIT)
def _top_at(x, y, tops):
    """(height of the board or the top of the platform the centre is over, its index or -1):
    board.platform_at's first platform containing (x, y)."""
    for k in range(tops.shape[0]):
        if abs(x - tops[k, 0]) <= tops[k, 2] and abs(y - tops[k, 1]) <= tops[k, 3]:
            return tops[k, 4], k
    return 0.0, -1


@njit(**_JIT)
def _back(top, low0, low1, dt):
    """flight._back: how long before the step's end the lowest point crossed ``top``."""
    if not low0 > low1:
        return 0.0
    return min(max(dt * (top - low1) / (low0 - low1), 0.0), dt)


@njit(**_JIT)
def _flight_step(x, y, vx, vy, pitched, air, pit, q, tops, log, where, hole_r):
    """flight.step_die over one model step at the centre (x, y) the step ended at, with the
    step's velocities (vx, vy).  Returns (answer, x, y, vx, vy, how long before the step's end it
    landed): _FLIES (``air``, ``pit`` and
    ``log`` hold the new height, pitch and the quarter turns in the air), _LANDED (flight._land,
    taken when it reached the surface: on the board or a platform's top, ``where[0]``, or
    rebounding, still in flight, or lifting off again at once; the centre and velocities
    changed), or _FLIGHT_WORLD with nothing changed (the quarter-turn log is full, or a lift-off
    too close to call; over the hole the caller has handed the step over already)."""
    dt = q[_Q_DT]
    g = q[_Q_G]
    a_size = q[_Q_A]
    z0 = air[Z]
    z1 = z0 + dt * air[VZ] - 0.5 * g * dt * dt
    vz1 = air[VZ] - g * dt
    phi = 0.0
    n_log0 = log[0]
    n_log = n_log0
    side = int(pit[SIDE])
    rate0 = pit[RATE]
    low0 = z0 - (_lift(pit[PHI], a_size) if pitched else 0.0)
    turns = 0
    if pitched:
        phi = pit[PHI] + rate0 * dt
        while phi >= QUARTER and turns < MAX_AIR_TURNS:
            phi -= QUARTER
            n_log += 1
            if n_log >= log.shape[0]:
                return _FLIGHT_WORLD, x, y, vx, vy, 0.0
            log[n_log] = side
            turns += 1
        while phi < 0.0 and turns < MAX_AIR_TURNS:
            phi += QUARTER
            n_log += 1
            if n_log >= log.shape[0]:
                return _FLIGHT_WORLD, x, y, vx, vy, 0.0
            log[n_log] = side + 2
            turns += 1
        phi = min(max(phi, 0.0), QUARTER)
    low1 = z1 - _lift(phi, a_size) if pitched else z1
    top, plat = _top_at(x, y, tops)
    log[0] = n_log
    phi_end = pit[PHI]
    if pitched:
        pit[PHI] = phi
    if low1 > top:
        air[Z] = z1
        air[VZ] = vz1
        return _FLIES, x, y, vx, vy, 0.0
    back = _back(top, low0, low1, dt)
    if back > 0.0:
        # flight.step_die: what was under it when it reached the surface
        xl, yl = x - vx * back, y - vy * back
        if not xl * xl + yl * yl < hole_r * hole_r or _top_at(xl, yl, tops)[1] >= 0:
            top_then, plat_then = _top_at(xl, yl, tops)
            if low1 > top_then:
                air[Z] = z1
                air[VZ] = vz1
                return _FLIES, x, y, vx, vy, 0.0
            top, plat = top_then, plat_then
            back = _back(top, low0, low1, dt)
    if pitched and turns == 0:
        phi = max(phi - rate0 * back, 0.0)
        pit[PHI] = phi
    saved_pit = pit.copy()
    saved_air = air.copy()
    rebounds, nvx, nvy, vz_out, rate1 = _land(phi, top, z1, vz1, vx, vy, pitched, pit, q)
    if pitched:
        phi = pit[PHI]  # (a turn stopped short at the surface: step_kernels.landing_rise)
    if back > 0.0 and (nvx != vx or nvy != vy):
        x, y = x + (nvx - vx) * back, y + (nvy - vy) * back
    if rebounds:
        # flies the rest of the step
        zc = top + _lift(phi, a_size)
        air[Z], air[VZ] = step_kernels.flown(zc, vz_out, back, g)
        if pitched:
            pit[PHI] = step_kernels.turned_in_air(phi, rate1, back)
            pit[RATE] = rate1
        return _LANDED, x, y, nvx, nvy, back
    air[AIRBORNE] = 0.0
    air[Z] = 0.0
    air[VZ] = 0.0
    if plat >= 0:
        where[0] = plat
    if pitched and (phi >= FLAT_PITCH or rate1 > 0.0):
        pit[RATE] = rate1
        # flight.leave_if_lifting: turning fast enough about its edge, it leaves at once
        off = _lift_off(phi, rate1, q)
        if off == _TOO_CLOSE:
            pit[:] = saved_pit
            pit[PHI] = phi_end
            air[:] = saved_air
            air[Z] = z0
            log[0] = n_log0
            return _FLIGHT_WORLD, x, y, vx, vy, 0.0
        if off == _LIFTS:
            half_a = 0.5 * a_size
            pit[RATE] = q[_Q_HOP_LIFT] * rate1
            air[AIRBORNE] = 1.0
            # (flight.launch: it flies the rest of the step now)
            vz = q[_Q_HOP_LIFT] * (half_a * (math.cos(phi) - math.sin(phi)) * rate1)
            z = top + _lift(phi, a_size)
            if back > 0.0:
                z, vz = step_kernels.flown(z, vz, back, g)
                pit[PHI] = step_kernels.turned_in_air(phi, pit[RATE], back)
            air[Z] = z
            air[VZ] = vz
            where[0] = -1
            where[1] = -1
    else:
        pit[PITCHED] = 0.0
    return _LANDED, x, y, nvx, nvy, back


@njit(**_JIT)
def _tips_in(x, y, angle, pit, q, hole_r):
    """support.tips_in for a die pitched on the board at (x, y): its whole edge over the hole and
    its centre of mass past the rim (then it goes in: the World's step)."""
    a = q[_Q_A]
    reach = hole_r + a
    if x * x + y * y > reach * reach:
        return False
    half = 0.5 * a
    ang = angle + pit[SIDE] * QUARTER
    c, s = math.cos(ang), math.sin(ang)
    mx, my = x + half * c, y + half * s
    for k in (-1.0, 1.0):
        ex, ey = mx - k * half * s, my + k * half * c
        if ex * ex + ey * ey >= hole_r * hole_r:
            return False
    phi = pit[PHI]
    lead = half * (1.0 - math.cos(phi) + math.sin(phi))
    gx, gy = x + lead * c, y + lead * s
    return gx * gx + gy * gy < hole_r * hole_r


@njit(**_JIT)
def _wall_open(x, y, angle, vx, vy, w, walls, half, r_corner, dt, margin):
    """No platform wall box can come within ``margin`` of the die's square (the rounded die
    inside it) during a step of ``dt`` at (vx, vy, w): for each wall, one separating axis (its
    two, the die's two) stays open all step, its gap less the die's approach along it and the
    growth of its extent as it turns (step_kernels._pair_risk's bound for a die and a still box)."""
    c = math.cos(angle)
    s = math.sin(angle)
    grow_max = half * abs(w) * dt
    for k in range(walls.shape[0]):
        bx = 0.5 * (walls[k, 0] + walls[k, 2])
        by = 0.5 * (walls[k, 1] + walls[k, 3])
        hx = 0.5 * (walls[k, 2] - walls[k, 0])
        hy = 0.5 * (walls[k, 3] - walls[k, 1])
        dx = x - bx
        dy = y - by
        if abs(dx) > hx + r_corner + margin + (abs(vx) + abs(w) * r_corner) * dt:
            continue  # far along x all step
        if abs(dy) > hy + r_corner + margin + (abs(vy) + abs(w) * r_corner) * dt:
            continue
        is_open = False
        for a in range(4):
            if a == 0:
                nx, ny = 1.0, 0.0
            elif a == 1:
                nx, ny = 0.0, 1.0
            elif a == 2:
                nx, ny = c, s
            else:
                nx, ny = -s, c
            proj = dx * nx + dy * ny
            rel = vx * nx + vy * ny
            if proj < 0.0:
                proj = -proj
                rel = -rel
            ext = half * (abs(c * nx + s * ny) + abs(c * ny - s * nx))
            gap = proj - ext - (hx * abs(nx) + hy * abs(ny))
            left = gap - max(-rel, 0.0) * dt - min(grow_max, r_corner - ext)
            if left > margin:
                is_open = True
                break
        if not is_open:
            return False
    return True


@njit(**_JIT)
def run_lone(
    state: np.ndarray,
    out: np.ndarray,
    flags: np.ndarray,
    prm: np.ndarray,
    points: np.ndarray,
    groups: np.ndarray,
    walls: np.ndarray,
    sprm: np.ndarray,
    geo: np.ndarray,
    tops: np.ndarray,
    footprint: np.ndarray,
    where: np.ndarray,
    pit: np.ndarray,
    air: np.ndarray,
    q: np.ndarray,
    qk: np.ndarray,
    log: np.ndarray,
    why: np.ndarray,
    steps: int,
    limit: int,
    pending: np.ndarray,
) -> tuple[int, int]:
    """Step the lone die from ``state`` (1, 6: x, y, angle, vx, vy, w as its World read it after a
    step) until it exits (the codes above).

    ``pending``: the World's pending kick (dice kicked, kinetic energy after it, collision steps,
    leading step, 1 if it was a half kick) with ``out`` (1, 3) the kicked velocities, or
    ``pending[0]`` = -1 when the World
    has none (it kicks at the start of the next step: after a status change or a pitched step),
    -2 when that kick is a half step (right after the flick, or flat again after a pitch or a
    landing: the World's ``fresh``).
    ``geo``: (dt, half the board's side, hole radius, the walls' top, tumbles.sweep's tolerance);
    ``tops``: one
    (x, y, width / 2, depth / 2, height) row per platform (``walls``' order); ``where``: (platform
    whose top it is on, platform whose edge it straddles), -1 for none; ``pit``: its pitch
    (PITCHED, PHI, RATE, SIDE, HEADING), ``air`` its flight (AIRBORNE, Z, VZ), ``q``
    :func:`pitch_params` and ``qk`` the World's step_kernels.pitch_params; ``log``: the quarter
    turns' sides (``log[0]`` of them); ``why[0]``: with NEEDS_WORLD, the reason (WHY_...), and
    ``why[N_LIFT_OFFS]`` .. the lift-offs, landings and steps over the hole this call took.
    Returns (exit code, steps taken so far); the arrays then hold the state after the last step
    taken (for NEEDS_WORLD: the World takes the next step from there)."""
    rows = np.zeros(1, dtype=np.intp)
    st5 = np.empty(step_kernels.N_PITCH_STATE)  # step_kernels.pitch_step's state
    pit_before = np.empty(5)
    air_before = np.empty(3)
    dt = geo[0]
    half = geo[1]
    hole_r = geo[2]
    # (geo[3], the walls' top: in flight every wall within reach is the World's, see below)
    r2 = hole_r * hole_r
    r_corner = sprm[2]
    a_size = q[_Q_A]
    half_die = 0.5 * a_size
    touch = geo[4]  # tumbles.sweep's tolerance
    why[:] = 0
    while steps < limit:
        pitched = pit[PITCHED] != 0.0
        airborne = air[AIRBORNE] != 0.0
        if pending[0] < 0.0:
            # the World's step starts with the kick (no patch friction while pitched or in flight)
            flags[0] = step_kernels.LOW if where[0] < 0 else 0
            if not (pitched or airborne):
                flags[0] |= step_kernels.GROUNDED
            pending[4] = 0.0
            if pending[0] < -1.5:  # fresh: the first kick is a half step (leapfrog)
                flags[0] |= step_kernels.FRESH
                pending[4] = 1.0
            n_next, lead_next = step_kernels.swept_substeps(state, rows, groups, walls, sprm)
            kicked, ke_kicked = step_kernels.kick(state, rows, flags, out, prm, points)
            pending[0] = kicked
            pending[1] = ke_kicked
            pending[2] = n_next
            pending[3] = lead_next
        vx = out[0, 0]
        vy = out[0, 1]
        w = out[0, 2]
        x = state[0, 0]
        y = state[0, 1]
        a = state[0, 2]
        high = where[0] >= 0 or where[1] >= 0  # on or stepping off a top: above the walls
        # a platform wall within reach of the die's corners this step (or of a pitched die's
        # quarter-turn jump), or the hole within reach of a pitched die: the World takes it
        # the walls: low on the board, or in flight below their top (space.band_filter)
        # (in flight: the World takes its band at every collision step, evolve._bands, from its
        # base then, lowest at the step's start or end; coming down, it is the World's a
        # millimetre above the walls' top already: handed over a step before it meets a wall,
        # it met it as the World-only run does)
        z_end = air[Z] + dt * air[VZ] - 0.5 * q[_Q_G] * dt * dt
        walled = (
            min(air[Z], z_end) < geo[3] or (z_end < air[Z] and z_end < geo[3] + 1e-3)
            if airborne
            else not high
        )
        # (a pitched die's quarter-turn jump: _pitch_step looks for walls at its landing)
        if walled and not _wall_open(x, y, a, vx, vy, w, walls, half_die, r_corner, dt,
                                     CONTACT_MARGIN):  # fmt: skip
            why[0] = WHY_WALL
            return NEEDS_WORLD, steps
        n_sub = int(pending[2])
        lead = pending[3]
        # Chipmunk's collision steps: n equal ones, or a leading one and n - 1 equal ones
        sub = dt / n_sub if lead == 0.0 else (dt - lead) / (n_sub - 1)
        for k in range(n_sub):
            h = lead if k == 0 and lead > 0.0 else sub
            x = x + vx * h
            y = y + vy * h
            a = a + w * h
        past = max(abs(x), abs(y)) > half
        # over the hole's disc (support.hole_logic): a flat die its footprint still holds up
        # slides on; falling, pitched or in flight there is the World's
        if x * x + y * y < r2 and (
            pitched or airborne or not step_kernels.supported(x, y, a, footprint, hole_r)
        ):
            why[0] = WHY_HOLE
            return NEEDS_WORLD, steps
        sd = where[1]
        if sd >= 0 and abs(x - tops[sd, 0]) <= tops[sd, 2] and abs(y - tops[sd, 1]) <= tops[sd, 3]:
            why[0] = WHY_CLIMB_BACK  # it pays the rise or tips back: the World's step
            return NEEDS_WORLD, steps
        if x * x + y * y < r2:
            why[N_HOLE_SLIDES] += 1
        # support.after_step's bookkeeping: flight, or the pitch (the body's pose and velocities
        # after it: j*, nv*), then off the side, then the platforms
        jx, jy, nvx, nvy, nw = x, y, vx, vy, w
        landed = False
        lifted = False
        if airborne:
            # (past the edge it is off the side whatever the flight does, but a landing in the
            # step moves it, as the World's flight.step_die does before its edge test)
            pit_before[:] = pit
            air_before[:] = air
            log0 = log[0]
            where0, where1 = where[0], where[1]
            ans, jx, jy, nvx, nvy, back = _flight_step(
                x, y, vx, vy, pitched, air, pit, q, tops, log, where, hole_r
            )
            if ans == _FLIGHT_WORLD:
                why[0] = WHY_LOG
                return NEEDS_WORLD, steps
            landed = ans == _LANDED
            if landed and back > 0.0 and air[AIRBORNE] == 0.0 and pit[PITCHED] != 0.0:
                # support.after_step: landed on its edge, its pitch takes the rest of the step
                base = tops[where[0], 4] if where[0] >= 0 else 0.0
                if where[0] < 0 and where[1] < 0:
                    nvx, nvy = _slope_paid(jx, jy, nvx, nvy, pit, back, prm, q)
                ans, jx, jy, nvx, nvy, nw = _pitch_step(
                    jx, jy, a, nvx, nvy, w, pit, q, where[0] >= 0, log, base, air, walls, touch,
                    back, prm, where[0] >= 0,
                )  # fmt: skip
                if (
                    ans >= 0
                    and ans != _LIFTED
                    and pit[PITCHED] != 0.0
                    and where[0] < 0
                    and _tips_in(jx, jy, a, pit, q, hole_r)
                ):
                    ans = -WHY_PITCH_HOLE  # (support.tips_in: the rim's, the World's step)
                if ans < 0:
                    pit[:] = pit_before  # the World takes this step from its start
                    air[:] = air_before
                    log[0] = log0
                    where[0], where[1] = where0, where1
                    why[0] = -ans
                    return NEEDS_WORLD, steps
                if ans == _LIFTED:
                    why[N_LIFT_OFFS] += 1
                    where[0] = -1  # flight.launch: off its top
                    where[1] = -1
            if landed and not past:
                why[N_LANDINGS] += 1
        elif pitched:
            pit_before[:] = pit
            log0 = log[0]
            # the World's own compiled step first (pitch._kernel_step), its Python loop after
            st5[0], st5[1], st5[2], st5[3], st5[4] = pit[PHI], pit[RATE], vx, vy, w
            st5[5], st5[6], st5[7] = x, y, 1.0 if where[0] < 0 and where[1] < 0 else 0.0
            ans = step_kernels.pitch_step(st5, qk)
            if ans != step_kernels.PITCH_PYTHON:
                pit[PHI], pit[RATE] = st5[0], st5[1]
                nvx, nvy, nw = st5[2], st5[3], st5[4]
                if ans == step_kernels.PITCH_FLAT:
                    pit[PITCHED] = 0.0
            else:
                base = tops[where[0], 4] if where[0] >= 0 else 0.0  # flight.base_height
                if where[0] < 0 and where[1] < 0:
                    vx, vy = _slope_paid(x, y, vx, vy, pit, q[_Q_DT], prm, q)
                ans, jx, jy, nvx, nvy, nw = _pitch_step(
                    x,
                    y,
                    a,
                    vx,
                    vy,
                    w,
                    pit,
                    q,
                    high,
                    log,
                    base,
                    air,
                    walls,
                    touch,
                    0.0,
                    prm,
                    where[0] >= 0,
                )
                if ans < 0:
                    log[0] = log0
                    pit[:] = pit_before
                    why[0] = -ans
                    return NEEDS_WORLD, steps
                lifted = ans == _LIFTED
                if lifted:
                    why[N_LIFT_OFFS] += 1
            if not (lifted or high) and pit[PITCHED] != 0.0 and _tips_in(jx, jy, a, pit, q, hole_r):
                log[0] = log0  # the edge over the hole: it turns in about the rim (the World)
                pit[:] = pit_before
                air[AIRBORNE] = 0.0
                why[0] = WHY_PITCH_HOLE
                return NEEDS_WORLD, steps
        steps += 1
        state[0, 0] = x
        state[0, 1] = y
        state[0, 2] = a
        state[0, 3] = vx
        state[0, 4] = vy
        state[0, 5] = w
        if past:
            state[0, 0] = jx  # where a quarter turn's jump left it (support.to_off_board)
            state[0, 1] = jy
            return OFF, steps
        code, _, kicked, ke_kicked, n_next, lead_next = step_kernels.finish_step(
            state, rows, flags, out, prm, points, groups, walls, sprm
        )
        if airborne:
            if landed:
                # flight._land set the body's velocity (and moved it at the new one from the
                # landing on): the World reads it again and kicks; on the surface, flat, it is
                # at rest if slow enough (rest.at_rest)
                state[0, 0] = jx
                state[0, 1] = jy
                state[0, 3] = nvx
                state[0, 4] = nvy
                state[0, 5] = nw
                pending[0] = -1.0
                if air[AIRBORNE] == 0.0 and (where[0] >= 0 or where[1] >= 0):
                    # support.after_step's platforms after a landing that stays down, as the
                    # World's: a die come down near a top's edge steps off it in this step, not
                    # the next (the dish under a pitched die is paid from then on: pitch._on_dish)
                    _platform_logic(jx, jy, a, where, tops, walls, footprint)
                if air[AIRBORNE] == 0.0 and pit[PITCHED] == 0.0:
                    # flat: its velocity is the step's end's, the next kick a half one (fresh)
                    pending[0] = -2.0
                    code = step_kernels.screen(state, rows, prm)[0]
                    if code & step_kernels.ALL_RESTING:
                        return RESTED, steps
                continue
            # in flight nothing else changes; a state the screen finds resting drops the kick
            if code & step_kernels.ALL_RESTING:
                pending[0] = -1.0
            else:
                pending[0] = kicked
                pending[1] = ke_kicked
                pending[2] = n_next
                pending[3] = lead_next
                pending[4] = 0.0
            continue
        if lifted:
            where[0] = -1  # flight.launch: off its top or edge
            where[1] = -1
            changed = True
        else:
            changed = high and _platform_logic(x, y, a, where, tops, walls, footprint)
        if pitched:
            # the pitch moved and slowed the body: the World reads it again and kicks
            state[0, 0] = jx
            state[0, 1] = jy
            state[0, 3] = nvx
            state[0, 4] = nvy
            state[0, 5] = nw
            pending[0] = -1.0
            if pit[PITCHED] == 0.0:  # flat again: at rest if slow enough
                pending[0] = -2.0  # (pitch.step_die: fresh, the next kick a half one)
                code = step_kernels.screen(state, rows, prm)[0]
                if code & step_kernels.ALL_RESTING:
                    return RESTED, steps
            continue
        if code & step_kernels.ALL_RESTING:
            return RESTED, steps
        if changed:
            pending[0] = -1.0  # the World drops the kick and kicks again with the new flags
            continue
        pending[0] = kicked
        pending[1] = ke_kicked
        pending[2] = n_next
        pending[3] = lead_next
        pending[4] = 0.0
    return OUT_OF_STEPS, steps
