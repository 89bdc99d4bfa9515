"""Random-vs-random speed of every card game at every player count, through ``play`` as the CLI
runs it (``card-games play … --json`` asks for no match events: ``on_event=None``):
games per CPU second, the best of several blocks of games.

Run: ``python benchmarks/bench_card_speed.py [--games jumble-jam,the-jam] [--blocks 4]``.
The machine is shared, so a busy spell slows a block; the best block is the least disturbed one.
Every block plays new seeds after a warm-up block (the rules remember answers per hand from game
to game, so replaying the same seeds would flatter them).
For a comparison that does not swing, count instructions instead (``valgrind --tool=cachegrind``).
"""

from __future__ import annotations

import argparse
import time

from card_games.registry import CARD_GAMES, resolve
from jamsumo_sim.turnloop import RandomAgent, play

# Games per block: each block takes roughly 0.1 s of CPU.
GAMES_PER_BLOCK = {"jumble-jam": 20, "jellyfish": 20, "jumblejack": 30, "the-jam": 10}
GOAL = 200  # random games per CPU second (issue 19)


def best_speed(name: str, players: int, blocks: int) -> float:
    game = resolve(name)
    params = {"players": players, "variant": game.variants[0]}
    agents = [RandomAgent(seat, game) for seat in range(players)]
    games = GAMES_PER_BLOCK.get(name, 20)
    best = 0.0
    for block in range(blocks + 1):  # block 0 warms up (imports, first-game caches)
        start = time.process_time()
        for seed in range(block * games, (block + 1) * games):
            play(game, agents, seed=seed, params=params, on_event=None)  # as under --json
        if block:
            best = max(best, games / (time.process_time() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(CARD_GAMES), help="comma-separated names")
    parser.add_argument("--blocks", type=int, default=4)
    args = parser.parse_args()
    print(f"{'game':<12} {'players':>7} {'games/s':>8}  goal {GOAL}")
    for name in args.games.split(","):
        game = resolve(name)
        for players in range(game.min_players, game.max_players + 1):
            speed = best_speed(name, players, max(1, args.blocks))
            mark = "" if speed >= GOAL else "  below"
            print(f"{name:<12} {players:>7} {speed:>8.0f}{mark}", flush=True)


if __name__ == "__main__":
    main()
