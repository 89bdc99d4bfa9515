"""PettingZoo AEC environments for the four card games (optional extra: ``jamsumo[rl]``).

``card_games.envs.<game>_v0.env()`` for ``jellyfish``, ``jumble_jam``, ``jumblejack`` and
``the_jam``; the fixed action index of each game is :mod:`card_games.envs.catalog`. Importing this
package needs no optional dependency; building an environment does.
"""

GAMES: tuple[str, ...] = ("jellyfish", "jumble_jam", "jumblejack", "the_jam")
