"""Smaller physics corrections (physics.md s8.7): the bowl's profile (no slope kink) and its v^2
normal force, air drag, step heights from the local surface, and overlapping dice refused."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from physics_helpers import FLAT

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics import step_kernels as K
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.events import PLATFORM
from jamsumo_sim.physics.flick import trip_speed
from jamsumo_sim.physics.friction import patch_points
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.physics.surface import Surface
from jamsumo_sim.scenario import build_world
from jamsumo_sim.world import World

BOARD = load_board("standard")
PARAMS = PhysicsParams.from_board(BOARD)
SURF = Surface(BOARD, PARAMS.gravity)


# --- the profile ------------------------------------------------------------------------------


def _slope(r: float, eps: float = 1e-7) -> float:
    return float((SURF.height(r + eps, 0.0) - SURF.height(r - eps, 0.0)) / (2 * eps))


def test_bowl_depth_at_the_hole_and_flat_at_the_rim():
    """The bowl is dish_depth deep at the hole's rim (as before) and meets the flat at dish_radius;
    h = -d u^3, u = (R_d^2 - r^2) / (R_d^2 - R_h^2)."""
    assert float(SURF.height(BOARD.hole_radius, 0.0)) == pytest.approx(-BOARD.dish_depth, rel=1e-12)
    assert float(SURF.height(0.0, BOARD.dish_radius)) == pytest.approx(0.0, abs=1e-15)
    assert float(SURF.height(0.2, 0.2)) == 0.0  # a corner, beyond the dish


def test_bowl_slope_and_curvature_are_continuous_and_zero_where_it_meets_the_flat():
    """No kink: slope and curvature tend to zero at the dish's rim (the old paraboloid had slope
    0.027 there and a curvature jump); the gradient the forces use is the height's derivative."""
    rd = SURF.r_dish
    assert _slope(rd - 1e-6) == pytest.approx(0.0, abs=1e-9)
    assert _slope(rd + 1e-6) == 0.0
    for r in (0.03, 0.08, 0.1006, 0.15, 0.2, 0.224):
        g = SURF.gradient(np.array([[r, 0.0]]))[0, 0]
        assert g == pytest.approx(_slope(r), rel=1e-5, abs=1e-9)
    # steepest at R_d / sqrt(5): 0.0233 (1.3 degrees)
    assert SURF.max_slope() == pytest.approx(0.0233, abs=1e-4)
    assert max(abs(_slope(r)) for r in np.linspace(0.02, 0.225, 400)) <= SURF.max_slope()


@pytest.mark.parametrize("x, y", [(0.03, 0.0), (0.06, 0.05), (0.15, -0.04), (0.02, 0.21)])
@pytest.mark.parametrize("angle", [0.0, 0.7, 1.9])
def test_curvature_term_is_the_heights_second_derivative(x, y, angle):
    """v.H.v equals the second derivative of h along the path, from the height field alone."""
    v = 2.0 * complex(math.cos(angle), math.sin(angle))
    eps = 1e-4
    ux, uy = v.real / 2.0, v.imag / 2.0

    def h(t: float) -> float:
        return float(SURF.height(x + t * ux, y + t * uy))

    second = (h(eps) - 2 * h(0.0) + h(-eps)) / eps**2 * abs(v) ** 2
    got = SURF.curvature_term(np.array([[x, y]]), np.array([v]))[0]
    assert got == pytest.approx(second, rel=1e-4, abs=1e-6)


def test_bowl_curvature_range():
    """At most 0.358 1/m concave (at the hole) and 0.290 1/m convex: a die leaves the convex rim
    only above 5.8 m/s, faster than the launch cap."""
    convex, concave = SURF.curvature_range()
    assert concave == pytest.approx(0.358, abs=1e-3)
    assert convex == pytest.approx(-0.290, abs=1e-3)
    assert math.sqrt(PARAMS.gravity / -convex) > PARAMS.max_launch_speed


# --- the normal force with the v^2 term -----------------------------------------------------------


def _kick_one(params: PhysicsParams, x: float, y: float, vx: float, vy: float, board=BOARD):
    """The compiled kick of one sliding die (no spin) over a full step: its new velocity."""
    world = World(board, params)
    pts = np.ascontiguousarray(patch_points(params.patch_fraction * params.die_size, 6).T)
    state = np.array([[x, y, 0.0, vx, vy, 0.0]])
    out = np.zeros((1, 3))
    flags = np.array([K.GROUNDED | K.LOW], dtype=np.int8)
    K.kick(state, np.arange(1), flags, out, world._prm, pts)
    return out[0]


@pytest.mark.parametrize("x, y, vx, vy", [(0.02, 0.0, 0.0, 0.5), (0.03, 0.0, 0.0, 2.0),
                                         (0.02, 0.0, 0.0, 5.0), (0.17, 0.0, 3.0, 0.0),
                                         (0.1, 0.08, -2.0, 1.0)])  # fmt: skip
def test_normal_force_with_the_v_squared_term(x, y, vx, vy):
    """A slide without spin decelerates by mu (g + v.H.v) / sqrt(1 + |G|^2) along its motion (plus
    the slope), N taken at the step's mid velocity (the kernel's predictor: the kick with N at the
    start velocity): near the hole +14 % at 2 m/s, +91 % at 5 m/s; less over the convex rim."""
    p = PARAMS.with_overrides({"air_drag": 0.0})
    pos = np.array([[x, y]])
    v = complex(vx, vy)
    acc, _ = SURF.accel_and_normal(pos, 1.0)

    def kick(vel: complex, n: float) -> complex:
        return vel - p.mu_board * n * p.dt * vel / abs(vel) + acc[0] * p.dt

    n0 = SURF.accel_and_normal(pos, 1.0, vel=np.array([v]))[1][0]
    mid = 0.5 * (v + kick(v, n0))
    n1 = SURF.accel_and_normal(pos, 1.0, vel=np.array([mid]))[1][0]
    new = _kick_one(p, x, y, vx, vy)
    want = kick(v, n1)
    assert new[0] == pytest.approx(want.real, rel=1e-12, abs=1e-15)
    assert new[1] == pytest.approx(want.imag, rel=1e-12, abs=1e-15)
    inv = 1 / math.sqrt(1 + float(np.sum(SURF.gradient(pos) ** 2)))
    gain = (n1 / inv - p.gravity) / p.gravity
    want_gain = SURF.curvature_term(pos, np.array([mid]))[0] / p.gravity
    assert gain == pytest.approx(want_gain, rel=1e-9, abs=1e-12)
    expected = {(0.03, 2.0): 0.14, (0.02, 5.0): 0.91}.get((x, abs(v)))
    if expected is not None:
        assert gain == pytest.approx(expected, abs=0.01)
    if x == 0.17:
        assert gain < -0.1  # the convex rim presses less


def test_normal_force_never_below_zero():
    """A die faster than sqrt(g / k) over a steep convex rim would leave the surface: no friction
    (N = 0), never a negative friction that speeds it up."""
    board = load_board({"dish_depth": 0.06})
    p = PhysicsParams.from_board(board).with_overrides({"air_drag": 0.0})
    s = Surface(board, p.gravity)
    r = 0.19
    pos = np.array([[r, 0.0]])
    speed = 6.0
    assert s.curvature_term(pos, np.array([speed + 0j]))[0] < -2 * p.gravity
    new = _kick_one(p, r, 0.0, speed, 0.0, board)
    slope = float(s.gradient(pos)[0, 0])
    assert (speed - new[0]) / p.dt == pytest.approx(p.gravity * slope / math.hypot(1, slope))


# --- air drag ---------------------------------------------------------------------------------


def _slide(params: PhysicsParams, v0: float) -> float:
    w = World(load_board(FLAT), params)
    w.add_die("a", 0.0, -2.5, face=4, vy=v0)
    assert w.run_until_rest(10.0).rested
    return w.state("a").y + 2.5


@pytest.mark.parametrize("dt, substeps", [(0.004, 4), (0.002, 2), (0.001, 1)])
def test_slide_with_air_drag_matches_the_closed_form(dt, substeps):
    """v' = -mu g - c v^2: stop distance ln(1 + c v0^2 / (mu g)) / (2 c); from 3 m/s with c = 0.036
    it is 6.1 % shorter than v0^2 / (2 mu g).  Second order in dt (the trapezoidal drag step)."""
    p = PARAMS.with_overrides({"dt": dt, "collision_substeps": substeps})
    c, mu_g, v0 = p.air_drag, p.mu_board * p.gravity, 3.0
    assert c == pytest.approx(0.036)
    exact = math.log(1 + c * v0**2 / mu_g) / (2 * c)
    got = _slide(p, v0)
    assert got == pytest.approx(exact, rel=2e-6)
    assert 1 - exact / (v0**2 / (2 * mu_g)) == pytest.approx(0.061, abs=1e-3)


def test_air_drag_only_slows():
    """Drag alone (no friction) slows a die monotonically and never reverses it, at any speed."""
    p = PARAMS.with_overrides(
        {"mu_board": 0.0, "mu_static": 0.0, "air_drag": 1.0, "dt": 0.01, "collision_substeps": 10}
    )
    world = World(load_board(FLAT), p)
    pts = np.ascontiguousarray(patch_points(p.patch_fraction * p.die_size, 6).T)
    for v0 in (0.1, 5.0, 1e3, 1e9):
        state = np.array([[0.0, 0.0, 0.0, v0, 0.0, 0.0]])
        flags = np.array([K.GROUNDED | K.LOW], dtype=np.int8)
        last = v0
        for _ in range(20):
            out = np.zeros((1, 3))
            K.kick(state, np.arange(1), flags, out, world._prm, pts)
            assert 0.0 <= out[0, 0] <= last and out[0, 1] == 0.0
            last = state[0, 3] = out[0, 0]
        assert last < v0


# --- step heights from the local surface ---------------------------------------------------------


def test_step_beside_a_platform_is_measured_from_the_bowl():
    """The bowl beside jam-north lies below the flat, so the step up is the platform's height plus
    that (3.03-3.37 mm with the kink-free bowl)."""
    plat = BOARD.platform("jam-north")
    x0, y0, x1, y1 = plat.bounds
    inner = SURF.step_up(plat.height, 0.0, y0)
    outer = SURF.step_up(plat.height, x1, y1)
    assert inner == pytest.approx(plat.height - float(SURF.height(0.0, y0)), rel=1e-12)
    assert 3.35e-3 < inner < 3.40e-3
    assert 3.0e-3 < outer < inner  # the far corner, near the dish rim


def _hits_platform(board, speed: float) -> bool:
    """A die sliding north into jam-north's south wall at ``speed``: does it climb?"""
    w = World(board, PARAMS)
    y0 = board.platform("jam-north").bounds[1]
    w.add_die("a", 0.0, y0 - PARAMS.die_size / 2 - 0.0005, face=1, vy=speed)
    w.run_until_rest(3.0)
    return any(e.type == PLATFORM and e.data.get("action") == "landed" for e in w.events)


def test_climb_needs_the_speed_of_the_local_step():
    """Between the trip speeds of the nominal 3 mm and of the local 3.5 mm step a die no longer
    climbs onto the platform from the bowl; on a board without a bowl it does."""
    plat = BOARD.platform("jam-north")
    local = SURF.step_up(plat.height, 0.0, plat.bounds[1])
    lo, hi = trip_speed(plat.height, PARAMS), trip_speed(local, PARAMS)
    assert hi > lo * 1.05
    speed = 0.5 * (lo + hi)
    assert not _hits_platform(BOARD, speed)
    assert _hits_platform(load_board({"dish_depth": 0.0}), speed)
    assert _hits_platform(BOARD, 1.1 * hi)


def test_far_rim_step_follows_the_tilt():
    """On a tilted board the far rim of the hole is higher (uphill) or lower than the near one by
    the tilt over the chord: 2 R_h G . u through the centre."""
    legs = [
        {"name": "south-west", "x": -0.205, "y": -0.205, "height": 0.02},
        {"name": "south-east", "x": 0.205, "y": -0.205, "height": 0.02},
        {"name": "north", "x": 0.0, "y": 0.205, "height": 0.026},
    ]
    board = load_board({"legs": legs})
    s = Surface(board, 9.81)
    r = board.hole_radius
    gy = float(s.tilt[1])
    assert gy > 0
    assert s.rim_step(0.0, 0.0, 0.0, 1.0, r) == pytest.approx(2 * r * gy, rel=1e-12)
    assert s.rim_step(0.0, 0.0, 0.0, -1.0, r) == pytest.approx(-2 * r * gy, rel=1e-12)
    assert s.rim_step(0.0, 0.5 * r, 1.0, 0.0, r) == pytest.approx(
        2 * r * math.sqrt(0.75) * float(s.tilt[0])
    )
    assert s.rim_step(0.0, 2 * r, 1.0, 0.0, r) == 0.0  # the line misses the hole
    assert SURF.rim_step(0.0, 0.0, 1.0, 0.0, r) == 0.0  # level board


# --- overlapping dice at the start ----------------------------------------------------------------


def _scenario(dice):
    return {"version": 1, "dice": dice}


def test_scenario_refuses_overlapping_dice():
    dice = [{"id": "a", "x": 0.1, "y": 0.1}, {"id": "b", "x": 0.11, "y": 0.1, "angle": 0.3}]
    with pytest.raises(
        UserError, match=r"dice\[0\] \('a'\) and dice\[1\] \('b'\) start overlapping"
    ):
        build_world(_scenario(dice))
    with pytest.raises(UserError, match="overlapping"):  # coincident
        build_world(_scenario([{"id": "a", "x": 0.1, "y": 0.1}, {"id": "b", "x": 0.1, "y": 0.1}]))
    # touching within the collision slop is fine; so are packed rows with a gap
    build_world(_scenario([{"id": "a", "x": 0.1, "y": 0.1}, {"id": "b", "x": 0.116, "y": 0.1}]))


def test_installed_sim_refuses_overlapping_dice(tmp_path):
    from tests.hostile.harness import assert_one_line_error, run_cli

    f = tmp_path / "s.json"
    dice = [{"id": "a", "x": 0.1, "y": 0.1}, {"id": "b", "x": 0.1, "y": 0.1}]
    f.write_text(json.dumps(_scenario(dice)))
    assert_one_line_error(run_cli("jamsumo", "sim", str(f)), "s.json", "start overlapping")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.floats(-0.25, 0.25), st.floats(-0.25, 0.25), st.floats(-10, 10, allow_nan=False)
        ),
        min_size=0,
        max_size=6,
    )
)
def test_fuzz_scenario_dice_only_user_errors(poses):
    """Random layouts: a world is built or one UserError says why; built worlds never hold two
    dice overlapping beyond the slop."""
    dice = [{"id": f"d{i}", "x": x, "y": y, "angle": a} for i, (x, y, a) in enumerate(poses)]
    try:
        world, _, _ = build_world(_scenario(dice))
    except UserError:
        return
    states = world.states()
    for i, a in enumerate(states):
        for b in states[i + 1 :]:
            assert math.hypot(a.x - b.x, a.y - b.y) >= PARAMS.die_size - PARAMS.collision_slop


def test_match_start_positions_never_overlap():
    """The match puts six Sumo dice per corner on a grid of cells at least a die wide."""
    a = PARAMS.die_size
    for corner in range(4):
        spots = BOARD.sumo_start_positions(corner, a)
        for i, p in enumerate(spots):
            for q in spots[i + 1 :]:
                assert max(abs(p[0] - q[0]), abs(p[1] - q[1])) >= a
