"""Jumble Jam: win pastry cards with jam jars, then fill Grandma's orders for coins."""

from card_games.jumble_jam.game import JumbleJamGame

GAME = JumbleJamGame()

__all__ = ["GAME", "JumbleJamGame"]
