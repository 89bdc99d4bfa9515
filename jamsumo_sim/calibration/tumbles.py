"""Fit the tumbling and hopping parameters to filmed flicks by matching robust summaries.

Exact quarter-turn counts are chaotic once a die hops (a landing angle decides whether the next face
tips over), so single shots are not compared. The filmed shots are grouped in bins of launch speed
and strike height, and each bin's mean travel, mean log(1 + quarter turns) and hop fraction are
compared with the same shots simulated (the recorded speed, height, offset, start and direction;
one World per shot, seeded from the caller's seed, so an evaluation is deterministic). The cost is
the sum of the squared differences in units of the data's standard error of each mean; a coarse
grid over the parameters' ranges, then a finer grid around its best point, minimises it (the cost
is piecewise constant at small scales, which derivative-based fits cannot handle).

Identifiable from such data (docs/physics.md "Tumbling and rolling", "Hops and flight"):
``mu_landing`` (a slide turned into quarter turns: travel and counts of mid-speed high flicks) and
``hop_lift`` (how high and how often a hard high flick flies). ``mu_pitch`` and
``restitution_landing`` barely move these summaries on the standard parameters; they can be
fitted (``--fit``) but expect wide uncertainties.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..physics.board import BoardSpec
from ..physics.flick import Flick
from ..physics.params import PhysicsParams
from ..world import World
from .data import TumbleShot
from .limits import MAX_SHOT_SECONDS

# Parameter ranges the grid searches (the physical range of each, docs/physics.md).
TUMBLE_FITTABLE: dict[str, tuple[float, float]] = {
    "mu_landing": (0.1, 1.2),
    "hop_lift": (0.15, 1.0),
    "mu_pitch": (0.05, 0.8),
    "restitution_landing": (0.1, 0.6),
}
DEFAULT_NAMES = ("mu_landing", "hop_lift")

# Bins of launch speed (m/s) and strike height (fraction of the face): edges between bins.
SPEED_EDGES = (1.5, 2.5, 3.5)
HEIGHT_EDGES = (0.75, 0.9)
MIN_BIN_SHOTS = 3  # a bin with fewer shots says nothing about a mean; it is left out
# Floors of the standard errors (a bin whose shots all agree still has measuring error).
SE_FLOOR = {"travel": 0.01, "turns": 0.05, "hops": 0.05}  # m, log(1 + turns), fraction
GRID_POINTS = {1: 9, 2: 5, 3: 3, 4: 3}  # grid points per parameter, by the number fitted
REFINE_SHRINK = 0.25  # the fine grid spans this fraction of the coarse grid's span


@dataclass(frozen=True)
class Outcome:
    """What one simulated flick did."""

    quarter_turns: int
    travel: float
    hopped: bool
    face: int


@dataclass(frozen=True)
class TumbleFit:
    """The outcome of :func:`fit_tumbles`."""

    names: tuple[str, ...]
    values: tuple[float, ...]
    stderr: tuple[float, ...]  # from the cost's profile (the grid's resolution at least)
    cost: float  # the summed squared z-scores at the best point
    bins: int  # bins compared
    evaluations: int
    shots: int


def simulate(shot: TumbleShot, params: PhysicsParams, board: BoardSpec, seed: int) -> Outcome:
    """One filmed flick simulated on an empty board with ``params``."""
    world = World(board, params, rng=np.random.default_rng(seed))
    world.add_die("d", shot.x, shot.y, 0.0, face=1)
    world.apply_flick(
        Flick("d", shot.direction, params.die_mass * shot.speed, shot.offset, shot.height)
    )
    world.run_until_rest(MAX_SHOT_SECONDS)
    st = world.state("d")
    turns = sum(1 for e in world.events if e.type == "tumble")
    hopped = any(e.type == "hop" for e in world.events)
    return Outcome(turns, math.hypot(st.x - shot.x, st.y - shot.y), hopped, st.face)


def _bin_of(shot: TumbleShot) -> tuple[int, int]:
    return (
        sum(shot.speed > e for e in SPEED_EDGES),
        sum(shot.height > e for e in HEIGHT_EDGES),
    )


@dataclass(frozen=True)
class _Summary:
    """Per-bin means of the data, their standard errors, and which shots fall in each bin."""

    members: tuple[tuple[int, ...], ...]
    means: np.ndarray  # (bins, 3): travel, log(1 + turns), hop fraction
    errors: np.ndarray  # (bins, 3)


def _stats(travel: np.ndarray, turns: np.ndarray, hops: np.ndarray) -> np.ndarray:
    return np.array([travel.mean(), np.log1p(turns).mean(), hops.mean()])


def summarise(shots: Sequence[TumbleShot]) -> _Summary:
    groups: dict[tuple[int, int], list[int]] = {}
    for i, s in enumerate(shots):
        groups.setdefault(_bin_of(s), []).append(i)
    members, means, errors = [], [], []
    floors = np.array([SE_FLOOR["travel"], SE_FLOOR["turns"], SE_FLOOR["hops"]])
    for key in sorted(groups):
        idx = groups[key]
        if len(idx) < MIN_BIN_SHOTS:
            continue
        travel = np.array([shots[i].travel for i in idx])
        turns = np.array([shots[i].quarter_turns for i in idx], dtype=float)
        hops = np.array([shots[i].hopped for i in idx], dtype=float)
        spread = np.array([travel.std(ddof=1), np.log1p(turns).std(ddof=1), hops.std(ddof=1)])
        members.append(tuple(idx))
        means.append(_stats(travel, turns, hops))
        errors.append(np.maximum(spread / math.sqrt(len(idx)), floors))
    return _Summary(tuple(members), np.array(means), np.array(errors))


class TumbleProblem:
    """The cost of a parameter vector: simulated bin means against the data's, in standard errors."""

    def __init__(
        self,
        shots: Sequence[TumbleShot],
        base: PhysicsParams,
        board: BoardSpec,
        names: Sequence[str],
        seed: int = 0,
        on_eval: Callable[[], None] | None = None,
    ) -> None:
        self.shots = tuple(shots)
        self.base, self.board, self.names, self.seed = base, board, tuple(names), seed
        self.summary = summarise(self.shots)
        self.on_eval = on_eval
        self.evaluations = 0
        # only shots in a compared bin are simulated
        self._used = sorted({i for m in self.summary.members for i in m})

    def params_at(self, values: Sequence[float]) -> PhysicsParams:
        return self.base.with_overrides(dict(zip(self.names, map(float, values), strict=True)))

    def outcomes(self, values: Sequence[float]) -> dict[int, Outcome]:
        params = self.params_at(values)
        return {i: simulate(self.shots[i], params, self.board, self.seed + i) for i in self._used}

    def cost(self, values: Sequence[float]) -> float:
        sims = self.outcomes(values)
        self.evaluations += 1
        if self.on_eval is not None:
            self.on_eval()
        total = 0.0
        for k, idx in enumerate(self.summary.members):
            travel = np.array([sims[i].travel for i in idx])
            turns = np.array([sims[i].quarter_turns for i in idx], dtype=float)
            hops = np.array([sims[i].hopped for i in idx], dtype=float)
            z = (_stats(travel, turns, hops) - self.summary.means[k]) / self.summary.errors[k]
            total += float(np.sum(z * z))
        return total


def _grid(centre: Sequence[float], spans: Sequence[float], names: Sequence[str], n: int):
    axes = []
    for c, span, name in zip(centre, spans, names, strict=True):
        lo, hi = TUMBLE_FITTABLE[name]
        a, b = max(lo, c - span / 2), min(hi, c + span / 2)
        axes.append(np.linspace(a, b, n) if n > 1 else np.array([c]))
    return [tuple(float(v) for v in p) for p in itertools.product(*axes)]


def fit_tumbles(problem: TumbleProblem) -> TumbleFit:
    """Coarse grid over the ranges, then a finer grid around the best point."""
    names = problem.names
    n = GRID_POINTS[len(names)]
    ranges = [TUMBLE_FITTABLE[k] for k in names]
    centre = [(lo + hi) / 2 for lo, hi in ranges]
    spans = [hi - lo for lo, hi in ranges]
    seen: dict[tuple[float, ...], float] = {}

    def run(points: list[tuple[float, ...]]) -> None:
        for p in points:
            if p not in seen:
                seen[p] = problem.cost(p)

    run(_grid(centre, spans, names, n))
    best = min(seen, key=lambda p: (seen[p], p))
    fine = [s * REFINE_SHRINK for s in spans]
    run(_grid(best, fine, names, n))
    best = min(seen, key=lambda p: (seen[p], p))
    low = seen[best]
    # the profile: every evaluated point within one unit of the minimum (Δχ² = 1) along each axis,
    # never less than half the fine grid's step
    stderr = []
    for k in range(len(names)):
        close = [p[k] for p, c in seen.items() if c <= low + 1.0]
        step = fine[k] / max(1, n - 1)
        stderr.append(max((max(close) - min(close)) / 2, step / 2))
    return TumbleFit(
        names=tuple(names),
        values=best,
        stderr=tuple(stderr),
        cost=low,
        bins=len(problem.summary.members),
        evaluations=problem.evaluations,
        shots=len(problem.shots),
    )
