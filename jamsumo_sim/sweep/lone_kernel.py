"""A compiled model of one lone die's shot, step for step as its World would run it (numba).

Covered: sliding flat (on the board, on a platform's top, straddling its edge), pitched on an edge
(physics/pitch.py: the pendulum, quarter turns with their jump and landing, rocking back) and in
flight (physics/flight.py: ballistic height, turns in the air), as long as no contact is possible.
One model step is the World's (physics/evolve.py), bit for bit:

- the kick the World would make at the step's start when it has none pending (after a flick: a
  half step; after a pitched step or a status change): step_kernels.swept_substeps and kick;
- Chipmunk's collision steps of a free body (no gravity, damping 1, no contacts): per collision
  step of length h, ``x += vx h``, ``y += vy h``, ``angle += w h`` (cpBodyUpdatePosition; the
  velocity update adds exactly zero);
- :func:`jamsumo_sim.step_kernels.finish_step` on the state read back (screen, kick, next
  collision steps), then the bookkeeping the World's support.after_step would do (platforms,
  pitch, flight) in the same arithmetic, in the same order.

:func:`run_lone` stops *before* a step that may do something it does not model (a wall within
reach, the hole's disc, a lift-off, a landing from flight, the edge while pitched or flying) and
the World takes that step; it ends the shot itself at rest, off the board or out of steps.
sweep/lone.py hands shots back and forth; tests/sweep/test_batch_lone.py checks whole shots.
"""

from __future__ import annotations

import math

import numpy as np

from .. import kernel_cache, step_kernels
from ..physics.flight import MAX_AIR_TURNS
from ..physics.pitch import MAX_SUBSTEP_ANGLE, MAX_TURNS_PER_STEP, QUARTER

_CACHE = kernel_cache.configure()  # before numba compiles anything (same folder as step_kernels)

from numba import njit  # noqa: E402

# run_plain's exit codes
NEEDS_WORLD = 0  # the next step may do something the kernel does not model: the World takes it
RESTED = 1  # every velocity under the rest thresholds after the last step (the World settles)
OFF = 2  # the centre passed the board's edge in the last step (the World's to_off_board)
OUT_OF_STEPS = 3  # the step limit was reached, not at rest

# Extra clearance (m) between the die's square and any platform wall beyond its reach in one
# step before the kernel takes a step: Chipmunk only makes a contact between overlapping shapes,
# so this is a safety margin, not a model parameter.
WALL_MARGIN = 1.0e-3

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
    if abs(x - tops[st, 0]) <= tops[st, 2] and abs(y - tops[st, 1]) <= tops[st, 3]:
        where[0] = st  # pushed back up
        where[1] = -1
        return True
    if _footprint_overlaps(x, y, a, footprint, walls[st]):
        return False
    where[1] = -1  # clear of the platform: on the board
    return True


# layout of the pitch parameter vector (pitch_params)
_Q_A, _Q_G, _Q_MU_PITCH, _Q_MU_LANDING, _Q_HOP_LIFT, _Q_HOP_MIN, _Q_TIP_RATE, _Q_I_EDGE = range(8)
_Q_MASS, _Q_DT = 8, 9
_N_PITCH_PARAMS = 10
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


@njit(**_JIT)
def _lifts_off(phi, rate, q):
    """flight.lifts_off and the rise the World needs to launch (then the World takes the step)."""
    if not (rate > 0.0 and phi < 0.25 * math.pi):
        return False
    a = q[_Q_A]
    c = math.cos(phi)
    s = math.sin(phi)
    force = q[_Q_G] * (1.0 - 0.375 * (c - s) ** 2) - 0.5 * a * (c + s) * rate * rate
    if not force < 0.0:
        return False
    return q[_Q_HOP_LIFT] * (0.5 * a * (math.cos(phi) - math.sin(phi)) * rate) > q[_Q_HOP_MIN]


@njit(**_JIT)
def _landing(rate, u, q):
    """pitch.landing: (rate', u') after the new face lands."""
    a = q[_Q_A]
    mu = q[_Q_MU_LANDING]
    w = rate * a
    f = -(2.5 * u + 1.5 * w) / 4.0
    n = (2.5 * w + 1.5 * u) / 4.0
    if abs(f) > mu * n:
        s = -math.copysign(1.0, f)
        den = 2.5 - 1.5 * mu * s
        if den > 0.0:
            n = w / den
            f = -mu * s * n
    rate1 = rate - 3.0 * (n + f) / a
    u1 = u + 2.5 * f + 1.5 * n
    e0 = 0.5 * u * u + a * a * rate * rate / 3.0
    e1 = 0.5 * u1 * u1 + a * a * rate1 * rate1 / 3.0
    if e1 > e0 > 0.0:
        s = math.sqrt(e0 / e1)
        rate1, u1 = rate1 * s, u1 * s
    return rate1, u1


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
def _pitch_step(x, y, a, vx, vy, spin, pit, q, high, log):
    """pitch.step_die over one model step (after its collision steps) from the body's pose and
    velocities.  Returns (ok, x, y, vx, vy, spin) with ``pit`` and ``log`` (the quarter turns'
    sides, ``log[0]`` of them) updated, or ok False if the World must take this step (a lift-off,
    or a landing where physics/tumbles.sweep could meet a wall: on or at a platform's top)."""
    phi = pit[PHI]
    rate = pit[RATE]
    side = int(pit[SIDE])
    heading = pit[HEADING]
    h_all = q[_Q_DT]
    n = max(1, math.ceil(h_all * (abs(rate) + q[_Q_TIP_RATE]) / MAX_SUBSTEP_ANGLE))
    h = h_all / n
    dv = q[_Q_MU_PITCH] * q[_Q_G] * h
    dspin = 1.5 * q[_Q_MU_PITCH] * q[_Q_G] / q[_Q_A] * h
    turns = 0
    pitched = True
    n_log = log[0]
    for _ in range(n):
        v = py_hypot(vx, vy)
        scale = max(0.0, v - dv) / v if v > 0.0 else 0.0
        vx, vy = vx * scale, vy * scale
        spin = math.copysign(max(0.0, abs(spin) - dspin), spin)
        phi, rate = _swing(phi, rate, h, q)
        if _lifts_off(phi, rate, q):
            return False, x, y, vx, vy, spin
        if phi <= 0.0 and rate <= 0.0:
            pitched = False
            break
        if phi >= QUARTER:
            if high or n_log + 1 >= log.shape[0]:
                return False, x, y, vx, vy, spin
            turns += 1
            land_rate = math.sqrt(2.0 * _pitch_energy(phi, rate, q) / q[_Q_I_EDGE])
            ang = a + side * QUARTER
            cx, cy = math.cos(ang), math.sin(ang)
            mx, my = q[_Q_A] * cx, q[_Q_A] * cy
            x, y = x + 1.0 * mx, y + 1.0 * my  # the jump (nothing in the way: checked before)
            n_log += 1
            log[n_log] = side
            u = vx * cx + vy * cy
            rate, u1 = _landing(land_rate, u, q)
            vx, vy = vx + (u1 - u) * cx, vy + (u1 - u) * cy
            phi = 0.0
            side = _round_half_even((heading - a) / QUARTER) % 4
            if rate <= 0.0 or turns >= MAX_TURNS_PER_STEP:
                pitched = False
                break
    log[0] = n_log
    pit[PITCHED] = 1.0 if pitched else 0.0
    pit[PHI] = phi
    pit[RATE] = rate
    pit[SIDE] = side
    return True, x, y, vx, vy, spin


def pitch_params(
    *, a: float, g: float, mu_pitch: float, mu_landing: float, hop_lift: float,
    hop_min_speed: float, tip_rate: float, edge_inertia: float, mass: float, dt: float,
) -> np.ndarray:  # fmt: skip
    """The pitch model's parameters as one vector (computed by physics/pitch.py's functions)."""
    q = np.empty(_N_PITCH_PARAMS)
    q[_Q_A], q[_Q_G], q[_Q_MU_PITCH], q[_Q_MU_LANDING] = a, g, mu_pitch, mu_landing
    q[_Q_HOP_LIFT], q[_Q_HOP_MIN], q[_Q_TIP_RATE] = hop_lift, hop_min_speed, tip_rate
    q[_Q_I_EDGE], q[_Q_MASS], q[_Q_DT] = edge_inertia, mass, dt
    return q


@njit(**_JIT)
def _flight_step(x, y, pitched, air, pit, q, tops, log):
    """flight.step_die over one model step at the centre (x, y) the step ended at.  Returns False
    (nothing changed) if the World must take this step: the lowest edge reaches the surface (a
    landing) or the die is over the hole.  Else ``air`` (AIRBORNE, Z, VZ), ``pit`` and ``log``
    hold the new height, pitch and the quarter turns in the air."""
    dt = q[_Q_DT]
    g = q[_Q_G]
    z1 = air[Z] + dt * air[VZ] - 0.5 * g * dt * dt
    vz1 = air[VZ] - g * dt
    phi = 0.0
    n_log = log[0]
    side = int(pit[SIDE])
    if pitched:
        phi = pit[PHI] + pit[RATE] * dt
        turns = 0
        while phi >= QUARTER and turns < MAX_AIR_TURNS:
            phi -= QUARTER
            n_log += 1
            log[n_log] = side
            turns += 1
        while phi < 0.0 and turns < MAX_AIR_TURNS:
            phi += QUARTER
            n_log += 1
            log[n_log] = side + 2
            turns += 1
        phi = min(max(phi, 0.0), QUARTER)
    low1 = z1 - _lift(phi, q[_Q_A])
    top = 0.0  # the board, or the top of the platform the centre is over (board.platform_at)
    for k in range(tops.shape[0]):
        if abs(x - tops[k, 0]) <= tops[k, 2] and abs(y - tops[k, 1]) <= tops[k, 3]:
            top = tops[k, 4]
            break
    if not low1 > top or n_log + 1 >= log.shape[0]:
        return False
    log[0] = n_log
    air[Z] = z1
    air[VZ] = vz1
    if pitched:
        pit[PHI] = phi
    return True


@njit(**_JIT)
def _near_wall(x, y, angle, walls, half, reach):
    """A platform wall box closer than ``reach`` to the die's square (the World's own screen)."""
    return step_kernels.wall_gap_at(x, y, angle, walls, half, reach) < reach


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
    log: np.ndarray,
    steps: int,
    limit: int,
    pending: np.ndarray,
) -> tuple[int, int]:
    """Step the lone die from ``state`` (1, 6: x, y, angle, vx, vy, w as its World read it after a
    step) until it exits (the codes above).

    ``pending``: the World's pending kick (dice kicked, kinetic energy after it, collision steps,
    leading step) with ``out`` (1, 3) the kicked velocities, or ``pending[0]`` = -1 when the World
    has none (it kicks at the start of the next step: after a status change or a pitched step),
    -2 right after the flick (that kick is a half step).
    ``geo``: (dt, half the board's side, hole radius, WALL_MARGIN, the walls' top); ``tops``: one
    (x, y, width / 2, depth / 2) row per platform (``walls``' order); ``where``: (platform whose
    top it is on, platform whose edge it straddles), -1 for none; ``pit``: its pitch (PITCHED,
    PHI, RATE, SIDE, HEADING), ``air`` its flight (AIRBORNE, Z, VZ) and ``q`` :func:`pitch_params`;
    ``log``: the quarter turns' sides (``log[0]`` of them); ``tops`` gains the platforms' heights
    as a fifth column.  Returns (exit code, steps taken so far); the arrays then hold the state
    after the last step taken (for NEEDS_WORLD: the World takes the next step from there)."""
    rows = np.zeros(1, dtype=np.intp)
    dt = geo[0]
    half = geo[1]
    hole_r = geo[2]
    margin = geo[3]
    wall_top = geo[4]
    r2 = hole_r * hole_r
    r_corner = sprm[2]
    a_size = q[_Q_A]
    half_die = 0.5 * a_size
    while steps < limit:
        pitched = pit[PITCHED] != 0.0
        airborne = air[AIRBORNE] != 0.0
        if pending[0] < 0.0:
            # the World's step starts with the kick (no patch friction while pitched or in flight)
            flags[0] = step_kernels.LOW if where[0] < 0 else 0
            if not (pitched or airborne):
                flags[0] |= step_kernels.GROUNDED
            if pending[0] < -1.5:  # just flicked: the first kick is a half step (leapfrog)
                flags[0] |= step_kernels.FRESH
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
        motion = (math.hypot(vx, vy) + abs(w) * r_corner) * dt
        # a platform wall within reach of the die's corners this step (or of a pitched die's
        # quarter-turn jump), or the hole within reach of a pitched die: the World takes it
        # the walls: low on the board, or in flight below their top (space.band_filter)
        walled = air[Z] < wall_top if airborne else not high
        if walled:
            if pitched and not airborne:
                # a quarter turn may jump it a die's width (physics/tumbles.sweep meets walls)
                if _near_wall(x, y, a, walls, half_die, margin + motion + a_size):
                    return NEEDS_WORLD, steps
            elif not _wall_open(x, y, a, vx, vy, w, walls, half_die, r_corner, dt, CONTACT_MARGIN):
                return NEEDS_WORLD, steps
        if pitched:
            rh = hole_r + r_corner + margin + motion + 2.0 * a_size
            if x * x + y * y < rh * rh:
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
        if x * x + y * y < r2 or (past and (pitched or airborne)):
            return NEEDS_WORLD, steps  # over the hole: the World's support rules
        if airborne:
            if not _flight_step(x, y, pitched, air, pit, q, tops, log):
                return NEEDS_WORLD, steps  # it lands (or is over the hole): the World's rules
        elif pitched:
            log0 = log[0]
            pit_before = pit.copy()
            ok, jx, jy, nvx, nvy, nw = _pitch_step(x, y, a, vx, vy, w, pit, q, high, log)
            if not ok:
                log[0] = log0
                pit[:] = pit_before
                return NEEDS_WORLD, steps
        steps += 1
        state[0, 0] = x
        state[0, 1] = y
        state[0, 2] = a
        state[0, 3] = vx
        state[0, 4] = vy
        state[0, 5] = w
        if past:
            return OFF, steps
        code, _, kicked, ke_kicked, n_next, lead_next = step_kernels.finish_step(
            state, rows, flags, out, prm, points, groups, walls, sprm
        )
        if airborne:
            # in flight nothing else changes; a state the screen finds resting drops the kick
            if code & step_kernels.ALL_RESTING:
                pending[0] = -1.0
            else:
                pending[0] = kicked
                pending[1] = ke_kicked
                pending[2] = n_next
                pending[3] = lead_next
            continue
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
    return OUT_OF_STEPS, steps
