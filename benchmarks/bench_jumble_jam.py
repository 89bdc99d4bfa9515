"""Jumble Jam benchmark: random-vs-random games per second, and smart-vs-random win rates.

Run: ``python benchmarks/bench_jumble_jam.py [--seeds 200] [--games 300]`` (one core).

* *engine* speed plays whole games straight on the state (legal actions, chance samples, moves),
  the way a search or training loop would;
* *driver* speed goes through ``jamsumo_sim.turnloop.play`` (each decision also builds the
  seat's observation and seeded generators), as the CLI does;
* the smart bot sits in each seat in turn (seed % players) against random players.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from card_games.jumble_jam import GAME
from card_games.jumble_jam.bots import SmartAgent
from jamsumo_sim.turnloop import RandomAgent, play


def engine_games(players: int, games: int) -> float:
    """Games per CPU second (process time: the machine may be busy with other work)."""
    rng = np.random.default_rng(0)
    pick = random.Random(0)
    start = time.process_time()
    for seed in range(games):
        state = GAME.new_initial_state({"players": players}, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes().sample(rng))
            else:
                state.apply_action(pick.choice(state.legal_actions()))
    return games / (time.process_time() - start)


def driver_games(players: int, games: int) -> float:
    agents = [RandomAgent(s, GAME) for s in range(players)]
    start = time.process_time()
    for seed in range(games):
        play(GAME, agents, seed=seed, params={"players": players})
    return games / (time.process_time() - start)


def smart_vs_random(players: int, seeds: int, variant: str = "standard") -> tuple[float, float]:
    """(share of games the smart seat won, counting shared wins fractionally; its fair share)."""
    won = 0.0
    for seed in range(seeds):
        smart = seed % players
        agents = [
            SmartAgent(s, GAME) if s == smart else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        if smart in result.winners:
            won += 1 / len(result.winners)
    return won / seeds, 1 / players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="win-rate seeds (0: speed only)")
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    print("Jumble Jam — random vs random, games per CPU second (one core)")
    print(f"{'players':>8} {'engine':>10} {'driver':>10}")
    for players in (2, 3, 4, 5):
        engine = engine_games(players, args.games)
        driver = driver_games(players, max(20, args.games // 5))
        print(f"{players:>8} {engine:>10.0f} {driver:>10.0f}")
    if args.seeds < 1:  # speed only
        return
    print()
    print(f"Smart vs random over {args.seeds} seeds (smart seat rotates)")
    print(f"{'players':>8} {'variant':>12} {'smart wins':>11} {'fair share':>11}")
    for players in (2, 3, 4, 5):
        for variant in GAME.variants:
            rate, fair = smart_vs_random(players, args.seeds, variant)
            print(f"{players:>8} {variant:>12} {rate:>10.1%} {fair:>10.1%}")


if __name__ == "__main__":
    main()
