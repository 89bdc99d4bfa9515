"""Convergence by distribution (physics.md s9.1): jittered breaks at one resolution against another.

A 24-dice break is chaotic: a 0.1 mm change of the striker ends it differently, so two resolutions
are compared by the distributions of what breaks do, not break by break.  :func:`run_breaks` runs
``n`` breaks of one kind, each with the striker placed to a hand's precision (position sigma 0.1 mm,
aim sigma 0.1 deg), struck as a hand at the table strikes (:func:`striking_hand`: assets/
noise.toml's ``table`` level, the speed, direction, offset and height) and with its own chance seed,
and returns one :class:`BreakOutcome` per break.
:func:`compare` tests two samples: permutation total-variation distance for classes and counts, the
two-sample KS test for continuous quantities, Holm's correction over all of them, and the relative
difference of the means.  The reference against itself on disjoint seeds is the noise floor; each
comparison also holds each distance's mean over the permutations (:attr:`Comparison.tv_null`): for
the reference against itself, the floor over every split of its pooled breaks, not the one split
the seeds give (docs/physics.md "Resolution").

Used by tests/physics/test_convergence.py and benchmarks/bench_convergence.py.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from . import noise
from .physics.board import BoardSpec
from .physics.flick import Flick
from .physics.params import PhysicsParams
from .world import World

KINDS = ("centred", "hard_spin", "high", "scattered")
POSITION_JITTER = 1e-4  # m: a hand's placement (physics.md s9.1)
AIM_JITTER = math.radians(0.1)  # rad
MAX_TIME = 20.0  # s: every break of these kinds rests well before
HIGH_SPEED = 2.5  # m/s: the high break's launch (build_break)


@dataclass(frozen=True)
class BreakOutcome:
    """What one break did: where the dice ended, which faces show, how far they went, how long."""

    hole: int
    off: int
    platform: int
    on_die: int
    faces: tuple[int, ...]  # the top face of every die still on the board (any order)
    displacement: float  # m: the sum over dice of start-to-end distance (removed dice included)
    time_to_rest: float  # s

    @property
    def outcome_class(self) -> tuple[int, int, int, int]:
        return (self.hole, self.off, self.platform, self.on_die)


def packed_block(w: World, rng: np.random.Generator, params: PhysicsParams) -> None:
    """23 dice packed in a jittered 5 x 5 block north of the hole (benchmarks/bench_physics.py)."""
    gap = params.die_size * 1.2
    k = 0
    for i in range(5):
        for j in range(5):
            if k == 23:
                return
            x = (i - 2) * gap + rng.uniform(-3e-4, 3e-4)
            y = 0.09 + (j - 2) * gap + rng.uniform(-3e-4, 3e-4)
            w.add_die(f"d{k}", x, y, angle=float(rng.uniform(-0.2, 0.2)), face=3)
            k += 1


# The scattered layout: fixed positions around the hole and towards the east edge, so breaks send
# dice into the hole and off the board (x, y in m; all on the standard board's flat or bowl).
_SCATTER = (
    (0.03, 0.0), (0.055, 0.02), (0.06, -0.025), (0.09, 0.0), (0.12, 0.03), (0.13, -0.03),
    (0.16, 0.0), (0.18, 0.045), (0.19, -0.05), (-0.02, 0.035), (0.0, -0.04), (0.1, 0.07),
)  # fmt: skip


def striking_hand() -> noise.NoiseLevel:
    """How the kinds' striker is struck: as a hand at the table strikes (noise.toml's ``table``
    level: its speed, direction, offset and height).  At one exact strike the kinds' verdict was
    chance: model 0.17's hard spin met the criteria aimed 0.03 rad off the normal and failed at 0.0
    and 0.06, and the 3D pad at offset 0.5 turns 20 deg of aim into only 4.9 deg of heading, so an
    aim's jitter alone samples one meeting of the block (docs/physics.md "Resolution")."""
    return noise.level("table")


def build_break(
    kind: str,
    board: BoardSpec,
    params: PhysicsParams,
    seed: int,
    hand: str | noise.NoiseLevel | None = None,
) -> tuple[World, Flick]:
    """The World and the flick of break ``seed`` of ``kind``: the layout is the same for every seed,
    the striker's position and aim are jittered, the flick executed by ``hand`` (a noise.toml level;
    ``"practice"``: exactly as aimed; by default :func:`striking_hand`) and the World's chance draws
    seeded by ``seed``."""
    w, flick, jitter = _layout(kind, board, params, seed)
    return w, noise.apply(flick, striking_hand() if hand is None else hand, jitter)


def _layout(
    kind: str, board: BoardSpec, params: PhysicsParams, seed: int
) -> tuple[World, Flick, np.random.Generator]:
    """The break's World, its aimed flick and the jitter generator the hand draws from next."""
    if kind not in KINDS:
        raise ValueError(f"unknown break kind {kind!r} (one of {', '.join(KINDS)})")
    jitter = np.random.default_rng([1009, seed])
    w = World(board, params, rng=np.random.default_rng([2003, seed]))
    dx, dy = jitter.normal(0.0, POSITION_JITTER, 2)
    aim = jitter.normal(0.0, AIM_JITTER)
    m = params.die_mass
    if kind == "scattered":
        for k, (x, y) in enumerate(_SCATTER):
            w.add_die(f"d{k}", x, y, angle=0.1 * k, face=1 + k % 6)
        w.add_die("striker", -0.12 + dx, 0.004 + dy, face=3)
        # struck near the face's edge the pad pushes 0.1 off-centre (flick.lever), a light spin: an
        # unspun striker meets its first die face-on, faces a fraction of a degree apart, where the
        # rigid solver's refine 8 is not the physics (docs/physics.md "Nearly parallel faces")
        return w, Flick("striker", aim, finger_speed=2.6, offset=0.475), jitter
    packed_block(w, np.random.default_rng(2026), params)
    w.add_die("striker", -0.15 + dx, 0.085 + dy, face=3)
    offset = 0.5 if kind == "hard_spin" else 0.0
    if kind == "high":
        # struck high it leaves the board at the strike; at 4 m/s it clears the whole block at
        # every resolution (nothing to compare), at 2.5 m/s it comes down tumbling into it
        return w, Flick("striker", 0.03 + aim, HIGH_SPEED * m, offset=0.0, height=0.8), jitter
    return w, Flick("striker", 0.03 + aim, 4.0 * m, offset=offset, height=0.5), jitter


def run_break(kind: str, board: BoardSpec, params: PhysicsParams, seed: int) -> BreakOutcome:
    w, flick = build_break(kind, board, params, seed)
    start = {s.id: (s.x, s.y) for s in w.states()}
    w.apply_flick(flick)
    result = w.run_until_rest(MAX_TIME)
    hole = off = platform = on_die = 0
    faces = []
    moved = 0.0
    for s in w.states():
        x0, y0 = start[s.id]
        moved += math.hypot(s.x - x0, s.y - y0)
        if s.status == "in_hole":
            hole += 1
        elif s.status == "off_board":
            off += 1
        else:
            faces.append(s.face)
            platform += s.on_platform is not None
            on_die += s.on_die is not None
    return BreakOutcome(hole, off, platform, on_die, tuple(faces), moved, result.time_to_rest)


def run_breaks(
    kind: str,
    board: BoardSpec,
    params: PhysicsParams,
    seeds: Sequence[int],
    progress: Callable[[int], None] | None = None,
) -> list[BreakOutcome]:
    out = []
    for k, seed in enumerate(seeds):
        out.append(run_break(kind, board, params, seed))
        if progress is not None:
            progress(k + 1)
    return out


def refined(params: PhysicsParams, k: int) -> PhysicsParams:
    return replace(params, refine=k)


# --- statistics ---------------------------------------------------------------------------------


def tv_distance(a: Sequence, b: Sequence) -> float:
    """Total-variation distance between the empirical distributions of two samples of labels."""
    ca, cb = Counter(a), Counter(b)
    na, nb = len(a), len(b)
    return 0.5 * sum(abs(ca[k] / na - cb[k] / nb) for k in set(ca) | set(cb))


def permutation_tv(
    a: Sequence, b: Sequence, rng: np.random.Generator, rounds: int = 2000
) -> tuple[float, float, float]:
    """(TV distance, permutation p-value, mean TV over the permutations) of two samples of
    labels.  The last is the distance two samples of these sizes have from chance alone, when
    both come from the pooled distribution."""
    observed = tv_distance(a, b)
    labels = {v: i for i, v in enumerate(sorted(set(a) | set(b), key=repr))}
    pooled = np.array([labels[v] for v in (*a, *b)])
    na, k = len(a), len(labels)
    hits = 0
    total = 0.0
    for _ in range(rounds):
        perm = rng.permutation(pooled)
        count_a = np.bincount(perm[:na], minlength=k) / na
        count_b = np.bincount(perm[na:], minlength=k) / (len(pooled) - na)
        tv = 0.5 * np.abs(count_a - count_b).sum()
        hits += tv >= observed - 1e-12
        total += tv
    return observed, (hits + 1) / (rounds + 1), total / rounds


def ks_p(a: Sequence[float], b: Sequence[float]) -> float:
    from scipy.stats import ks_2samp

    return float(ks_2samp(np.asarray(a), np.asarray(b)).pvalue)


def holm(pvalues: dict[str, float]) -> dict[str, float]:
    """Holm-adjusted p-values (step-down, monotone), by name."""
    order = sorted(pvalues, key=pvalues.get)
    m = len(order)
    adjusted, running = {}, 0.0
    for i, name in enumerate(order):
        running = max(running, min(1.0, (m - i) * pvalues[name]))
        adjusted[name] = running
    return adjusted


LABELS: dict[str, Callable[[BreakOutcome], object]] = {
    "class": lambda o: o.outcome_class,
    "hole": lambda o: o.hole,
    "off": lambda o: o.off,
    "platform": lambda o: o.platform,
    "on_die": lambda o: o.on_die,
}
# Continuous quantities are compared on a grid at the resolution that means something: the hand's
# 0.1 mm for distances, the game's 2 ms step for times.  Without it a break in which nothing but a
# lone die moves gives point masses, and KS rejects two that differ by 1e-12 m.
DISTANCE_GRID = POSITION_JITTER  # m
TIME_GRID = 0.002  # s
CONTINUOUS: dict[str, Callable[[BreakOutcome], float]] = {
    "displacement": lambda o: DISTANCE_GRID * round(o.displacement / DISTANCE_GRID),
    "time_to_rest": lambda o: TIME_GRID * round(o.time_to_rest / TIME_GRID),
}


def faces(sample: Sequence[BreakOutcome]) -> list[int]:
    return [f for o in sample for f in o.faces]


@dataclass(frozen=True)
class Comparison:
    tv: dict[str, float]  # label statistic -> TV distance (incl. "faces")
    # label statistic -> mean TV over the permutations: the distance chance alone gives two such
    # samples of the pooled breaks (for the reference against itself: the noise floor)
    tv_null: dict[str, float]
    p: dict[str, float]  # every statistic -> raw p-value
    p_holm: dict[str, float]
    mean_rel: dict[str, float]  # continuous statistic -> (mean a - mean b) / mean b

    def table(self, floor: Comparison | None = None) -> str:
        """The comparison as a markdown table; with ``floor`` (the reference against itself) its
        distances beside, and their mean over the reference's splits."""
        rows = [
            "| statistic | TV / mean diff | floor | floor, all splits | p (Holm) |",
            "|---|---|---|---|---|",
        ]
        for name, tv in self.tv.items():
            fl = f"{floor.tv[name]:.3f} | {floor.tv_null[name]:.3f}" if floor else " | "
            rows.append(f"| {name} | {tv:.3f} | {fl} | {self.p_holm[name]:.3g} |")
        for name, rel in self.mean_rel.items():
            fl = f"{100 * floor.mean_rel[name]:+.1f} % | " if floor else " | "
            rows.append(f"| {name} | {100 * rel:+.1f} % | {fl} | {self.p_holm[name]:.3g} |")
        return "\n".join(rows)


def compare(
    a: Sequence[BreakOutcome], b: Sequence[BreakOutcome], seed: int = 0, rounds: int = 2000
) -> Comparison:
    """Sample ``a`` (e.g. the default) against ``b`` (the reference)."""
    rng = np.random.default_rng(seed)
    tv, p, null = {}, {}, {}
    for name, label in LABELS.items():
        tv[name], p[name], null[name] = permutation_tv(
            [label(o) for o in a], [label(o) for o in b], rng, rounds
        )
    # faces are pooled over dice: a permutation of whole breaks keeps their dependence
    tv["faces"], p["faces"], null["faces"] = _faces_test(a, b, rng, rounds)
    mean_rel = {}
    for name, value in CONTINUOUS.items():
        xa, xb = [value(o) for o in a], [value(o) for o in b]
        p[name] = ks_p(xa, xb)
        mean_rel[name] = (np.mean(xa) - np.mean(xb)) / np.mean(xb)
    return Comparison(tv, null, p, holm(p), mean_rel)


def _faces_test(
    a: Sequence[BreakOutcome], b: Sequence[BreakOutcome], rng: np.random.Generator, rounds: int
) -> tuple[float, float, float]:
    observed = tv_distance(faces(a), faces(b))
    counts = np.array([np.bincount(o.faces, minlength=7)[1:] for o in (*a, *b)], dtype=float)
    na = len(a)
    hits = 0
    total = 0.0
    for _ in range(rounds):
        perm = rng.permutation(len(counts))
        ca, cb = counts[perm[:na]].sum(0), counts[perm[na:]].sum(0)
        tv = 0.5 * np.abs(ca / ca.sum() - cb / cb.sum()).sum()
        hits += tv >= observed - 1e-12
        total += tv
    return observed, (hits + 1) / (rounds + 1), total / rounds
