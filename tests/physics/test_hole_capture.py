"""Hole capture (issue 25 item 6): when the ``hole`` event fires, how deep the die has fallen, and
that ``hole_catch_fraction`` decides a borderline rim crossing (physics.md s3).

A die that loses its support over the hole falls freely (depth g t^2 / 2); it is caught once it has
fallen ``hole_catch_fraction * die_size``, i.e. after t_f = sqrt(2 f a / g).
"""

from __future__ import annotations

import math

import pytest

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.world import World

NO_DISH = {"dish_depth": 0.0, "platforms": []}


def _catch_time(p) -> float:
    """Free-fall time to the catch depth hole_catch_fraction * die_size."""
    return math.sqrt(2 * p.hole_catch_fraction * p.die_size / p.gravity)


def _release(
    params, board_spec, fraction: float, dt: float, substeps: int, x=0.0, y=0.0, angle=0.0
):
    """A die put down at rest over the hole (time 0); returns the params used and the hole event."""
    p = params.with_overrides(
        {"hole_catch_fraction": fraction, "dt": dt, "collision_substeps": substeps}
    )
    w = World(load_board(board_spec), p)
    w.add_die("a", x, y, angle=angle, face=2)
    res = w.run_until_rest(1.0)
    assert res.rested and w.state("a").status == "in_hole"
    holes = [e for e in res.events if e.type == "hole"]
    assert len(holes) == 1 and holes[0].dice == ("a",)
    return p, holes[0]


RELEASES = [
    # board, fraction, dt, substeps, x, y, angle
    ("standard", 0.5, 0.002, 2, 0.0, 0.0, 0.0),
    ("no_dish", 0.5, 0.002, 2, 0.0, 0.0, 0.4),
    ("no_dish", 0.25, 0.002, 2, 0.0, 0.0, 0.0),
    ("no_dish", 0.8, 0.001, 1, 0.0, 0.0, 0.0),
    ("no_dish", 0.5, 0.0005, 1, 0.003, -0.002, 1.0),
]
BOARDS = {"standard": "standard", "no_dish": NO_DISH}


@pytest.mark.parametrize("board, fraction, dt, substeps, x, y, angle", RELEASES)
def test_released_die_is_caught_at_the_catch_depth(
    params, board, fraction, dt, substeps, x, y, angle
):
    """Released over the hole: ``hole`` fires once the die has fallen fraction x die size (the
    event's depth), no later than the first step past that depth, and within one step of the
    free-fall time t_f."""
    p, ev = _release(params, BOARDS[board], fraction, dt, substeps, x, y, angle)
    a, g = p.die_size, p.gravity
    t_f = _catch_time(p)
    depth = ev.data["depth"]
    assert depth >= fraction * a
    assert depth < 0.5 * g * (t_f + dt) ** 2  # caught on the first step past the catch depth
    assert depth <= 0.5 * g * ev.t**2 + 1e-15  # never deeper than a free fall since the release
    assert t_f <= ev.t <= t_f + dt + 1e-12


@pytest.mark.parametrize("fraction, dt, substeps", [(0.5, 0.002, 2), (0.8, 0.001, 1)])
def test_released_die_is_caught_within_one_step_of_free_fall(params, fraction, dt, substeps):
    p, ev = _release(params, NO_DISH, fraction, dt, substeps)
    t_f = _catch_time(p)
    assert t_f <= ev.t <= t_f + dt + 1e-12


def _cross(params, fraction: float, speed: float = 1.1) -> World:
    """A centred pass over the hole, reaching the near rim at ``speed`` (as test_hole_edge does)."""
    board = load_board(NO_DISH)
    p = params.with_overrides({"hole_catch_fraction": fraction})
    w = World(board, p)
    run_up = 0.05 - board.hole_radius
    v0 = math.sqrt(speed**2 + 2 * p.mu_board * p.gravity * run_up)
    w.add_die("a", -0.05, 0.0, face=3, vx=v0)
    w.run_until_rest(5.0)
    return w


def _skim_depth(w: World) -> float:
    skims = [e for e in w.events if e.type == "skim"]
    assert len(skims) == 1
    return skims[0].data["depth"]


@pytest.mark.parametrize("speed", [1.1, 1.3])
def test_catch_fraction_decides_a_borderline_rim_crossing(params, speed):
    """A fast centred pass reaches the far rim having dropped d (< a/2): with the catch depth just
    above d it trips over the rim and stays on the board; with it just below d it is caught in the
    hole, at a depth between the two."""
    a = params.die_size
    # with the catch depth out of reach (a whole die), the rim depth of this pass
    d = _skim_depth(_cross(params, 1.0, speed))
    assert params.die_edge_radius < d < 0.3 * a  # deep enough to trip, far from the default catch

    above = _cross(params, 1.1 * d / a, speed)
    assert above.state("a").status == "on_board"
    assert _skim_depth(above) == d
    assert [e.data["cause"] for e in above.events if e.type == "tumble"] == ["rim"]

    below = _cross(params, 0.9 * d / a, speed)
    assert below.state("a").status == "in_hole"
    holes = [e for e in below.events if e.type == "hole"]
    assert len(holes) == 1 and 0.9 * d <= holes[0].data["depth"] <= d
    assert not any(e.type in ("skim", "tumble") for e in below.events)

    # the default catch (half a die) is far from this pass: it skims the same way
    assert _skim_depth(_cross(params, params.hole_catch_fraction, speed)) == d
