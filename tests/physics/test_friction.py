"""Contact-patch friction oracles (physics.md s2)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from physics_helpers import run_steps

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.friction import patch_points, patch_wrench, spin_lever
from jamsumo_sim.world import World


@pytest.mark.parametrize("v0", [0.5, 1.0, 2.0, 3.0])
@pytest.mark.parametrize("dt, substeps", [(0.004, 4), (0.002, 2), (0.001, 1), (0.0004, 1)])
def test_slide_distance_and_time(flat_board, params, v0, dt, substeps):
    """Pure slide: stop distance v0^2/(2 mu g) within 1 % for any dt; the stop time within 1 % or,
    for short slides, two model steps (the kicks are half a step off the positions, and the
    rest test runs once per step)."""
    # friction alone (no air): tests/physics/test_bowl_and_drag.py holds the slide with drag
    p = params.with_overrides({"dt": dt, "collision_substeps": substeps, "air_drag": 0.0})
    w = World(flat_board, p)
    w.add_die("a", 0.0, -2.0, face=4)
    w.apply_flick(Flick("a", math.pi / 2, v0 * p.die_mass))
    res = w.run_until_rest(10.0)
    assert res.rested
    s = w.state("a")
    mu_g = p.mu_board * p.gravity
    assert (s.y + 2.0) == pytest.approx(v0**2 / (2 * mu_g), rel=0.01)
    assert res.time_to_rest == pytest.approx(v0 / mu_g, rel=0.01, abs=2 * dt)
    assert abs(s.x) < 1e-9


def test_slide_oracle_numbers(flat_board, params):
    """physics.md's worked numbers: mu 0.25, 1 m/s -> 0.2039 m, 0.4077 s."""
    p = params.with_overrides({"mu_board": 0.25, "gravity": 9.81, "air_drag": 0.0})
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=4, vx=1.0)
    res = w.run_until_rest(5.0)
    assert w.state("a").x == pytest.approx(0.2039, rel=0.01)
    assert res.time_to_rest == pytest.approx(0.4077, rel=0.01)


def test_slide_distance_independent_of_dt(flat_board, params):
    out = []
    for dt in (0.001, 0.00025):
        w = World(flat_board, params.with_overrides({"dt": dt}))
        w.add_die("a", 0.0, 0.0, face=4, vx=1.5)
        w.run_until_rest(5.0)
        out.append(w.state("a").x)
    assert out[0] == pytest.approx(out[1], rel=1e-3)


@pytest.mark.parametrize("fraction", [1.0, 0.875, 0.5])
def test_pure_spin_deceleration(flat_board, params, fraction):
    """alpha = 2.2956 mu g / a for a full-face patch; scales with the patch side."""
    p = params.with_overrides({"patch_fraction": fraction})
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1, omega=100.0)
    w.step()
    w0 = w.state("a").omega
    run_steps(w, 100)
    alpha = (w0 - w.state("a").omega) / (100 * p.dt)
    expected = 2.2956 * p.mu_board * p.gravity / p.die_size * fraction
    assert alpha == pytest.approx(expected, rel=0.01)
    assert math.hypot(w.state("a").x, w.state("a").y) < 1e-15  # pure spin does not translate


def test_oracle_spin_number(params):
    """mu 0.25, a 16 mm: 351.9 rad/s^2."""
    lever = spin_lever(0.016)
    alpha = 0.25 * 9.81 * lever / (0.016**2 / 6)
    assert alpha == pytest.approx(351.9, rel=1e-3)


def test_quadrature_reproduces_polar_moment():
    pts = patch_points(0.016, 8)
    assert np.hypot(pts[:, 0], pts[:, 1]).mean() == pytest.approx(spin_lever(0.016), rel=1e-12)


def test_pure_slide_has_no_torque():
    pts = patch_points(0.016, 8)
    for ang in (0.0, 0.3, 1.0):
        f, t = patch_wrench(np.array([[0.7, -0.2]]), np.array([0.0]), np.array([ang]), pts)
        assert abs(t[0]) < 1e-15
        assert np.hypot(*f[0]) == pytest.approx(1.0)


@pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 4])
@pytest.mark.parametrize("ratio", [0.3, 1.0, 4.0])
def test_slide_and_spin_stop_together(flat_board, params, angle, ratio):
    """Coupled friction: both motions stop at the same instant (within one step), and a spinning die
    slides farther than a non-spinning one."""
    p = params.with_overrides({"patch_fraction": 1.0})
    a = p.die_size
    v0 = 1.0
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, angle=angle, face=1, vx=v0, omega=v0 / (ratio * a / 2))
    t_v = t_w = None
    while w.steps < 5000 and (t_v is None or t_w is None):
        w.step()
        s = w.state("a")
        if t_v is None and s.vx == 0 and s.vy == 0:
            t_v = w.time
        if t_w is None and s.omega == 0:
            t_w = w.time
    assert t_v is not None and t_w is not None
    assert abs(t_v - t_w) <= p.dt + 1e-12
    assert math.hypot(w.state("a").x, w.state("a").y) > v0**2 / (2 * p.mu_board * p.gravity)


def _terminal_ratio(w: World, a: float, max_steps: int) -> float | None:
    """v / (omega a/2) of die "a" once it slides slower than 2 mm/s (None if a motion stopped first)."""
    while w.steps < max_steps:
        w.step()
        s = w.state("a")
        v = math.hypot(s.vx, s.vy)
        if v == 0 or s.omega == 0:
            return None
        if v < 0.002:
            return v / (abs(s.omega) * a / 2)
    return None


@pytest.mark.parametrize("angle", [0.0, 0.3, math.pi / 4])
def test_sharp_cube_terminal_ratio(flat_board, params, angle):
    """Sharp full patch: v/(w a/2) tends to a finite value in [0.69, 0.76] (physics.md s2 item 4)."""
    p = params.with_overrides({"patch_fraction": 1.0, "dt": 0.0002})
    a = p.die_size
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, angle=angle, face=1, vx=1.0, omega=1.0 / (a / 2))
    ratio = _terminal_ratio(w, a, max_steps=10000)
    assert ratio is not None
    assert 0.69 <= ratio <= 0.76


def test_small_patch_terminal_ratio_falls(flat_board, params):
    """A patch much smaller than 0.87 a: the spin outlasts the slide (ratio heads to 0)."""
    p = params.with_overrides({"patch_fraction": 0.4, "dt": 0.0002})
    a = p.die_size
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1, vx=1.0, omega=1.0 / (a / 2))
    ratio = _terminal_ratio(w, a, max_steps=20000)
    assert ratio is None or ratio < 0.5


def test_resting_die_never_creeps(flat_world):
    flat_world.add_die("a", 0.1, 0.2, angle=0.3, face=2)
    before = flat_world.checksum()
    run_steps(flat_world, 500)
    assert flat_world.checksum() == before


@pytest.mark.parametrize("xy", [(0.05, 0.0), (0.0, -0.12), (0.1, 0.1), (-0.2, 0.03)])
def test_resting_die_on_dish_stays_put(standard_board, params, xy):
    """On the bowl (tan(slope) < mu_s) a resting die stays exactly where it is."""
    w = World(standard_board, params)
    w.add_die("a", *xy, angle=0.2, face=5)
    x0 = w.state("a")
    run_steps(w, 300)
    s = w.state("a")
    assert (s.x, s.y, s.angle) == (x0.x, x0.y, x0.angle)


def test_die_slides_down_a_steep_dish(params):
    """Where tan(slope) > mu_s a resting die starts to slide downhill (toward the hole); at the
    dish's rim the slope is zero (no kink), so a die there stays."""
    from jamsumo_sim.physics.board import load_board

    board = load_board({"platforms": [], "dish_depth": 0.08, "hole_diameter": 0.0})
    w = World(board, params)
    w.add_die("a", 0.12, 0.0, face=5)  # slope 0.71 at the bend radius 0.1125 m
    w.add_die("b", 0.0, 0.22, face=5)  # slope 0.03 at 5 mm inside the rim
    run_steps(w, 200)
    s, b = w.state("a"), w.state("b")
    assert s.x < 0.12 and abs(s.y) < 1e-12
    assert (b.x, b.y) == (0.0, 0.22)


def test_die_stopping_on_dish_slope_stays_exactly(standard_board, params):
    """A die sliding up the bowl stops (tan(slope) < mu_s) and then never creeps back."""
    w = World(standard_board, params)
    w.add_die("a", 0.05, 0.03, face=5, vx=0.6, vy=0.2, omega=8.0)
    res = w.run_until_rest(5.0)
    assert res.rested
    before = w.checksum()
    run_steps(w, 300)
    assert w.checksum() == before
    s = w.state("a")
    assert s.x > 0.05 and (s.vx, s.vy, s.omega) == (0.0, 0.0, 0.0)


def test_dish_slows_uphill_and_speeds_downhill(standard_board, params):
    """Same launch speed: sliding outward (uphill) stops sooner than sliding inward (downhill)."""
    board = standard_board
    out = World(board, params)
    out.add_die("a", 0.06, 0.0, face=1, vx=0.5)
    inward = World(board, params)
    inward.add_die("a", 0.16, 0.0, face=1, vx=-0.5)
    d_out = out.run_until_rest(5.0) and out.state("a").x - 0.06
    d_in = inward.run_until_rest(5.0) and 0.16 - inward.state("a").x
    flat = 0.5**2 / (2 * params.mu_board * params.gravity)
    assert d_out < flat < d_in
