"""Convergence by distribution (issue 32, physics.md s9.1): the game's default step is judged
against a converged reference over N = 400 jittered breaks of four kinds.

The issue named ``refine = 4`` the reference.  On model 0.8 it is not converged: refine 8 against
refine 4 fails criterion (a) on the centred break (displacement -1.6 %, time to rest -3.3 %, KS p
0.007 / 0.005) and on the high one (+2.5 % / +2.8 %, p 1e-38), while refine 16 against refine 8
meets (a)-(c) on all four kinds (benchmarks/bench_convergence.py --reference 8 --check; docs/
physics.md "Resolution").  So the reference here is ``refine = 8``; per kind, three disjoint seed
sets: the default (refine 1), the reference, the reference again (the noise floor).  The
criteria (issue 32 s2):
  (a) no statistic rejects at p < 0.01 after Holm correction;
  (b) every total-variation distance <= 1.5 x the floor + 0.02;
  (c) mean displacement within 3 %, mean time to rest within 5 %.
Where the default stands is recorded in EXPECTED: the test fails, with the figures, whenever a
change of physics moves it (docs/physics.md "Resolution" explains each).
"""

from __future__ import annotations

import pytest

from jamsumo_sim import convergence as cv
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams

N = 400
ALPHA = 0.01
REFERENCE = 8


def failures(c: cv.Comparison, floor: cv.Comparison) -> list[str]:
    """The criteria (a)-(c) that ``c`` breaks, as readable lines."""
    out = []
    for name, p in c.p_holm.items():
        if p < ALPHA:
            out.append(f"{name}: rejected, p {p:.2g} after Holm")
    for name, tv in c.tv.items():
        bound = 1.5 * floor.tv[name] + 0.02
        if tv > bound:
            out.append(f"{name}: TV {tv:.3f} > {bound:.3f}")
    for name, limit in (("displacement", 0.03), ("time_to_rest", 0.05)):
        if abs(c.mean_rel[name]) > limit:
            out.append(f"{name}: mean {100 * c.mean_rel[name]:+.1f} % (limit {100 * limit:g} %)")
    return out


# Where the default stands on model 0.9 against refine 8 (N = 400): True = meets (a)-(c).  A change
# of physics that moves one fails here with the figures, so the table (and docs/physics.md
# "Resolution") is updated with it.
EXPECTED: dict[str, bool] = {
    "centred": True,  # displacement -1.0 %, smallest p 0.031
    # class TV 0.090 (bound 0.032), off-board 0.062 (bound 0.031), on-die 0.085 (bound 0.020):
    # contacts met up to a sweep deep and spinning dice meeting twice (docs/physics.md)
    "hard_spin": False,
    "high": True,  # displacement -0.4 %, time to rest -0.1 % (model 0.8: +1.9 % / +6.6 %)
    # off-board TV 0.028 against its bound 0.0275 (floor 0.005, p 1): at the edge since the hop
    # energy fixes (f361bb9, ba76a5a); before them it met (class TV 0.048, +1.1 % / -2.3 %)
    "scattered": False,
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", cv.KINDS)
def test_the_default_against_the_reference(kind: str) -> None:
    board = load_board("standard")
    base = PhysicsParams.from_board(board)

    def sample(refine: int, block: int) -> list[cv.BreakOutcome]:
        seeds = range(block * N, (block + 1) * N)
        return cv.run_breaks(kind, board, cv.refined(base, refine), seeds)

    ref, ref2 = sample(REFERENCE, 1), sample(REFERENCE, 2)
    floor = cv.compare(ref2, ref, seed=1)
    default = cv.compare(sample(1, 0), ref, seed=3)
    broken = failures(default, floor)
    assert (not broken) == EXPECTED[kind], (
        f"the default vs refine {REFERENCE} on {kind} breaks now "
        f"{'meets' if not broken else 'breaks'} the criteria ({'; '.join(broken) or 'all met'}):\n"
        f"{default.table(floor)}"
    )
