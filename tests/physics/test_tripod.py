"""Tripod statics (physics.md s6) and the board tilt's surface force."""

from __future__ import annotations

import math

import pytest
from physics_helpers import run_steps

from jamsumo_sim.physics import tripod
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.tripod import PointLoad
from jamsumo_sim.world import World


def test_reactions_sum_to_total_weight(standard_board, params):
    dice = [(0.1 * math.cos(k), 0.15 * math.sin(3 * k)) for k in range(24)]
    push = PointLoad(0.1, -0.05, 3.0)
    r = tripod.analyse(standard_board, params.gravity, dice, params.die_mass, push)
    total = standard_board.mass * params.gravity + 24 * params.die_mass * params.gravity + 3.0
    assert sum(r.reactions) == pytest.approx(total)
    assert r.total_load == pytest.approx(total)
    assert not r.tips


def test_board_alone_is_balanced_by_moments(standard_board, params):
    r = tripod.leg_reactions(standard_board.legs, [PointLoad(0.0, 0.0, 10.0)])
    legs = standard_board.legs
    assert sum(r[i] * legs[i].x for i in range(3)) == pytest.approx(0.0, abs=1e-12)
    assert sum(r[i] * legs[i].y for i in range(3)) == pytest.approx(0.0, abs=1e-12)


def test_dice_can_never_tip_the_board(standard_board, params):
    """All 24 dice piled on the worst corner still leave every reaction positive."""
    h = standard_board.half
    for cx, cy in ((h, h), (-h, h), (h, -h), (-h, -h)):
        r = tripod.analyse(standard_board, params.gravity, [(cx, cy)] * 24, params.die_mass)
        assert not r.tips and min(r.reactions) > 0


def test_push_on_unsupported_corner_tips(standard_board, params):
    """A downward push at an unsupported (north) corner lifts the opposite south leg; the board
    pivots about the line through the other two legs, exactly where statics says."""
    h = standard_board.half
    f_tip = tripod.tipping_force(standard_board, params.gravity, h, h)
    assert 0 < f_tip < 100
    below = tripod.analyse(standard_board, params.gravity, external=PointLoad(h, h, 0.99 * f_tip))
    above = tripod.analyse(standard_board, params.gravity, external=PointLoad(h, h, 1.01 * f_tip))
    assert not below.tips and above.tips
    assert above.lifting_leg == "south-west"
    assert set(above.tip_line) == {"south-east", "north"}
    assert (
        tripod.tips(standard_board, params.gravity, PointLoad(h, h, 1.01 * f_tip)) == above.tip_line
    )


def test_push_over_supported_region_never_tips(standard_board, params):
    """Inside the legs' triangle no push can tip the board."""
    assert tripod.tipping_force(standard_board, params.gravity, 0.0, -0.1) == math.inf


def test_level_legs_no_tilt(standard_board):
    assert tripod.plane_gradient(standard_board.legs) == pytest.approx((0.0, 0.0), abs=1e-15)
    assert tripod.tilt_angle(standard_board.legs) == pytest.approx(0.0, abs=1e-15)


def _tilted(dz):
    legs = [
        {"name": "south-west", "x": -0.205, "y": -0.205, "height": 0.02},
        {"name": "south-east", "x": 0.205, "y": -0.205, "height": 0.02},
        {"name": "north", "x": 0.0, "y": 0.205, "height": 0.02 + dz},
    ]
    return load_board({"legs": legs, "dish_depth": 0.0, "hole_diameter": 0.0, "platforms": []})


def test_tilt_from_leg_heights():
    board = _tilted(0.0041)
    gx, gy = tripod.plane_gradient(board.legs)
    assert gx == pytest.approx(0.0, abs=1e-12) and gy == pytest.approx(0.0041 / 0.41)


def test_small_tilt_holds_dice_steep_tilt_slides_them(params):
    """tan(tilt) < mu_s: a resting die stays exactly put; tan(tilt) > mu_s: it slides downhill (-y)."""
    w = World(_tilted(0.02), params)  # tan = 0.049
    w.add_die("a", 0.0, 0.1, face=1)
    run_steps(w, 200)
    assert (w.state("a").x, w.state("a").y) == (0.0, 0.1)
    w = World(_tilted(0.2), params)  # tan = 0.49 > 0.35
    w.add_die("a", 0.0, 0.1, face=1)
    run_steps(w, 100)
    s = w.state("a")
    assert s.y < 0.1 and abs(s.x) < 1e-12
    # sliding: a = g (sin - mu_k cos)
    tan = 0.2 / 0.41
    sin, cos = tan / math.hypot(1, tan), 1 / math.hypot(1, tan)
    a = params.gravity * (sin - params.mu_board * cos)
    assert -s.vy == pytest.approx(a * w.time, rel=0.02)
