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


# Where the default stands on model 0.18 against refine 8 (N = 400): True = meets (a)-(c).  A change
# of physics that moves one fails here with the figures, so the table (and docs/physics.md
# "Resolution", "The kinds struck by a hand") is updated with it.  From model 0.18 the striker is
# struck as a hand at the table strikes (convergence.striking_hand): at one exact strike the verdict
# was chance (model 0.17's hard spin met the criteria aimed 0.03 rad off the normal, failed at 0.0
# and 0.06).
EXPECTED: dict[str, bool] = {
    # class TV 0.050 (floor 0.053), off-board 0.035 (bound 0.058), displacement +0.8 %, time to rest
    # -0.6 % (every p 1)
    "centred": True,
    # class TV 0.033 (floor 0.061), on-die 0.020, -0.3 % / +0.7 % (every p 1).  Struck at one aim
    # (model 0.18's pad heads the striker -8 deg, -81 rad/s, as the 3D pad does) it failed: the
    # block's corner die d0 went into the hole in 7 % of breaks at the default, 2.5 % at refine 8
    "hard_spin": True,
    # class TV 0.055 (floor 0.046), off-board 0.045 (bound 0.062), -0.0 % / +1.3 % (smallest p 0.75)
    "high": True,
    # fails (c) only: displacement -4.5 % (limit 3 %; KS p 0.52), time to rest -2.6 %, class TV
    # 0.082 (floor 0.075).  One set of 400 against one set of 400 is chance here: the mean
    # displacement of a set of 400 varies by 1.7 % from set to set (10 sets at refine 8: 0.705 to
    # 0.754 m), and this test's reference set is one of the high ones (0.739 m, the ten's mean
    # 0.730).  Over 8 default sets against those 10 the default is -1.6 % (docs/physics.md "The
    # kinds struck by a hand").  Model 0.17 met (c) at +0.0 % / +2.6 %
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


def test_the_kinds_striker_is_struck_as_a_hand_at_the_table_strikes() -> None:
    """From model 0.18 each break's flick is the aimed one executed with noise.toml's ``table``
    hand, drawn from the break's own jitter after the placement (convergence.striking_hand): one
    seed, one flick; ``hand="practice"`` is the exact aimed flick.  Over 400 seeds the deviations
    have the table level's spreads (speed 7 %, direction 1.5 deg, offset 0.06, height 0.08), not
    the placement's 0.1 deg."""
    import math

    import numpy as np

    from jamsumo_sim import noise

    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    table = noise.level("table")
    assert cv.striking_hand() == table
    dev = {"speed": [], "angle": [], "offset": [], "height": []}
    for seed in range(400):
        _, struck = cv.build_break("high", board, base, seed)
        _, again = cv.build_break("high", board, base, seed)
        _, aimed = cv.build_break("high", board, base, seed, hand="practice")
        assert struck == again
        assert aimed.impulse == pytest.approx(cv.HIGH_SPEED * base.die_mass, rel=1e-15)
        assert (aimed.offset, aimed.height) == (0.0, 0.8)
        dev["speed"].append(struck.impulse / aimed.impulse - 1.0)
        dev["angle"].append(math.remainder(struck.direction - aimed.direction, 2 * math.pi))
        dev["offset"].append(struck.offset - aimed.offset)
        dev["height"].append(struck.height - aimed.height)
    # 400 draws: a standard deviation within 10 % of the level's (its own sampling error ~3.5 %)
    for name, sigma in (("speed", table.speed), ("angle", table.angle), ("offset", table.offset),
                        ("height", table.height)):  # fmt: skip
        assert np.std(dev[name]) == pytest.approx(sigma, rel=0.1), name
        assert abs(np.mean(dev[name])) < 4 * sigma / 20  # centred: 4 standard errors
