"""The card games this package offers (imported lazily by name)."""

from __future__ import annotations

from jamsumo_sim.turnloop import Game, get_game

# Command-line name -> turn-loop registry name.
CARD_GAMES: dict[str, str] = {
    "jumble-jam": "jumble_jam",
    "jellyfish": "jellyfish",
    "jumblejack": "jumblejack",
    "the-jam": "the_jam",
}


def resolve(name: str) -> Game:
    """A game by its command-line name (or registry name)."""
    key = CARD_GAMES.get(name, name.replace("-", "_"))
    if key not in CARD_GAMES.values():
        from jamsumo_sim.errors import UserError

        raise UserError(f"unknown game {name!r} (choose from {', '.join(CARD_GAMES)})")
    return get_game(key)
