"""Sweep benchmark: single-die shots per second per core (fresh World per shot against the batch
path), 24-dice positions, and Dask scaling (1 worker against 2, per-task overhead).

Run: ``python benchmarks/bench_sweep.py [--shots 1000] [--dask-seconds 20] [--no-dask]``.

Shots: flicks from the JAM zones at 0.5-5 m/s, any direction, offset and height (as the batch path's
tests).  CPU time (process time) is the headline for one core, as the machine may be busy; the Dask
part reports wall time and the workers' CPU time (efficiency = worker CPU / (workers x wall)).
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.datatypes import IllegalAction
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.scenario import build_world
from jamsumo_sim.sweep import dask_runner, lone, lone_kernel, run
from jamsumo_sim.sweep.batch import Shot, ShotRunner, scenario_for
from jamsumo_sim.sweep.spec import SHOOTER_ID, parse_spec
from jamsumo_sim.world import World, warm_up


def random_shots(rng: np.random.Generator, n: int) -> list[Shot]:
    return [
        Shot(
            float(rng.uniform(-math.pi, math.pi)),
            float(rng.uniform(0.5, 5.0)),
            float(rng.uniform(-0.5, 0.5)),
            float(rng.uniform(0.0, 1.0)),
        )
        for _ in range(n)
    ]


def cpu_rate(fn, n: int) -> float:
    t = time.process_time()
    fn()
    return n / (time.process_time() - t)


def fresh_world_per_shot(shooter, shots, load_each: bool) -> None:
    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    for shot in shots:
        w = World() if load_each else World(board, params)
        w.add_die(SHOOTER_ID, shooter[0], shooter[1], shooter[2], face=shooter[3])
        try:
            w.apply_flick(shot.flick())
        except IllegalAction:
            continue
        w.run_until_rest(20.0)


def position_24(board) -> list[dict]:
    """23 other dice: six in three SUMO corners, five in the fourth (24 with the shooter)."""
    dice = []
    for corner, count in zip(board.sumo_areas, (6, 6, 6, 5), strict=True):
        for k, (x, y) in enumerate(board.sumo_start_positions(corner.name, 0.016, count)):
            dice.append({"id": f"{corner.name}-{k}", "x": x, "y": y, "face": 3})
    return dice


def single_die(n: int, rng: np.random.Generator) -> dict[str, float]:
    board = load_board("standard")
    zones = [(p.x, p.y, 0.0, 4) for p in board.platforms]
    shots = random_shots(rng, n)
    per_zone = [shots[i::4] for i in range(4)]
    out = {}
    out["world_per_shot_loading_board"] = cpu_rate(
        lambda: [fresh_world_per_shot(z, s, True) for z, s in zip(zones, per_zone, strict=True)], n
    )
    out["world_per_shot"] = cpu_rate(
        lambda: [fresh_world_per_shot(z, s, False) for z, s in zip(zones, per_zone, strict=True)], n
    )
    # the batch path with every step in the World (the reference), then with the compiled
    # lone-die model taking the plain phases (sweep/lone.py), in the same run
    slow = [ShotRunner("standard", z, fast=False) for z in zones]
    out["batch_path_world_only"] = cpu_rate(
        lambda: [r.run_many(s) for r, s in zip(slow, per_zone, strict=True)], n
    )
    runners = [ShotRunner("standard", z) for z in zones]
    out["batch_path"] = cpu_rate(
        lambda: [r.run_many(s) for r, s in zip(runners, per_zone, strict=True)], n
    )
    out["batch_speedup_over_world_only"] = out["batch_path"] / out["batch_path_world_only"]
    world = sum(r.stats.world_steps for r in runners)
    kernel = sum(r.stats.kernel_steps for r in runners)
    out["kernel_share_of_steps"] = kernel / max(1, world + kernel)
    out["world_steps_per_shot"] = world / n
    out["kernel_steps_per_shot"] = kernel / n
    # the shots the World took part in, and why the kernel handed steps to it (lone_kernel.WHY_*)
    out["world_share_of_shots"] = sum(r.stats.world_shots for r in runners) / n
    names = {v: k[4:].lower() for k, v in vars(lone_kernel).items() if k.startswith("WHY_")}
    for code, name in names.items():
        out[f"handed_to_world_{name}_per_shot"] = sum(r.stats.why.get(code, 0) for r in runners) / n
    out["kernel_lift_offs_per_shot"] = sum(r.stats.lift_offs for r in runners) / n
    out["kernel_landings_per_shot"] = sum(r.stats.landings for r in runners) / n
    return out


def crowded(n: int, rng: np.random.Generator) -> dict[str, float]:
    board = load_board("standard")
    others = position_24(board)
    shooter = (0.0, -0.18, 0.0, 4)
    # aimed into the board (up, within 60 degrees of the hole) so shots meet the crowd
    shots = [Shot(float(rng.uniform(0.5, 2.6)), float(rng.uniform(0.5, 5.0))) for _ in range(n)]

    def fresh():
        for shot in shots:
            w, _, _ = build_world(scenario_for("standard", shooter, others))
            try:
                w.apply_flick(shot.flick())
            except IllegalAction:
                continue
            w.run_until_rest(20.0)

    runner = ShotRunner("standard", shooter, others)
    return {
        "24_dice_world_per_shot": cpu_rate(fresh, n),
        "24_dice_batch_path": cpu_rate(lambda: runner.run_many(shots), n),
    }


def dask_scaling(seconds: float, rate: float) -> dict[str, float]:
    """A sweep of about ``seconds`` on one worker, on 1 and on 2 workers; per-task overhead."""
    repeats = 16
    cells = max(8, int(seconds * rate / repeats))
    aims = max(2, int(math.sqrt(cells)))
    spec = parse_spec(
        {
            "version": 1,
            "die": {"x": 0.0, "y": -0.18, "face": 4},
            "aim": {"from": -math.pi, "to": math.pi, "steps": aims},
            "speed": {"from": 0.5, "to": 5.0, "steps": max(2, cells // aims)},
            "offset": {"from": -0.4, "to": 0.4, "steps": 1},
            "height": 0.5,
            "repeats": repeats,
            "noise": "table",
            "seed": 1,
        }
    )
    out: dict[str, float] = {"dask_shots": spec.shots}
    results = {}
    for workers in (1, 2):
        with dask_runner.client_for(workers=workers) as client:
            client.run(lambda: run._runner.cache_clear())
            cpu0 = client.run(time.process_time)
            t = time.perf_counter()
            results[workers] = dask_runner.run_on(client, spec)
            wall = time.perf_counter() - t
            cpu1 = client.run(time.process_time)
            per_worker = [cpu1[k] - cpu0[k] for k in cpu0]
            cpu = sum(per_worker)
            out[f"dask_{workers}_wall_s"] = wall
            out[f"dask_{workers}_efficiency"] = cpu / (workers * wall)
            # the workers' CPU seconds apart: about the time one sat idle at the end (robust when
            # the machine is shared, unlike the wall-clock speed-up)
            out[f"dask_{workers}_cpu_imbalance_s"] = max(per_worker) - min(per_worker)
            out[f"dask_{workers}_tasks"] = len(run.chunks(spec, workers))
            if workers == 2:
                # per-task overhead: round trips of empty tasks through the scheduler
                n = 400
                t = time.perf_counter()
                client.gather(client.map(int, range(n), pure=False))
                out["dask_task_overhead_ms"] = 1e3 * (time.perf_counter() - t) * workers / n
    out["dask_speedup_2_over_1"] = out["dask_1_wall_s"] / out["dask_2_wall_s"]
    same = all(
        np.array_equal(results[1].outcomes[k], results[2].outcomes[k]) for k in results[1].outcomes
    )
    out["dask_identical"] = float(same)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shots", type=int, default=1000)
    ap.add_argument("--crowded-shots", type=int, default=200)
    ap.add_argument("--dask-seconds", type=float, default=20.0)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--only-dask", action="store_true", help="skip the single-core figures")
    ap.add_argument("--rate", type=float, default=600.0, help="shots/s a core (with --only-dask)")
    args = ap.parse_args()
    warm_up()
    lone.warm_up()
    rng = np.random.default_rng(1)
    res: dict[str, float] = {}
    if not args.only_dask:
        res.update(single_die(args.shots, rng))
        res.update(crowded(args.crowded_shots, rng))
    if not args.no_dask:
        res.update(dask_scaling(args.dask_seconds, res.get("batch_path", args.rate)))
    print(json.dumps({k: round(v, 3) for k, v in res.items()}, indent=1))


if __name__ == "__main__":
    main()
