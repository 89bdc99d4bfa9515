"""The shared conformance kit, every player count and variant."""

from __future__ import annotations

from card_games.jumble_jam import GAME
from jamsumo_sim.turnloop.conformance import check_game

PLAYERS = [2, 3, 4, 5]


def test_standard_passes_the_kit() -> None:
    # every node check (clone, JSON round trip, hidden information …) on every 29th node
    played = check_game(
        GAME, players=PLAYERS, variants=["standard"], seeds=range(2), check_every=29
    )
    assert played == 8


def test_kickstarter_passes_the_kit() -> None:
    played = check_game(
        GAME,
        players=PLAYERS,
        variants=["kickstarter"],
        seeds=[5],
        check_every=29,
        hashseed_check=False,
    )
    assert played == 4


def test_more_seeds_end_deterministically_and_replay() -> None:
    # node checks only at the start and end, over more seeds (same seed → same game, replays exactly)
    played = check_game(
        GAME, players=PLAYERS, seeds=range(10, 12), check_every=10**6, hashseed_check=False
    )
    assert played == 2 * 4 * 2
