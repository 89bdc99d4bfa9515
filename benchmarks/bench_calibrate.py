"""Calibration benchmark: fit time against the number of shots, and the batched simulation's speed-up.

Run: ``python benchmarks/bench_calibrate.py [--shots 10,20,40] [--starts 3] [--naive]``.

For each N, the first N shots of the SYNTHETIC ``calibration/samples/rest_poses.csv`` are fitted for
mu_board exactly as ``jamsumo calibrate`` does (3 starts, then the angle stage).  Reported: CPU and
wall seconds, simulations (residual evaluations), the fitted value against the truth (0.22), and
per-evaluation times of

* *batched*: all N shots in one World (the calibration's simulator: one vectorised friction kick per
  step for all dice; contacts between shots dropped), and
* *naive*: one World per shot per evaluation (the obvious baseline),

whose ratio is the speed-up; with ``--naive`` the naive simulator also runs the whole fit.  CPU time
(process time) is the headline because the machine may be busy; wall time is shown beside it.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from jamsumo_sim.calibrate import calibrate
from jamsumo_sim.calibration.data import load_all
from jamsumo_sim.calibration.world_sim import WorldSimulator
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import World

SAMPLES = Path(__file__).resolve().parents[1] / "calibration" / "samples"
TRUE_MU = 0.22


class NaiveSimulator(WorldSimulator):
    """Baseline: every shot in its own World, one after another."""

    def rest(self, params, launches):
        out = []
        for row in np.asarray(launches, dtype=float).reshape(-1, 6):
            w = World(self.board, params)
            w.add_die("d", *row[:3], face=1, vx=row[3], vy=row[4], omega=row[5])
            w.run_until_rest(20.0)
            s = w.state("d")
            out.append((s.x, s.y, s.angle))
        return np.asarray(out).reshape(-1, 3)


def _timed(fn, *a, **kw):
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn(*a, **kw)
    return out, time.process_time() - c0, time.perf_counter() - w0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", default="10,20,40")
    ap.add_argument("--starts", type=int, default=3)
    ap.add_argument(
        "--naive", action="store_true", help="also run whole fits with the naive simulator"
    )
    args = ap.parse_args()
    board = load_board(SAMPLES / "plank.toml")
    base = PhysicsParams.from_board(board)
    full = load_all([SAMPLES / "rest_poses.csv"], board)[0]
    truth = base.with_overrides({"mu_board": TRUE_MU, "mu_static": 0.38})
    print(f"{'shots':>5} {'fit cpu s':>9} {'fit wall s':>10} {'sims':>5} {'mu_board':>17} "
          f"{'eval batched s':>14} {'eval naive s':>12} {'speed-up':>8}")  # fmt: skip
    for n in (int(s) for s in args.shots.split(",")):
        data = [replace(full, items=full.items[:n])]
        fast, naive = WorldSimulator(board), NaiveSimulator(board)
        L = np.array(
            [
                [s.launch.x, s.launch.y, s.launch.angle, s.launch.vx, s.launch.vy, s.launch.omega]
                for s in data[0].items
            ]
        )
        _, t_fast, _ = _timed(fast.rest, truth, L)
        _, t_naive, _ = _timed(naive.rest, truth, L)
        cal, cpu, wall = _timed(
            calibrate, data, base, fast, fit_names=["mu_board"], starts=args.starts
        )
        e = cal.estimates["mu_board"]
        print(f"{n:>5} {cpu:>9.2f} {wall:>10.2f} {cal.fit.nfev:>5} {e.value:>8.5f}±{e.stderr:.5f} "
              f"{t_fast:>14.3f} {t_naive:>12.3f} {t_naive / t_fast:>7.1f}x")  # fmt: skip
        if args.naive:
            cal2, cpu2, wall2 = _timed(
                calibrate, data, base, naive, fit_names=["mu_board"], starts=args.starts
            )
            print(f"{'':>5} naive fit: {cpu2:.2f} s cpu, {wall2:.2f} s wall, {cal2.fit.nfev} sims, "
                  f"speed-up {cpu2 / cpu:.1f}x; same value: {abs(cal2.estimates['mu_board'].value - e.value) < 1e-9}")  # fmt: skip


if __name__ == "__main__":
    main()
