"""Convergence shot by shot (issue 32 s2 "deterministic shots"): the default resolution against
``refine = 4`` on single- and two-die flicks that are not chaotic.

A shot of one or two dice on an open board ends the same way at any fine enough resolution, so
here the default is judged shot by shot: each shot runs at both resolutions from the same start
and the same chance seed, and :func:`compare` counts the dice whose status or top face differ, the
rest-position and rest-angle errors of the dice that agree, and the missed contacts (two dice
that touched in the reference and never in the default, or that rest overlapping).

Families (:data:`FAMILIES`), drawn by :func:`draw_shot` from a seeded generator:
- ``single``: one die anywhere on the open board, any aim, 0.3-4 m/s, any offset, height 0.2-0.9;
- ``skim``: one die sent across the hole at 1-2 m/s, aimed within a die's width of its centre;
- ``hit``: a die sent into a second one 3-8 cm ahead at 0.5-2 m/s, head-on to glancing.

The hand's floor (:func:`run_moved_pairs`): the reference against itself with the shot's last die
moved a small distance before the flick (0.1 mm: a hand's placement, the breaks' jitter).  A hit's
rest pose is chaotic at that scale (docs/physics.md "Resolution"): no resolution can be asked to
agree with the reference more closely than the reference agrees with itself there.

Used by tests/physics/test_shot_convergence.py and benchmarks/bench_shot_convergence.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from .physics.board import BoardSpec
from .physics.events import COLLISION
from .physics.flick import Flick
from .physics.params import PhysicsParams
from .world import DieState, World

FAMILIES = ("single", "skim", "hit")
MAX_TIME = 20.0  # s: every shot of these families rests well before
SINGLE_SPEED = (0.3, 4.0)  # m/s: the die's launch speed (impulse / mass)
SKIM_SPEED = (1.0, 2.0)
HIT_SPEED = (0.5, 2.0)
HIT_GAP = (0.03, 0.08)  # m: the target's distance ahead (centre to centre)
OPEN_RADIUS = 0.12  # m: single shots start within this of the centre, outside the hole


@dataclass(frozen=True)
class Shot:
    """One shot: the dice (id, x, y, angle, face) and the flick of the first."""

    family: str
    dice: tuple[tuple[str, float, float, float, int], ...]
    flick: Flick


@dataclass(frozen=True)
class DieEnd:
    id: str
    status: str
    face: int
    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class ShotEnd:
    dice: tuple[DieEnd, ...]
    contacts: frozenset[tuple[str, str]]  # pairs of dice that touched
    overlapping: bool  # two dice at rest on the same level overlap


def draw_shot(family: str, rng: np.random.Generator, params: PhysicsParams) -> Shot:
    """A random legal shot of ``family`` (the striker is "s", a target "t")."""
    m = params.die_mass
    a = params.die_size
    if family == "single":
        r = rng.uniform(0.03, OPEN_RADIUS)
        at = rng.uniform(0.0, 2.0 * math.pi)
        x, y = r * math.cos(at), r * math.sin(at)
        v = rng.uniform(*SINGLE_SPEED)
        flick = Flick("s", float(rng.uniform(-math.pi, math.pi)), v * m,
                      offset=float(rng.uniform(-0.5, 0.5)), height=float(rng.uniform(0.2, 0.9)))  # fmt: skip
        dice = (("s", x, y, float(rng.uniform(-0.4, 0.4)), int(rng.integers(1, 7))),)
        return Shot(family, dice, flick)
    if family == "skim":
        # from 5-9 cm out, aimed at the hole's centre within a die's width
        r = rng.uniform(0.05, 0.09)
        at = rng.uniform(0.0, 2.0 * math.pi)
        x, y = r * math.cos(at), r * math.sin(at)
        miss = rng.uniform(-a, a)
        direction = at + math.pi + math.atan2(miss, r)
        v = rng.uniform(*SKIM_SPEED)
        flick = Flick("s", float(math.remainder(direction, 2 * math.pi)), v * m,
                      offset=float(rng.uniform(-0.2, 0.2)), height=float(rng.uniform(0.3, 0.6)))  # fmt: skip
        return Shot(family, (("s", x, y, float(at), int(rng.integers(1, 7))),), flick)
    if family == "hit":
        # a striker on a circle west of centre, the target gap ahead of it, off-line up to a die
        x, y = rng.uniform(-0.1, -0.04), rng.uniform(-0.06, 0.06)
        direction = rng.uniform(-0.5, 0.5)
        gap = rng.uniform(*HIT_GAP)
        side = rng.uniform(-0.9, 0.9) * a
        c, s = math.cos(direction), math.sin(direction)
        tx, ty = x + gap * c - side * s, y + gap * s + side * c
        v = rng.uniform(*HIT_SPEED)
        flick = Flick("s", float(direction), v * m, offset=float(rng.uniform(-0.3, 0.3)),
                      height=float(rng.uniform(0.3, 0.6)))  # fmt: skip
        dice = (
            ("s", x, y, float(direction + rng.uniform(-0.3, 0.3)), int(rng.integers(1, 7))),
            ("t", tx, ty, float(rng.uniform(-0.8, 0.8)), int(rng.integers(1, 7))),
        )
        return Shot(family, dice, flick)
    raise ValueError(f"unknown shot family {family!r} (one of {', '.join(FAMILIES)})")


def run_shot(shot: Shot, board: BoardSpec, params: PhysicsParams, seed: int) -> ShotEnd | None:
    """The shot's end at ``params``' resolution, or None if the flick is not fair there."""
    w = World(board, params, rng=np.random.default_rng([4001, seed]))
    for die_id, x, y, angle, face in shot.dice:
        w.add_die(die_id, x, y, angle=angle, face=face)
    if w.check_flick(shot.flick) is not None:
        return None
    w.apply_flick(shot.flick)
    w.run_until_rest(MAX_TIME)
    contacts = frozenset(
        tuple(sorted(e.dice))
        for e in w.events
        if e.type == COLLISION and e.data.get("kind") == "die" and len(e.dice) == 2
    )
    ends = tuple(DieEnd(s.id, s.status, s.face, s.x, s.y, s.angle) for s in w.states())
    return ShotEnd(ends, contacts, _overlapping(w, params))


def _overlapping(w: World, params: PhysicsParams) -> bool:
    """Two dice at rest on the board at the same level inside each other by more than a tenth of
    a millimetre (a missed contact).  The dice are rounded squares (a square of side a - 2r grown by
    r, the Chipmunk shape): a die resting with its rounded corner on another's face lies up to
    (sqrt 2 - 1) r = 0.41 mm inside the other's sharp square, and is not a missed contact."""
    on = [s for s in w.states() if s.status == "on_board" and s.on_die is None]
    r = params.die_edge_radius
    inner = 0.5 * params.die_size - r
    for i, s in enumerate(on):
        for o in on[i + 1 :]:
            if s.on_platform != o.on_platform:
                continue
            if _core_gap(s, o, inner) < 2.0 * r - 1e-4:
                return True
    return False


def _corners(s: DieState, half: float) -> list[tuple[float, float]]:
    """A die's square of half side ``half``, corners counter-clockwise."""
    c, n = math.cos(s.angle), math.sin(s.angle)
    return [
        (s.x + half * (u * c - v * n), s.y + half * (u * n + v * c))
        for u, v in ((1, 1), (-1, 1), (-1, -1), (1, -1))
    ]


def _separated(ps: list[tuple[float, float]], po: list[tuple[float, float]]) -> bool:
    """Two convex counter-clockwise polygons lie apart: one's edge has the other wholly outside."""
    for poly, other in ((ps, po), (po, ps)):
        for k in range(len(poly)):
            (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % len(poly)]
            nx, ny = y1 - y0, x0 - x1  # outward: right of a counter-clockwise edge
            if all((px - x0) * nx + (py - y0) * ny > 0.0 for px, py in other):
                return True
    return False


def _core_gap(s: DieState, o: DieState, half: float) -> float:
    """Distance (m) between two dice's inner squares (half side ``half``), 0 if they overlap."""
    ps, po = _corners(s, half), _corners(o, half)
    if not _separated(ps, po):
        return 0.0
    return min(
        _point_segment(p, poly[k], poly[(k + 1) % 4])
        for poly, other in ((ps, po), (po, ps))
        for p in other
        for k in range(4)
    )


def _point_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / (ax * ax + ay * ay)))
    return math.hypot(p[0] - a[0] - t * ax, p[1] - a[1] - t * ay)


@dataclass(frozen=True)
class ShotComparison:
    shots: int
    dice: int
    agree: float  # share of dice whose status and face (on the board) are the reference's
    p90_position: float  # m, over the dice that agree and rest on the board
    p90_angle: float  # rad, the same dice
    missed_contacts: int  # shots where a pair touched in the reference only, or rests overlapping
    worst: tuple[int, ...]  # indices of the shots with a die that disagrees (the first ten)

    def table(self) -> str:
        return "\n".join(
            [
                "| shots | dice | status & face agree | p90 rest error | p90 angle error | missed contacts |",
                "|---|---|---|---|---|---|",
                f"| {self.shots} | {self.dice} | {100 * self.agree:.1f} % | "
                f"{1e3 * self.p90_position:.2f} mm | {math.degrees(self.p90_angle):.2f} deg | "
                f"{self.missed_contacts} |",
            ]
        )


def _paired(
    family: str,
    base: PhysicsParams,
    seeds: Sequence[int],
    run_a: Callable[[Shot, int], ShotEnd | None],
    run_b: Callable[[Shot, int], ShotEnd | None],
    progress: Callable[[int], None] | None,
) -> list[tuple[ShotEnd, ShotEnd]]:
    """(run_a, run_b) of shot ``seed`` of ``family`` for every seed where both are fair."""
    out = []
    for k, seed in enumerate(seeds):
        shot = draw_shot(family, np.random.default_rng([7001, seed]), base)
        a, b = run_a(shot, seed), run_b(shot, seed)
        if a is not None and b is not None:
            out.append((a, b))
        if progress is not None:
            progress(k + 1)
    return out


def run_pairs(
    family: str,
    board: BoardSpec,
    base: PhysicsParams,
    seeds: Sequence[int],
    refine: tuple[int, int] = (1, 4),
    progress: Callable[[int], None] | None = None,
) -> list[tuple[ShotEnd, ShotEnd]]:
    """Shot ``seed`` of ``family`` at both resolutions, for every seed where it is fair at both."""
    pa, pb = replace(base, refine=refine[0]), replace(base, refine=refine[1])
    return _paired(
        family, base, seeds,
        lambda shot, seed: run_shot(shot, board, pa, seed),
        lambda shot, seed: run_shot(shot, board, pb, seed),
        progress,
    )  # fmt: skip


def moved(shot: Shot, distance: float, rng: np.random.Generator) -> Shot:
    """``shot`` with its last die (the target, or the lone die) moved ``distance`` (m) in a
    direction drawn from ``rng``."""
    at = rng.uniform(0.0, 2.0 * math.pi)
    die_id, x, y, angle, face = shot.dice[-1]
    last = (die_id, x + distance * math.cos(at), y + distance * math.sin(at), angle, face)
    return Shot(shot.family, (*shot.dice[:-1], last), shot.flick)


def run_moved_pairs(
    family: str,
    board: BoardSpec,
    base: PhysicsParams,
    seeds: Sequence[int],
    refine: int,
    distance: float,
    progress: Callable[[int], None] | None = None,
) -> list[tuple[ShotEnd, ShotEnd]]:
    """The hand's floor: shot ``seed`` of ``family`` at ``refine`` with its last die moved
    ``distance`` (m) against the same shot unmoved, for every seed where both are fair.  For the
    default resolution's own pairs see :func:`run_pairs`."""
    params = replace(base, refine=refine)
    return _paired(
        family, base, seeds,
        lambda shot, seed: run_shot(
            moved(shot, distance, np.random.default_rng([7003, seed])), board, params, seed
        ),
        lambda shot, seed: run_shot(shot, board, params, seed),
        progress,
    )  # fmt: skip


def compare(pairs: Sequence[tuple[ShotEnd, ShotEnd]]) -> ShotComparison:
    """Each pair (the default, the reference), die by die."""
    dice = agree = missed = 0
    pos, ang, worst = [], [], []
    for k, (a, b) in enumerate(pairs):
        ref = {d.id: d for d in b.dice}
        bad = False
        for d in a.dice:
            r = ref[d.id]
            dice += 1
            same = d.status == r.status and (d.status != "on_board" or d.face == r.face)
            if not same:
                bad = True
                continue
            agree += 1
            if d.status == "on_board":
                pos.append(math.hypot(d.x - r.x, d.y - r.y))
                ang.append(abs(math.remainder(d.angle - r.angle, 2 * math.pi)))
        if bad and len(worst) < 10:
            worst.append(k)
        if (b.contacts - a.contacts) or a.overlapping:
            missed += 1
    return ShotComparison(
        shots=len(pairs),
        dice=dice,
        agree=agree / dice if dice else 1.0,
        p90_position=float(np.percentile(pos, 90)) if pos else 0.0,
        p90_angle=float(np.percentile(ang, 90)) if ang else 0.0,
        missed_contacts=missed,
        worst=tuple(worst),
    )
