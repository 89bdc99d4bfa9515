"""The landing impacts have one compiled definition each (step_kernels.edge_landing and
face_landing), called by the World (physics/flight.edge_landing, physics/pitch.landing) and by the
sweeps' lone-die model.  It must be the law as
written in Python — model 0.5's results were made with this Python form — bit for bit."""

from __future__ import annotations

import math

import numpy as np

from jamsumo_sim import step_kernels
from jamsumo_sim.board import load_board
from jamsumo_sim.params import PhysicsParams
from jamsumo_sim.physics import flight, pitch

PARAMS = PhysicsParams.from_board(load_board("standard"))


def _law(phi, rate, u, vz, e, mu, a):
    """The rigid edge impact in plain Python (model 0.5's flight.edge_landing)."""
    c, s = math.cos(phi), math.sin(phi)
    rx, rz = -0.5 * a * (c - s), 0.5 * a * (c + s)
    k = 6.0 / (a * a)
    vcx, vcz = u - rate * rz, vz + rate * rx
    if vcz >= 0.0:
        return rate, u, vz, vcz
    m11, m12, m22 = 1.0 + k * rz * rz, -k * rx * rz, 1.0 + k * rx * rx
    tx, tz = -vcx, -(1.0 + e) * vcz
    det = m11 * m22 - m12 * m12
    px, pz = (m22 * tx - m12 * tz) / det, (m11 * tz - m12 * tx) / det
    if abs(px) > mu * pz:
        sign = math.copysign(1.0, vcx)
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


def test_the_compiled_edge_landing_is_the_python_law_bit_for_bit() -> None:
    rng = np.random.default_rng(23)
    a = PARAMS.die_size
    slid = stuck = 0
    for _ in range(5000):
        phi = float(rng.uniform(0.0, math.pi / 2))
        rate, u, vz = (float(v) for v in rng.normal(0.0, [30.0, 1.0, 1.0]))
        e, mu = float(rng.uniform(0, 1)), float(rng.uniform(0, 2))
        want = _law(phi, rate, u, vz, e, mu, a)
        assert step_kernels.edge_landing(phi, rate, u, vz, e, mu, a) == want
        assert flight.edge_landing(phi, rate, u, vz, e, mu, PARAMS) == want
        slid += want[1] != u and mu < 0.3
        stuck += want[1] != u and mu > 1.5
    assert slid > 100 and stuck > 100  # both friction branches were exercised


def _face_law(rate, u, mu, a):
    """A pitched die's face landing in plain Python (model 0.5's pitch.landing)."""
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


def test_the_compiled_face_landing_is_the_python_law_bit_for_bit() -> None:
    rng = np.random.default_rng(29)
    a, mu = PARAMS.die_size, PARAMS.mu_landing
    slips = 0
    for _ in range(5000):
        rate, u = float(rng.uniform(0.0, 120.0)), float(rng.normal(0.0, 1.0))
        want = _face_law(rate, u, mu, a)
        assert step_kernels.face_landing(rate, u, mu, a) == want
        assert pitch.landing(rate, u, PARAMS) == want
        slips += want[1] != 0.0
    assert slips > 100  # the slipping branch was exercised
