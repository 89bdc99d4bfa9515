"""Energy (issue 32 item 5): no model step makes energy.  The mechanical energy of every die in
play -- slide, spin, pitch, the flight's rise and turn, and the height of its centre above the
board plane (the dish's depth under it, a platform's top, a die's top, the flight's height, a fall
into the hole) -- never grows by more than 1 nJ over a step, on the standard board (dish, hole,
platforms) with random dice, flicks and velocities.  Dice that leave (into the hole, off the
edge) take their energy with them: a step may pass at most their motion's energy to the others.
Also the two gains the review found: a straddling die climbing back onto a platform's top, and a
die turning in the air landing on an edge higher than its flight reaches."""

from __future__ import annotations

import contextlib
import math

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics import flight, pitch
from jamsumo_sim.physics.datatypes import ON_BOARD, IllegalAction, Pitch
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World

TOL = 1e-9  # J


def die_energy(w: World, die_id: str) -> tuple[float, float]:
    """(motion, height) energy (J) of one die in play: motion = slide + spin + pitch (about its
    edge on a surface, about its centre in the air) + the flight's rise; height = m g times its
    base's height above the board plane (World.surface_height's dish or platform top under it,
    a die's top, the flight's height, less the fall into the hole so far)."""
    p = w.params
    m, g = p.die_mass, p.gravity
    d = w._dice[die_id]
    s = w.state(die_id)
    motion = 0.5 * m * (s.vx**2 + s.vy**2) + 0.5 * p.die_inertia * s.omega**2
    pt = d.pitch
    if d.airborne:  # d.z: above the board plane
        motion += 0.5 * m * d.vz**2
        if pt is not None:
            motion += 0.5 * p.die_inertia * pt.rate**2
        return motion, m * g * d.z
    if d.on_die is not None:
        base = d.z
    elif d.level:
        base = w.board.platform(d.level).height
    else:  # on the board, straddling (centre beside the top), leaning, falling
        base = float(w._surface.height(s.x, s.y))
    if d.fall_time is not None:
        base -= 0.5 * g * d.fall_time**2
    if pt is not None:
        motion += pitch.pitch_energy(pt.phi, pt.rate, p)  # turn about the edge and its lift
    return motion, m * g * base


def mechanical_energy(w: World) -> dict[str, tuple[float, float]]:
    """Each die in play: (motion, height) energy, :func:`die_energy`."""
    return {
        d.id: die_energy(w, d.id) for d in w._dice.values() if d.in_space and d.status == ON_BOARD
    }


def step_gain(before: dict, after: dict, struck: frozenset = frozenset()) -> float:
    """Energy made by a step (J): the dice in play after it, less what they had before, less the
    motion of the dice that left in it (all they could have passed on before leaving).

    ``struck``: dice hit by a die within the step (a ``collision`` event).  Such a die slides
    up the dish for the rest of the step at its new speed before any slope force acts on it: the
    friction-and-slope kick comes at a step's start (the leapfrog kick, physics/evolve.py), so
    the next step's kick takes that rise out of its motion.  A time-step error, not energy made
    (a few um of dish height, < 0.1 uJ at 1 m/s): a struck die's rise within the step is left
    out."""
    gone = set(before) - set(after)
    e0 = sum(sum(before[k]) for k in after)
    drift = sum(max(0.0, after[k][1] - before[k][1]) for k in struck if k in after and k in before)
    return sum(map(sum, after.values())) - e0 - sum(before[k][0] for k in gone) - drift


def run_checked(w: World, steps: int) -> float:
    """Step ``w`` up to ``steps`` times (or to rest); the largest gain of a step (J)."""
    worst = -math.inf
    before = mechanical_energy(w)
    for _ in range(steps):
        n = len(w.events)
        w.step()
        after = mechanical_energy(w)
        struck = frozenset(
            i for e in w.events[n:] if e.type == "collision" and e.data.get("kind") == "die"
            for i in e.dice
        )  # fmt: skip
        worst = max(worst, step_gain(before, after, struck))
        before = after
        if w.at_rest():
            break
    return worst


# --- random scenarios ---------------------------------------------------------------------------


def _free(board, a: float, x: float, y: float) -> bool:
    """On the board, not over the hole, and clear of every platform's edge (wholly on a top or
    wholly beside it): a legal resting place."""
    if not board.on_board(x, y) or math.hypot(x, y) < board.hole_radius + 0.75 * a:
        return False
    for plat in board.platforms:
        x0, y0, x1, y1 = plat.bounds
        near = x0 - 0.75 * a < x < x1 + 0.75 * a and y0 - 0.75 * a < y < y1 + 0.75 * a
        inner = x0 + 0.75 * a < x < x1 - 0.75 * a and y0 + 0.75 * a < y < y1 - 0.75 * a
        if near and not inner:
            return False
    return True


def build_scenario(board, params, seed: int) -> World:
    """1-4 dice at random legal places (a third by a platform, on its top or beside it, a third
    by the hole's rim), some moving and spinning, then 1-2 random flicks: centred or off-centre,
    low, mid or high strikes, soft to hard."""
    rng = np.random.default_rng(seed)
    a = params.die_size
    w = World(board, params, rng=np.random.default_rng(seed))
    placed: list[tuple[float, float]] = []
    for _ in range(int(rng.integers(1, 5))):
        for _ in range(60):
            kind = int(rng.integers(3))
            if kind == 0:
                plat = board.platforms[int(rng.integers(len(board.platforms)))]
                x, y = plat.x + rng.uniform(-0.035, 0.035), plat.y + rng.uniform(-0.035, 0.035)
            elif kind == 1:
                r, t = board.hole_radius + rng.uniform(0.3 * a, 2.5 * a), rng.uniform(-3.2, 3.2)
                x, y = r * math.cos(t), r * math.sin(t)
            else:
                x, y = rng.uniform(-0.2, 0.2, 2)
            if _free(board, a, x, y) and all(math.hypot(x - u, y - v) > 1.5 * a for u, v in placed):
                placed.append((float(x), float(y)))
                break
    for k, (x, y) in enumerate(placed):
        v = float(rng.uniform(0.0, 1.5)) if rng.random() < 0.4 else 0.0
        t = float(rng.uniform(-math.pi, math.pi))
        w.add_die(
            f"d{k}", x, y, angle=float(rng.uniform(-0.8, 0.8)), face=int(rng.integers(1, 7)),
            vx=v * math.cos(t), vy=v * math.sin(t), omega=float(rng.uniform(-30, 30)) if v else 0.0,
        )  # fmt: skip
    ids = list(w.die_ids)
    for _ in range(int(rng.integers(1, 3))):
        height = (0.5, float(rng.uniform(0.2, 1.0)), float(rng.uniform(0.75, 1.0)))[
            int(rng.integers(3))
        ]
        f = Flick(
            ids[int(rng.integers(len(ids)))], float(rng.uniform(-math.pi, math.pi)),
            finger_speed=float(rng.uniform(0.3, 3.5)), offset=float(rng.uniform(-0.4, 0.4)),
            height=height,
        )  # fmt: skip
        # an unfair flick (a die in the finger's way): the scenario goes on without it
        with contextlib.suppress(IllegalAction, UserError):
            w.apply_flick(f)
    return w


# derandomized: the same 150 scenarios in every run (CI included), so a fault found by a wider
# search is pinned below as an example or a strict xfail, not drawn now and then
@settings(max_examples=150, deadline=None, derandomize=True)
@example(seed=51426)  # a hop's completed exchange kept the spin the solver gave: 1.1 mJ made
@example(seed=2754483511)  # an impact's pitch came on top of the exchange: 27 uJ made
@given(seed=st.integers(0, 2**32 - 1))
def test_no_step_makes_energy(standard_board, params, seed):
    w = build_scenario(standard_board, params, seed)
    assert run_checked(w, 1200) <= TOL


def test_a_hop_after_a_die_pair_exchange_makes_no_energy(standard_board, params):
    """Seed 72413: at step 4 d3, spinning at -324 rad/s, strikes d0 off their line of centres and
    hops (0.57 m/s up).  The guard on the hop's completed exchange took the pair's energy before
    the contact from the impulse's size along that line: 40.0 mJ of motion where the pair had
    29.5, and the hop made 0.47 mJ.  The contact's impulse as Chipmunk gave it gives the 29.5
    (model 0.10; found by a wider search, failed on model 0.8 too)."""
    w = build_scenario(standard_board, params, 72413)
    assert run_checked(w, 1200) <= TOL


# --- the review's gains -------------------------------------------------------------------------


def _straddling(board, params, back: float) -> tuple[World, dict]:
    """A die sliding off jam-south's inner edge (it straddles it), then sent back at ``back``
    m/s; the energies just before that step."""
    w = World(board, params)
    _, _, _, y1 = board.platform("jam-south").bounds
    w.add_die("a", 0.0, y1 - 0.009, face=1, vy=0.3)
    d = w._dice["a"]
    while d.straddle is None:
        w.step()
    d.body.velocity = (0.0, -back)
    w._current = False
    return w, mechanical_energy(w)


def test_climbing_back_onto_a_platform_pays_for_the_rise(standard_board, params):
    """Before: from straddling to standing on the top cost nothing (+0.15 mJ, no event).  Now the
    rise m g dh (the top over the dish beside it: 3.4 mm here) comes out of the motion into the
    platform, with a ``landed`` event; too slow, it tips back and stays straddling."""
    g = params.gravity
    _, _, _, y1 = standard_board.platform("jam-south").bounds
    w, before = _straddling(standard_board, params, 0.35)
    v_before = -w.state("a").vy
    w.step()
    d = w._dice["a"]
    assert d.level == "jam-south" and d.straddle is None
    landed = [e for e in w.events if e.type == "platform" and e.data["action"] == "landed"]
    assert len(landed) == 1
    assert step_gain(before, mechanical_energy(w)) <= 0.0
    rise = params.die_mass * g * (0.003 - float(w._surface.height(0.0, y1)))
    assert rise > 1.4e-4  # the energy it got for free before
    # it lost the rise (and a step's friction): 1/2 m v^2 fell by more than m g dh
    v_after = -w.state("a").vy
    assert 0.5 * params.die_mass * (v_before**2 - v_after**2) >= 0.99 * rise

    slow, before = _straddling(standard_board, params, 0.15)  # 1/2 v^2 < g dh
    slow.step()
    d = slow._dice["a"]
    assert d.level is None and d.straddle == "jam-south"
    assert step_gain(before, mechanical_energy(slow)) <= 0.0
    assert run_checked(slow, 300) <= TOL


@settings(max_examples=60, deadline=None)
@given(
    phi=st.floats(0.0, 1.5),
    rate=st.floats(-80.0, 80.0),
    gap=st.floats(0.0, 2e-4),
    vz=st.floats(-0.05, 0.05),
    v=st.floats(0.0, 1.0),
)
def test_a_die_turning_near_the_top_of_a_hop_lands_without_making_energy(
    flat_board, params, phi, rate, gap, vz, v
):
    """A die turning in the air whose lowest edge is just above the board near the top of its
    flight: the turn lowers the edge through the board within a step.  It used to be put on the
    board higher than its flight reached, the rise free (up to 32 uJ in these cases; 0.37 uJ in
    the review's); now the turn, then the slide, pays for it."""
    w = World(flat_board, params)
    w.add_die("a", 0.0, 0.0, face=1, vx=v)
    d = w._dice["a"]
    d.pitch = Pitch(phi, rate, 0, 0.0, "flick")
    flight.launch(w, d, vz, gap + flight.lift(phi, params))
    assert run_checked(w, 40) <= TOL
