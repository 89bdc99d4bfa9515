"""The shared conformance kit, for every player count and variant."""

from __future__ import annotations

import pytest

from card_games.the_jam import GAME
from jamsumo_sim.turnloop.conformance import check_game


@pytest.mark.parametrize("variant", GAME.variants)
def test_conformance_kit(variant: str) -> None:
    # a JSON round trip re-plays the whole history, so long games are checked every few moves
    every = 10 if variant == "kids" else 90
    seeds = range(2) if variant == "kids" else range(1)
    played = check_game(
        GAME,
        players=[2, 3, 4],
        variants=[variant],
        seeds=seeds,
        check_every=every,
        hashseed_check=variant == "standard",
    )
    assert played == 3 * len(seeds)
