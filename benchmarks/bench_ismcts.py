"""The ``ismcts`` seat against ``smart`` and ``random``, every card game, seats rotated.

Run: ``python benchmarks/bench_ismcts.py [--seeds 200] [--simulations 8] [--games ...]``
(one core; hours at the defaults, results printed as each game/opponent finishes and appended
as JSON lines to ``--out``). Seed ``s`` plays the IS-MCTS bot in seat ``s mod n`` against n-1
copies of the opponent; a shared win counts 1/k. With n players the fair share is 1/n. The 95%
interval is the normal approximation ±1.96·sd/√seeds of the per-game shares.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from card_games.ismcts import ISMCTSAgent
from jamsumo_sim.turnloop import get_game, play

PLAYERS = {"jellyfish": 2, "jumble_jam": 2, "jumblejack": 4, "the_jam": 2}


def share(winners: list[int], seat: int) -> float:
    return 1.0 / len(winners) if seat in winners else 0.0


def measure(game_name: str, opponent: str, seeds: int, simulations: int) -> dict[str, float]:
    game = get_game(game_name)
    n = PLAYERS[game_name]
    bots = game.bots()
    shares = []
    start = time.process_time()
    for seed in range(seeds):
        seat = seed % n
        agents = [
            ISMCTSAgent(s, game, simulations=simulations) if s == seat else bots[opponent](s, game)
            for s in range(n)
        ]
        result = play(game, agents, seed=seed, params={"players": n})
        shares.append(share(result.winners, seat))
        if (seed + 1) % 10 == 0:  # progress, so a long run can be read while it goes
            mean = sum(shares) / len(shares)
            print(f"# {game_name} vs {opponent}: {seed + 1} seeds, share {mean:.3f}", flush=True)
    mean = sum(shares) / seeds
    sd = math.sqrt(sum((x - mean) ** 2 for x in shares) / max(seeds - 1, 1))
    return {
        "game": game_name,
        "players": n,
        "opponent": opponent,
        "seeds": seeds,
        "simulations": simulations,
        "win_share": round(mean, 4),
        "ci95": round(1.96 * sd / math.sqrt(seeds), 4),
        "fair_share": round(1 / n, 4),
        "cpu_s_per_game": round((time.process_time() - start) / seeds, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=8)
    parser.add_argument("--games", nargs="*", default=list(PLAYERS))
    parser.add_argument("--opponents", nargs="*", default=["smart", "random"])
    parser.add_argument("--out", default="ismcts_results.jsonl")
    args = parser.parse_args()
    for game_name in args.games:
        for opponent in args.opponents:
            row = measure(game_name, opponent, args.seeds, args.simulations)
            print(json.dumps(row), flush=True)
            with open(args.out, "a", encoding="utf-8") as out:  # a benchmark's own output
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
