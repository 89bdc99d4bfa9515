"""The Jam (果醬甜心, Sergey Machin): make jams, bake pies, fulfil your secret tasks."""

from card_games.the_jam.game import JamGame

GAME = JamGame()

__all__ = ["GAME", "JamGame"]
