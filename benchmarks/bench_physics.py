"""Physics speed: (1) CPU cost of 24-dice breaks (4 m/s flick into a packed cluster, run to rest)
with the full model vs a bare pymunk Space with the same 24 bodies stepped at a fixed 1 ms for the
same simulated time; (2) the breaks' real-time factor.  A block runs K breaks with different
jitter of the cluster (a break is chaotic: one layout alone makes the figures a matter of luck).
Breaks with a centred flick and with a hard-spin one (offset 0.5: the pad pushes 0.125 off-centre
and grips the face, ~75 rad/s at 4 m/s; model 0.15's pad pushed at 0.3125, ~470 rad/s), where the swept collision steps (physics.evolve) add steps; "fixed
steps" rows run the default with model 0.3's fixed ``collision_substeps``, "reference" rows the
accuracy tests' fine-step reference, for comparison.

Run: ``python benchmarks/bench_physics.py [--repeat N] [--breaks K]``.  Prints a small table; exit
code 0.  Timings on a shared machine are noisy: every setting runs once per round, rounds repeat,
and the table gives medians; the ratio (same process, same round) is the figure to quote.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

import numpy as np
import pymunk

from jamsumo_sim.convergence import packed_block
from jamsumo_sim.physics import evolve
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import World, die_body, warm_up

GOAL_RATIO = 3.0
GOAL_RTF = 100.0


def break_world(board, params, seed: int = 0) -> World:
    """23 dice packed in a jittered 5 x 5 block north of the hole, and a striker to its west: 24
    dice.  ``seed`` picks the jitter and seeds the World's chance draws (edge-on-edge hops): a
    break is chaotic, each seed ends differently (one generator seed for all would give every
    break the same draws: a hop at the same fast contact of each)."""
    w = World(board, params, rng=np.random.default_rng(7026 + seed))
    packed_block(w, np.random.default_rng(2026 + seed), params)
    w.add_die("striker", -0.15, 0.085, face=3)
    return w


BARE_STEP = 0.001  # s: the bare Space's fixed step (the reference cost)


def hard_flick(params, offset: float = 0.0) -> Flick:
    # 4 m/s, slightly off the block's axis; offset 0.5: the most spin a flick gives (the pad's lever
    # 0.125, gripped: flick.grip_parts)
    return Flick("striker", 0.03, 4.0 * params.die_mass, offset)


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


def run_block(board, params, k: int, offset: float) -> tuple[float, float, float, float]:
    """K breaks (jitter seeds 0..K-1): CPU seconds per break of the full model and of the bare
    Space (fixed 1 ms steps for each break's simulated time, from the same launch), mean simulated
    seconds to rest, mean model steps."""
    worlds = [break_world(board, params, seed) for seed in range(k)]
    for w in worlds:
        w.apply_flick(hard_flick(params, offset))
    bares = [bare_space(w) for w in worlds]
    # the garbage of earlier blocks is collected now, not inside this block's timing (the first
    # setting of each round paid for a full collection of the last one's: 3.8-4.5 ms a centred
    # break instead of 2.6-3.0); the collections this block's own allocations set off (young
    # generations, as in any long run) fall inside it
    gc.collect()
    # each break's full run, then its bare run at once: a slow spell of the shared machine then
    # slows both sides of the ratio alike (timing all full runs, then all bare ones, did not)
    results = []
    t_full = t_bare = 0.0
    for w, bare in zip(worlds, bares, strict=True):
        t0 = time.process_time()
        res = w.run_until_rest(30.0)
        t1 = time.process_time()
        for _ in range(max(1, round(res.time_to_rest / BARE_STEP))):
            bare.step(BARE_STEP)
        t_bare += time.process_time() - t1
        t_full += t1 - t0
        results.append(res)
    t_full /= k
    t_bare /= k
    sim = sum(res.time_to_rest for res in results) / k
    return t_full, t_bare, sim, sum(res.steps for res in results) / k


# the fine-step reference of tests/physics/test_swept_contacts.py (0.25 mm sweep, >= 8 collision
# steps per 1 ms step): what agreeing with it in every break would cost
REFERENCE = {"SWEEP_FRACTION": 1.0 / 64.0, "QUIET_STEPS": 8, "MIN_COLLISION_STEP": 1.0 / 256000.0}


def timed_block(board, params, k: int, offset: float, mode: str):
    """``mode``: "swept" (the model), "fixed" (model 0.3's fixed collision steps), "reference"."""
    saved = {name: getattr(evolve, name) for name in ("SWEPT", *REFERENCE)}
    evolve.SWEPT = mode != "fixed"
    if mode == "reference":
        for name, value in REFERENCE.items():
            setattr(evolve, name, value)
    try:
        return run_block(board, params, k, offset)
    finally:
        for name, value in saved.items():
            setattr(evolve, name, value)


def summary(rows):
    full = statistics.median(r[0] for r in rows)
    bare = statistics.median(r[1] for r in rows)
    ratio = statistics.median(r[0] / r[1] for r in rows)
    return full, bare, ratio, rows[0][2], rows[0][3]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 64 breaks a block: the cost per simulated second varies with the jitter seed (8 seeds gave
    # 3.0-3.3x where 32 gave 2.6x on the same tree)
    ap.add_argument("--repeat", type=int, default=3, help="timed blocks per setting (median)")
    ap.add_argument("--breaks", type=int, default=64, help="breaks per timed block")
    args = ap.parse_args(argv)
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    configs = [
        (f"default: dt {base.dt * 1e3:g} ms x {base.collision_substeps}", base, "swept"),
        ("default, fixed steps", base, "fixed"),
        ("dt 1 ms x 1", base.with_overrides({"dt": 0.001, "collision_substeps": 1}), "swept"),
        ("dt 4 ms x 4", base.with_overrides({"dt": 0.004, "collision_substeps": 4}), "swept"),
        (
            "reference: dt 1 ms x 8",
            base.with_overrides({"dt": 0.001, "collision_substeps": 8}),
            "reference",
        ),
    ]
    settings = [(c, label, off) for c in configs for label, off in (("centre", 0.0), ("spin", 0.5))]
    warm_up()  # every kernel, incl. those of pitched and airborne dice a warm-up break may miss
    for (_, params, mode), _, offset in settings:  # warm-up: load the kernels, fill caches
        timed_block(board, params, 1, offset, mode)
    rows: dict[int, list] = {i: [] for i in range(len(settings))}
    for _ in range(args.repeat):
        for i, ((_, params, mode), _, offset) in enumerate(settings):
            rows[i].append(timed_block(board, params, args.breaks, offset, mode))
    print(
        "jamsumo physics benchmark: 24-dice breaks (4 m/s striker into a packed block), run to rest"
    )
    print(
        f"CPU time of this process (time.process_time); median of {args.repeat} rounds of "
        f"{args.breaks} breaks per setting"
    )
    head = f"  {'setting':22s} {'flick':>6s} {'steps':>6s} {'sim s':>6s} {'ms/break':>9s}"
    print(head + f" {'bare ms':>8s} {'ratio':>7s} {'RTF':>7s}")
    for i, ((name, _, _), label, _) in enumerate(settings):
        full, bare, ratio, sim, steps = summary(rows[i])
        print(
            f"  {name:22s} {label:>6s} {steps:6.0f} {sim:6.3f} {full * 1e3:9.2f}"
            f" {bare * 1e3:8.2f} {ratio:7.2f} {sim / full:7.1f}"
        )
    print(f"  goals: cost ratio full/bare <= {GOAL_RATIO:g}, real-time factor >= {GOAL_RTF:g}")
    print(
        f"  (bare = a plain pymunk Space with the same 24 bodies stepped at a fixed {BARE_STEP:g} s"
    )
    print("   for the same simulated time from the same launch; no friction, hole, edge or events;")
    print("   spin = the striker flicked at offset 0.5 (the pad's lever, gripped): most spin;")
    print("   fixed steps = model 0.3's fixed collision_substeps per step, for comparison;")
    print("   reference = the accuracy tests' fine-step reference, for comparison)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
