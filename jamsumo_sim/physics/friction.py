"""Coulomb friction of dice on the board, integrated over each die's contact patch, vectorised.

Each die rests on a square patch (side ``patch_fraction * die_size``) with uniform pressure.  A patch point
at r (from the centre) moves at u = v + w z x r; kinetic friction is

    F = -mu N <u/|u|>,   tau = -mu N <(r x u/|u|)_z>

averaged over an N x N midpoint quadrature of the patch, so sliding and spinning are coupled.  The
quadrature points are scaled radially by a constant so that the polar moment <|r|> is exact (the
midpoint rule misses the cusp of |r| at the centre by 0.6 % at 8 x 8); pure slides are unaffected.

Time integration (see :func:`friction_kick`): the friction impulse over a step is applied explicitly; a
component (v or w) that the impulse would reverse is set to zero (the motion stops within the step);
if both would, the die sticks: v = w = 0 exactly (the sticking impulse is then smaller than the
kinetic one).  A die at rest stays exactly at rest while the in-plane surface force (dish slope, tilt)
lies inside the static limit |F| <= mu_s N, i.e. tan(slope) < mu_s; beyond it the die starts to slide
with kinetic friction.  Velocities are staggered half a step (leapfrog: a fresh launch gets a half
kick first), so a constant deceleration gives the exact stop distance v0^2/(2 mu g) for any dt.

Air drag -c |v| v (``air_drag`` c = rho C_d a^2 / (2 m), physics.md s8.7) acts in the same kick as a
trapezoidal step (mid-step speed from a predictor: second order like the leapfrog kick); it may stop
a die within a step but never reverses or speeds it (for any speed); the normal
force N the caller passes carries the bowl's v^2 term (:meth:`jamsumo_sim.physics.surface.Surface.accel_and_normal`).

These numpy functions state the laws; the World runs the same laws compiled
(:mod:`jamsumo_sim.physics.step_kernels`), and ``tests/physics/test_step_kernels.py`` checks the two agree.
"""

from __future__ import annotations

import math

import numpy as np

# <|r|> over the unit square [-1/2, 1/2]^2: (sqrt(2) + asinh(1)) / 6   [derived]
_MEAN_R_UNIT_SQUARE = (math.sqrt(2.0) + math.asinh(1.0)) / 6.0


def patch_points(side: float, n: int) -> np.ndarray:
    """(n*n, 2) quadrature points of a square patch of side ``side`` (body frame, centred)."""
    g = (np.arange(n) + 0.5) / n - 0.5
    x, y = np.meshgrid(g, g, indexing="ij")
    pts = np.stack([x.ravel(), y.ravel()], axis=1)
    scale = _MEAN_R_UNIT_SQUARE / np.hypot(pts[:, 0], pts[:, 1]).mean()
    return pts * (scale * side)


def spin_lever(side: float) -> float:
    """<|r|> of the uniform square patch: pure-spin torque = mu N * this (0.38260 * side) [derived]."""
    return _MEAN_R_UNIT_SQUARE * side


def patch_wrench(v: np.ndarray, w: np.ndarray, theta: np.ndarray, points: np.ndarray):
    """Dimensionless kinetic friction per unit mu N: force (n, 2) and torque lever (n,) in metres.

    ``v`` (n, 2) m/s, ``w`` (n,) rad/s, ``theta`` (n,) die angles, ``points`` (K, 2) body-frame patch
    points.  F = mu N f and tau = mu N t.
    """
    f, t = _wrench_c(
        v[:, 0] + 1j * v[:, 1], w, np.exp(1j * theta), points[:, 0] + 1j * points[:, 1]
    )
    return np.stack([f.real, f.imag], axis=1), t


def _wrench_c(vc: np.ndarray, w: np.ndarray, rot: np.ndarray, pc: np.ndarray):
    """Complex-number kernel of :func:`patch_wrench` (few numpy calls: the step's hot spot)."""
    r = rot[:, None] * pc  # (n, K) world-frame offsets
    u = vc[:, None] + (1j * w)[:, None] * r  # point velocities v + w z x r
    t = u / np.maximum(np.abs(u), 1e-300)  # unit slip directions (0 where u = 0)
    f = -t.mean(axis=1)
    tau = -(r.conj() * t).imag.mean(axis=1)  # (r x t)_z = Im(conj(r) t)
    return f, tau


def friction_kick(
    v: np.ndarray,
    w: np.ndarray,
    theta: np.ndarray,
    accel: np.ndarray | None,
    normal: np.ndarray | float,
    h: np.ndarray | float,
    *,
    mass: float,
    inertia: float,
    mu_k: float,
    mu_s: float,
    points: np.ndarray,
    drag: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Velocities after one friction step of length ``h`` for n dice on the board.

    ``v`` (n,) complex velocities vx + i vy, ``w`` (n,) spins, ``accel`` (n,) complex in-plane surface
    acceleration (dish slope, board tilt) or None (flat, level), ``normal`` the normal force N (scalar
    or (n,)), ``h`` the step (scalar or (n,)), ``points`` (K,) complex body-frame patch points
    (:func:`patch_points` as x + i y), ``drag`` the air drag c (1/m).  Returns new (v, w); inputs
    are not modified.
    """
    moving = (v != 0) | (w != 0)
    if accel is None:
        if not moving.all():
            v1, w1 = v.copy(), w.copy()
            idx = np.flatnonzero(moving)
            if idx.size:
                v1[idx], w1[idx] = _kinetic(
                    v[idx],
                    w[idx],
                    theta[idx],
                    None,
                    _take(normal, idx),
                    _take(h, idx),
                    mass,
                    inertia,
                    mu_k,
                    points,
                    drag,
                )
            return v1, w1
        return _kinetic(v, w, theta, None, normal, h, mass, inertia, mu_k, points, drag)

    if moving.all():
        return _kinetic(v, w, theta, accel, normal, h, mass, inertia, mu_k, points, drag)
    v1, w1 = v.copy(), w.copy()
    # Resting dice stay exactly still while the surface force is inside the static cone;
    # otherwise they start to slide, kinetic friction opposing the impending motion.
    idx = np.flatnonzero(~moving)
    a = accel[idx]
    amag = np.abs(a)
    nr = _take(normal, idx)
    slip = amag * mass > mu_s * nr
    if slip.any():
        j = idx[slip]
        dec = mu_k * _take(normal, j) / mass
        v1[j] = a[slip] * (1.0 - dec / amag[slip]) * _take(h, j)
    idx = np.flatnonzero(moving)
    if idx.size:
        v1[idx], w1[idx] = _kinetic(
            v[idx], w[idx], theta[idx], accel[idx], _take(normal, idx), _take(h, idx),
            mass, inertia, mu_k, points, drag,
        )  # fmt: skip
    return v1, w1


def _take(x, idx):
    return x[idx] if isinstance(x, np.ndarray) and x.ndim else x


def _kinetic(v, w, theta, accel, normal, h, mass, inertia, mu_k, points, drag=0.0):
    """Explicit kinetic kick; components it would reverse stop (both: the die sticks).  The patch
    integral runs in the die's body frame (slip speeds are rotation invariant)."""
    rot = np.exp(1j * theta)
    ub = (v * rot.conj())[:, None] + (1j * w)[:, None] * points  # body-frame point velocities
    t = ub / np.maximum(np.abs(ub), 1e-300)  # unit slip directions (0 where u = 0)
    c = mu_k * normal * h / points.shape[0]  # impulse per quadrature point
    dv = -(t.sum(axis=1) * rot) * (c / mass)
    if accel is not None:
        dv = accel * h + dv
    vn = v + dv
    if drag:
        # trapezoidal drag: mid-step speed from a predictor; may stop the die, never reverses it
        q = 1.0 / (1.0 + drag * np.abs(v) * h)
        half_x = 0.5 * drag * h * np.abs(0.5 * (v + v * q + dv))
        vn = (v * np.maximum(1.0 - half_x, 0.0) + dv) / (1.0 + half_x)
    wn = w - (points.conj() * t).imag.sum(axis=1) * (c / inertia)  # (r x t)_z = Im(conj(r) t)
    stop_v = (v.conj() * vn).real < 0
    stop_w = w * wn < 0
    stop_v |= (v == 0) & stop_w  # a component already at zero stays there
    stop_w |= (w == 0) & stop_v
    return np.where(stop_v, 0, vn), np.where(stop_w, 0, wn)


def surface_kick(surface, pos, v, w, theta, on_dish, h, **kw):
    """:func:`friction_kick` on ``surface`` (:class:`~jamsumo_sim.physics.surface.Surface`) with the bowl's
    v^2 normal force taken at the mid-step velocity, as the compiled kernel does: the midpoint is
    predicted by half a step of the slope force and of sliding friction mu_k N(v) / m along -v
    (never reversing), then one kick with N from it (second order, as the leapfrog kick is).
    ``kw``: friction_kick's keywords (mass, inertia, ...)."""
    mass = kw["mass"]
    if surface.trivially_flat:
        return friction_kick(v, w, theta, None, mass * surface.g, h, **kw)
    acc, normal = surface.accel_and_normal(pos, mass, on_dish=on_dish, vel=v)
    moving = (v != 0) | (w != 0)
    speed = np.abs(v)
    safe = np.where(speed > 0, speed, 1.0)
    keep = np.where(
        speed > 0, np.maximum(1.0 - 0.5 * h * kw["mu_k"] * normal / mass / safe, 0.0), 0.0
    )
    v_mid = v * keep + 0.5 * h * acc
    _, mid = surface.accel_and_normal(pos, mass, on_dish=on_dish, vel=np.where(moving, v_mid, 0))
    return friction_kick(v, w, theta, acc, mid, h, **kw)
