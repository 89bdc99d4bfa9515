"""Jelly Fish Toast & Jam (2–6 players): draw, steal and cover your way to three sets."""

from card_games.jellyfish.game import JellyfishGame

GAME = JellyfishGame()

__all__ = ["GAME", "JellyfishGame"]
