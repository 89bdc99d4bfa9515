"""Model 0.15's shared pieces, each against its own oracle: the leave test of a die on its edge
(the Python law and the compiled kernels' copy), a tumbling die bouncing on after an edge landing,
the dish height under a quarter turn's jump and what the jump pays for it, and a flying die's
lowest corner (docs/physics.md "Landings that keep the slide")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from physics_helpers import FLAT

from jamsumo_sim.physics import flight, pitch, step_kernels, view
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.datatypes import Pitch
from jamsumo_sim.physics.surface import Surface
from jamsumo_sim.world import World


@pytest.mark.parametrize("phi", [0.0, 0.3, 0.7, 1.2])
def test_the_kernels_leave_test_is_the_laws(params, phi):
    """g - (a/2)(cos + sin) rate^2 in flight.edge_normal_force and in step_kernels (the pitch
    kernel and the lone-die kernel): zero at rate = sqrt(g / r_z), the same number either way."""
    half_a = 0.5 * params.die_size
    c, s = math.cos(phi), math.sin(phi)
    r0 = math.sqrt(params.gravity / (half_a * (c + s)))
    for rate in (0.5 * r0, r0, 1.5 * r0):
        want = params.gravity - half_a * (c + s) * rate * rate
        assert flight.edge_normal_force(phi, rate, params) == pytest.approx(want, abs=1e-12)
        got = step_kernels.edge_leave_force(c, s, rate, params.gravity, half_a)
        assert got == flight.edge_normal_force(phi, rate, params)
    assert abs(flight.edge_normal_force(phi, r0, params)) < 1e-12


PHI = 1.0  # past pi/4: the lift-off test of a die on its edge (flight.lifts_at_once) does not ask


@pytest.mark.parametrize("rate, flies", [(60.0, True), (25.0, False)])
def test_a_die_landing_on_its_edge_turning_fast_bounces_on(flat_board, params, rate, flies):
    """An edge landing with no rebound (restitution_landing 0) and no slide, at 1.0 rad (past
    pi/4, where the lift-off test of a die on its edge does not ask): it leaves at once if, with
    its edge held still, the edge would rise of itself (r_z rate'^2 > g, rate' after the landing's
    impact): at 60 rad/s it flies on, at 25 it stays on its edge (model 0.15; before, it stayed on
    its edge at any rate, and each landing took the slide)."""
    p = params.with_overrides({"restitution_landing": 0.0})
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    d.pitch = Pitch(PHI, rate, 0, 0.0, "flick")
    view.mark(w, d)
    w._special = True
    low = pitch.lift(PHI, p)
    flight.launch(w, d, -0.5, z=low + 1e-5)  # its lowest edge 10 um up, coming down
    w.step()
    landed = [e for e in w.events if e.type == "land"]
    assert landed
    assert d.airborne is flies
    if flies:
        assert any(e.type == "hop" for e in w.events)


def test_the_kernels_dish_height_is_the_surfaces(standard_board, params):
    """step_kernels.dish_height (from the kick's parameters) against Surface.height: the dish from
    the hole's rim to its edge and the flat beyond."""
    w = World(standard_board, params)
    surf = Surface(standard_board, params.gravity)
    rng = np.random.default_rng(3)
    for x, y in rng.uniform(-0.25, 0.25, (200, 2)):
        want = float(surf.height(x, y))
        assert step_kernels.dish_height(x, y, w._prm) == pytest.approx(want, abs=1e-15)
    assert step_kernels.dish_height(0.24, 0.0, w._prm) == 0.0  # beyond the dish
    flat = World(load_board(FLAT), params)
    assert step_kernels.dish_height(0.05, 0.02, flat._prm) == 0.0


def test_a_quarter_turns_jump_pays_the_dishs_rise(standard_board, params):
    """Outward (up the dish) the slide loses g dh per unit mass, inward it gains it along itself;
    a slide too slow for the rise gives all it has and the pitch pays the rest; across the flat
    nothing changes."""
    w = World(standard_board, params)
    g, prm = params.gravity, w._prm
    i_m = pitch.edge_inertia(params) / params.die_mass
    x0, x1 = 0.08, 0.08 + params.die_size
    dh = step_kernels.dish_height(x1, 0.0, prm) - step_kernels.dish_height(x0, 0.0, prm)
    assert dh > 1e-4  # outward: up
    vx, vy, rate = step_kernels.climb_paid(x0, 0.0, x1, 0.0, 0.6, 0.2, 10.0, prm, i_m)
    assert 0.5 * (vx * vx + vy * vy) == pytest.approx(0.5 * (0.6**2 + 0.2**2) - g * dh, rel=1e-12)
    assert vy / vx == pytest.approx(0.2 / 0.6, rel=1e-12) and rate == 10.0
    vx, vy, rate = step_kernels.climb_paid(x1, 0.0, x0, 0.0, 0.6, 0.2, 10.0, prm, i_m)
    assert 0.5 * (vx * vx + vy * vy) == pytest.approx(0.5 * (0.6**2 + 0.2**2) + g * dh, rel=1e-12)
    slow = math.sqrt(g * dh)  # half the rise's worth of slide
    vx, vy, rate = step_kernels.climb_paid(x0, 0.0, x1, 0.0, slow, 0.0, 20.0, prm, i_m)
    assert (vx, vy) == (0.0, 0.0)
    assert 0.5 * i_m * rate * rate == pytest.approx(0.5 * i_m * 400.0 - 0.5 * g * dh, rel=1e-12)
    assert step_kernels.climb_paid(0.23, 0.0, 0.24, 0.0, 0.5, 0.0, 3.0, prm, i_m) == (0.5, 0.0, 3.0)


def test_a_flying_dies_lowest_corner(params):
    """(a/2)(cos + sin - 1) below its flat base: none flat, 3.3 mm at pi/4 for 16 mm, turning on
    over ``t`` at its rate and taken modulo a quarter turn."""
    half = 0.5 * params.die_size
    assert step_kernels.air_low(0.02, 0.0, 0.0, 0.0, half) == 0.02
    drop = half * (math.sqrt(2.0) - 1.0)
    assert drop == pytest.approx(3.3e-3, abs=5e-5)
    assert step_kernels.air_low(0.02, math.pi / 4, 0.0, 0.0, half) == pytest.approx(0.02 - drop)
    assert step_kernels.air_low(0.02, 0.0, 10.0, math.pi / 40, half) == pytest.approx(0.02 - drop)
    assert step_kernels.air_low(0.02, math.pi / 2 + 0.1, 0.0, 0.0, half) == pytest.approx(
        step_kernels.air_low(0.02, 0.1, 0.0, 0.0, half)
    )
