"""The ``ismcts`` seat's strength against simulations per decision: win share and CPU per decision.

Run: ``python benchmarks/bench_ismcts.py [--games jellyfish ...] [--simulations 50 100 200 400 800]
[--seeds 40] [--opponents smart] [--rollouts random smart] [--guide smart|none] [--json]
[--out FILE]`` (``--guide none``: plain UCT on random play-outs, the seat before issue 36)
(one core; a line per point as it finishes, or one JSON list at the end with ``--json``; ``--out``
appends each point as a JSON line). Seed ``s`` plays the IS-MCTS bot in seat ``s mod n`` against
n-1 copies of the opponent, so seats rotate; a shared win counts 1/k. With n players the fair
share is 1/n. The 95 % interval is Wilson's score interval for the mean share over the seeds
(a tie's half counted as half a win). CPU per decision is process time (``time.process_time``)
of the IS-MCTS seat's searched decisions only (a forced move is not searched), so other work on
a shared machine does not inflate it.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from typing import Any

from card_games.ismcts import GUIDE, ISMCTSAgent
from jamsumo_sim.turnloop import Action, SeatView, get_game, play

PLAYERS = {"jellyfish": 2, "jumble_jam": 2, "jumblejack": 4, "the_jam": 2}
Z95 = 1.959964


class TimedISMCTS(ISMCTSAgent):
    """The ``ismcts`` seat, its CPU time per searched decision recorded in ``times``."""

    def __init__(self, *args: Any, times: list[float], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.times = times

    def act(self, view: SeatView) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        start = time.process_time()
        move = super().act(view)
        self.times.append(time.process_time() - start)
        return move


def wilson(mean: float, n: int) -> tuple[float, float]:
    """Wilson's 95 % score interval for a proportion ``mean`` over ``n`` trials."""
    centre = (mean + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(mean * (1 - mean) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(
    game_name: str,
    opponent: str,
    simulations: int,
    rollout: str,
    seeds: int,
    first_seed: int,
    guide: str | None = None,
) -> dict[str, Any]:
    game = get_game(game_name)
    n = PLAYERS[game_name]
    bots = game.bots()
    shares: list[float] = []
    times: list[float] = []
    for seed in range(first_seed, first_seed + seeds):
        seat = seed % n
        agents = [
            TimedISMCTS(s, game, simulations=simulations, rollout=rollout, guide=guide, times=times)
            if s == seat
            else bots[opponent](s, game)
            for s in range(n)
        ]
        result = play(game, agents, seed=seed, params={"players": n})
        shares.append(1.0 / len(result.winners) if seat in result.winners else 0.0)
    mean = sum(shares) / seeds
    low, high = wilson(mean, seeds)
    return {
        "game": game_name,
        "players": n,
        "opponent": opponent,
        "rollout": rollout,
        "guide": guide,
        "simulations": simulations,
        "seeds": f"{first_seed}-{first_seed + seeds - 1}",
        "games": seeds,
        "win_share": round(mean, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "fair_share": round(1 / n, 4),
        "decisions": len(times),
        "cpu_s_per_decision": round(sum(times) / max(len(times), 1), 4),
        "cpu_s_per_decision_max": round(max(times, default=0.0), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(PLAYERS), choices=list(PLAYERS))
    parser.add_argument("--simulations", nargs="+", type=int, default=[50, 100, 200, 400, 800])
    parser.add_argument("--seeds", type=int, default=40, help="games per point (default 40)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--opponents", nargs="+", default=["smart"])
    parser.add_argument(
        "--rollouts", nargs="+", default=["random"], help="leaf play-outs: random or a bot kind"
    )
    parser.add_argument(
        "--guide",
        default=GUIDE or "none",
        help=f"a bot whose move gets half of each node's prior, or none (default {GUIDE})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON list at the end")
    parser.add_argument("--out", help="also append each point to this file as a JSON line")
    args = parser.parse_args()
    guide = None if args.guide == "none" else args.guide
    rows = []
    for game_name in args.games:
        for opponent in args.opponents:
            for rollout in args.rollouts:
                for sims in args.simulations:
                    row = measure(
                        game_name, opponent, sims, rollout, args.seeds, args.first_seed, guide
                    )
                    rows.append(row)
                    if not args.json:
                        low, high = row["ci95"]
                        print(
                            f"{game_name:10s} vs {opponent:6s} rollout {rollout:6s} "
                            f"guide {args.guide:6s} "
                            f"{sims:5d} sims: share {row['win_share']:.3f} "
                            f"[{low:.3f}, {high:.3f}] over {row['games']} games, "
                            f"{row['cpu_s_per_decision']:.3f} s CPU/decision",
                            flush=True,
                        )
                    if args.out:
                        with open(args.out, "a", encoding="utf-8") as out:
                            out.write(json.dumps(row) + "\n")
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
