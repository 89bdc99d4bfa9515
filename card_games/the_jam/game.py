"""The Jam's Game object: player counts, variants, bots, the length bound and the text view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.the_jam.cards import CardSet, load_cards
from card_games.the_jam.rules import MAX_PROPOSALS
from card_games.the_jam.state import JamState
from jamsumo_sim.turnloop import Game

# Bound on turns: each turn with cards in the deck draws an ordinary card for good or claims a
# special (twice at most); the deck takes back at most the Young man winner's jams (36) and the
# Bear's pie; after that each turn plays a hand card (4 hands of at most 4).
MAX_TURNS = 72 + 36 + 1 + 2 + 4 * 4 + 20


class JamGame(Game):
    name = "the_jam"
    title = "The Jam"
    min_players = 2
    max_players = 4
    variants = ("standard", "kids", "travel")
    # 2: the trade step lists the plays (a card played ends it) instead of a "no trade" move;
    # a version-1 history still re-plays, "no trade" being legal there (unlisted)
    # 3: a 2-player Big tea party scores the player's best grouping of task cards (not the deal
    # order); an ingredient from hand shows others its fruit only. The moves are unchanged, so
    # older histories re-play; a finished 2-player record whose party score depended on the deal
    # order verifies as a different result (replay --verify names it)
    version = 3
    reads_versions = (1, 2)

    @property
    def cards(self) -> CardSet:
        return load_cards()

    def card_labels(self, params: Mapping[str, Any]) -> dict[str, str]:
        """Card and task ids -> what a person reads: the browser page's names for the ids in an
        observation (net/web_cards.py)."""
        cards = self.cards
        return {
            **{c.id: c.label for c in cards.cards.values()},
            **{t.id: t.describe() for t in cards.tasks.values()},
        }

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        n = int(params["players"])
        recipes = 72
        # a bundle holds at most every made recipe of both sides (fewer than 72 in all): per
        # proposal a start, the recipes added one by one, propose or cancel, and the answer;
        # then "no trade" if typed (a travel blind swap, 1 + 2 * 3 moves, is shorter)
        trade = 1 + MAX_PROPOSALS * (1 + recipes + 2)
        auction = n * (recipes // 2 + 2)
        per_turn = (
            3 + auction + 2 + trade + 2 + 2
        )  # reshuffles, bids, Bear/Young man choices, play, pay
        return 10 + MAX_TURNS * per_turn

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0) -> JamState:
        return JamState(self, params, seed)

    def bots(self) -> dict[str, type]:
        from card_games.the_jam.bots import SmartAgent
        from jamsumo_sim.turnloop import RandomAgent

        return {"random": RandomAgent, "smart": SmartAgent}

    def input_helper(self) -> Any:
        from card_games.terminal.input_games import card_input

        return card_input(self)

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        from card_games.terminal.table import Look
        from card_games.the_jam.render import render

        return render(self, observation, seat, Look())
