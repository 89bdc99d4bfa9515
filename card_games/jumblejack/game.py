"""The JumbleJack :class:`Game`: name, player counts, the length bound, bots and the text view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.jumblejack.cards import MAX_PLAYERS, MIN_PLAYERS, Components, default_components
from card_games.jumblejack.state import JumbleJackState
from jamsumo_sim.turnloop import Game


class JumbleJackGame(Game):
    name = "jumblejack"
    title = "JumbleJack"
    version = 1
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    variants = ("standard",)

    def __init__(self, components: Components | None = None) -> None:
        self._components = components

    @property
    def components(self) -> Components:
        # loaded on first use, so importing the package never fails on a broken data file
        if self._components is None:
            self._components = default_components()
        return self._components

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        n = int(params["players"])
        setup = 4 + n  # chance nodes, then one declaration each
        # a round: the pointing, a tie choice, the dressing, then responses: every mirror
        # uses up a token (at most n of them) before the final response
        per_round = 3 + n + 1
        final = 2
        return setup + self.components.centre_rings * per_round + final

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0) -> JumbleJackState:
        return JumbleJackState(self, params, self.components, seed)

    def bots(self) -> dict[str, type]:
        from card_games.jumblejack.bots import SmartAgent
        from jamsumo_sim.turnloop import RandomAgent

        return {"random": RandomAgent, "smart": SmartAgent}

    def input_helper(self) -> Any:
        from card_games.terminal.input_games import card_input

        return card_input(self)

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        from card_games.jumblejack.render import render
        from card_games.terminal.table import Look

        return render(self, observation, seat, Look())
