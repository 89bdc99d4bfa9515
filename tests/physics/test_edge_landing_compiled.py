"""The landing impacts have one compiled definition each (step_kernels.edge_landing and
face_landing), called by the World (physics/flight.edge_landing, physics/pitch.landing) and by the
sweeps' lone-die model.  Compiled, it must be the law as written, run by CPython, bit for bit
(model 0.5's results were made with the Python form)."""

from __future__ import annotations

import math

import numpy as np

from jamsumo_sim.physics import flight, pitch, step_kernels
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams

PARAMS = PhysicsParams.from_board(load_board("standard"))


# the laws as written, run by CPython (numba keeps each kernel's Python function): compiled, they
# must give the same bits
_law = step_kernels.edge_landing.py_func
_face_law = step_kernels.face_landing.py_func


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
