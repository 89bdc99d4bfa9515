"""Property tests: random flicks into random 24-dice layouts (issue 3)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World


def _layout(board, params, seed: int) -> World:
    """24 non-overlapping dice at random spots, angles and faces on the standard board."""
    rng = np.random.default_rng(seed)
    w = World(board, params)
    a = params.die_size
    placed: list[tuple[float, float]] = []
    lim = board.half - a
    while len(placed) < 24:
        x, y = rng.uniform(-lim, lim, 2)
        if math.hypot(x, y) < board.hole_radius + a:  # keep the hole clear at the start
            continue
        if board.platform_at(x, y) is not None:
            continue
        if any(math.hypot(x - u, y - v) < a * math.sqrt(2) + 1e-3 for u, v in placed):
            continue
        placed.append((x, y))
        w.add_die(f"d{len(placed)}", float(x), float(y), angle=float(rng.uniform(0, math.pi / 2)),
                  face=int(rng.integers(1, 7)))  # fmt: skip
    return w


def _max_penetration(world: World) -> float:
    worst = 0.0
    for s in world.space.shapes:
        if s.body.body_type != s.body.DYNAMIC:
            continue
        for info in world.space.shape_query(s):
            if info.shape.body.body_type != s.body.DYNAMIC:
                continue
            for p in info.contact_point_set.points:
                worst = max(worst, -p.distance)
    return worst


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    target=st.integers(0, 23),
    direction=st.floats(-math.pi, math.pi),
    speed=st.floats(0.3, 5.0),
    offset=st.floats(-0.5, 0.5),
    height=st.floats(0.0, 1.0),
)
def test_random_flicks_into_random_layouts(
    standard_board, params, seed, target, direction, speed, offset, height
):
    w = _layout(standard_board, params, seed)
    ids = w.die_ids
    die = ids[target]
    flick = Flick(die, direction, speed * params.die_mass, offset, height)
    if w.check_flick(flick) is None:
        w.apply_flick(flick)
    res = w.run_until_rest(10.0)
    assert res.rested
    states = w.states()
    assert tuple(s.id for s in states) == ids  # no die lost
    for s in states:
        vals = (s.x, s.y, s.angle, s.vx, s.vy, s.omega)
        assert all(math.isfinite(v) for v in vals)
        assert s.status in ("on_board", "in_hole", "off_board")
        assert 1 <= s.face <= 6
        if s.status == "on_board":
            assert standard_board.on_board(s.x, s.y)
            assert (s.vx, s.vy, s.omega) == (0.0, 0.0, 0.0)
    assert _max_penetration(w) <= 1.5 * params.collision_slop


def _sumo_layout(board, params, seed: int) -> World:
    """The Sumo start: six dice packed in each corner area, slightly jittered."""
    rng = np.random.default_rng(seed)
    w = World(board, params)
    for k in range(4):
        for i, (x, y) in enumerate(board.sumo_start_positions(k, params.die_size)):
            w.add_die(f"c{k}-{i}", x + float(rng.uniform(-5e-4, 5e-4)),
                      y + float(rng.uniform(-5e-4, 5e-4)), angle=float(rng.uniform(-0.05, 0.05)),
                      face=3)  # fmt: skip
    return w


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    corner=st.integers(0, 3),
    slot=st.integers(0, 5),
    direction=st.floats(-math.pi, math.pi),
    speed=st.floats(0.5, 5.0),
    offset=st.floats(-0.5, 0.5),
)
def test_random_flicks_into_packed_sumo_corners(
    standard_board, params, seed, corner, slot, direction, speed, offset
):
    w = _sumo_layout(standard_board, params, seed)
    flick = Flick(f"c{corner}-{slot}", direction, speed * params.die_mass, offset)
    if w.check_flick(flick) is None:
        w.apply_flick(flick)
    res = w.run_until_rest(10.0)
    assert res.rested
    assert len(w.states()) == 24
    for s in w.states():
        assert all(math.isfinite(v) for v in (s.x, s.y, s.angle))
    assert _max_penetration(w) <= 1.5 * params.collision_slop
