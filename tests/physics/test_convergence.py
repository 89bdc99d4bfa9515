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
  (b) every total-variation distance <= 1.5 x the floor + 0.02, the floor being the reference
      against itself.  The issue takes one split of its seeds; that is one draw of a noisy number:
      refine 8's hard-spin off-board distance came out 0.005 to 0.025 over six splits (the bound
      0.0275 to 0.058), and on model 0.11 one split gave hard spin's on-die floor 0.005 and
      scattered's off-board 0.003 where the mean over all splits is 0.012 and 0.032, failing two
      kinds whose (a) p-values are 0.65 and 1.  So the floor here is that mean: the distance two
      disjoint halves of the reference's 800 breaks have on average over every split
      (Comparison.tv_null), the number the issue's criterion estimates with one split.  How often
      (b) fails the reference judged against itself (model 0.11, 100 random three-way splits of
      1,200 refine-8 breaks per kind into reference, floor and "default"): with one split's floor
      4 % (centred), 4 % (hard spin), 4 % (high), 21 % (scattered); with the mean over all splits
      4 %, 1 %, 2 %, 12 % (docs/physics.md "Resolution").  The table shows both;
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
        bound = 1.5 * floor.tv_null[name] + 0.02
        if tv > bound:
            out.append(f"{name}: TV {tv:.3f} > {bound:.3f}")
    for name, limit in (("displacement", 0.03), ("time_to_rest", 0.05)):
        if abs(c.mean_rel[name]) > limit:
            out.append(f"{name}: mean {100 * c.mean_rel[name]:+.1f} % (limit {100 * limit:g} %)")
    return out


# Where the default stands on model 0.16 against refine 8 (N = 400): True = meets (a)-(c).  A change
# of physics that moves one fails here with the figures, so the table (and docs/physics.md
# "Resolution", "Landings that keep the slide") is updated with it.  (Model 0.14's figures in
# brackets.  Model 0.15's landings keep the slide and bounce on; with them the high break failed
# until the pitched strike's guard kept the tilted impact's rise and a flying die's height band
# took its lowest corner.)
EXPECTED: dict[str, bool] = {
    # class TV 0.020 [0.008] (floor 0.025), on-die 0.012, displacement -0.4 % [-0.3 %], time to rest
    # -1.6 % [-0.3 %] (smallest p 0.018)
    "centred": True,
    # model 0.16 (the pad's lever and grip: the striker at offset 0.5 turns at 0.4 x 6 v 0.125 / a,
    # not 6 v 0.3125 / a): class 0.053 (floor 0.044), off-board 0.017, -0.3 % / +0.5 % (smallest p
    # 0.050).  Model 0.15: class 0.010, -1.0 % / +1.7 % (smallest p 0.011: thin).  Model 0.10
    # failed: on-die 0.073 (p 0.004): a die coming down on a die's edge was put among the dice for a
    # collision step and shoved off it, more often the finer the step
    "hard_spin": True,
    # class TV 0.010 [0.025] (floor 0.060), +0.4 % [+0.8 %] / -0.7 % [+1.7 %] (smallest p 0.24).  The
    # nail's grip (model 0.13) slows the striker's pitch: it meets the block on its edge, tilted, and
    # the tilted impact lifts it at the contact (pitched_strike.pitched_strike), at the same speed at every
    # refine since model 0.15 (pitched_strike._no_energy_made)
    "high": True,
    # model 0.16: class TV 0.078 (floor 0.052, bound 0.098), off-board 0.057, +0.0 % / +2.6 % (smallest
    # p 0.24), the striker struck at 0.475 (the pad's lever 0.1, gripped).  Struck at 0.1 its pad
    # covers the centre: unspun, it meets its first die face-on, and the kind fails (-3.2 % / -5.3 %,
    # p 2.5e-5), refine 8's rigid corners the outlier (tests/reference/test_parallel_hits.py).
    # Model 0.15: class TV 0.045 (floor 0.028), +0.6 % / -1.9 % (p 1).  The finger
    # branch's grip on the finger alone failed here (-5.5 % time to rest): dice on different levels
    # pitched each other from any blow above mid-height; with mu_die's grip they do not
    "scattered": True,
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


def test_the_floor_is_the_mean_distance_of_two_samples_of_the_pooled_breaks() -> None:
    """Comparison.tv_null: two samples of 400 from a pool of 800 with 400 of each of two labels
    differ by 2 |p1 - 1/2|, p1 hypergeometric with variance (1/4)(1/400)(400/799): mean
    2 sqrt(2/pi) sd = 0.0282.  The distance of the two samples themselves plays no part."""
    rng = __import__("numpy").random.default_rng(5)
    for a, b in (([0] * 200 + [1] * 200, [0] * 200 + [1] * 200), ([0] * 300 + [1] * 100,
                 [0] * 100 + [1] * 300)):  # fmt: skip
        _, _, null = cv.permutation_tv(a, b, rng, rounds=4000)
        sd = (0.25 / 400 * 400 / 799) ** 0.5
        assert null == pytest.approx(2 * (2 / 3.141592653589793) ** 0.5 * sd, rel=0.03)
