"""The shared turn-loop conformance kit, for every player count."""

from __future__ import annotations

from card_games.jumblejack import GAME
from jamsumo_sim.turnloop.conformance import check_game


def test_conformance_every_player_count() -> None:
    # check_every: the per-node checks replay the whole history; every third node keeps it fast
    played = check_game(GAME, players=[4, 5, 6, 7, 8], seeds=range(2), check_every=4)
    assert played == 5 * 2


def test_conformance_every_node_small_table() -> None:
    assert check_game(GAME, players=[4], seeds=range(2), hashseed_check=False) == 2
