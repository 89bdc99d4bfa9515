"""Support, hole and edge (physics.md s3)."""

from __future__ import annotations

import math

import pytest

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.world import World

NO_DISH = {"dish_depth": 0.0, "platforms": []}


def _cross_hole(params, speed: float, offset: float = 0.0) -> World:
    """Send a die over the hole so it reaches the near rim at ``speed``."""
    board = load_board(NO_DISH)
    w = World(board, params)
    run_up = 0.05 - board.hole_radius
    v0 = math.sqrt(speed**2 + 2 * params.mu_board * params.gravity * run_up)
    w.add_die("a", -0.05, offset, face=3, vx=v0)
    w.run_until_rest(5.0)
    return w


@pytest.mark.parametrize("speed", [0.05, 0.3, 0.6])
def test_slow_die_drops_into_hole(params, speed):
    w = _cross_hole(params, speed)
    s = w.state("a")
    assert s.status == "in_hole" and not s.flat
    assert [e.type for e in w.events].count("hole") == 1


@pytest.mark.parametrize("speed", [1.2, 1.5])
def test_fast_die_skims_across(params, speed):
    w = _cross_hole(params, speed)
    s = w.state("a")
    assert s.status == "on_board" and s.flat and s.x > w.board.hole_radius
    assert any(e.type == "skim" for e in w.events)


def test_capture_speed_near_0_9(params):
    """Centred pass: the capture speed (fastest die that drops) lies near 0.9 m/s (0.8-1.1)."""
    speeds = [0.7 + 0.05 * k for k in range(10)]
    holed = [_cross_hole(params, v).state("a").status == "in_hole" for v in speeds]
    assert holed[0] and not holed[-1]
    capture = max(v for v, h in zip(speeds, holed, strict=True) if h)
    assert 0.8 <= capture <= 1.1


def test_off_centre_capture_is_lower(params):
    """Off-centre passes cross a shorter chord: a speed captured centrally skims off-centre."""
    assert _cross_hole(params, 0.85, 0.0).state("a").status == "in_hole"
    assert _cross_hole(params, 0.85, 0.010).state("a").status == "on_board"


def test_die_resting_over_rim_with_centre_supported_stays(params):
    """Overhanging the hole with its centre of mass over the board: supported, flat, stays."""
    board = load_board(NO_DISH)
    w = World(board, params)
    w.add_die("a", board.hole_radius + 0.001, 0.0, face=3)
    w.run_until_rest(1.0)
    s = w.state("a")
    assert s.status == "on_board" and s.flat and s.x == board.hole_radius + 0.001


def test_die_with_centre_over_hole_falls(params):
    board = load_board(NO_DISH)
    w = World(board, params)
    w.add_die("a", board.hole_radius - 0.004, 0.0, face=3)
    res = w.run_until_rest(1.0)
    assert w.state("a").status == "in_hole"
    assert res.events[-1].type == "hole"


@pytest.mark.parametrize("direction", [0.0, math.pi / 2, math.pi, -math.pi / 2, math.pi / 4])
def test_die_past_the_edge_is_off_board(params, direction):
    board = load_board(NO_DISH)
    w = World(board, params)
    x0, y0 = 0.18 * math.cos(direction), 0.18 * math.sin(direction)
    w.add_die("a", x0, y0, face=3, vx=2.0 * math.cos(direction), vy=2.0 * math.sin(direction))
    res = w.run_until_rest(5.0)
    s = w.state("a")
    assert s.status == "off_board"
    assert max(abs(s.x), abs(s.y)) > board.half
    assert [e.type for e in res.events] == ["off_board"]
    assert "a" in w.die_ids  # keeps its state


def test_slow_die_stops_before_edge(params):
    board = load_board(NO_DISH)
    w = World(board, params)
    w.add_die("a", 0.15, 0.1, face=3, vx=0.5)
    w.run_until_rest(5.0)
    assert w.state("a").status == "on_board"
