"""Jelly Fish Toast & Jam: how each candidate deck split plays (the measurements behind the choice).

Run: ``python benchmarks/measure_jellyfish_splits.py [--games 300] [--splits standard,10x2x4]``
(one core; about a minute per split at 300 games). For every split listed in ``cards.toml`` (a
game variant each) and 2-6 players it plays, over the same seeds:

- all-smart tables and all-random tables: the share of games the rulebook's way ends them (a
  player completes 3 sets) rather than the fallback (the draw pile runs out);
- one smart seat (rotating) against random seats: the smart seat's win share (a shared win counts
  1/k; the fair share is 1/n), the bar the tests keep.

The rules notes (docs/rules/jellyfish.md) quote its output.
"""

from __future__ import annotations

import argparse

from card_games.jellyfish import GAME
from card_games.jellyfish.bots import SmartAgent
from jamsumo_sim.turnloop import RandomAgent, play
from jamsumo_sim.turnloop.agents import Agent

PLAYERS = range(2, 7)


def three_set_share(variant: str, players: int, games: int, smart: bool) -> float:
    """Share of games ended by a third set, every seat smart (or every seat random)."""
    kind: type[Agent] = SmartAgent if smart else RandomAgent
    ended = 0
    for seed in range(games):
        agents = [kind(s, GAME) for s in range(players)]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        ended += result.state.end_code() == "three_sets"
    return ended / games


def smart_share(variant: str, players: int, games: int) -> float:
    """One smart seat (rotating) against random seats: its mean win share."""
    share = 0.0
    for seed in range(games):
        smart = seed % players
        agents = [
            SmartAgent(s, GAME) if s == smart else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        if smart in result.winners:
            share += 1.0 / len(result.winners)
    return share / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per row and table kind")
    parser.add_argument("--splits", help="comma-separated variants (default: every split)")
    args = parser.parse_args()
    splits = args.splits.split(",") if args.splits else list(GAME.variants)
    print(f"{args.games} games per cell; 3-set endings with all-smart / all-random tables;")
    print("smart win share = one smart seat against random seats (fair share 1/n)")
    print(
        f"{'split':>8} {'players':>7} {'smart 3-set':>11} {'random 3-set':>12} {'smart wins':>10}"
    )
    for variant in splits:
        deck = GAME.decks[variant]
        name = f"{variant} ({len(deck.characters)}x{len(deck.colours)}x{deck.copies})"
        for players in PLAYERS:
            by_smart = three_set_share(variant, players, args.games, smart=True)
            by_random = three_set_share(variant, players, args.games, smart=False)
            wins = smart_share(variant, players, args.games)
            print(f"{name:>8} {players:>7} {by_smart:>11.1%} {by_random:>12.1%} {wins:>10.1%}")
            name = ""


if __name__ == "__main__":
    main()
