"""JumbleJack benchmarks: random games per second, and the smart bot against random seats.

Run: ``python benchmarks/bench_jumblejack.py [--seeds 200] [--speed-games 400]``.

The rulebook's "smart beats random in 65 % of two-player games" cannot apply (4–8 players, and
everyone but one player usually wins or loses together), so the measure is: one ``smart`` seat
(its position rotating with the seed) among ``random`` seats, over 200 seeds per player count;
its win rate is compared with the average win rate of the random seats in the same games and with
the fair share (a seat's win rate when every seat is random, over the same seeds).
"""

from __future__ import annotations

import argparse
import time

from card_games.jumblejack import GAME
from card_games.jumblejack.bots import SmartAgent
from jamsumo_sim.turnloop import Agent, RandomAgent, play


def games_per_second(players: int, games: int) -> float:
    start = time.process_time()
    for seed in range(games):
        agents: list[Agent] = [RandomAgent(s, GAME) for s in range(players)]
        play(GAME, agents, seed=seed, params={"players": players})
    return games / (time.process_time() - start)


def smart_vs_random(
    players: int, seeds: range, baseline: bool = True
) -> tuple[float, float, float]:
    """(smart seat's win rate, the random seats' mean win rate, the all-random fair share).

    ``baseline=False`` skips the all-random games (the fair share is then reported as 0).
    """
    smart_wins = random_wins = fair_wins = 0.0
    for seed in seeds:
        smart_seat = seed % players
        agents: list[Agent] = [
            SmartAgent(s, GAME) if s == smart_seat else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players})
        smart_wins += smart_seat in result.winners
        random_wins += sum(1 for s in result.winners if s != smart_seat) / (players - 1)
        if baseline:
            fair = play(
                GAME,
                [RandomAgent(s, GAME) for s in range(players)],
                seed=seed,
                params={"players": players},
            )
            fair_wins += len(fair.winners) / players
    k = len(seeds)
    return smart_wins / k, random_wins / k, fair_wins / k


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="win-rate seeds (0: speed only)")
    parser.add_argument("--speed-games", type=int, default=400)
    args = parser.parse_args()
    print(f"{'players':>7} {'games/s':>8} {'smart win':>9} {'random win':>10} {'fair share':>10}")
    for players in range(GAME.min_players, GAME.max_players + 1):
        speed = games_per_second(players, args.speed_games)
        if args.seeds < 1:  # speed only
            print(f"{players:>7} {speed:>8.0f}")
            continue
        smart, rand, fair = smart_vs_random(players, range(args.seeds))
        print(f"{players:>7} {speed:>8.0f} {smart:>9.1%} {rand:>10.1%} {fair:>10.1%}")


if __name__ == "__main__":
    main()
