"""The default resolution against ``refine = 4`` shot by shot (issue 32 s2 "deterministic shots").

For each family (single, skim, hit): N random fair shots at both resolutions; prints the share of
dice whose status and face agree, the p90 rest-position and rest-angle errors and the missed
contacts, with the CPU time.

    python benchmarks/bench_shot_convergence.py --n 300 [--families single,hit] [--json F]
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--families", default=",".join(sc.FAMILIES))
    ap.add_argument("--refine", type=int, default=1, help="the resolution judged (default 1)")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    warm_up()
    report = {}
    for family in args.families.split(","):
        bar = tqdm(total=args.n, desc=family, leave=False)
        t = time.process_time()
        pairs = sc.run_pairs(
            family,
            board,
            base,
            range(args.n),
            (args.refine, 4),
            progress=lambda k, b=bar: b.update(1),
        )
        bar.close()
        c = sc.compare(pairs)
        print(f"\n## {family}: refine {args.refine} vs 4 (CPU {time.process_time() - t:.1f} s)")
        print(c.table())
        print(f"shots with a die that disagrees (first ten): {list(c.worst)}")
        report[family] = c.__dict__
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
