"""JumbleJack: dress the Doll like an opponent's secret pirate and cast the ritual on them."""

from card_games.jumblejack.game import JumbleJackGame

GAME = JumbleJackGame()

__all__ = ["GAME", "JumbleJackGame"]
