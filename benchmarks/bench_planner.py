"""Planner under uncertainty: win rates (95 % Wilson intervals) and think time.

    python benchmarks/bench_planner.py                          # every mode × noise level, 40 seeds
    python benchmarks/bench_planner.py --modes jam --noise table --opponents random,old --seeds 10
    python benchmarks/bench_planner.py --json

For each mode (jam, sumo, jamsumo), execution-noise level (practice, table) and opponent, it plays
``--seeds`` 2-player matches (one round per mode, the planner's seat alternating with the seed) of
the planner at ``--level`` (``uncertainty=True``, the default) against ``random`` or against the
planner before execution noise and tumbling (``old``: ``uncertainty=False``, same level). A draw
counts half a win. A match the rules abort (a table execution the physics refuses as unfair,
rules/match.py) is left out and counted under ``aborted``. Think time is the planner's wall time per decision, measured in the same run
for both variants (a ratio, since a shared machine's absolute timings drift).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from typing import Any

from jamsumo_sim.rules.bots import PlannerBot, RandomBot
from jamsumo_sim.rules.game import JAM, JAMSUMO, SUMO
from jamsumo_sim.turnloop import Agent, SeatView, play
from jamsumo_sim.world import IllegalAction

GAMES = {"jam": JAM, "sumo": SUMO, "jamsumo": JAMSUMO}
Z95 = 1.959964


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (draws count as half a success)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Clock:
    """Wall time and decisions of one planner seat."""

    seconds: float = 0.0
    decisions: int = 0


class Timed(Agent):
    """Wraps an agent and adds its think time to a clock (flick decisions only)."""

    def __init__(self, inner: Agent, clock: Clock) -> None:
        super().__init__(inner.seat, inner.game)
        self.inner, self.clock = inner, clock
        self.kind = inner.kind

    def act(self, view: SeatView) -> Any:
        start = time.perf_counter()
        action = self.inner.act(view)
        state = view.state
        if state is not None and state.setting_up() is None:
            self.clock.seconds += time.perf_counter() - start
            self.clock.decisions += 1
        return action


def run_one(
    mode: str, level: str, noise: str, opponent: str, seeds: int, max_turns: int
) -> dict[str, Any]:
    game = GAMES[mode]
    params = {"players": 2, "rounds": 1, "max_turns": max_turns, "noise": noise}
    score = 0.0
    new_clock, old_clock = Clock(), Clock()
    sims = aborted = 0
    for seed in range(seeds):
        me = seed % 2
        planner = PlannerBot(me, game, level=level)
        if opponent == "random":
            other: Agent = RandomBot(1 - me, game)
        else:
            other = Timed(PlannerBot(1 - me, game, level=level, uncertainty=False), old_clock)
        agents: list[Agent] = [Timed(planner, new_clock), other]
        if me == 1:
            agents.reverse()
        try:
            result = play(game, agents, seed=seed, params=params)
        except IllegalAction:
            aborted += 1
            continue
        if result.winners == [me]:
            score += 1.0
        elif me in result.winners:
            score += 0.5
        sims += planner.simulated
    played = seeds - aborted
    lo, hi = wilson(score, played)
    out: dict[str, Any] = {
        "mode": mode,
        "noise": noise,
        "opponent": opponent,
        "seeds": played,
        "aborted": aborted,
        "score": score,
        "win_rate": score / max(1, played),
        "ci95": [lo, hi],
        "decisions": new_clock.decisions,
        "decisions_per_second": new_clock.decisions / max(new_clock.seconds, 1e-9),
        "sims_per_decision": sims / max(1, new_clock.decisions),
    }
    if old_clock.decisions:
        out["old_decisions_per_second"] = old_clock.decisions / max(old_clock.seconds, 1e-9)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--modes", default="jam,sumo,jamsumo")
    parser.add_argument("--noise", default="practice,table")
    parser.add_argument("--opponents", default="random,old")
    parser.add_argument("--max-turns", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for mode in args.modes.split(","):
        for noise in args.noise.split(","):
            for opponent in args.opponents.split(","):
                row = run_one(mode, args.level, noise, opponent, args.seeds, args.max_turns)
                rows.append(row)
                if not args.json:
                    lo, hi = row["ci95"]
                    extra = (
                        f", old planner {row['old_decisions_per_second']:.2f} decisions/s"
                        if "old_decisions_per_second" in row
                        else ""
                    )
                    print(
                        f"{mode:8s} {noise:8s} vs {opponent:6s}: {row['score']:.1f}/{row['seeds']}"
                        f" = {100 * row['win_rate']:.0f} % (95 % CI {100 * lo:.0f}–{100 * hi:.0f}"
                        f" %); {row['decisions_per_second']:.2f} decisions/s, "
                        f"{row['sims_per_decision']:.1f} sims/decision{extra}"
                        + (f"; {row['aborted']} aborted" if row["aborted"] else ""),
                        flush=True,
                    )
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
