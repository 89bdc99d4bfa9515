"""Match benchmark: planner vs random win rate (2-player Jam) and match throughput.

    python benchmarks/bench_match.py                 # 50 seeds, planner at normal (the README figure)
    python benchmarks/bench_match.py --seeds 5 --json

Timings on a shared machine are noisy, so throughput is also reported as a ratio against a
baseline measured in the same run: one die sliding across the empty board (pure stepping).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from tqdm import tqdm

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.rules.bots import PlannerBot, RandomBot
from jamsumo_sim.rules.game import JAM
from jamsumo_sim.turnloop import play
from jamsumo_sim.world import World


def baseline_steps_per_second(repeats: int = 5) -> float:
    """Physics steps per second for one die sliding on an empty board (the run's yardstick)."""
    world = World()
    world.add_die("d", 0.0, -0.15, 0.0, face=1)
    steps = 0
    start = time.perf_counter()
    for _ in range(repeats):
        trial = world.copy()
        trial.apply_flick(Flick("d", math.pi, 0.0045 * 0.8))
        steps += trial.run_until_rest(10.0).steps
    return steps / (time.perf_counter() - start)


def run(seeds: int, level: str, max_turns: int, quiet: bool) -> dict[str, Any]:
    base = baseline_steps_per_second()
    wins = draws = 0
    shots = simulated = 0
    capped = 0
    start = time.perf_counter()
    for seed in tqdm(range(seeds), desc="planner vs random", disable=quiet, file=sys.stderr):
        agents = [PlannerBot(0, JAM, level=level), RandomBot(1, JAM)]
        result = play(JAM, agents, seed=seed, params={"players": 2, "max_turns": max_turns})
        state = result.state
        if result.winners == [0]:
            wins += 1
        elif 0 in result.winners:
            draws += 1
        shots += len(state.shot_checksums)
        simulated += agents[0].simulated
        capped += sum(1 for r in state.results if r["capped"])
    elapsed = time.perf_counter() - start
    # random-vs-random throughput: match shots (with menus, rules and bookkeeping) per second
    t0 = time.perf_counter()
    rr_shots = 0
    for seed in range(3):
        agents = [RandomBot(0, JAM), RandomBot(1, JAM)]
        res = play(
            JAM, agents, seed=1000 + seed, params={"players": 2, "rounds": 1, "max_turns": 20}
        )
        rr_shots += len(res.state.shot_checksums)
    rr_rate = rr_shots / (time.perf_counter() - t0)
    total_sims = shots + simulated
    return {
        "seeds": seeds,
        "level": level,
        "planner_wins": wins,
        "draws": draws,
        "win_rate": wins / seeds,
        "capped_rounds": capped,
        "match_shots": shots,
        "planner_simulated_shots": simulated,
        "seconds": elapsed,
        "seconds_per_match": elapsed / seeds,
        "simulated_shots_per_second": total_sims / elapsed,
        "random_match_shots_per_second": rr_rate,
        "baseline_steps_per_second": base,
        "random_match_shots_per_1000_baseline_steps": 1000 * rr_rate / base,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--max-turns", type=int, default=400)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    out = run(args.seeds, args.level, args.max_turns, quiet=args.json or not sys.stderr.isatty())
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(
            f"planner ({out['level']}) vs random, 2-player Jam, {out['seeds']} seeds: "
            f"{out['planner_wins']} wins ({100 * out['win_rate']:.0f} %), {out['draws']} draws, "
            f"{out['capped_rounds']} rounds capped"
        )
        print(
            f"throughput: {out['seconds_per_match']:.1f} s per match, "
            f"{out['simulated_shots_per_second']:.1f} simulated shots/s (match + planner search), "
            f"random matches {out['random_match_shots_per_second']:.1f} shots/s "
            f"= {out['random_match_shots_per_1000_baseline_steps']:.2f} shots per 1000 baseline steps "
            f"(baseline {out['baseline_steps_per_second']:.0f} steps/s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
