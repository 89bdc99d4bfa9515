"""Coulomb friction applied by hand at every contact point (physics.md s9.3).

MuJoCo gives each contact's point, normal and normal force N (the step just taken); here each contact
pushes against its slip u_t with mu N, but never more than would stop the slip within the step if the
contact's share of the die were all it moved (``cap_mass`` |u_t| / dt): an impact's normal force is
thousands of times m g, and an explicit viscous regularisation would then overshoot and pump energy
into a sticking contact (a pad pressed on a face made a mid-height strike hop); and a lone edge or corner point adds a small torsional friction
mu N rho against the spin about the normal.  Pure numpy: no MuJoCo here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Contacts:
    """The contacts of one step; a side is a body index (dice 0..n-1, then the finger, the board)."""

    side1: np.ndarray  # (k,) int
    side2: np.ndarray  # (k,) int
    lever1: np.ndarray  # (k, 3) m: contact point minus side 1's centre (now)
    lever2: np.ndarray  # (k, 3)
    normal: np.ndarray  # (k, 3) unit
    force: np.ndarray  # (k,) N, normal force
    mu: np.ndarray  # (k,)
    torsion: np.ndarray  # (k,) m: torsional lever (0: none)
    cap_mass: np.ndarray  # (k,) kg: the stick cap's mass (a share of the lighter die)
    cap_inertia: np.ndarray  # (k,) kg m^2: the same for the torsion


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cross product (np.cross costs ~15 us of overhead a call; this runs every step)."""
    out = np.empty_like(a)
    out[:, 0] = a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1]
    out[:, 1] = a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2]
    out[:, 2] = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    return out


def friction_wrench(
    c: Contacts, vel: np.ndarray, omega: np.ndarray, slip_floor: float, dt: float
) -> tuple[np.ndarray, np.ndarray]:
    """(force, torque) (n_bodies, 3) on every body from the contacts' friction; ``vel`` and
    ``omega`` (n_bodies, 3) world frame (a static board has zeros)."""
    nb = vel.shape[0]
    force = np.zeros((nb, 3))
    torque = np.zeros((nb, 3))
    if c.force.size == 0:
        return force, torque
    w1, w2 = omega[c.side1], omega[c.side2]
    u = vel[c.side2] + _cross(w2, c.lever2) - vel[c.side1] - _cross(w1, c.lever1)
    n = c.normal
    ut = u - np.sum(u * n, axis=1)[:, None] * n
    s = np.linalg.norm(ut, axis=1)
    size = np.minimum(c.mu * c.force, c.cap_mass * s / dt)
    f2 = -(size / np.maximum(s, slip_floor))[:, None] * ut
    t2 = _cross(c.lever2, f2)
    t1 = -_cross(c.lever1, f2)
    if np.any(c.torsion > 0):
        wn = np.sum((w2 - w1) * n, axis=1)
        floor = slip_floor / np.maximum(c.torsion, 1e-12)
        aw = np.abs(wn)
        size = np.minimum(c.mu * c.force * c.torsion, c.cap_inertia * aw / dt)
        tz = -(size * wn / np.maximum(aw, floor))[:, None] * n
        t2 = t2 + tz
        t1 = t1 - tz
    np.add.at(force, c.side2, f2)
    np.add.at(force, c.side1, -f2)
    np.add.at(torque, c.side2, t2)
    np.add.at(torque, c.side1, t1)
    return force, torque
