"""Swept collision steps (physics.md s8.1, issue 16 s1): no contact of a fast or hard-spinning die
is missed, and shots end where a fine-step reference ends.

The reference runs dt 1 ms with at least 8 collision steps per step (<= 0.125 ms) and at most
0.25 mm of relative sweep per collision step; as the issue asks, a shot or break counts only where
the reference agrees with its own half-step run (dt 0.5 ms, <= 0.0625 ms and 0.125 mm): same
contact, status and face, and (shots) every die at rest within 2 mm and 2 deg of it.  How far such
a reference is from the truth shows a run four times finer still (dt 0.25 ms, 0.0625 mm): on the
counted cases it agrees with the reference no better than the goals ask (figures below), so the
goals' 100 % / 99 % measure the reference's own scatter as much as the model.
``evolve.SWEPT = False`` restores the fixed ``collision_substeps`` of model 0.3 ("legacy"), so each
statistical test shows the gap the swept steps close.  Measured figures are in the comments; the
thresholds leave a margin.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from functools import cache

import numpy as np
import pytest

from jamsumo_sim.physics import evolve, step_kernels, view
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.events import COLLISION
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import DieState, World

POS_TOL = 0.002  # m
ANGLE_TOL = math.radians(2.0)
BOARD = load_board("standard")
PARAMS = PhysicsParams.from_board(BOARD)


@contextmanager
def _model(swept: bool = True, fraction: float | None = None, quiet: int | None = None):
    """Run with the swept steps on or off, or as a fine reference (finer sweep, more steps)."""
    saved = evolve.SWEPT, evolve.SWEEP_FRACTION, evolve.QUIET_STEPS, evolve.MIN_COLLISION_STEP
    evolve.SWEPT = swept
    if fraction is not None:
        evolve.SWEEP_FRACTION = fraction
        evolve.MIN_COLLISION_STEP = saved[3] / 8
    if quiet is not None:
        evolve.QUIET_STEPS = quiet
    try:
        yield
    finally:
        evolve.SWEPT, evolve.SWEEP_FRACTION, evolve.QUIET_STEPS, evolve.MIN_COLLISION_STEP = saved


def _ref_params(half: bool) -> PhysicsParams:
    return PARAMS.with_overrides({"dt": 0.0005 if half else 0.001, "collision_substeps": 8})


# --- one- and two-die shots ---------------------------------------------------------------------

Shot = tuple[float, float, float, float]  # lateral offset of the target (m), speed, offset, angle


def _shot(params: PhysicsParams, case: Shot) -> tuple[bool, dict[str, DieState]]:
    """Striker flicked along +x past (or into) a target 60 mm ahead, over the hole towards the far
    edge; did they touch, and how they end."""
    lateral, speed, offset, target_angle = case
    w = World(BOARD, params)
    # launched as model 0.15's flick of that impulse launched it: a push at the lever offset (at
    # most 0.3125), spinning at 6 v lever / a, up to 586 rad/s.  Since model 0.16 a pad's push spins
    # a die at most 0.4 x 6 v 0.125 / a (flick.grip_parts), but glancing blows between dice still
    # spin them that fast, and the swept steps are for such corners
    lever = max(-0.3125, min(0.3125, offset))
    spin = -6.0 * speed * lever / params.die_size
    w.add_die("s", -0.12, 0.0, face=1, vx=speed, omega=spin)
    w.add_die("t", -0.06, lateral, angle=target_angle, face=2)
    w.run_until_rest(10.0)
    hit = any(e.type == COLLISION and set(e.dice) == {"s", "t"} for e in w.events)
    return hit, {i: w.state(i) for i in ("s", "t")}


@cache
def _reference(case: Shot) -> tuple[bool, dict[str, DieState]] | None:
    """The reference's end of a shot, or None where it disagrees with its half-step run."""
    with _model(fraction=1 / 64, quiet=8):
        ref = _shot(_ref_params(False), case)
    with _model(fraction=1 / 128, quiet=8):
        half = _shot(_ref_params(True), case)
    if ref[0] != half[0] or _status(ref[1], half[1]) or _rest_error(ref[1], half[1]) > (0, 0):
        return None
    return ref


def _status(a: dict[str, DieState], b: dict[str, DieState]) -> bool:
    """True if some die ends in another status (or on the board with another face up)."""
    return any(
        x.status != b[k].status or (x.status == "on_board" and x.face != b[k].face)
        for k, x in a.items()
    )


def _rest_error(a: dict[str, DieState], b: dict[str, DieState]) -> tuple[int, int]:
    """(dice on the board more than 2 mm apart, more than 2 deg apart modulo a quarter turn)."""
    far = turned = 0
    for k, x in a.items():
        y = b[k]
        if x.status == y.status == "on_board":
            far += math.hypot(x.x - y.x, x.y - y.y) > POS_TOL
            turned += abs(math.remainder(x.angle - y.angle, math.pi / 2)) > ANGLE_TOL
    return far, turned


def _cases(seed: int, n: int, lateral: tuple[float, float]) -> list[Shot]:
    """Random launches at 2-5 m/s, every other one at the maximum offset (full spin: :func:`_shot`)."""
    rng = np.random.default_rng(seed)
    a = PARAMS.die_size
    out = []
    for k in range(n):
        side = 1.0 if rng.random() < 0.5 else -1.0
        lat = side * float(rng.uniform(*lateral)) * a
        speed = float(rng.uniform(2.0, 5.0))
        offset = float(rng.choice([-0.5, 0.5])) if k % 2 == 0 else float(rng.uniform(-0.5, 0.5))
        out.append((lat, speed, offset, float(rng.uniform(0.0, math.pi / 2))))
    return out


# grazing passes (centre lines 0.9-1.45 die widths apart: only a corner, often spinning, can
# touch) and hits of every kind (0-1.45 widths)
SHOTS = _cases(11, 60, (0.9, 1.45)) + _cases(5, 60, (0.0, 1.45))


def _compare(cases: list[Shot], swept: bool) -> tuple[int, int, int, int]:
    """(references counted, contacts the model missed, shots ending in another status, shots with
    a die at rest more than 2 mm or 2 deg from the reference)."""
    counted = missed = status = rest = 0
    for case in cases:
        ref = _reference(case)
        if ref is None:
            continue
        counted += 1
        with _model(swept):
            hit, got = _shot(PARAMS, case)
        missed += ref[0] and not hit
        if _status(ref[1], got):
            status += 1
        elif _rest_error(ref[1], got) > (0, 0):
            rest += 1
    return counted, missed, status, rest


@pytest.mark.parametrize("swept", [True, False], ids=["swept", "legacy"])
def test_no_contact_missed_over_random_legal_flicks(swept):
    """Every contact the reference makes, the model makes (measured over these 120 shots: none of
    the 91 counted missed; the legacy fixed 2 x 1 ms steps miss 3, a spinning corner passing
    through the target)."""
    counted, missed, _, _ = _compare(SHOTS, swept)
    assert counted >= 85  # 91
    # legacy: the gap the swept steps close (fails if the cases stop probing it)
    assert (missed == 0) == swept


@pytest.mark.parametrize("swept", [True, False], ids=["swept", "legacy"])
def test_shots_end_with_the_reference(swept):
    """Single- and two-die shots end in the reference's status (and face up) in >= 96.5 % (model
    0.7, whose launch cap bounds a flick's energy: 3 differ of the 90 counted, two of them a
    full-spin striker tripping at the hole's far rim, which is taken at step resolution (issue 32,
    open); model 0.6: 2 of 91; legacy 13), and also rest within 2 mm and 2 deg of it in >= 85 %
    (measured 77 of 90; model 0.6: 80 of 91; legacy 64 of 90).  The run four times finer than the reference
    ends so in only 83 of the 91 (91 %): what is left is mostly the rest angle,
    chaotic at that scale (a hit that spins the target at w stops it after w^2 / (2 alpha), so
    2 deg needs w to 0.1 %).  Neither a finer sweep alone (0.25 mm: 81 of 91) nor a shorter
    step alone (dt 1 ms: 79 of 91) gets closer; only both at once, the reference's own setting."""
    counted, _, status, rest = _compare(SHOTS, swept)
    assert counted >= 85
    good = status <= 0.035 * counted and status + rest <= 0.15 * counted
    assert good == swept  # legacy: the gap the swept steps close


# --- 24-dice breaks -----------------------------------------------------------------------------

Break = tuple[tuple[tuple[float, float, float], ...], tuple[float, float], Flick]


@cache
def _break(seed: int) -> Break:
    """23 dice scattered (not touching) in a 12 cm square somewhere on the board and a striker
    10-14 cm away flicked into them at 1.5-5 m/s, half the time at the maximum offset."""
    rng = np.random.default_rng(seed)
    a = PARAMS.die_size
    while True:
        cx, cy = rng.uniform(-0.08, 0.08, 2)
        dice: list[tuple[float, float, float]] = []
        for _ in range(5000):
            if len(dice) == 23:
                break
            x, y = cx + rng.uniform(-0.06, 0.06), cy + rng.uniform(-0.06, 0.06)
            if all(math.hypot(x - px, y - py) > a * math.sqrt(2) + 5e-4 for px, py, _ in dice):
                dice.append((float(x), float(y), float(rng.uniform(0, math.pi / 2))))
        bearing, dist = rng.uniform(0, 2 * math.pi), rng.uniform(0.1, 0.14)
        sx, sy = float(cx + dist * math.cos(bearing)), float(cy + dist * math.sin(bearing))
        aim = math.atan2(cy - sy, cx - sx) + rng.uniform(-0.15, 0.15)
        speed = rng.uniform(1.5, 5.0)
        offset = float(rng.choice([-0.5, 0.5]) if rng.random() < 0.5 else rng.uniform(-0.5, 0.5))
        flick = Flick("s", float(aim), float(speed * PARAMS.die_mass), offset)
        if len(dice) < 23 or not BOARD.on_board(sx, sy):
            continue
        if all(BOARD.on_board(x, y) for x, y, _ in dice):
            w = _break_world(PARAMS, (tuple(dice), (sx, sy), flick))
            if w.check_flick(flick) is None:
                return tuple(dice), (sx, sy), flick


def _break_world(params: PhysicsParams, brk: Break) -> World:
    dice, (sx, sy), _ = brk
    w = World(BOARD, params)
    for k, (x, y, angle) in enumerate(dice):
        w.add_die(f"d{k:02d}", x, y, angle=angle, face=1 + k % 6)
    w.add_die("s", sx, sy, face=1)
    return w


def _outcome(params: PhysicsParams, brk: Break) -> tuple:
    """The outcome class: every die in the hole, off the board, on the board or on which platform,
    and which die the striker struck first."""
    w = _break_world(params, brk)
    w.apply_flick(brk[2])
    w.run_until_rest(20.0)
    first = next((e.dice for e in w.events if e.type == COLLISION and "s" in e.dice), None)
    return tuple((s.id, s.status, s.on_platform) for s in w.states()), first


@cache
def _break_reference(seed: int) -> tuple | None:
    brk = _break(seed)
    with _model(fraction=1 / 64, quiet=8):
        ref = _outcome(_ref_params(False), brk)
    with _model(fraction=1 / 128, quiet=8):
        half = _outcome(_ref_params(True), brk)
    return ref if ref == half else None


@pytest.mark.slow
@pytest.mark.parametrize("swept", [True, False], ids=["swept", "legacy"])
def test_break_outcome_classes_agree_with_the_reference(swept):
    """Random 24-dice breaks, counted where the reference agrees with its half-step run (54 of
    these 80, 151 of 200): the outcome class agrees with the reference in >= 65 % (measured 38 of
    54 = 70 %, legacy 52 %; over 200 breaks 77 %, legacy 46 %).  The issue's 99 % is out of reach
    of any stepping much coarser than the reference: the run four times finer agrees in 88 %,
    the reference with only its sweep doubled (0.5 mm) in 79 %, at dt 1 ms with 0.25 mm sweep
    87 %: a break is chaotic at the scale of a quarter millimetre (one die more or less in the
    hole or off the edge)."""
    counted = agree = 0
    for seed in range(80):
        ref = _break_reference(seed)
        if ref is None:
            continue
        counted += 1
        with _model(swept):
            agree += _outcome(PARAMS, _break(seed)) == ref
    assert counted >= 50
    assert (agree >= 0.65 * counted) == swept  # legacy: the gap the swept steps close


# --- the count --------------------------------------------------------------------------------


def _count(state, walls=None, params: PhysicsParams = PARAMS, groups=None) -> tuple[int, float]:
    state = np.asarray(state, dtype=float)
    walls = np.zeros((0, 4)) if walls is None else np.asarray(walls, dtype=float)
    rows = np.arange(len(state))
    groups = np.zeros(len(state), dtype=np.int64) if groups is None else np.asarray(groups)
    return step_kernels.swept_substeps(state, rows, groups, walls, evolve.sweep_params(params))


def test_one_collision_step_when_no_pair_is_at_risk():
    """Still dice, slow dice touching, and fast dice far from anything take one collision step
    (the fixed 2 of model 0.3 were there only to stop a 5 m/s die tunnelling)."""
    a = PARAMS.die_size
    assert _count([[0, 0, 0, 0, 0, 0], [a, 0, 0, 0, 0, 0]]) == (1, 0.0)
    # touching, 0.1 m/s apart: 0.2 mm per 2 ms step, below the 0.25 mm sweep
    assert _count([[0, 0, 0, 0.1, 0, 0], [a, 0, 0, 0, 0, 0]]) == (1, 0.0)
    assert _count([[0, 0, 0, 5.0, 0, 900.0], [0.2, 0, 0, 0, 0, 0]]) == (1, 0.0)
    # side by side, moving together at 5 m/s: nothing moves relative to the other
    assert _count([[0, 0, 0, 5.0, 0, 0], [0, a + 1e-3, 0, 5.0, 0, 0]]) == (1, 0.0)
    # 3 mm apart face to face, closing at 1 m/s: the square gap bound says they cannot meet
    assert _count([[0, 0, 0, 0.7, 0, 0], [a + 3e-3, 0, 0, -0.3, 0, 0]]) == (1, 0.0)
    # touching at 3 m/s but in different contact groups (World.set_contact_group)
    crossing = [[0, 0, 0, 3.0, 0, 0], [a, 0, 0, 0, 0, 0]]
    assert _count(crossing, groups=[0, 1]) == (1, 0.0) and _count(crossing)[0] == 24


def test_only_pairs_whose_gap_can_close_are_at_risk():
    """The at-risk test bounds the gap along each face normal (physics.md s8.1): motion along a
    face, and a spin that can widen a square by at most (sqrt 2 - 1) a/2 = 3.3 mm, do not close a
    gap that stays open along some axis; the same pairs closing along it are at risk."""
    a = PARAMS.die_size
    # sliding past along the face at 4 m/s, 1 mm apart: the gap across never shrinks
    assert _count([[0, 0, 0, 4.0, 0, 0], [0.5 * a, a + 1e-3, 0, 0, 0, 0]]) == (1, 0.0)
    assert _count([[0, 0, 0, 4.0, 1.0, 0], [0.5 * a, a + 1e-3, 0, 0, 0, 0]])[0] > 1
    # spinning at the cap, 4 mm from a resting die: its corners reach 3.3 mm at most
    assert _count([[0, 0, 0, 0, 0, 940.0], [a + 4e-3, 0, 0, 0, 0, 0]]) == (1, 0.0)
    assert _count([[0, 0, 0, 0, 0, 940.0], [a + 3e-3, 0, 0, 0, 0, 0]])[0] > 1
    # tilted 45 deg, 1 mm apart corner to face, sliding along: open along the resting die's axis
    corner = 0.5 * a * (1 + math.sqrt(2)) + 1e-3
    assert _count([[0, 0, math.pi / 4, 0, 3.0, 0], [corner, 0, 0, 0, 0, 0]]) == (1, 0.0)


def test_contact_groups_join_touching_dice():
    """The energy limiter's groups (step_kernels.contact_groups): dice joined by contacts share a
    label, dice touching any other body (a wall) get len(ids), untouched dice their own."""
    ids = np.array([50, 10, 40, 30, 20], dtype=np.uintp)  # bodies of dice 0..4
    pairs = np.array([10, 40, 40, 20, 30, 7, 0, 0], dtype=np.uintp)  # 7: the walls' body
    label = step_kernels.contact_groups(pairs, 6, ids).tolist()
    assert label[1] == label[2] == label[4] != label[0]  # 10-40-20 joined
    assert label[3] == 5  # touched the wall
    assert label[0] not in (label[1], 5)
    assert step_kernels.contact_groups(pairs, 0, ids).tolist() == [0, 1, 2, 3, 4]


def test_collision_steps_follow_the_fastest_pair_that_can_touch():
    """Touching pairs: ceil(relative sweep / s_max) with the spin's corner speed counted for both
    dice, at least collision_substeps, at most the cap; a NaN speed gives collision_substeps."""
    a, dt = PARAMS.die_size, PARAMS.dt
    s_max = evolve.SWEEP_FRACTION * a
    n_max = math.ceil(dt / evolve.MIN_COLLISION_STEP - 1e-9)
    r_c = a / math.sqrt(2)
    touching = [[0, 0, 0, 3.0, 0, 0], [a, 0, 0, 0, 0, 0]]
    assert _count(touching) == (math.ceil(3.0 * dt / s_max), 0.0)  # 24
    both = [[0, 0, 0, 1.0, 0, 0], [a, 0, 0, -1.0, 0, 0]]
    assert _count(both) == (math.ceil(2.0 * dt / s_max), 0.0)  # 16
    spin = [[0, 0, 0, 0, 0, 100.0], [a, 0, 0, 0, 0, -50.0]]
    assert _count(spin) == (math.ceil(150.0 * r_c * dt / s_max), 0.0)  # 28
    slow = [[0, 0, 0, 0.2, 0, 0], [a, 0, 0, 0, 0, 0]]  # 0.4 mm: at risk, the floor of 2
    assert _count(slow) == (PARAMS.collision_substeps, 0.0)
    hard = [[0, 0, 0, 5.0, 0, 940.0], [a, 0, 0, 0, 0, 0]]  # the hardest legal flick
    # 126 collision steps would keep its corner within s_max: capped at the shortest step's 64
    assert _count(hard) == (min(math.ceil((5.0 + 940.0 * r_c) * dt / s_max), n_max), 0.0)
    both_spin = [[0, 0, 0, 5.0, 0, 940.0], [a, 0, 0, 0, 0, -940.0]]
    assert _count(both_spin) == (n_max, 0.0)  # 172 capped
    assert n_max == 64 and n_max * evolve.MIN_COLLISION_STEP == pytest.approx(dt)
    assert _count([[0, 0, 0, math.nan, 0, 0], [a, 0, 0, 0, 0, 0]]) == (2, 0.0)
    assert 1 <= _count([[math.nan, 0, 0, 5.0, 0, 0], [a, 0, 0, 0, 0, 0]])[0] <= n_max


def test_a_leading_step_until_the_first_possible_contact():
    """A fast die 30 mm short of another: one step up to the earliest time it can touch, then
    steps short enough for the rest (fewer than the same resolution over the whole step)."""
    a, dt = PARAMS.die_size, PARAMS.dt
    s_max = evolve.SWEEP_FRACTION * a
    v = 20.0  # a corner sweeping 40 mm per step (not a legal flick: it shows the arithmetic)
    n, lead = _count([[0, 0, 0, v, 0, 0], [a + 0.03, 0, 0, 0, 0, 0]])
    assert lead == pytest.approx(0.03 / v)
    assert n == 1 + math.ceil(v * (dt - lead) / s_max) < math.ceil(v * dt / s_max)


def test_no_rest_step_shorter_than_the_shortest_collision_step():
    """A pair that can touch only at the step's very end: the leading step would leave a rest of
    ~0 s (1e-17 s once), and Chipmunk scales its warm-started impulses by the next step's length
    over the last one (x 2e13: both dice of test_collisions' e = 0 example left a 6 m board).
    Such a step is taken in equal collision steps; a rest just long enough keeps its lead."""
    a, dt = PARAMS.die_size, PARAMS.dt
    n_max = math.ceil(dt / evolve.MIN_COLLISION_STEP - 1e-9)
    v = 1.0
    for short_by in (1e-17, 1e-9, 0.5 * dt / n_max):  # (s) the rest the lead would leave
        gap = v * (dt - short_by)
        n, lead = _count([[0, 0, 0, v, 0, 0], [a + gap, 0, 0, 0, 0, 0]])
        assert lead == 0.0 and n == math.ceil(v * dt / (evolve.SWEEP_FRACTION * a)), short_by
    gap = v * (dt - 2.0 * dt / n_max)
    n, lead = _count([[0, 0, 0, v, 0, 0], [a + gap, 0, 0, 0, 0, 0]])
    assert lead == pytest.approx(gap / v) and n == 2


def test_platform_walls_count(standard_board, params):
    """A die flicked at a platform's wall gets the swept steps; a die beside it does not."""
    plat = standard_board.platforms[0]
    x0, y0, x1, y1 = plat.bounds
    a = params.die_size
    box = [list(plat.bounds)]
    towards = [[x0 - 0.5 * a - 2e-4, 0.5 * (y0 + y1), 0, 4.0, 0, 0]]  # 0.2 mm from the wall
    assert _count(towards, box) == (math.ceil(4.0 * params.dt / (evolve.SWEEP_FRACTION * a)), 0.0)
    along = [[x0 - 0.5 * a - 2e-4, 0.5 * (y0 + y1), 0, 0, 0.1, 0]]
    assert _count(along, box) == (1, 0.0)
    away = [[x0 - 0.5 * a - 5e-3, 0.5 * (y0 + y1), 0, 4.0, 0, 0]]  # 5 mm short: a leading step
    n, lead = _count(away, box)
    assert lead == pytest.approx(5e-3 / 4.0) and n < _count(towards, box)[0]
    w = World(standard_board, params)
    w.add_die("a", x0 - a, 0.5 * (y0 + y1), face=1)
    w.apply_flick(Flick("a", 0.0, 4.0 * params.die_mass))
    w.step()
    view.read(w)
    assert evolve.collision_steps(w)[0] > params.collision_substeps


def test_swept_steps_are_deterministic():
    """The count follows from the state: a break runs bit-identically twice."""
    brk = _break(3)
    sums = []
    for _ in range(2):
        w = _break_world(PARAMS, brk)
        w.apply_flick(brk[2])
        w.run_until_rest(20.0)
        sums.append(w.checksum())
    assert sums[0] == sums[1]
