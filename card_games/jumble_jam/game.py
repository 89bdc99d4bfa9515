"""The Jumble Jam :class:`Game`: players, variants, bots, rendering and the length bound."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.jumble_jam.cards import Catalog, load_catalog
from card_games.jumble_jam.state import MAX_ROUNDS, JumbleJamState
from jamsumo_sim.turnloop import Game


class JumbleJamGame(Game):
    name = "jumble_jam"
    title = "Jumble Jam"
    version = 1
    min_players = 2
    max_players = 5
    variants = ("standard", "kickstarter")

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog if catalog is not None else load_catalog()

    def __deepcopy__(self, memo: dict[int, Any]) -> JumbleJamGame:
        return self  # the game holds no per-match data: clones of a state share it

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        n = int(params["players"])
        cat = self.catalog
        layout = cat.layouts[n]
        cards = len(cat.pastry_ids) + n
        tokens = cat.pastry_tokens_per_type + cat.kitty_tokens_per_player
        kitties = n + n * cat.kitty_tokens_per_player  # Kitty uses in one round, at most
        per_round = (
            2  # a reshuffle and the die
            + 2 * kitties  # a Kitty use and its random draw
            + cat.jars_per_player * n
            + cards  # hand-limit discards
            + layout.orders * 2  # choosing each order (and its turn)
            + cards
            + n * tokens  # pieces added to orders
            + n * (layout.orders + 1)  # passes
        )
        return 2 + n + MAX_ROUNDS * per_round

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0) -> JumbleJamState:
        full = self.validate_params(params)
        return JumbleJamState(self, full, self.catalog, seed)

    def bots(self) -> dict[str, type]:
        from card_games.jumble_jam.bots import SmartAgent
        from jamsumo_sim.turnloop import RandomAgent

        return {"random": RandomAgent, "smart": SmartAgent}

    def input_helper(self) -> Any:
        from card_games.terminal.input_games import card_input

        return card_input(self)

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        from card_games.jumble_jam.render import render
        from card_games.terminal.table import Look

        return render(self, observation, seat, Look())
