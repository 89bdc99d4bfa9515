"""Physics speed: (1) per-step cost of the full model vs a bare pymunk Space with the same 24 bodies,
same run; (2) real-time factor of a 24-dice break (hard flick into a packed cluster, run to rest).

Run: ``python benchmarks/bench_physics.py [--repeat N]``.  Prints a small table; exit code 0.
Timings on a shared machine are noisy: the ratio (same process, interleaved runs) is the figure to quote.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import pymunk

from jamsumo_sim.board import load_board
from jamsumo_sim.flick import Flick
from jamsumo_sim.params import PhysicsParams
from jamsumo_sim.world import World, die_body

GOAL_RATIO = 3.0
GOAL_RTF = 100.0


def break_world(board, params) -> World:
    """23 dice packed in a jittered 5 x 5 block north of the hole, and a striker to its west: 24 dice."""
    rng = np.random.default_rng(2026)
    w = World(board, params)
    pitch = params.die_size * 1.2
    k = 0
    for i in range(5):
        for j in range(5):
            if k == 23:
                break
            x = (i - 2) * pitch + rng.uniform(-3e-4, 3e-4)
            y = 0.09 + (j - 2) * pitch + rng.uniform(-3e-4, 3e-4)
            w.add_die(f"d{k}", x, y, angle=float(rng.uniform(-0.2, 0.2)), face=3)
            k += 1
    w.add_die("striker", -0.15, 0.085, face=3)
    return w


def hard_flick(params) -> Flick:
    return Flick("striker", 0.03, 4.0 * params.die_mass)  # 4 m/s, slightly off the block's axis


def bare_space(world: World) -> pymunk.Space:
    """A plain pymunk Space with the same 24 bodies and shapes (state copied), no model around it."""
    p = world.params
    s = pymunk.Space()
    s.iterations = p.solver_iterations
    s.collision_slop = p.collision_slop
    for st in world.states():
        if st.status != "on_board":
            continue
        s.add(*die_body(p, st.x, st.y, st.angle, st.vx, st.vy, st.omega))
    return s


def run_block(board, params, k: int) -> tuple[float, float, float, int]:
    """K breaks: CPU seconds per break of the full model and of the bare Space (same number of
    collision steps from the same launch), simulated seconds to rest, model steps."""
    worlds = [break_world(board, params) for _ in range(k)]
    for w in worlds:
        w.apply_flick(hard_flick(params))
    bares = [bare_space(w) for w in worlds]
    t0 = time.process_time()
    results = [w.run_until_rest(30.0) for w in worlds]
    t_full = (time.process_time() - t0) / k
    res = results[0]
    n = res.steps * params.collision_substeps
    sub = params.dt / params.collision_substeps
    t0 = time.process_time()
    for bare in bares:
        for _ in range(n):
            bare.step(sub)
    t_bare = (time.process_time() - t0) / k
    return t_full, t_bare, res.time_to_rest, res.steps


def measure(board, params, repeat: int, k: int):
    run_block(board, params, 1)  # warm-up: loads the compiled kernels, fills caches
    rows = [run_block(board, params, k) for _ in range(repeat)]
    full = statistics.median(r[0] for r in rows)
    bare = statistics.median(r[1] for r in rows)
    ratio = statistics.median(r[0] / r[1] for r in rows)
    return full, bare, ratio, rows[0][2], rows[0][3]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="timed blocks per setting (median)")
    ap.add_argument("--breaks", type=int, default=8, help="breaks per timed block")
    args = ap.parse_args(argv)
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    configs = [
        (f"default: dt {base.dt * 1e3:g} ms x {base.collision_substeps}", base),
        ("dt 1 ms x 1", base.with_overrides({"dt": 0.001, "collision_substeps": 1})),
        ("dt 4 ms x 4", base.with_overrides({"dt": 0.004, "collision_substeps": 4})),
    ]
    print(
        "jamsumo physics benchmark: 24-dice break (4 m/s striker into a packed block), run to rest"
    )
    print(
        f"CPU time of this process (time.process_time); median of {args.repeat} blocks of "
        f"{args.breaks} breaks"
    )
    head = f"  {'setting':22s} {'steps':>6s} {'sim s':>6s} {'us/step':>8s} {'bare us':>8s}"
    print(head + f" {'ratio':>7s} {'RTF':>7s}")
    for name, params in configs:
        full, bare, ratio, sim, steps = measure(board, params, args.repeat, args.breaks)
        print(
            f"  {name:22s} {steps:6d} {sim:6.3f} {full / steps * 1e6:8.1f} {bare / steps * 1e6:8.1f}"
            f" {ratio:7.2f} {sim / full:7.1f}"
        )
    print(f"  goals: step-cost ratio full/bare <= {GOAL_RATIO:g}, real-time factor >= {GOAL_RTF:g}")
    print("  (bare = a plain pymunk Space with the same 24 bodies stepped the same number of")
    print("   collision steps from the same launch; it has no friction, hole, edge or events;")
    print("   us/step and bare us are per model step, i.e. per collision_substeps collision steps)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
