"""The default resolution against ``refine = 4`` shot by shot (issue 32 s2 "deterministic shots").

For each family (single, skim, hit): N random fair shots at both resolutions; prints the share of
dice whose status and face agree, the p90 rest-position and rest-angle errors and the missed
contacts, with the CPU time.

    python benchmarks/bench_shot_convergence.py --n 300 [--families single,hit] [--json F]

``--hand UM``: also the hand's floor, the reference against itself with the shot's last die moved
UM micrometres (shot_convergence.run_moved_pairs; 100: a hand's placement).
"""

from __future__ import annotations

import argparse
import json
import time

from tqdm import tqdm

from jamsumo_sim import shot_convergence as sc
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import warm_up


def _measure(n: int, family: str, label: str, run) -> sc.ShotComparison:
    """``run(progress)``'s pairs compared, printed under ``label`` with the CPU time."""
    bar = tqdm(total=n, desc=family, leave=False)
    t = time.process_time()
    c = sc.compare(run(lambda k: bar.update(1)))
    bar.close()
    print(f"\n## {family}: {label} (CPU {time.process_time() - t:.1f} s)")
    print(c.table())
    return c


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--families", default=",".join(sc.FAMILIES))
    ap.add_argument("--refine", type=int, default=1, help="the resolution judged (default 1)")
    ap.add_argument("--reference", type=int, default=4, help="the reference's refine (default 4)")
    ap.add_argument("--hand", type=float, help="also the reference moved this many micrometres")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    warm_up()
    report = {}
    seeds = range(args.n)
    for family in args.families.split(","):
        c = _measure(
            args.n, family, f"refine {args.refine} vs {args.reference}",
            lambda progress, f=family: sc.run_pairs(
                f, board, base, seeds, (args.refine, args.reference), progress=progress
            ),
        )  # fmt: skip
        print(f"shots with a die that disagrees (first ten): {list(c.worst)}")
        report[family] = c.__dict__
        if args.hand is not None:
            label = f"the hand's floor, refine {args.reference} with the last die moved {args.hand:g} um"
            h = _measure(
                args.n, family, label,
                lambda progress, f=family: sc.run_moved_pairs(
                    f, board, base, seeds, args.reference, 1e-6 * args.hand, progress=progress
                ),
            )  # fmt: skip
            report[f"{family}, moved {args.hand:g} um"] = h.__dict__
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
