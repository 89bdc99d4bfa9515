"""The fall into the hole starts when the support was lost, not at the step's end (model 0.8,
support.unsupported_for): a die put down over the hole has fallen the whole step; one sliding off
the rim has fallen only since its footprint stopped holding it up, found by bisection back along
the step."""

from __future__ import annotations

import pytest

from jamsumo_sim.physics import step_kernels
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.world import World

BOARD = {"dish_depth": 0.0, "platforms": []}


def test_a_die_put_down_over_the_hole_has_fallen_the_whole_step(params):
    w = World(load_board(BOARD), params)
    w.add_die("a", 0.0, 0.0, face=1)
    w.step()
    assert w._dice["a"].fall_time == pytest.approx(params.step, rel=1e-12)


@pytest.mark.parametrize("v", [0.3, 0.6])
def test_a_die_sliding_off_the_rim_falls_from_when_it_lost_its_support(params, v):
    w = World(load_board(BOARD), params)
    r = w.board.hole_radius
    w.add_die("a", -r - 0.004, 0.0, face=1, vx=v)
    d = w._dice["a"]
    while d.fall_time is None and d.status == "on_board":
        w.step()
    x, y = d.body.position
    tau = d.fall_time
    assert 0.0 < tau < params.step
    # the support test flips between where it was tau - 0.1 ms and tau + 0.1 ms ago
    foot, angle = w._footprint, d.body.angle
    vx = d.body.velocity.x
    assert step_kernels.supported(x - vx * (tau + 1e-4), y, angle, foot, r)
    assert not step_kernels.supported(x - vx * (tau - 1e-4), y, angle, foot, r)
