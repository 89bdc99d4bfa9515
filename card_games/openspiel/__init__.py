"""OpenSpiel registration of the four card games: ``import card_games.openspiel`` registers
``python_jellyfish``, ``python_jumble_jam``, ``python_jumblejack`` and ``python_the_jam``
(see :mod:`card_games.openspiel.game` for what each game type states). Needs ``jamsumo[rl]``."""

from __future__ import annotations

from card_games.envs import GAMES
from card_games.openspiel.game import CardSpielGame, register, short_name

GAME_CLASSES: dict[str, type[CardSpielGame]] = {g: register(g) for g in GAMES}

__all__ = ["GAME_CLASSES", "CardSpielGame", "short_name"]
