"""Compiled per-step kernels of the World (numba): the friction kick and the after-step screening.

The model's laws are the ones :mod:`jamsumo_sim.physics.friction` and :mod:`jamsumo_sim.physics.surface` state (and
keep as vectorised numpy references; ``tests/physics/test_step_kernels.py`` checks these kernels
against them).  Why compiled: with 24 moving dice the patch quadrature is 24 x 36 slip directions per
step, and as numpy calls the step cost ~25x a bare pymunk step; one compiled pass over the dice costs
a few microseconds.

Both kernels read the dice straight from the ``(rows, 6)`` array that ``pymunk.batch`` fills
(x, y, angle, vx, vy, w per body) and index it through ``rows`` (die i lives in row ``rows[i]``).

Determinism: compiled without fast-math, so every sum runs in source order and no operation is
fused or reordered: the same inputs give bit-identical outputs on a given machine and library
build, as numpy did.  ``cache=True`` keeps the machine code in the user's cache folder (first use
compiles these and physics/compiled_steps.py's loop, ~15 s of CPU once, ~1 s to load after;
:mod:`jamsumo_sim.physics.kernel_cache` says where and why not beside the module).
"""

from __future__ import annotations

import math

import numpy as np

from . import kernel_cache

_CACHE = kernel_cache.configure()  # before numba is imported: it reads NUMBA_CACHE_DIR once

from numba import njit  # noqa: E402

# per-die flag bits (int8 array, one entry per die in World order)
GROUNDED = 1  # on a surface (not falling into the hole): friction and surface force act
LOW = 2  # on the board (not on a platform top): the dish slope acts
FRESH = 4  # a step's end's velocity (flicked, flat again) since the last kick: a half kick

# layout of the kick's parameter vector (see kick_params)
_P_DT, _P_MASS, _P_INERTIA, _P_MU_K, _P_MU_S, _P_G = 0, 1, 2, 3, 4, 5
_P_C_SLOPE, _P_R_DISH2, _P_TILT_X, _P_TILT_Y, _P_FLAT, _P_STATICS_HOLD = 6, 7, 8, 9, 10, 11
_P_HALF, _P_HOLE_R, _P_REST_SPEED, _P_REST_SPIN = 12, 13, 14, 15
_P_C_RADIAL, _P_INV_SPAN, _P_DRAG = 16, 17, 18
_N_PARAMS = 19
# layout of swept_substeps' parameter vector (see sweep_params)
_S_DT, _S_HALF, _S_R_CORNER, _S_MAX, _S_QUIET, _S_FLOOR, _S_N_MAX = 0, 1, 2, 3, 4, 5, 6
_N_SWEEP = 7

_SUPPORT_EDGE = 1e-9  # rad: supported() ignores gaps this close to pi (rounding, not geometry)

_JIT = {"cache": _CACHE, "nogil": True, "error_model": "numpy"}


def step_params(
    *,
    dt: float,
    mass: float,
    inertia: float,
    mu_k: float,
    mu_s: float,
    gravity: float,
    c_slope: float,
    c_radial: float,
    inv_span: float,
    r_dish: float,
    tilt: tuple[float, float],
    flat: bool,
    statics_hold: bool,
    half: float,
    hole_r: float,
    rest_speed: float,
    rest_spin: float,
    air_drag: float,
) -> np.ndarray:
    """The kernels' parameters as one float vector (one argument: cheaper to pass than nineteen).

    ``c_slope``, ``c_radial``, ``inv_span``, ``r_dish``: the dish profile
    (:class:`~jamsumo_sim.physics.surface.Surface`: u = (r_dish^2 - r^2) inv_span, h'/r = c_slope u^2,
    radial Hessian part -c_radial u); ``air_drag`` c (1/m) of the drag -c |v| v;
    ``statics_hold`` says no spot is steeper than the static friction angle, so dice at rest stay;
    ``half`` is half the board's side, ``hole_r`` the hole's radius.
    """
    prm = np.empty(_N_PARAMS)
    prm[_P_DT] = dt
    prm[_P_MASS] = mass
    prm[_P_INERTIA] = inertia
    prm[_P_MU_K] = mu_k
    prm[_P_MU_S] = mu_s
    prm[_P_G] = gravity
    prm[_P_C_SLOPE] = c_slope
    prm[_P_C_RADIAL] = c_radial
    prm[_P_INV_SPAN] = inv_span
    prm[_P_R_DISH2] = r_dish * r_dish
    prm[_P_DRAG] = air_drag
    prm[_P_TILT_X], prm[_P_TILT_Y] = tilt
    prm[_P_FLAT] = 1.0 if flat else 0.0
    prm[_P_STATICS_HOLD] = 1.0 if statics_hold else 0.0
    prm[_P_HALF] = half
    prm[_P_HOLE_R] = hole_r
    prm[_P_REST_SPEED] = rest_speed
    prm[_P_REST_SPIN] = rest_spin
    return prm


@njit(**_JIT)
def kick(
    state: np.ndarray,
    rows: np.ndarray,
    flags: np.ndarray,
    out: np.ndarray,
    prm: np.ndarray,
    points: np.ndarray,
) -> tuple[int, float]:
    """One friction and surface-force kick for every grounded die; writes all dice's new
    (vx, vy, w) to ``out`` (same rows as ``state``; dice not kicked keep their velocity).

    ``points`` (2, K) are the body-frame patch quadrature points (x row, y row).  Clears the FRESH bits.  Returns
    (number of dice kicked, total kinetic energy after the kick).
    """
    dt = prm[_P_DT]
    m = prm[_P_MASS]
    inertia = prm[_P_INERTIA]
    mu_k = prm[_P_MU_K]
    mu_s = prm[_P_MU_S]
    g = prm[_P_G]
    c_slope = prm[_P_C_SLOPE]
    c_radial = prm[_P_C_RADIAL]
    inv_span = prm[_P_INV_SPAN]
    r_dish2 = prm[_P_R_DISH2]
    drag = prm[_P_DRAG]
    tilt_x = prm[_P_TILT_X]
    tilt_y = prm[_P_TILT_Y]
    flat = prm[_P_FLAT] != 0.0
    statics_hold = prm[_P_STATICS_HOLD] != 0.0
    tx = np.empty(points.shape[1])
    ty = np.empty(points.shape[1])
    kicked = 0
    energy = 0.0
    for i in range(rows.shape[0]):
        r = rows[i]
        x = state[r, 0]
        y = state[r, 1]
        vx = state[r, 3]
        vy = state[r, 4]
        w = state[r, 5]
        f = flags[i]
        nvx, nvy, nw = vx, vy, w
        moving = vx != 0.0 or vy != 0.0 or w != 0.0
        if f & GROUNDED and (moving or not statics_hold):
            h = 0.5 * dt if f & FRESH else dt
            curved = False  # moving on the dish: the v^2 term of N acts
            s_r = 0.0  # h'(r) / r: the dish gradient is s_r (x, y)
            c_r = 0.0  # c_radial u: the radial part of the dish's Hessian is -c_r r r^T
            inv = 1.0
            # surface force (surface.Surface.accel_and_normal): a = -g G / sqrt(1 + |G|^2),
            # N = m (g + v.H.v) / sqrt(1 + |G|^2), never below zero
            if flat:
                ax = 0.0
                ay = 0.0
                normal = m * g
            else:
                r2 = x * x + y * y
                if f & LOW and r2 <= r_dish2 and c_slope != 0.0:
                    curved = moving
                    u = (r_dish2 - r2) * inv_span
                    s_r = c_slope * u * u
                    c_r = c_radial * u
                gx = s_r * x + tilt_x
                gy = s_r * y + tilt_y
                inv = 1.0 / math.sqrt(1.0 + gx * gx + gy * gy)
                ax = -g * inv * gx
                ay = -g * inv * gy
                press = g
                if curved:
                    press = _press(x, y, vx, vy, g, s_r, c_r)
                    # the v^2 term at the mid-step velocity (second order, as the leapfrog kick
                    # is), predicted by half a step of slope force and of sliding friction along
                    # -v (never reversing): one patch kick instead of two
                    sp = math.hypot(vx, vy)
                    keep = 0.0
                    if sp > 0.0:
                        keep = max(1.0 - 0.5 * h * mu_k * press * inv / sp, 0.0)
                    mvx = vx * keep + 0.5 * h * ax
                    mvy = vy * keep + 0.5 * h * ay
                    press = _press(x, y, mvx, mvy, g, s_r, c_r)
                normal = m * press * inv
            if moving:
                nvx, nvy, nw = _kinetic_kick(
                    vx, vy, w, state[r, 2], ax, ay, normal, h, m, inertia, mu_k, drag, points,
                    tx, ty,
                )  # fmt: skip
            else:
                # at rest: stays exactly still inside the static cone, else starts to slide
                amag = math.hypot(ax, ay)
                if amag * m > mu_s * normal:
                    scale = (1.0 - mu_k * normal / m / amag) * h
                    nvx = ax * scale
                    nvy = ay * scale
            kicked += 1
        flags[i] = f & ~FRESH
        out[r, 0] = nvx
        out[r, 1] = nvy
        out[r, 2] = nw
        energy += 0.5 * m * (nvx * nvx + nvy * nvy) + 0.5 * inertia * nw * nw
    return kicked, energy


@njit(**_JIT)
def _press(x, y, vx, vy, g, s_r, c_r):
    """g + v.H.v, never below zero: the normal force per unit mass before the slope factor, with
    H = s_r I - c_r r r^T (surface.Surface)."""
    rv = x * vx + y * vy
    return max(g + (s_r * (vx * vx + vy * vy) - c_r * (rv * rv)), 0.0)


# A slip speed whose square is below this (|u| < 1e-140 m/s) takes the careful direction (_unit):
# the square underflows further down, and 1/|u| times u was then no unit vector (a die creeping
# at 1e-162 m/s got a friction torque of 1e136: issue 16's hunt for real bugs).  Above it the
# plain formula, bit for bit as before.
_TINY_SLIP2 = 1e-280


@njit(inline="always", **_JIT)
def _unit(ux, uy):
    """(ux, uy) / |(ux, uy)| for any size, (0, 0) for zero: scaled first so nothing underflows
    (friction.py's reference takes np.abs of a complex number, which does the same)."""
    big = max(abs(ux), abs(uy))
    if big == 0.0:
        return 0.0, 0.0
    sx = ux / big
    sy = uy / big
    n = math.sqrt(sx * sx + sy * sy)
    return sx / n, sy / n


@njit(**_JIT)
def _kinetic_kick(vx, vy, w, theta, ax, ay, normal, h, m, inertia, mu_k, drag, points, tx, ty):
    """Explicit kinetic kick of one moving die (friction.friction_kick's moving branch); a component
    the impulse would reverse stops, and if both would the die sticks.  Air drag -c |v| v acts as
    a trapezoidal step (second order): it slows, never reverses.  ``tx``, ``ty``: scratch arrays
    as long as ``points``."""
    c = math.cos(theta)
    s = math.sin(theta)
    # body-frame velocity: slip speeds are rotation invariant, so the patch is never rotated
    bx = vx * c + vy * s
    by = vy * c - vx * s
    px = points[0]
    py = points[1]
    n_pts = px.shape[0]
    # unit slip directions at the patch points, in a loop of its own: no sums in it, so it runs
    # several points per vector instruction (each value the same as one at a time)
    tiny = 0
    for k in range(n_pts):
        ux = bx - w * py[k]  # point velocity v + w z x r
        uy = by + w * px[k]
        uu = ux * ux + uy * uy
        inv = 1.0 / max(math.sqrt(uu), 1e-300)  # t = 0 where u = 0
        tx[k] = ux * inv
        ty[k] = uy * inv
        tiny |= uu <= _TINY_SLIP2
    if tiny:  # (rare: a pass of its own keeps the loop above branch-free, 40 % of the kick)
        for k in range(n_pts):
            ux = bx - w * py[k]
            uy = by + w * px[k]
            if ux * ux + uy * uy <= _TINY_SLIP2:
                tx[k], ty[k] = _unit(ux, uy)
    sum_x = 0.0
    sum_y = 0.0
    lever = 0.0
    for k in range(n_pts):
        sum_x += tx[k]
        sum_y += ty[k]
        lever += px[k] * ty[k] - py[k] * tx[k]  # (r x t)_z
    imp = mu_k * normal * h / n_pts  # impulse per quadrature point
    fx = sum_x * c - sum_y * s  # back to the world frame
    fy = sum_x * s + sum_y * c
    dvx = ax * h - fx * (imp / m)  # friction and the surface force
    dvy = ay * h - fy * (imp / m)
    nvx = vx + dvx
    nvy = vy + dvy
    if drag != 0.0:
        # trapezoidal air drag: the mid-step speed from a predictor (second order, as the
        # leapfrog friction kick is), and a step that may stop the die but never reverse it
        q = 1.0 / (1.0 + drag * math.sqrt(vx * vx + vy * vy) * h)
        mx = 0.5 * (vx + vx * q + dvx)
        my = 0.5 * (vy + vy * q + dvy)
        half_x = 0.5 * drag * h * math.sqrt(mx * mx + my * my)
        keep = max(1.0 - half_x, 0.0)
        nvx = (vx * keep + dvx) / (1.0 + half_x)
        nvy = (vy * keep + dvy) / (1.0 + half_x)
    nw = w - lever * (imp / inertia)
    stop_v = vx * nvx + vy * nvy < 0.0
    stop_w = w * nw < 0.0
    if stop_w and vx == 0.0 and vy == 0.0:
        stop_v = True  # a component already at zero stays there
    if stop_v and w == 0.0:
        stop_w = True
    if stop_v:
        nvx = 0.0
        nvy = 0.0
    if stop_w:
        nw = 0.0
    return nvx, nvy, nw


# bits of screen()'s result
NEAR_EDGE_OR_HOLE = 1  # some die is past the edge or within the hole's radius on both axes
ALL_RESTING = 2  # every die slower than rest_speed and spinning slower than rest_spin


@njit(**_JIT)
def screen(state: np.ndarray, rows: np.ndarray, prm: np.ndarray) -> tuple[int, float]:
    """After a step: (flag bits, total kinetic energy).  The edge/hole test is a cheap screen: a die
    with max(|x|, |y|) >= r has x^2 + y^2 >= r^2 also in floating point, so only dice with
    max(|x|, |y|) < r can be over the hole; the World looks closer at those.  NaN never rests."""
    half = prm[_P_HALF]
    hole_r = prm[_P_HOLE_R]
    rest_speed = prm[_P_REST_SPEED]
    rest_spin = prm[_P_REST_SPIN]
    mass = prm[_P_MASS]
    inertia = prm[_P_INERTIA]
    code = ALL_RESTING
    energy = 0.0
    for i in range(rows.shape[0]):
        r = rows[i]
        amax = max(abs(state[r, 0]), abs(state[r, 1]))
        if amax > half or amax < hole_r:
            code |= NEAR_EDGE_OR_HOLE
        vx = state[r, 3]
        vy = state[r, 4]
        w = state[r, 5]
        if not (abs(w) <= rest_spin and math.hypot(vx, vy) <= rest_speed):
            code &= ~ALL_RESTING
        energy += 0.5 * mass * (vx * vx + vy * vy) + 0.5 * inertia * w * w
    return code, energy


@njit(**_JIT)
def advance(
    state: np.ndarray,
    rows: np.ndarray,
    flags: np.ndarray,
    out: np.ndarray,
    prm: np.ndarray,
    points: np.ndarray,
) -> tuple[int, float, int, float]:
    """:func:`screen` the state a step ended in and, unless every die rests, :func:`kick` from it for
    the next step (one call instead of two).  Returns (screen bits, kinetic energy, dice kicked,
    kinetic energy after the kick); nothing is kicked when all rest."""
    code, energy = screen(state, rows, prm)
    if code & ALL_RESTING:
        return code, energy, -1, 0.0
    kicked, energy_kicked = kick(state, rows, flags, out, prm, points)
    return code, energy, kicked, energy_kicked


@njit(**_JIT)
def sweep_params(
    *, dt: float, half: float, r_corner: float, s_max: float, n_quiet: int, n_floor: int, n_max: int
) -> np.ndarray:
    """:func:`swept_substeps`' parameters as one float vector: the model step ``dt`` (s), half a
    die's size and its centre-to-corner distance ``r_corner`` (m), the longest sweep per collision
    step ``s_max`` (m); the collision steps of a step with no pair at risk, the fewest of a step
    with one, and the most."""
    out = np.empty(_N_SWEEP)
    out[_S_DT], out[_S_HALF], out[_S_R_CORNER], out[_S_MAX] = dt, half, r_corner, s_max
    out[_S_QUIET], out[_S_FLOOR], out[_S_N_MAX] = n_quiet, n_floor, n_max
    return out


@njit(**_JIT)
def swept_substeps(
    state: np.ndarray, rows: np.ndarray, groups: np.ndarray, walls: np.ndarray, sprm: np.ndarray
) -> tuple[int, float]:
    """Collision steps for the next model step (physics.md s8.1) from a swept test of every pair of
    shapes (two dice, a die and a platform wall) that can touch within it.

    Each die is bounded by its square of side 2 ``half`` (the rounded die lies inside).  Along a
    fixed axis n the gap between two squares shrinks by at most the pair's closing speed along n
    times t, plus how far each square's extent along n can grow: by at most ``half`` |w| t (the
    extent half (|cos| + |sin|) of the turned angle changes at most at unit rate) and never beyond
    ``r_corner``.  Two squares overlap only if they overlap along every axis (separating axes: the
    four face normals at the step's start), so a pair is *at risk* only if its gap bound along each
    of the four falls to zero within the step, and then its *rate* (how fast the contact can
    deepen, m/s) is the closing speed along the axes still open (along the least overlapped one if
    none is) plus the corners' spin speeds (|w_i| + |w_j|) ``r_corner``.  Pairs whose rate cannot
    sweep more than ``s_max`` in the step are never at risk.  Walls stand still: a die is at risk
    if its square's gap to the wall box is below (|v| + |w| r_corner) dt.  Dice of different
    ``groups`` (one entry per die) never touch; ``walls``: one (x0, y0, x1, y1) box per platform;
    ``sprm``: :func:`sweep_params`.

    Returns (collision steps n, length of a leading step in s or 0).  With no pair at risk:
    (``n_quiet``, 0): nothing can be missed or met deep.  Otherwise every collision step is short
    enough that no pair at risk sweeps more than ``s_max`` in it, except a leading step before
    any pair at risk can touch (then n - 1 equal steps fill the rest of dt); none is longer than
    dt / ``n_quiet``; n is at least ``n_floor`` and at most ``n_max``.  NaN or infinite speeds
    give (``n_floor``, 0) (the screen catches them); a NaN position is never at risk."""
    dt = sprm[_S_DT]
    half = sprm[_S_HALF]
    r_corner = sprm[_S_R_CORNER]
    s_max = sprm[_S_MAX]
    n_quiet = int(sprm[_S_QUIET])
    n_floor = max(n_quiet, int(sprm[_S_FLOOR]))
    n_max = int(sprm[_S_N_MAX])
    n = rows.shape[0]
    speed = np.empty(n)  # |v| + |w| r_corner: the fastest point of each die (m/s)
    fastest = 0.0
    for i in range(n):
        r = rows[i]
        speed[i] = math.hypot(state[r, 3], state[r, 4]) + abs(state[r, 5]) * r_corner
        if not speed[i] < math.inf:
            return n_floor, 0.0
        fastest = max(fastest, speed[i])
    limit = s_max / dt  # m/s: a pair slower than this is never at risk
    if 2.0 * fastest <= limit:  # a pair's rate is at most speed_i + speed_j
        return n_quiet, 0.0
    top = 0.0  # fastest rate of a pair at risk (m/s)
    lead = dt  # no pair at risk touches, or sweeps more than s_max, before this (s)
    trig = np.full((n, 2), 2.0)  # (cos, sin) of each die's angle, computed when first needed
    for i in range(n):
        rate_i = speed[i]
        r = rows[i]
        if rate_i > limit and walls.shape[0] > 0:
            gap = _wall_gap(state, r, walls, half, rate_i * dt)
            if gap < math.inf:
                top = max(top, rate_i)
                lead = min(lead, max(gap, s_max) / rate_i)
        xi = state[r, 0]
        yi = state[r, 1]
        for j in range(i + 1, n):
            bound = rate_i + speed[j]
            if bound <= limit or groups[i] != groups[j]:
                continue  # cannot be at risk
            rj = rows[j]
            dx = state[rj, 0] - xi
            dy = state[rj, 1] - yi
            reach = 2.0 * r_corner + bound * dt  # circumscribed circles (hold any angle)
            if not dx * dx + dy * dy < reach * reach:
                continue  # (also a NaN position: never at risk)
            for k in (i, j):
                if trig[k, 0] > 1.5:
                    trig[k, 0] = math.cos(state[rows[k], 2])
                    trig[k, 1] = math.sin(state[rows[k], 2])
            t, rate = _pair_risk(state, r, rj, dx, dy, trig[i], trig[j], half, r_corner, dt)
            if t >= 0.0 and rate > limit:
                top = max(top, rate)
                lead = min(lead, max(t, s_max / rate))
    if top == 0.0:
        return n_quiet, 0.0
    uniform = int(math.ceil(top * dt / s_max))
    lead = min(lead, dt / n_quiet)  # no collision step longer than a quiet step's
    if dt - lead < dt / n_max:
        # a rest shorter than the shortest collision step (a pair touching at the step's very
        # end: 1e-17 s once): Chipmunk scales its warm start by the next step's length over it
        return max(n_floor, min(uniform, n_max)), 0.0
    rest = int(math.ceil(top * (dt - lead) / s_max))
    rest = max(rest, int(math.ceil((dt - lead) * n_quiet / dt)))
    if rest + 1 >= uniform or rest + 1 < n_floor:
        return max(n_floor, min(uniform, n_max)), 0.0
    return min(rest, n_max - 1) + 1, lead


@njit(inline="always", **_JIT)
def _wall_gap(state, r, walls, half, reach):
    """:func:`wall_gap_at` for the die in row ``r``."""
    return wall_gap_at(state[r, 0], state[r, 1], state[r, 2], walls, half, reach)


@njit(inline="always", **_JIT)
def wall_gap_at(x, y, angle, walls, half, reach):
    """Smallest gap (m) below ``reach`` between a die's square (centre x, y; side 2 ``half``, the
    rounded die inside it) and a wall box, or inf: separating axes, the wall's (the die's extent
    along x and y), then the die's.  Also the lone-die kernel's wall screen (sweep/lone_kernel)."""
    xi = x
    yi = y
    ci = math.cos(angle)
    si = math.sin(angle)
    ext = half * (abs(ci) + abs(si))
    best = math.inf
    for k in range(walls.shape[0]):
        gap = max(walls[k, 0] - xi, xi - walls[k, 2], walls[k, 1] - yi, yi - walls[k, 3]) - ext
        if gap >= reach:
            continue
        cx = 0.5 * (walls[k, 0] + walls[k, 2]) - xi
        cy = 0.5 * (walls[k, 1] + walls[k, 3]) - yi
        hx = 0.5 * (walls[k, 2] - walls[k, 0])
        hy = 0.5 * (walls[k, 3] - walls[k, 1])
        gap = max(gap, abs(cx * ci + cy * si) - half - hx * abs(ci) - hy * abs(si))
        gap = max(gap, abs(cy * ci - cx * si) - half - hx * abs(si) - hy * abs(ci))
        if gap < reach:
            best = min(best, gap)
    return best


@njit(inline="always", **_JIT)
def _face_axis(k, ci, si, cj, sj):
    """Face normal ``k`` (0..3) of two squares turned (cos, sin) = (``ci``, ``si``) and (``cj``,
    ``sj``): the separating axes of a pair (:func:`_pair_risk`, :func:`square_overlap`)."""
    if k == 0:
        return ci, si
    if k == 1:
        return -si, ci
    if k == 2:
        return cj, sj
    return -sj, cj


@njit(inline="always", **_JIT)
def _pair_risk(state, ri, rj, dx, dy, trig_i, trig_j, half, r_corner, dt):
    """(earliest time (s) the dice in rows ``ri``, ``rj`` (centres ``dx``, ``dy`` apart, angles'
    (cos, sin) ``trig_i``, ``trig_j``) can touch, their rate (m/s)) if they can touch within
    ``dt``, else (-1, 0); see :func:`swept_substeps`."""
    dvx = state[rj, 3] - state[ri, 3]
    dvy = state[rj, 4] - state[ri, 4]
    wi = abs(state[ri, 5])
    wj = abs(state[rj, 5])
    ci, si = trig_i[0], trig_i[1]
    cj, sj = trig_j[0], trig_j[1]
    touch = 0.0  # earliest time the pair can touch (s)
    best = -math.inf  # largest gap along an axis (m) and the closing speed along it (m/s)
    best_close = 0.0
    open_close = -1.0  # fastest closing along an axis still open (m/s), -1 if none
    for k in range(4):
        nx, ny = _face_axis(k, ci, si, cj, sj)
        proj = dx * nx + dy * ny
        rel = dvx * nx + dvy * ny
        if proj < 0.0:
            proj = -proj
            rel = -rel
        close = max(-rel, 0.0)  # j approaching i along this axis (m/s)
        ext_i = half * (abs(ci * nx + si * ny) + abs(ci * ny - si * nx))
        ext_j = half * (abs(cj * nx + sj * ny) + abs(cj * ny - sj * nx))
        gap = proj - ext_i - ext_j
        # bound of this axis's gap at the step's end: closing, plus growth of both extents
        left = (
            gap
            - close * dt
            - min(half * wi * dt, r_corner - ext_i)
            - min(half * wj * dt, r_corner - ext_j)
        )
        if left >= 0.0:
            return -1.0, 0.0  # this axis stays open all step: they cannot touch
        if gap > 0.0:
            # earliest time this axis can close (linear growth bound: never later than the truth)
            touch = max(touch, gap / (close + half * (wi + wj)))
            open_close = max(open_close, close)
        if gap > best:
            best = gap
            best_close = close
    rate = (open_close if open_close >= 0.0 else best_close) + (wi + wj) * r_corner
    return touch, rate


@njit(**_JIT)
def finish_step(
    state: np.ndarray,
    rows: np.ndarray,
    flags: np.ndarray,
    out: np.ndarray,
    prm: np.ndarray,
    points: np.ndarray,
    groups: np.ndarray,
    walls: np.ndarray,
    sprm: np.ndarray,
) -> tuple[int, float, int, float, int, float]:
    """:func:`advance` and, unless every die rests, :func:`swept_substeps` for the next step from
    the same state (one call per model step).  Returns advance's four values and swept_substeps'
    two ((0, 0) when all rest)."""
    code, energy, kicked, energy_kicked = advance(state, rows, flags, out, prm, points)
    if kicked < 0:
        return code, energy, kicked, energy_kicked, 0, 0.0
    n_sub, lead = swept_substeps(state, rows, groups, walls, sprm)
    return code, energy, kicked, energy_kicked, n_sub, lead


@njit(**_JIT)
def finish_model_step(
    state: np.ndarray,
    rows: np.ndarray,
    flags: np.ndarray,
    out: np.ndarray,
    prm: np.ndarray,
    points: np.ndarray,
    groups: np.ndarray,
    walls: np.ndarray,
    sprm: np.ndarray,
    special: np.ndarray,
    with_special: bool,
    cand: np.ndarray,
    kick_next: bool,
) -> tuple[int, float, int, float, int, float, int]:
    """:func:`finish_step` and, where the screen finds a die near the edge or the hole or
    ``with_special``, :func:`support_candidates` into ``cand``; returns finish_step's six values
    and the number of candidates.  Without ``kick_next`` only the screen: (code, energy, -1, 0,
    0, 0, candidates); the caller knows the bookkeeping will change the state (the next step
    then kicks from the changed one)."""
    if kick_next:
        code, energy, kicked, energy_kicked, n_sub, lead = finish_step(
            state, rows, flags, out, prm, points, groups, walls, sprm
        )
    else:
        code, energy = screen(state, rows, prm)
        kicked, energy_kicked, n_sub, lead = -1, 0.0, 0, 0.0
    m = 0
    if code & NEAR_EDGE_OR_HOLE or with_special:
        m = support_candidates(
            state, rows, special, with_special, prm[_P_HALF], prm[_P_HOLE_R], cand
        )
    return code, energy, kicked, energy_kicked, n_sub, lead, m


@njit(**_JIT)
def supported(x: float, y: float, angle: float, footprint: np.ndarray, hole_r: float) -> bool:
    """Support over the hole (physics.md s3): the centre (x, y) lies inside the convex hull of the
    footprint's points (body frame, one (x, y) row each) outside the hole disk, i.e. their
    directions from the centre leave no gap of pi or more."""
    if x * x + y * y >= hole_r * hole_r:
        return True
    c = math.cos(angle)
    s = math.sin(angle)
    n = footprint.shape[0]
    dirs = np.empty(n)
    k = 0
    for i in range(n):
        fx = footprint[i, 0]
        fy = footprint[i, 1]
        px = x + c * fx - s * fy
        py = y + s * fx + c * fy
        if px * px + py * py >= hole_r * hole_r:
            dirs[k] = math.atan2(py - y, px - x)
            k += 1
    if k == 0:
        return False
    ang = np.sort(dirs[:k])
    widest = ang[0] + 2.0 * math.pi - ang[k - 1]
    for i in range(1, k):
        widest = max(widest, ang[i] - ang[i - 1])
    # The footprint grid is point-symmetric, so a gap of exactly pi (the centre on the hull's
    # edge) is common; its rounding must not decide (a mirrored layout would then differ): a
    # centre on the edge within 1e-9 rad counts as unsupported.
    return widest < math.pi - _SUPPORT_EDGE


# bits of support_candidates()' codes
PAST_EDGE = 1  # the centre is past the board's edge
OVER_HOLE = 2  # the centre is within the hole's radius


@njit(**_JIT)
def support_candidates(
    state: np.ndarray,
    rows: np.ndarray,
    special: np.ndarray,
    with_special: bool,
    half: float,
    hole_r: float,
    cand: np.ndarray,
) -> int:
    """The dice the support bookkeeping must look at after a step (physics/support.py): those past
    the edge or over the hole and, ``with_special``, those whose ``special`` entry is set.  Writes
    (index in World order, PAST_EDGE | OVER_HOLE bits) pairs into ``cand`` (2 per die); returns
    how many dice."""
    m = 0
    r2 = hole_r * hole_r
    for i in range(rows.shape[0]):
        r = rows[i]
        x = state[r, 0]
        y = state[r, 1]
        c = 0
        if max(abs(x), abs(y)) > half:
            c |= PAST_EDGE
        if x * x + y * y < r2:
            c |= OVER_HOLE
        if c != 0 or (with_special and special[i]):
            cand[2 * m] = i
            cand[2 * m + 1] = c
            m += 1
    return m


@njit(**_JIT)
def dice_near(
    state: np.ndarray,
    rows: np.ndarray,
    x: float,
    y: float,
    reach: float,
    idx: np.ndarray,
    pose: np.ndarray,
) -> int:
    """The dice whose centres lie within ``reach`` of (x, y) on both axes: writes their indices in
    World order into ``idx`` and their (x, y, angle) rows into ``pose``; returns how many."""
    m = 0
    for i in range(rows.shape[0]):
        r = rows[i]
        if abs(state[r, 0] - x) <= reach and abs(state[r, 1] - y) <= reach:
            idx[m] = i
            pose[m, 0] = state[r, 0]
            pose[m, 1] = state[r, 1]
            pose[m, 2] = state[r, 2]
            m += 1
    return m


# bits of flag_summary()' result
ALL_GROUNDED = 1  # every die in the Space is on a surface
ANY_FRESH = 2  # some die is FRESH
ANY_SPECIAL = 4  # some die needs the support bookkeeping every step (physics/support.py)
ANY_PITCHED = 8  # some die stands pitched on an edge (physics/pitch.py: it moves after each step)


@njit(**_JIT)
def flag_summary(
    flags: np.ndarray, special: np.ndarray, pitched: np.ndarray, tops: np.ndarray
) -> tuple[int, float]:
    """What follows from all dice's flags (physics/view.py): (ALL_GROUNDED | ANY_FRESH |
    ANY_SPECIAL | ANY_PITCHED bits, the highest of ``tops`` or -inf)."""
    bits = ALL_GROUNDED
    top = -np.inf
    for i in range(flags.shape[0]):
        f = flags[i]
        if not f & GROUNDED:
            bits &= ~ALL_GROUNDED
        if f & FRESH:
            bits |= ANY_FRESH
        if special[i]:
            bits |= ANY_SPECIAL
        if pitched[i]:
            bits |= ANY_PITCHED
        top = max(top, tops[i])
    return bits, top


@njit(**_JIT)
def note_contacts(arbiters: np.ndarray, num: int, pairs: np.ndarray, used: int) -> tuple[int, int]:
    """After a collision step: append the (body a, body b) ids of the ``num // 3`` cached arbiters
    (rows of body a, body b, first-contact flag in ``arbiters``) to ``pairs`` from index ``used``.
    Returns (number of first contacts, new ``used``); (-1, ``used``) if ``pairs`` is too short."""
    n = num // 3
    if used + 2 * n > pairs.shape[0]:
        return -1, used
    first = 0
    for k in range(n):
        pairs[used] = arbiters[3 * k]
        pairs[used + 1] = arbiters[3 * k + 1]
        used += 2
        if arbiters[3 * k + 2] != 0:
            first += 1
    return first, used


@njit(**_JIT)
def first_contacts(
    arbiters: np.ndarray, impulses: np.ndarray, num: int, ids: np.ndarray, imp: np.ndarray
) -> int:
    """The first contacts among the ``num // 3`` cached arbiters (rows of body a, body b,
    first-contact flag in ``arbiters``; their total impulses (x, y) in ``impulses``), in the
    arbiters' order: writes their (body a, body b) ids into ``ids`` and impulses into ``imp``
    (two entries each) and returns how many (physics/contacts.py looks only at those)."""
    m = 0
    for k in range(num // 3):
        if arbiters[3 * k + 2] != 0:
            ids[2 * m] = arbiters[3 * k]
            ids[2 * m + 1] = arbiters[3 * k + 1]
            imp[2 * m] = impulses[2 * k]
            imp[2 * m + 1] = impulses[2 * k + 1]
            m += 1
    return m


@njit(**_JIT)
def exchange_speed(ax, ay, bx, by, avx, avy, bvx, bvy, impulse, m, e):
    """The speed (m/s) the whole central exchange of dice a and b (centres, velocities now) gives
    each: (1 + e)/2 times their closing speed along the line of centres before the contact (now,
    less the ``impulse`` the solver gave so far); 0 if they were not closing.  The law of
    flight.exchange_speed and of the compiled loop's deferral (compiled_steps._all_slow)."""
    dx, dy = bx - ax, by - ay
    dist = py_hypot(dx, dy)
    if dist == 0.0:
        return impulse / m
    nx, ny = dx / dist, dy / dist
    closing = (avx - bvx) * nx + (avy - bvy) * ny + 2.0 * impulse / m
    return max(0.5 * (1.0 + e) * closing, 0.0)


@njit(**_JIT)
def contact_groups(pairs: np.ndarray, used: int, ids: np.ndarray) -> np.ndarray:
    """Groups of dice that touched: ``pairs[:used]`` holds (body a, body b) ids of the contacts,
    ``ids`` each die's body id.  Returns one label per die: the same for dice joined by contacts,
    ``len(ids)`` for dice joined to any other body (the walls' static body)."""
    n = ids.shape[0]
    order = np.argsort(ids)
    sorted_ids = ids[order]
    parent = np.arange(n + 1)
    for k in range(0, used - 1, 2):
        ra = _group_root(parent, _die_index(sorted_ids, order, pairs[k], n))
        rb = _group_root(parent, _die_index(sorted_ids, order, pairs[k + 1], n))
        if ra != rb:  # the larger root stays: the walls' group (n) is always its own root
            parent[min(ra, rb)] = max(ra, rb)
    label = np.empty(n, dtype=np.int64)
    for i in range(n):
        label[i] = _group_root(parent, i)
    return label


@njit(**_JIT)
def _die_index(sorted_ids, order, body_id, n):
    """The die whose body has ``body_id``, or ``n`` for any other body."""
    k = np.searchsorted(sorted_ids, body_id)
    if k < n and sorted_ids[k] == body_id:
        return order[k]
    return n


@njit(**_JIT)
def _group_root(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


# --- a pitched die's step (physics/pitch.py step_die) --------------------------------------------
# pitch_step's result codes
PITCH_ON = 0  # still pitched after the step
PITCH_FLAT = 1  # rocked back flat within the step
PITCH_PYTHON = 2  # a landing or a lift-off (events, jumps, sweeps): physics/pitch.py takes the step


@njit(inline="always", **_JIT)
def edge_leave_force(c, s, rate, g, half_a):
    """The leave test of a die turning at ``rate`` about its edge at a pitch of cosine ``c`` and
    sine ``s`` (m/s^2): g - r_z rate^2, r_z = half_a (c + s); below zero its edge rises of itself
    (flight.edge_normal_force states the law; the pitch kernel and the lone-die kernel call this)."""
    return g - half_a * (c + s) * rate * rate


@njit(**_JIT)
def pivot_load(c, s, rate, g, half_a):
    """The normal force per unit mass (m/s^2, >= 0) on the edge of a die turning at ``rate``
    about it at a pitch of cosine ``c`` and sine ``s``: g (1 - 3/8 (c - s)^2) - r_z rate^2
    (flight.pivot_load states the law; the pitch step's edge friction, in every path)."""
    load = g * (1.0 - 0.375 * ((c - s) * (c - s))) - half_a * (c + s) * rate * rate
    return load if load > 0.0 else 0.0


@njit(**_JIT)
def rub(vx, vy, spin, dv, dspin):
    """The edge's friction: ``dv`` of slide and ``dspin`` of spin taken, neither past zero
    (pitch._rub, the same operations; Python's max(0.0, t) is ``t if t > 0.0 else 0.0``)."""
    v = py_hypot(vx, vy)
    if v > 0.0:
        t = v - dv
        scale = (t if t > 0.0 else 0.0) / v
    else:
        scale = 0.0
    t = abs(spin) - dspin
    return vx * scale, vy * scale, math.copysign(t if t > 0.0 else 0.0, spin)


@njit(**_JIT)
def dish_height(x, y, prm):
    """Surface.height at (x, y) from the kick's parameters (m, <= 0; the tilt not included):
    -depth u^3, u = (R_d^2 - min(r^2, R_d^2)) / (R_d^2 - r_hole^2), depth = c_slope span / 6."""
    return _dish_height(x, y, prm[_P_C_SLOPE], prm[_P_INV_SPAN], prm[_P_R_DISH2])


@njit(inline="always", **_JIT)
def _dish_height(x, y, c_slope, inv_span, rd2):
    """:func:`dish_height` from the dish's three numbers."""
    if c_slope == 0.0 or inv_span == 0.0:
        return 0.0
    r2 = x * x + y * y
    u = (rd2 - min(r2, rd2)) * inv_span
    return -c_slope / (6.0 * inv_span) * u * u * u


@njit(**_JIT)
def climb_paid(x, y, x1, y1, vx, vy, rate, prm, i_edge_per_mass):
    """(vx, vy, rate) once a quarter turn's jump from (x, y) to (x1, y1) has paid the dish's rise
    between them, g dh per unit mass, out of the slide and then the pitch (``i_edge_per_mass``:
    I_edge / m), or been paid by its fall (into the slide, along it; at rest in the plane the fall
    has no direction to go).  pitch._land and the lone-die kernel's quarter turn both call it,
    and (:func:`pitch_step`) a pitched die's move on the board in a step."""
    return _climb(
        x, y, x1, y1, vx, vy, rate, prm[_P_G], prm[_P_C_SLOPE], prm[_P_INV_SPAN], prm[_P_R_DISH2],
        i_edge_per_mass,
    )  # fmt: skip


@njit(inline="always", **_JIT)
def _climb(x, y, x1, y1, vx, vy, rate, g, c_slope, inv_span, rd2, i_edge_per_mass):
    """:func:`climb_paid` from the dish's numbers."""
    dh = _dish_height(x1, y1, c_slope, inv_span, rd2) - _dish_height(x, y, c_slope, inv_span, rd2)
    if dh == 0.0:
        return vx, vy, rate
    v2 = vx * vx + vy * vy
    left = v2 - 2.0 * g * dh
    if v2 > 0.0 and left >= 0.0:
        k = math.sqrt(left / v2)
        return vx * k, vy * k, rate
    if dh < 0.0:
        return vx, vy, rate
    # the slide cannot pay: the rest out of the pitch (to rest: what is left is lost)
    e_rate = 0.5 * i_edge_per_mass * rate * rate - 0.5 * -left
    r1 = math.sqrt(2.0 * e_rate / i_edge_per_mass) if e_rate > 0.0 else 0.0
    return 0.0, 0.0, math.copysign(r1, rate)


@njit(**_JIT)
def face_landing(rate, u, mu, a):
    """(rate', u') after a pitched die's new face lands (physics/pitch.landing states the law):
    a plastic impact at the new edge with Coulomb friction ``mu``, never gaining energy.  The
    World and the sweeps' lone-die model both call this one definition."""
    rate1, u1 = _edge_face_landing(rate, u, mu, a)
    return _no_energy_gained(rate, u, rate1, u1, a)


@njit(inline="always", **_JIT)
def _no_energy_gained(rate, u, rate1, u1, a):
    """(rate1, u1) scaled down to the model's energy before, 1/2 u^2 + a^2 rate^2 / 3 per unit mass,
    if they hold more (a landing never gains energy)."""
    e0 = 0.5 * u * u + a * a * rate * rate / 3.0
    e1 = 0.5 * u1 * u1 + a * a * rate1 * rate1 / 3.0
    if e1 > e0 > 0.0:
        s = math.sqrt(e0 / e1)
        rate1, u1 = rate1 * s, u1 * s
    return rate1, u1


@njit(inline="always", **_JIT)
def _edge_face_landing(rate, u, mu, a):
    """:func:`face_landing`'s impact, before its energy guard."""
    w = rate * a  # the new edge's fall speed
    f = -(2.5 * u + 1.5 * w) / 4.0
    n = (2.5 * w + 1.5 * u) / 4.0
    if abs(f) > mu * n:
        s = -math.copysign(1.0, f)  # the way the new edge slides
        den = 2.5 - 1.5 * mu * s
        if den > 0.0:
            n = w / den
            f = -mu * s * n
    rate1 = rate - 3.0 * (n + f) / a
    u1 = u + 2.5 * f + 1.5 * n
    return rate1, u1


@njit(**_JIT)
def centre_landing(rate, v, mu, a):
    """(rate', v') after a pitched die's new face lands, ``v`` the centre's slide along the tip
    direction (the body's velocity: the strike, the edge's friction, the slap and flight all take
    it as the centre's; physics/pitch.centre_landing states the law).  At the quarter turn the
    centre moves rate a/2 ahead of its sliding edge, so the edge slides at v - rate a/2:
    :func:`face_landing` on that, and the centre then moves at the new edge's slide plus rate' a/2.
    A centre slower than rate a/2 leads its edge by its own speed only (lead v / rate): the
    pivot's grip that would carry a real centre on is not in the model, and a die tipped from rest
    lands as the edge's law has it.  Never more of the model's energy (1/2 v^2 + a^2 rate^2 / 3 per
    unit mass) than before (face_landing's own guard, on the edge's slide, is not the energy here:
    it cut a slipping landing's turn and slide that the rigid impact keeps).  The World and the sweeps' lone-die model both call this one
    definition."""
    lead = 0.5 * a * rate
    if lead > v:
        lead = v if v > 0.0 else 0.0
    rate1, u1 = _edge_face_landing(rate, v - lead, mu, a)
    v1 = u1 + (rate1 * (lead / rate) if rate > 0.0 else 0.0)
    return _no_energy_gained(rate, v, rate1, v1, a)


@njit(**_JIT)
def edge_landing(phi, rate, u, vz, e, mu, a):
    """(rate', u', vz', the edge's vertical speed after) of a die of size ``a`` landing on its
    lowest edge at pitch ``phi``, the centre moving at (u forward, vz up) and turning forward at
    ``rate``: a rigid impact with restitution ``e`` and Coulomb friction ``mu``, never gaining
    energy (physics/flight.edge_landing states the law; the World and the sweeps' lone-die model
    both call this one definition)."""
    c, s = math.cos(phi), math.sin(phi)
    rx, rz = -0.5 * a * (c - s), 0.5 * a * (c + s)
    k = 6.0 / (a * a)  # m / I_cm
    vcx, vcz = u - rate * rz, vz + rate * rx  # the edge's velocity
    if vcz >= 0.0:
        return rate, u, vz, vcz  # not closing: no impact
    # per unit mass: delta v_edge = M p, M = [[1 + k rz^2, -k rx rz], [-k rx rz, 1 + k rx^2]]
    m11, m12, m22 = 1.0 + k * rz * rz, -k * rx * rz, 1.0 + k * rx * rx
    tx, tz = -vcx, -(1.0 + e) * vcz
    det = m11 * m22 - m12 * m12
    px, pz = (m22 * tx - m12 * tz) / det, (m11 * tz - m12 * tx) / det
    if abs(px) > mu * pz:
        sign = math.copysign(1.0, vcx)  # the edge slides this way; friction opposes it
        den = m22 - m12 * mu * sign
        if den > 0.0:
            pz = tz / den
            px = -mu * sign * pz
    u1, vz1 = u + px, vz + pz
    rate1 = rate + k * (-px * rz + pz * rx)
    e0 = 0.5 * (u * u + vz * vz) + a * a * rate * rate / 12.0
    e1 = 0.5 * (u1 * u1 + vz1 * vz1) + a * a * rate1 * rate1 / 12.0
    if e1 > e0 > 0.0:
        f = math.sqrt(e0 / e1)
        u1, vz1, rate1 = u1 * f, vz1 * f, rate1 * f
    return rate1, u1, vz1, vz1 + rate1 * rx


@njit(**_JIT)
def landing_rise(phi, z1, vz1, top, rate, v2, a, g):
    """(phi', zc, vz, rate', k) of a die put on the surface ``top`` at a landing, its centre
    left by the step at ``z1`` moving at ``vz1``, pitched ``phi`` turning at ``rate``, sliding
    at sqrt(v2): standing on its lowest edge its centre is at zc = top + lift(phi), reached with
    the fall speed vz = -sqrt(vz1^2 - 2 g (zc - z1)).  If zc is higher than its flight reaches
    (a die turning in the air lowered its edge through the surface near the top of its flight),
    the turn about the edge lifts it: the rise's energy comes out of the turn (a^2 rate^2/12 per
    unit mass) and then the slide (scaled by k), vz = 0; if they cannot pay, the turn stopped
    short: it stands at the pitch phi' whose edge is on the surface with its centre where it is.
    No energy made (physics/flight._land and the sweeps' lone-die model call this one law)."""
    half = 0.5 * a
    zc = top + half * (math.cos(phi) + math.sin(phi) - 1.0)
    t = vz1 * vz1 - 2.0 * g * (zc - z1)
    if t >= 0.0:
        # rising still at the step's end, it rose all the step: a die turning back (struck low)
        # lowers its edge onto the surface while its centre climbs
        return phi, zc, math.copysign(math.sqrt(t), vz1), rate, 1.0
    need = -0.5 * t
    e_rot = a * a * rate * rate / 12.0
    if e_rot >= need:
        return phi, zc, -0.0, math.copysign(math.sqrt(12.0 * (e_rot - need)) / a, rate), 1.0
    e_slide = 0.5 * v2
    if e_slide > need - e_rot:
        return phi, zc, -0.0, 0.0, math.sqrt((e_slide - (need - e_rot)) / e_slide)
    # cos + sin = 1 + lift / half on the branch of phi (below or above pi/4)
    s = (1.0 + max(z1 - top, 0.0) / half) / math.sqrt(2.0)
    p0 = math.asin(min(s, 1.0)) - 0.25 * math.pi
    phi1 = p0 if phi <= 0.25 * math.pi else 0.5 * math.pi - p0
    zc = top + half * (math.cos(phi1) + math.sin(phi1) - 1.0)
    t = vz1 * vz1 - 2.0 * g * (zc - z1)
    return phi1, zc, -math.sqrt(t if t > 0.0 else 0.0), rate, 1.0


# the pitch state vector's layout (in: before the step; out: after it); P_X, P_Y, P_DISH in
# only: the body's position at the step's end and whether the dish acts there (1.0: on the board)
P_PHI, P_RATE, P_VX, P_VY, P_SPIN, P_X, P_Y, P_DISH = range(8)
N_PITCH_STATE = 8
QUARTER_TURN = 0.5 * math.pi  # physics/pitch.QUARTER
# a lift-off decided this close to the edge's zero normal force (m/s^2) goes to Python: its
# (c - s) ** 2 is the C library's pow there, not a product
_LIFT_MARGIN = 1e-9


def pitch_params(
    *, dt: float, a: float, g: float, mu_pitch: float, hop_lift: float, hop_min_speed: float,
    max_angle: float, consts: tuple[float, ...], prm: np.ndarray, i_edge_per_mass: float,
) -> np.ndarray:  # fmt: skip
    """pitch_step's parameters; ``consts`` physics/pitch._consts (edge inertia, its half, m g,
    a/2, the pendulum's k, the tip rate, pi/4), computed there exactly as its functions do; the
    dish's numbers from the kick's parameters ``prm`` (:func:`climb_paid`'s)."""
    i_e, half_i, mg, half_a, k, tip, eighth = consts
    return np.array([dt, a, g, mu_pitch, hop_lift, hop_min_speed, max_angle,
                     i_e, half_i, mg, half_a, k, tip, eighth, prm[_P_G], prm[_P_C_SLOPE],
                     prm[_P_INV_SPAN], prm[_P_R_DISH2], i_edge_per_mass])  # fmt: skip


N_PITCH_PARAMS = 19


@njit(inline="always", **_JIT)
def _two_product(x, y):
    """x * y = hi + lo exactly (Dekker's split; no fused multiply-add: compiled without fast-math)."""
    t = x * 134217729.0
    xh = t - (t - x)
    xl = x - xh
    t = y * 134217729.0
    yh = t - (t - y)
    yl = y - yh
    p = xh * yh
    q = xh * yl + xl * yh
    z = p + q
    return z, p - z + q + xl * yl


@njit(**_JIT)
def py_hypot(x: float, y: float) -> float:
    """CPython's math.hypot of two finite numbers bit for bit (its vector_norm: scaled exact
    squares and sums, then one correction step); numba's math.hypot is the C library's, which can
    differ in the last bit (tests/physics/test_pitch_kernel.py)."""
    ax = abs(x)
    ay = abs(y)
    big = max(ax, ay)
    if big == 0.0 or not big < math.inf:
        return big if ax == ax and ay == ay else math.nan
    _, e = math.frexp(big)
    if e < -1021:  # subnormal: CPython rescales first; far below any speed here
        return math.hypot(x, y)
    scale = math.ldexp(1.0, -e)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for v in (ax, ay):
        v = v * scale
        hi, lo = _two_product(v, v)
        s = csum + hi
        frac2 += hi - (s - csum)
        csum = s
        frac1 += lo
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    hi, lo = _two_product(-h, h)
    s = csum + hi
    frac2 += hi - (s - csum)
    csum = s
    frac1 += lo
    v = csum - 1.0 + (frac1 + frac2)
    h += v / (2.0 * h)
    return h / scale


@njit(**_JIT)
def pitch_step(st: np.ndarray, q: np.ndarray) -> int:
    """physics/pitch.step_die's substeps for a die pitched on a surface, the same operations in the
    same order (Python's max(0.0, t) is ``t if t > 0.0 else 0.0``), on ``st`` (P_PHI ..): PITCH_ON
    or PITCH_FLAT with ``st`` advanced, or PITCH_PYTHON with ``st`` unchanged when the step lands a
    face or lifts off (Python then takes the whole step).  On the board (``st[P_DISH]``) the slide
    first pays the dish's rise over the step's move (pitch._slope_paid)."""
    dt, a, g, mu_pitch = q[0], q[1], q[2], q[3]
    hop_lift, hop_min, max_angle = q[4], q[5], q[6]
    i_e, half_i, mg, half_a, k, tip, eighth = q[7], q[8], q[9], q[10], q[11], q[12], q[13]
    phi, rate = st[P_PHI], st[P_RATE]
    vx, vy, spin = st[P_VX], st[P_VY], st[P_SPIN]
    if st[P_DISH] != 0.0:
        x, y = st[P_X], st[P_Y]
        vx, vy, rate = _climb(
            x - vx * dt, y - vy * dt, x, y, vx, vy, rate, q[14], q[15], q[16], q[17], q[18]
        )
    n = math.ceil(dt * (abs(rate) + tip) / max_angle)
    if n < 1:
        n = 1
    h = dt / n
    hh = 0.5 * h
    mu_h = mu_pitch * h
    spin_mu_h = 1.5 * mu_pitch / a * h
    s0 = math.sin(phi)
    c0 = math.cos(phi)
    for _ in range(n):
        # the lift-off test at each substep's start (pitch.step_die)
        if rate > 0.0 and phi < eighth:
            force = edge_leave_force(c0, s0, rate, g, half_a)
            if force < _LIFT_MARGIN and hop_lift * (half_a * (c0 - s0) * rate) > hop_min:
                return PITCH_PYTHON  # lifts off (or too close to tell): Python decides
        load = pivot_load(c0, s0, rate, g, half_a)
        vx, vy, spin = rub(vx, vy, spin, mu_h * load, spin_mu_h * load)
        k1p, k1v = rate, k * (s0 - c0)
        r = phi + hh * k1p
        k2p, k2v = rate + hh * k1v, k * (math.sin(r) - math.cos(r))
        r = phi + hh * k2p
        k3p, k3v = rate + hh * k2v, k * (math.sin(r) - math.cos(r))
        r = phi + h * k3p
        k4p, k4v = rate + h * k3v, k * (math.sin(r) - math.cos(r))
        phi1 = phi + h * (k1p + 2 * k2p + 2 * k3p + k4p) / 6
        rate1 = rate + h * (k1v + 2 * k2v + 2 * k3v + k4v) / 6
        s1 = math.sin(phi1)
        c1 = math.cos(phi1)
        left = (
            half_i * rate * rate + mg * (half_a * (c0 + s0 - 1.0)) - mg * (half_a * (c1 + s1 - 1.0))
        )
        if left <= 0.0:
            rate = 0.0
        else:
            phi, rate, s0, c0 = phi1, math.copysign(math.sqrt(2.0 * left / i_e), rate1), s1, c1
        if phi <= 0.0 and rate <= 0.0:
            fall = half_a * (c0 - s0) * -rate  # the slap's friction (pitch.step_die)
            vx, vy, spin = rub(vx, vy, spin, mu_pitch * fall, 1.5 * mu_pitch / a * fall)
            st[P_PHI], st[P_RATE], st[P_VX], st[P_VY], st[P_SPIN] = phi, rate, vx, vy, spin
            return PITCH_FLAT
        if phi >= QUARTER_TURN:
            return PITCH_PYTHON  # lands a face: events, a jump, maybe a strike
    st[P_PHI], st[P_RATE], st[P_VX], st[P_VY], st[P_SPIN] = phi, rate, vx, vy, spin
    return PITCH_ON


# --- a die in flight (physics/flight.py step_die) -----------------------------------------------


@njit(**_JIT)
def flight_clear(
    state: np.ndarray,
    rows: np.ndarray,
    i: int,
    x: float,
    y: float,
    low0: float,
    low1: float,
    dice: bool,
    land_tops: np.ndarray,
    groups: np.ndarray,
    plats: np.ndarray,
    hole_r: float,
    tol: float,
    half: float,
) -> bool:
    """True if die ``i`` in flight at (x, y), its lowest point ``low0`` before this step and
    ``low1`` after it, surely flies on: physics/flight._surface_under would find a surface below
    ``low1`` (or the hole, with ``low1`` above the board).  Conservative: False whenever a die's
    top it could come down on (``land_tops``, view.landing_top: within two half-widths on both
    axes, same group, a top between ``low1`` and ``low0 + tol``) might be under it; then the
    Python path decides.  ``plats`` rows: (x, y, width / 2, depth / 2, height) in board order."""
    surf = 0.0
    over = False
    for k in range(plats.shape[0]):
        if abs(x - plats[k, 0]) <= plats[k, 2] and abs(y - plats[k, 1]) <= plats[k, 3]:
            surf = plats[k, 4]
            over = True
            break
    hole = not over and x * x + y * y < hole_r * hole_r
    if dice:
        g = groups[i]
        reach = 2 * half
        for j in range(rows.shape[0]):
            if j == i or groups[j] != g:
                continue
            o_top = land_tops[j]
            if o_top != o_top:  # NaN: in flight or falling, nothing to land on
                continue
            r = rows[j]
            if abs(x - state[r, 0]) > reach or abs(y - state[r, 1]) > reach:
                continue
            if low0 < o_top - tol:
                continue  # it was not above this top
            if o_top >= low1:
                return False  # it may come down on this die: Python decides
    if hole:
        return low1 > 0.0
    return low1 > surf


@njit(**_JIT)
def square_overlap(ax, ay, a_angle, bx, by, b_angle, half):
    """How deep (m) two dice's square footprints (centres (ax, ay), (bx, by), half-width ``half``)
    overlap (< 0: apart), by separating axes (the four face normals)."""
    dx, dy = bx - ax, by - ay
    ca, sa = math.cos(a_angle), math.sin(a_angle)
    cb, sb = math.cos(b_angle), math.sin(b_angle)
    depth = math.inf
    for k in range(4):
        nx, ny = _face_axis(k, ca, sa, cb, sb)
        reach = half * (abs(nx * ca + ny * sa) + abs(-nx * sa + ny * ca))
        reach += half * (abs(nx * cb + ny * sb) + abs(-nx * sb + ny * cb))
        depth = min(depth, reach - abs(nx * dx + ny * dy))
    return depth


@njit(**_JIT)
def air_low(z, phi, rate, t, half_a):
    """The lowest point (m) of a die in flight ``t`` s on from height ``z`` (its base were it
    flat) pitched at ``phi`` turning at ``rate``: a corner (a/2)(cos + sin - 1) below that base
    (up to 3.3 mm at pi/4).  The dice's height bands take it: a striker tipped 1.1 rad over the
    block reaches 2.8 mm below its flat base, and met the next die's top solidly, not in a
    graze that only a fine step caught (docs/physics.md "Hops and flight")."""
    q = (phi + rate * t) % QUARTER_TURN
    return z - half_a * (math.cos(q) + math.sin(q) - 1.0)


@njit(**_JIT)
def flight_floor(
    state: np.ndarray,
    rows: np.ndarray,
    i: int,
    base: float,
    land_tops: np.ndarray,
    groups: np.ndarray,
    half: float,
    slop: float,
) -> float:
    """The highest top (m) of a die that die ``i`` in flight, its base at ``base``, is above
    (within ``slop``) with its footprint overlapping that die's by more than ``slop``, or -inf.
    Its height band for the step's collision steps is taken no lower (physics/evolve._bands): it
    comes down on that die's top or edge (physics/flight._surface_under decides at the step's
    end), not against its side.  Taken from the step's first read (``state``: x, y, angle per
    row; ``land_tops``: view.landing_top, NaN for a die nothing lands on)."""
    r = rows[i]
    x, y, angle = state[r, 0], state[r, 1], state[r, 2]
    g = groups[i]
    reach = 2.0 * math.sqrt(2.0) * half  # centres farther apart than this never overlap
    best = -math.inf
    for j in range(rows.shape[0]):
        top = land_tops[j]
        if j == i or groups[j] != g or not top > best or base < top - slop:
            continue  # (NaN tops fail ``top > best``)
        rj = rows[j]
        ox, oy = state[rj, 0], state[rj, 1]
        if abs(ox - x) > reach or abs(oy - y) > reach:
            continue
        if square_overlap(x, y, angle, ox, oy, state[rj, 2], half) > slop:
            best = top
    return best


@njit(**_JIT)
def flown(z: float, vz: float, t: float, g: float) -> tuple[float, float]:
    """(height, vertical speed) after ``t`` s of free flight from ``z`` rising at ``vz``: exact
    for constant g (a launch or rebound within a step flies the rest of it: physics/flight.py,
    the lone-die kernel)."""
    return z + vz * t - 0.5 * g * t * t, vz - g * t


@njit(**_JIT)
def turned_in_air(phi: float, rate: float, t: float) -> float:
    """A pitch ``phi`` turning at ``rate`` in the air for ``t`` s, unless that ends it outside
    [0, a quarter turn) (then ``phi``: the next flight step turns it over, with the event)."""
    on = phi + rate * t
    return on if 0.0 <= on < QUARTER_TURN else phi
