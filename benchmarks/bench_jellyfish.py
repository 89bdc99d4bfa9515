"""Jelly Fish Toast & Jam benchmark: random-vs-random speed and the smart bot's win rate.

Run: ``python benchmarks/bench_jellyfish.py [--seeds 200] [--speed-games 300]`` (one core).
Speed (CPU time of this process, so a busy machine skews it less) is measured twice: through
the shared driver (``play``: per-move observations and seeded generators, as the CLI runs) and
as a bare engine loop (legal actions + apply, one generator).
Win rate: the smart bot in every seat position in turn against random bots; a shared win counts
as 1/k. The fair share with n players is 1/n.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from card_games.jellyfish import GAME
from card_games.jellyfish.bots import SmartAgent
from jamsumo_sim.turnloop import CHANCE, RandomAgent, play


def driver_speed(games: int, players: int = 2) -> float:
    start = time.process_time()
    for seed in range(games):
        play(
            GAME,
            [RandomAgent(s, GAME) for s in range(players)],
            seed=seed,
            params={"players": players},
        )
    return games / (time.process_time() - start)


def engine_speed(games: int, players: int = 2) -> float:
    start = time.process_time()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        state = GAME.new_initial_state({"players": players}, seed=seed)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.chance_outcomes().sample(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
    return games / (time.process_time() - start)


def smart_share(players: int, seeds: int) -> tuple[float, float]:
    """(smart's mean win share, fraction of games ended by a third set)."""
    share = 0.0
    by_sets = 0
    for seed in range(seeds):
        smart_seat = seed % players
        agents = [
            SmartAgent(s, GAME) if s == smart_seat else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players})
        if smart_seat in result.winners:
            share += 1.0 / len(result.winners)
        by_sets += "sets" in result.state.end_reason
    return share / seeds, by_sets / seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--speed-games", type=int, default=300)
    args = parser.parse_args()
    print("Jelly Fish Toast & Jam — random vs random, one core")
    print(f"  bare engine loop, 2 players: {engine_speed(args.speed_games):8.1f} games/s")
    for players in range(2, 7):  # the speed goal holds at every player count
        speed = driver_speed(args.speed_games, players)
        print(f"  through the driver (play), {players} players: {speed:8.1f} games/s")
    if args.seeds < 1:
        return
    print()
    print(f"smart (1 seat) vs random (the rest), {args.seeds} seeds, seat rotating")
    print(f"  {'players':>7}  {'smart wins':>10}  {'fair share':>10}  {'3-set endings':>13}")
    for players in range(2, 7):
        share, by_sets = smart_share(players, args.seeds)
        print(f"  {players:>7}  {share:>10.1%}  {1 / players:>10.1%}  {by_sets:>13.1%}")


if __name__ == "__main__":
    main()
