"""JAM platforms (climb or bounce at the step, straddling is not flat) and tumbles (physics.md s3-s4)."""

from __future__ import annotations

import math
from dataclasses import asdict

import pytest

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import (
    Flick,
    flick_tumbles,
    pitch_rate,
    pitch_tumble_rate,
    trip_speed,
)
from jamsumo_sim.world import World

BOARD = {"dish_depth": 0.0, "hole_diameter": 0.0}


@pytest.mark.parametrize("step, expected", [(0.0, 0.42), (0.002, 0.56), (0.004, 0.86)])
def test_trip_thresholds(params, step, expected):
    """Rim trip 0.42 m/s; 0.56 m/s against a 2 mm step, 0.86 m/s against 4 mm (16 mm die)."""
    assert trip_speed(step, params) == pytest.approx(expected, abs=0.01)


def test_pitch_thresholds(params):
    """Tumble pitch rate ~19.5 rad/s (model 0.4: the inertia about the leading edge, 2/3 m a^2;
    model 0.3 had 24.7).  Model 0.13's grip (the nail, mu_finger 0.3): a strike pitches the die
    only above z* = mu_finger (a - r - mu_board a/2) = 3.9 mm over mid-height (0.744 of the face),
    at Omega = v (z - z*) / (a^2/6 + c (c - mu_board a/2)), c = a/2 - r: it tumbles from
    v = 1.68 m/s at b = 0.8 a and 0.37 m/s at the top of the face (model 0.12: 1.1 m/s at 0.6 a,
    0.44 at 0.75 a); at 0.75 a it would need 15.2 m/s, beyond the 5 m/s cap; at or below the grip
    (and at mid-height) never."""
    assert pitch_tumble_rate(params) == pytest.approx(19.5, abs=0.1)
    m, a, r = params.die_mass, params.die_size, params.die_edge_radius
    c = a / 2 - r
    lever = a * a / 6 + c * (c - params.mu_board * a / 2)
    grip = params.mu_finger * (a - r - params.mu_board * a / 2)
    assert grip == pytest.approx(0.0039, rel=1e-12)

    def threshold(height):
        lo, hi = 0.01, 5.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if flick_tumbles(Flick("a", 0.0, mid * m, height=height), params):
                hi = mid
            else:
                lo = mid
        return hi

    def closed_form(height):
        return pitch_tumble_rate(params) * lever / (height * a - a / 2 - grip)

    for height, speed in ((0.8, 1.68), (1.0, 0.37)):
        assert threshold(height) == pytest.approx(closed_form(height), rel=1e-9)
        assert threshold(height) == pytest.approx(speed, abs=0.005)
    assert closed_form(0.75) == pytest.approx(15.2, abs=0.05)
    assert not flick_tumbles(Flick("a", 0.0, 5 * m, height=0.75), params)
    for height in (0.5, 0.6, 0.74):
        assert pitch_rate(Flick("a", 0.0, 5 * m, height=height), params) == 0.0


def _approach_platform(params, speed):
    board = load_board(BOARD)
    plat = board.platform("jam-south")
    w = World(board, params)
    gap = 0.03
    run = gap - params.die_size / 2
    v0 = math.sqrt(speed**2 + 2 * params.mu_board * params.gravity * run)
    w.add_die("a", plat.x, plat.y + plat.depth / 2 + gap, face=3, vy=-v0)
    res = w.run_until_rest(5.0)
    return w, res, plat


@pytest.mark.parametrize("speed", [0.3, 0.6])
def test_slow_die_bounces_off_platform_wall(params, speed):
    w, res, plat = _approach_platform(params, speed)
    s = w.state("a")
    assert s.on_platform is None and s.flat and s.face == 3
    hit = [e for e in res.events if e.type == "collision"]
    assert hit and hit[0].data == {
        "impulse": pytest.approx(hit[0].data["impulse"]),
        "kind": "wall",
        "platform": plat.name,
    }
    # bounced back: moving away after the impact, restitution_wood
    assert s.y > plat.y + plat.depth / 2


@pytest.mark.parametrize("speed", [0.75, 0.9])
def test_fast_die_climbs_platform_with_a_tumble(params, speed):
    w, res, plat = _approach_platform(params, speed)
    s = w.state("a")
    assert s.on_platform == plat.name and s.flat
    types = [e.type for e in res.events]
    assert "tumble" in types and s.face != 3
    assert any(e.type == "platform" and e.data["action"] == "landed" for e in res.events)
    assert any(e.type == "platform" and e.data["action"] == "rest" for e in res.events)


def test_die_straddling_platform_edge_is_not_flat(params):
    board = load_board(BOARD)
    plat = board.platform("jam-south")
    w = World(board, params)
    # on the platform, sliding off its north edge; stops with the centre just past the edge
    v = math.sqrt(2 * params.mu_board * params.gravity * (plat.depth / 2 + 0.004))
    w.add_die("a", plat.x, plat.y, face=3, vy=v)
    res = w.run_until_rest(5.0)
    s = w.state("a")
    assert s.on_platform is None and not s.flat and s.tilt > 0
    assert s.y > plat.y + plat.depth / 2
    assert any(e.type == "platform" and e.data["action"] == "left" for e in res.events)


def test_die_leaving_platform_fully_is_flat(params):
    board = load_board(BOARD)
    plat = board.platform("jam-south")
    w = World(board, params)
    w.add_die("a", plat.x, plat.y, face=3, vy=1.0)
    w.run_until_rest(5.0)
    s = w.state("a")
    assert s.on_platform is None and s.flat and s.y > plat.y + plat.depth


def test_die_on_platform_starts_on_it(params, standard_board):
    w = World(standard_board, params)
    x, y = standard_board.jam_zone_drop_point("jam-east")
    w.add_die("a", x, y, face=4)
    assert w.state("a").on_platform == "jam-east" and w.state("a").flat


def test_high_flick_tumbles_mid_height_does_not(flat_board, params):
    w = World(flat_board, params)
    w.add_die("hi", 0.0, 0.0, face=4)
    w.add_die("mid", 1.0, 0.0, face=4)
    # 0.6 m/s at the top of the face: 31.7 rad/s, as 0.8 of the face gave before model 0.13's grip
    # (at 0.8 it is now 7.0 rad/s, below the 19.5 that tumbles: test_pitch_thresholds)
    w.apply_flick(Flick("hi", 0.0, params.die_mass * 0.6, height=1.0))
    w.apply_flick(Flick("mid", 0.0, params.die_mass * 3.0, height=0.5))
    w.run_until_rest(5.0)
    hi, mid = w.state("hi"), w.state("mid")
    assert mid.face == 4
    # model 0.4: the high flick pitches the die; it tumbles while the pitch's energy allows
    t = [e for e in w.events if e.type == "tumble"]
    assert len(t) >= 1 and all(e.dice == ("hi",) and e.data["cause"] == "flick" for e in t)
    assert t[0].data["before"] == 4 and t[-1].data["after"] == hi.face
    # rolled forward (+x in world = body +x at angle 0): the west face came up first
    assert t[0].data["after"] == 7 - mid.orientation.east


def test_skimming_die_trips_over_far_rim(params):
    """Crossing the hole fast with a drop beyond the rounded edge: a rim tumble."""
    board = load_board({"dish_depth": 0.0, "platforms": []})
    w = World(board, params)
    w.add_die("a", -0.05, 0.0, face=3, vx=1.4)
    res = w.run_until_rest(5.0)
    types = [e.type for e in res.events]
    assert "skim" in types and "tumble" in types
    tumble = next(e for e in res.events if e.type == "tumble")
    assert tumble.data["cause"] == "rim" and tumble.data["before"] == 3
    assert w.state("a").face == tumble.data["after"]


def _platform_impacts(params, height: float, speed: float) -> list:
    """A die leaving a JAM platform ``height`` high at ``speed`` meets a die on the board just past
    its edge: the tumble and hop events."""
    board = load_board(BOARD)
    if height != board.platform("jam-south").height:
        raised = [{**asdict(p), "height": height} for p in board.platforms]
        board = load_board({**BOARD, "platforms": raised})
    plat = board.platform("jam-south")
    w = World(board, params)
    w.add_die("high", plat.x, plat.y, face=3, vy=speed)
    w.add_die("low", plat.x, plat.y + plat.depth / 2 + 0.0081, face=3)
    w.run_until_rest(5.0)
    return [e for e in w.events if e.type in ("tumble", "hop")]


def test_hard_impact_from_a_platform_tumbles_the_lower_die(params):
    """A die leaving a platform fast meets a die on the board lower down, at the middle of their
    overlap: struck high enough, the lower die pitches: at 3 m/s fast enough that its edge leaves
    the board at once (a hop, model 0.7's lift-off test at phi 0) or it tumbles (cause "impact"); a
    gentle meeting does neither.  Model 0.13: dice grip each other (mu_die 0.3), so a blow pitches
    the lower die only 3.9 mm above its mid-height, i.e. from a platform over 7.8 mm high.  From a
    10 mm platform the blow lands 5 mm up: 35.9 rad/s at 3 m/s (tumbles; 19.5 does), 9.2 rad/s
    at 0.8 m/s (rocks back).  From the board's 3 mm platforms it lands 1.5 mm up, within the grip:
    even at 3 m/s the lower die slides off unpitched (model 0.12 pitched it for any step)."""
    out = {speed: _platform_impacts(params, 0.010, speed) for speed in (0.8, 3.0)}
    assert out[0.8] == []
    first = out[3.0][0]
    assert first.dice == ("low",)
    assert first.type == "hop" or first.data["cause"] == "impact"
    assert not any(e.dice == ("high",) for e in out[3.0])
    # the standard board's 3 mm platform: no hop, no impact tumble (it may trip over the far
    # platform's step later, cause "step")
    low = _platform_impacts(params, 0.003, 3.0)
    assert not any(e.type == "hop" or e.data["cause"] == "impact" for e in low)
