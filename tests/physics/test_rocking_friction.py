"""The edge's friction while a die rocks (model 0.17, docs/physics.md "Rocking on the edge"): the
edge carries the pivot's own normal force, not the weight, and the slap that lays the die flat
again carries the centre's fall.  Over a rock of time T from a rise v_z0 the board's impulse is
m g T - m v_z0, and the slide loses mu_pitch times that per unit mass: the 3D reference's low strike
at 0.5 m/s lost mu v_z0 = 0.034 m/s less than the weight's friction (validate's cells at 0.2).

The oracles are integrated here from the pendulum's own equation (scipy), independently of the
game's RK4 substeps; the compiled kernel and the Python path are both held to them."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from jamsumo_sim.physics import fastbody, flight, pitch, step_kernels
from jamsumo_sim.world import World


def _rock(params, rate0: float) -> tuple[float, float]:
    """The rock of a die tipped from flat at ``rate0`` about its edge (below the tip rate) to its
    slap: (T, the integral of the edge's normal force per unit mass over it), from
    phi'' = (3 g / 4 a)(sin - cos) and N / m = g + z'', z = (a/2)(cos + sin - 1)."""
    g, a = params.gravity, params.die_size
    k = 0.75 * g / a

    def rhs(_t, y):
        phi, rate, _ = y
        acc = k * (math.sin(phi) - math.cos(phi))
        c, s = math.cos(phi), math.sin(phi)
        z_dd = 0.5 * a * ((c - s) * acc - (c + s) * rate * rate)
        return [rate, acc, g + z_dd]

    def back(_t, y):
        return y[0]

    back.terminal, back.direction = True, -1
    sol = solve_ivp(rhs, (0.0, 1.0), [1e-12, rate0, 0.0], events=back, rtol=1e-11, atol=1e-13)
    return float(sol.t_events[0][0]), float(sol.y_events[0][0][2])


def test_pivot_load_is_the_weight_less_the_centres_fall(params):
    """flight.pivot_load = g + z'' of the pendulum (finite differences of z along a swing), the
    compiled form the same bits; at rest on the edge 5/8 of the weight (a cube's centre falls
    3/8 g as gravity turns it about a held edge)."""
    g, a = params.gravity, params.die_size
    assert flight.pivot_load(0.0, 0.0, params) == pytest.approx(0.625 * g, rel=1e-12)
    k = 0.75 * g / a
    for phi, rate in [(0.1, 5.0), (0.5, -8.0), (1.0, 12.0), (0.3, 30.0)]:
        h = 1e-5
        zs = []
        for dt in (-h, 0.0, h):
            # phi(t) to second order about t = 0
            acc = k * (math.sin(phi) - math.cos(phi))
            p_t = phi + rate * dt + 0.5 * acc * dt * dt
            zs.append(0.5 * a * (math.cos(p_t) + math.sin(p_t) - 1.0))
        z_dd = (zs[0] - 2 * zs[1] + zs[2]) / (h * h)
        assert flight.pivot_load(phi, rate, params) == pytest.approx(max(0.0, g + z_dd), abs=2e-3)
        c, s = math.cos(phi), math.sin(phi)
        compiled = step_kernels.pivot_load(c, s, rate, g, 0.5 * a)
        assert compiled == flight.pivot_load(phi, rate, params)
    # turning fast, the board would pull: no load, no friction
    assert flight.pivot_load(0.0, 40.0, params) == 0.0


def test_the_board_carries_the_weight_less_the_rise_over_a_rock(params):
    """The oracle's own closed form: the normal impulse over a rock is g T - 2 v_z0 (the centre
    rises at v_z0 and comes down at v_z0), and with the slap's v_z0, g T - v_z0."""
    rate0 = 0.7 * pitch.tip_rate(params)
    t, impulse = _rock(params, rate0)
    v_z0 = 0.5 * params.die_size * rate0
    assert impulse == pytest.approx(params.gravity * t - 2 * v_z0, rel=1e-7)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("fraction", [0.3, 0.7, 0.95])
def test_a_rock_loses_mu_of_the_boards_impulse(flat_board, params, monkeypatch, compiled, fraction):
    """A die sliding at 1 m/s and spinning at 60 rad/s rocks on its edge and lies flat again: it
    has lost mu_pitch (g T - v_z0) of its slide and 1.5 mu_pitch / a of that of its spin, the
    edge's law over the rock and its slap (refine 8: the rock's end is found to 0.25 ms).  The
    weight's friction (models 0.3-0.16) lost mu v_z0 = 0.01-0.04 m/s more."""
    p = dataclasses.replace(params, refine=8)
    if not compiled:
        monkeypatch.setattr(step_kernels, "pitch_step", lambda st, q: step_kernels.PITCH_PYTHON)
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    rate0 = math.sqrt(fraction) * pitch.tip_rate(p)
    pitch.start(w, d, 0.0, rate0, "flick")
    fastbody.set_motion(d.body, 1.0, 0.0, 60.0)
    steps = 0
    while d.pitch is not None:
        pitch.step_die(w, d)
        steps += 1
        assert steps < 2000
    vx, vy, spin = fastbody.motion(d.body)
    t, impulse = _rock(p, rate0)
    v_z0 = 0.5 * p.die_size * rate0
    board = impulse + v_z0  # with the slap
    assert board == pytest.approx(p.gravity * t - v_z0, rel=1e-6)
    lost = 1.0 - math.hypot(vx, vy)
    tol = p.mu_pitch * p.gravity * p.step  # the rock's end, found to a step
    assert lost == pytest.approx(p.mu_pitch * board, abs=tol)
    assert abs(lost - p.mu_pitch * p.gravity * t) > 5 * tol  # not the weight's
    spun = 1.5 * p.mu_pitch / p.die_size * board
    assert 60.0 - spin == pytest.approx(spun, abs=1.5 * tol / p.die_size)
    assert vy == 0.0 and np.isfinite(vx)
