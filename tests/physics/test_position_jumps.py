"""Position jumps respect what is there (issue 16 s2, physics.md s8.2): a platform climb and a trip
over the hole's far rim sweep the die's footprint along the jump, stop at the first die in the way
and strike it (a die-die impact: momentum kept, restitution from the params), instead of landing
inside it and letting the contact solver shove the two apart."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim.physics import evolve, platforms, support, tumbles
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import speed_after_trip
from jamsumo_sim.world import World

PLATFORM_BOARD = load_board({"dish_depth": 0.0, "hole_diameter": 0.0})
RIM_BOARD = load_board({"dish_depth": 0.0, "platforms": []})


def overlap(w: World, die=None) -> float:
    """Deepest overlap (m) between two dice in the Space (of ``die`` with any other, if given),
    from Chipmunk's own contact geometry of the rounded boxes."""
    dice = [d for d in w._dice.values() if d.in_space]
    shapes = {d.shape for d in dice}
    deepest = 0.0
    for d in [die] if die is not None else dice:
        for q in w.space.shape_query(d.shape):
            if q.shape in shapes:
                for pt in q.contact_point_set.points:
                    deepest = max(deepest, -pt.distance)
    return deepest


def allowed_overlap(p) -> float:
    """What the contact solver itself leaves at the end of a step: a contact is met at most a
    sweep fraction deep (physics/evolve.py), and the slop is not pushed out."""
    return p.collision_slop + evolve.SWEEP_FRACTION * p.die_size


@pytest.fixture
def jump_overlaps(monkeypatch):
    """Record the jumping die's overlap at the instant each jump lands (the tumble it logs)."""
    seen: list[float] = []

    def wrap(orig):
        def checked(w, d, body_dir, cause):
            if cause in ("step", "rim"):
                seen.append(overlap(w, d))
            return orig(w, d, body_dir, cause)

        return checked

    for mod in (tumbles, support, platforms):
        if hasattr(mod, "tumble"):
            monkeypatch.setattr(mod, "tumble", wrap(mod.tumble))
    return seen


def trace(w: World, steps: int) -> float:
    """Step ``w`` (until rest or ``steps``); the deepest overlap of the traced states."""
    deepest = 0.0
    for _ in range(steps):
        w.step()
        deepest = max(deepest, overlap(w))
        if w.at_rest():
            break
    return deepest


def slide(v: float, p) -> float:
    """Stop distance of a die sliding at v (physics.md s2 oracle 1)."""
    return v * v / (2 * p.mu_board * p.gravity)


# --- the sweep and the impact -------------------------------------------------------------------


def test_first_contact_oracles():
    """Square met face on: where the overlap reaches the tolerance; a 45-degree square: its corner;
    moving away or passing by: no contact."""
    half, tol = 0.008, 1e-5
    box = ((0.03, 0.0), (half, half), (1.0, 0.0), (0.0, 1.0))
    s, n = tumbles.first_contact((0.0, 0.0), (0.02, 0.0), half, 0.0, box, tol)
    assert s == pytest.approx((0.03 - 2 * half + tol) / 0.02, abs=1e-12) and n == (1.0, 0.0)
    s, n = tumbles.first_contact((0.0, 0.0), (0.02, 0.0), half, math.pi / 4, box, tol)
    reach = half * math.sqrt(2) + half
    assert s == pytest.approx((0.03 - reach + tol) / 0.02, abs=1e-12)
    assert n == pytest.approx((1.0, 0.0))
    assert tumbles.first_contact((0.0, 0.0), (-0.02, 0.0), half, 0.0, box, tol) is None
    assert tumbles.first_contact((0.0, 0.02), (0.05, 0.0), half, 0.0, box, tol) is None
    # touching at the start and sliding along: no new overlap, no contact
    touching = ((2 * half, 0.0), (half, half), (1.0, 0.0), (0.0, 1.0))
    assert tumbles.first_contact((0.0, 0.0), (0.0, 0.02), half, 0.0, touching, tol) is None


@pytest.mark.parametrize("e", [0.0, 0.5, 0.7, 1.0])
def test_jump_impact_head_on_oracle(flat_board, params, e):
    """Equal masses head on: the struck die leaves at (1+e)/2 v, the striker keeps (1-e)/2 v;
    momentum kept; (1 - e^2)/4 m v^2 of energy lost (physics.md s5); logged as a die collision."""
    p = params.with_overrides({"restitution": e})
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1, vx=0.8)
    w.add_die("b", p.die_size, 0.0, face=1)
    a, b = w._dice["a"], w._dice["b"]
    tumbles.impact(w, a, b, (1.0, 0.0))
    assert b.body.velocity.x == pytest.approx((1 + e) / 2 * 0.8, rel=1e-12)
    assert a.body.velocity.x == pytest.approx((1 - e) / 2 * 0.8, abs=1e-12)
    ke = 0.5 * p.die_mass * (a.body.velocity.x**2 + b.body.velocity.x**2)
    assert ke == pytest.approx(0.5 * p.die_mass * 0.64 * (1 - (1 - e * e) / 2), rel=1e-12)
    ev = w.events[-1]
    assert (ev.type, ev.dice, ev.data["kind"]) == ("collision", ("a", "b"), "die")
    assert ev.data["impulse"] == pytest.approx(p.die_mass * (1 + e) / 2 * 0.8, rel=1e-12)


def test_jump_impact_never_adds_energy(flat_board, params):
    """Random velocities and normals: momentum kept exactly, energy never grows, parting dice
    exchange nothing."""
    rng = np.random.default_rng(16)
    m = params.die_mass
    for _ in range(200):
        w = World(flat_board, params.with_overrides({"restitution": rng.uniform(0, 1)}))
        va, vb = rng.normal(size=2), rng.normal(size=2)
        w.add_die("a", 0.0, 0.0, face=1, vx=va[0], vy=va[1])
        w.add_die("b", 0.05, 0.0, face=1, vx=vb[0], vy=vb[1])
        a, b = w._dice["a"], w._dice["b"]
        th = rng.uniform(0, 2 * math.pi)
        tumbles.impact(w, a, b, (math.cos(th), math.sin(th)))
        ua, ub = np.array(a.body.velocity), np.array(b.body.velocity)
        assert ua + ub == pytest.approx(va + vb, abs=1e-12)
        assert m * (ua @ ua + ub @ ub) <= m * (va @ va + vb @ vb) * (1 + 1e-12)
        if (va - vb) @ (math.cos(th), math.sin(th)) <= 0:  # parting
            assert np.array_equal(ua, va) and np.array_equal(ub, vb)


# --- the cases ---------------------------------------------------------------------------


def _climber(w, p, plat, speed, inside_x=0.0):
    """A die sliding south into the platform's north wall, arriving at ``speed``."""
    gap = 0.03
    v0 = math.sqrt(speed**2 + 2 * p.mu_board * p.gravity * (gap - p.die_size / 2))
    w.add_die("a", plat.x + inside_x, plat.y + plat.depth / 2 + gap, face=3, vy=-v0)


def _struck(w):
    return [e for e in w.events if e.type == "collision" and e.dice == ("a", "rest")]


def test_climb_onto_occupied_platform_strikes_the_resting_die(params, jump_overlaps):
    """The issue's case: a die resting with its near face 1 mm inside the platform's edge, a die
    climbing at 0.9 m/s.  The climb used to land 15 mm inside the resting die, which Chipmunk then
    shoved ~13 mm (twice the slide its impulse accounts for).  Now the climber cannot get its
    centre over the top: it stays below the edge and its motion over the edge strikes the resting
    die, which slides exactly as far as the impact's speed carries it."""
    p = params
    plat = PLATFORM_BOARD.platform("jam-south")
    w = World(PLATFORM_BOARD, p)
    y_rest = plat.y + plat.depth / 2 - p.die_size / 2 - 0.001
    w.add_die("rest", plat.x, y_rest, face=2)
    _climber(w, p, plat, 0.9)
    deepest = trace(w, 400)
    assert deepest <= allowed_overlap(p)
    assert not any(e.type == "platform" and e.dice == ("a",) for e in w.events)
    hits = _struck(w)
    assert len(hits) == 1
    v_hit = hits[0].data["impulse"] / p.die_mass
    # the motion carried over a 3 mm step at ~0.9 m/s, (1 + e)/2 of it to the struck die
    v_in = speed_after_trip(0.9, plat.height, p)
    assert v_hit == pytest.approx((1 + p.restitution) / 2 * v_in, rel=0.03)
    rest = w.state("rest")
    assert rest.on_platform == plat.name and rest.x == pytest.approx(plat.x, abs=1e-9)
    # moved by the impact only: its slide, less the first step's full friction kick (v dt / 2)
    assert y_rest - rest.y == pytest.approx(slide(v_hit, p) - v_hit * p.dt / 2, abs=2e-4)
    assert w.state("a").y > plat.y + plat.depth / 2  # still below the edge, on the board


def test_climb_lands_against_a_die_and_strikes_it(params, jump_overlaps):
    """A die resting in the middle of the platform leaves room for the climber's centre: it lands
    against the resting die (not inside it) and strikes it."""
    p = params
    plat = PLATFORM_BOARD.platform("jam-south")
    w = World(PLATFORM_BOARD, p)
    w.add_die("rest", plat.x, plat.y, face=2)
    _climber(w, p, plat, 0.9)
    deepest = trace(w, 400)
    assert deepest <= allowed_overlap(p)
    assert jump_overlaps and max(jump_overlaps) <= p.collision_slop
    assert any(e.type == "platform" and e.data["action"] == "landed" for e in w.events)
    # the strike, then (at the 0.25 mm sweep) a second touch of the parting pair
    hit, *touches = _struck(w)
    v_hit = hit.data["impulse"] / p.die_mass
    assert v_hit == pytest.approx(
        (1 + p.restitution) / 2 * speed_after_trip(0.9, plat.height, p), rel=0.03
    )
    assert all(t.data["impulse"] < 0.1 * hit.data["impulse"] for t in touches)
    assert plat.y - w.state("rest").y == pytest.approx(slide(v_hit, p) - v_hit * p.dt / 2, abs=2e-4)
    assert w.state("a").on_platform == plat.name and w.state("rest").on_platform == plat.name


def _skimmer(w, speed):
    w.add_die("a", -0.05, 0.0, face=3, vx=speed)


@pytest.mark.parametrize("gap", [0.001, 0.006])
def test_rim_trip_stops_at_a_die(params, jump_overlaps, gap):
    """A die crossing the hole fast trips over the far rim; a die resting ``gap`` beyond the rim is
    in the way.  Met before the tumbling die's centre is past the rim (1 mm): it strikes the die
    and drops in; met after (6 mm): it lands against the die and strikes it.  Never inside it."""
    p = params
    w = World(RIM_BOARD, p)
    x_rest = RIM_BOARD.hole_radius + gap + p.die_size / 2
    w.add_die("rest", x_rest, 0.0, face=2)
    _skimmer(w, 1.4)
    deepest = trace(w, 400)
    assert deepest <= allowed_overlap(p)
    assert all(o <= p.collision_slop for o in jump_overlaps)
    (hit,) = _struck(w)
    v_hit = hit.data["impulse"] / p.die_mass
    assert x_rest < w.state("rest").x < x_rest + slide(v_hit, p) + 1e-4
    if gap < p.die_size / 2 - 0.001:
        assert w.state("a").status == "in_hole"
        assert not any(e.type == "skim" for e in w.events)
    else:
        assert w.state("a").status == "on_board" and w.state("a").x > RIM_BOARD.hole_radius
        assert any(e.type == "tumble" and e.data["cause"] == "rim" for e in w.events)


# --- random platform-and-rim scenarios -----------------------------------------------------------


def _free(points, x, y, apart):
    return all(math.hypot(x - u, y - v) > apart for u, v in points)


def _platform_scene(rng, p) -> World:
    """1-3 dice resting on a platform, one sliding into a random wall at 0.8-1.8 m/s."""
    a = p.die_size
    plat = PLATFORM_BOARD.platform("jam-south")
    w = World(PLATFORM_BOARD, p)
    pts: list[tuple[float, float]] = []
    for k in range(int(rng.integers(1, 4))):
        x = plat.x + rng.uniform(-1, 1) * (plat.width - a) / 2
        y = plat.y + rng.uniform(-1, 1) * (plat.depth - a) / 2
        if _free(pts, x, y, 1.5 * a):
            pts.append((x, y))
            w.add_die(f"r{k}", x, y, angle=rng.uniform(-0.3, 0.3), face=2)
    nx, ny = [(0, 1), (1, 0), (0, -1), (-1, 0)][int(rng.integers(4))]
    speed, gap = rng.uniform(0.8, 1.8), 0.02
    lateral = rng.uniform(-1, 1) * (plat.width - a) / 2
    v0 = math.sqrt(speed**2 + 2 * p.mu_board * p.gravity * (gap - a / 2))
    x = plat.x + nx * (plat.width / 2 + gap) + (lateral if nx == 0 else 0.0)
    y = plat.y + ny * (plat.depth / 2 + gap) + (lateral if ny == 0 else 0.0)
    w.add_die("c", x, y, angle=rng.uniform(-0.2, 0.2), face=3, vx=-nx * v0, vy=-ny * v0)
    return w


def _rim_scene(rng, p) -> World:
    """1-2 dice resting within 1.5 widths beyond the hole's rim, one crossing the hole towards
    them at 1.1-2.5 m/s."""
    a, r = p.die_size, RIM_BOARD.hole_radius
    w = World(RIM_BOARD, p)
    th = rng.uniform(0, 2 * math.pi)
    u, t = (math.cos(th), math.sin(th)), (-math.sin(th), math.cos(th))
    pts: list[tuple[float, float]] = []
    for k in range(int(rng.integers(1, 3))):
        along, side = r + a / 2 + rng.uniform(0.0, 1.5 * a), rng.uniform(-0.6, 0.6) * a
        x, y = along * u[0] + side * t[0], along * u[1] + side * t[1]
        if _free(pts, x, y, 1.5 * a):
            pts.append((x, y))
            w.add_die(f"r{k}", x, y, angle=rng.uniform(-0.3, 0.3), face=2)
    speed, off = rng.uniform(1.1, 2.5), rng.uniform(-0.3, 0.3) * a
    x, y = -0.05 * u[0] + off * t[0], -0.05 * u[1] + off * t[1]
    w.add_die(
        "c", x, y, angle=th + rng.uniform(-0.1, 0.1), face=3, vx=speed * u[0], vy=speed * u[1]
    )
    return w


@pytest.mark.parametrize("scene", [_platform_scene, _rim_scene])
def test_random_jumps_never_land_inside_a_die(params, jump_overlaps, scene):
    """40 seeded random scenarios each (0.3 s of play): every jump lands within the collision slop
    of every die, and no traced state shows more overlap than the contact solver itself leaves."""
    rng = np.random.default_rng(2027)
    deepest = 0.0
    for _ in range(40):
        deepest = max(deepest, trace(scene(rng, params), 150))
    assert len(jump_overlaps) >= 10  # the scenarios do jump
    assert max(jump_overlaps) <= params.collision_slop
    assert deepest <= allowed_overlap(params)


def test_jumps_are_reproducible(params):
    """The same scenario twice: the same events and the same bit-exact state."""
    runs = []
    for _ in range(2):
        rng = np.random.default_rng(5)
        worlds = [_platform_scene(rng, params) for _ in range(3)] + [
            _rim_scene(rng, params) for _ in range(3)
        ]
        for w in worlds:
            w.run_until_rest(2.0)
        runs.append([(w.checksum(), tuple(w.events)) for w in worlds])
    assert runs[0] == runs[1]
