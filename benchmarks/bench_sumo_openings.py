"""Sumo openings: seeded planner-vs-planner Sumo rounds: who wins, and how many of each seat's first
two dice (its first two flicked dice) are lost by their own shot (issue #35: the planner lost its own
first two Sumo dice from square-placed set-ups).

    python benchmarks/bench_sumo_openings.py                     # 40 seeds, planner "easy"
    python benchmarks/bench_sumo_openings.py --seeds 8 --level normal --json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from jamsumo_sim.rules.bots import PlannerBot
from jamsumo_sim.rules.game import SUMO
from jamsumo_sim.rules.scoring import BOARD
from jamsumo_sim.rules.setup import is_setup
from jamsumo_sim.turnloop import Action, play


def one_round(seed: int, level: str, max_turns: int) -> dict[str, Any]:
    agents = [PlannerBot(s, SUMO, level=level) for s in range(2)]
    res = play(SUMO, agents, seed=seed, params={"players": 2, "max_turns": max_turns})
    state = res.state
    lost_first = [0, 0]  # per seat: own flicked dice that left the board in its first two shots
    shots = [0, 0]
    turned = [0, 0]  # per seat: set-up dice placed turned (not square to the seat's view)
    replay = SUMO.new_initial_state(state.params, seed=seed)
    prev = None
    for entry in state.history:
        if "chance" in entry:
            action = Action.from_json(entry["chance"])
        else:
            action = Action.from_json(entry["action"])
            if is_setup(action):
                turned[int(entry["seat"])] = sum(
                    1
                    for k in range(1, 7)
                    if abs(math.remainder(float(action.get(f"a{k}", 0.0) or 0.0), math.pi / 2))
                    > 1e-6
                )
        replay.apply_action(action)
        shot = replay.last_shot
        if shot is not prev and shot is not None and shot.get("die"):
            s = int(shot["seat"])
            if shots[s] < 2:
                shots[s] += 1
                lost_first[s] += replay.where.get(shot["die"]) != BOARD
        prev = shot
    return {
        "seed": seed,
        "winners": list(res.winners),
        "totals": state.totals(),
        "lost_first_two": lost_first,
        "turned_dice": turned,
        "shots": len(state.shot_checksums),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--level", default="easy")
    ap.add_argument("--max-turns", type=int, default=60)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    start = time.perf_counter()
    rows = []
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        rows.append(one_round(seed, a.level, a.max_turns))
        if not a.json:
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    n = len(rows)
    summary = {
        "rounds": n,
        "level": a.level,
        "wins": [sum(1 for r in rows if r["winners"] == [s]) for s in range(2)],
        "shared": sum(1 for r in rows if len(r["winners"]) != 1),
        "first_two_lost_per_seat": sum(sum(r["lost_first_two"]) for r in rows) / (2 * n),
        "rounds_losing_both_first_two": sum(
            1 for r in rows for s in range(2) if r["lost_first_two"][s] == 2
        ),
        "turned_dice_per_setup": sum(sum(r["turned_dice"]) for r in rows) / (2 * n),
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps({"summary": summary, "rounds": rows} if a.json else summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
