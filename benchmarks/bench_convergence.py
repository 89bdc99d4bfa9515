"""The default resolution against the converged reference, by distribution (physics.md s9.1).

For each break kind: N jittered breaks at ``refine = 1`` (the game), at ``refine = R`` (the
reference, ``--reference``, default 8: the converged one on model 0.8) on other seeds, at ``refine = R`` again on a third seed
set (the noise floor) and, with ``--check``, at ``refine = 2R`` (is R enough?).  Prints each
comparison's table and CPU time.

    python benchmarks/bench_convergence.py --n 400 [--kinds centred,high] [--reference 8] [--check]
        [--json F]
"""

from __future__ import annotations

import argparse
import json
import time

from tqdm import tqdm

from jamsumo_sim import convergence as cv
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import warm_up


def sample(kind, board, params, seeds, label):
    bar = tqdm(total=len(seeds), desc=f"{kind} {label}", leave=False)
    t = time.process_time()
    out = cv.run_breaks(kind, board, params, seeds, progress=lambda k: bar.update(1))
    bar.close()
    return out, time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--kinds", default=",".join(cv.KINDS))
    ap.add_argument("--reference", type=int, default=8)
    ap.add_argument("--check", action="store_true", help="also refine = 2 x the reference")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    warm_up()
    n = args.n
    report = {}
    for kind in args.kinds.split(","):
        game, t1 = sample(kind, board, cv.refined(base, 1), range(0, n), "refine 1")
        r = args.reference
        ref, t4 = sample(kind, board, cv.refined(base, r), range(n, 2 * n), f"refine {r}")
        ref2, _ = sample(kind, board, cv.refined(base, r), range(2 * n, 3 * n), f"refine {r}'")
        c = cv.compare(game, ref)
        floor = cv.compare(ref2, ref)
        print(f"\n## {kind}: refine 1 vs {r} (N = {n}; CPU {t1:.1f} s vs {t4:.1f} s)")
        print(c.table(floor))
        entry = {"game": c.__dict__, "floor": floor.__dict__, "cpu_1": t1, "cpu_4": t4}
        if args.check:
            fine, t8 = sample(kind, board, cv.refined(base, 2 * r), range(3 * n, 4 * n), "finer")
            c8 = cv.compare(fine, ref)
            print(f"\n## {kind}: refine {2 * r} vs {r} (CPU {t8:.1f} s)")
            print(c8.table(floor))
            entry["r8"] = c8.__dict__
        report[kind] = entry
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
