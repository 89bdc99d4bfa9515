"""The Jam benchmark: random-vs-random speed and the smart bot's win rate.

Run: ``python benchmarks/bench_the_jam.py [--seeds 200] [--speed-games 60] [--blocks 7]`` (one core).
Speed is CPU time of this process, measured twice: through the shared driver (``play``: a
per-move observation and seeded generator, as the CLI runs) and as a bare engine loop (legal
actions + apply, one generator). Each is timed in several blocks of the same games, every row once per
round, and the median block is reported with the slowest and fastest (this machine is shared: a
busy spell can slow a block by half). Win rate: the smart bot takes every seat position in turn
against random bots; a shared win counts 1/k; the fair share with n players is 1/n.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from tqdm import tqdm

from card_games.the_jam import GAME
from card_games.the_jam.bots import SmartAgent
from jamsumo_sim.turnloop import CHANCE, RandomAgent, play


def driver_speed(games: int, players: int, variant: str) -> float:
    start = time.process_time()
    for seed in range(games):
        agents = [RandomAgent(s, GAME) for s in range(players)]
        play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
    return games / (time.process_time() - start)


def engine_speed(games: int, players: int, variant: str) -> float:
    """The bare engine: legal actions + apply; chance from a numpy generator (the Shuffle needs
    one), the random moves from Python's ``random`` (a numpy call per move would dominate)."""
    start = time.process_time()
    for seed in range(games):
        rng = np.random.default_rng(seed)
        pick = random.Random(seed).randrange
        state = GAME.new_initial_state(
            GAME.validate_params({"players": players, "variant": variant}), seed=seed
        )
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_action(state.chance_outcomes().sample(rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[pick(len(legal))])
    return games / (time.process_time() - start)


def moves_per_game(games: int, players: int, variant: str) -> float:
    total = 0
    for seed in range(games):
        agents = [RandomAgent(s, GAME) for s in range(players)]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        total += len(result.state.history)
    return total / games


def smart_share(players: int, variant: str, seeds: int) -> tuple[float, float]:
    """(smart's mean win share, seconds per game)."""
    share = 0.0
    start = time.process_time()
    for seed in range(seeds):
        smart_seat = seed % players
        agents = [
            SmartAgent(s, GAME) if s == smart_seat else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        if smart_seat in result.winners:
            share += 1.0 / len(result.winners)
    return share / seeds, (time.process_time() - start) / seeds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--speed-games", type=int, default=60)
    parser.add_argument("--blocks", type=int, default=7, help="timed blocks per speed figure")
    parser.add_argument("--variants", default="standard,travel,kids")
    parser.add_argument("--players", default="2,3,4")
    args = parser.parse_args()
    variants = args.variants.split(",")
    counts = [int(p) for p in args.players.split(",")]
    blocks = max(1, args.blocks)
    print(
        f"random vs random, games per second (one core, CPU time; median of {blocks} blocks of "
        f"{args.speed_games} games, slowest-fastest block in brackets)"
    )
    print(f"{'variant':<10}{'players':>8}{'driver':>22}{'engine':>22}{'moves/game':>12}")

    def cell(speeds: list[float]) -> str:
        return f"{speeds[len(speeds) // 2]:.0f} ({speeds[0]:.0f}-{speeds[-1]:.0f})"

    rows = [(variant, n) for variant in variants for n in counts]
    driver: dict[tuple[str, int], list[float]] = {row: [] for row in rows}
    engine: dict[tuple[str, int], list[float]] = {row: [] for row in rows}
    # every row once per round, so a busy spell of the machine slows one block of each row
    for _ in tqdm(range(blocks), desc="timed rounds", unit="round", leave=False):
        for variant, n in rows:
            driver[variant, n].append(driver_speed(args.speed_games, n, variant))
            engine[variant, n].append(engine_speed(args.speed_games, n, variant))
    for variant, n in rows:
        m = moves_per_game(min(args.speed_games, 20), n, variant)
        d, e = sorted(driver[variant, n]), sorted(engine[variant, n])
        print(f"{variant:<10}{n:>8}{cell(d):>22}{cell(e):>22}{m:>12.0f}", flush=True)
    if args.seeds <= 0:
        return
    print(f"\nsmart vs random over {args.seeds} seeds (smart rotates seats)")
    print(f"{'variant':<10}{'players':>8}{'smart share':>13}{'fair share':>12}{'s/game':>9}")
    for variant in variants:
        for n in counts:
            share, per_game = smart_share(n, variant, args.seeds)
            print(f"{variant:<10}{n:>8}{share:>13.1%}{1 / n:>12.1%}{per_game:>9.2f}", flush=True)


if __name__ == "__main__":
    main()
