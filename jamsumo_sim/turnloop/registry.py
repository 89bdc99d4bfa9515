"""Games by name, so a saved match or replay file can be restored without knowing its package."""

from __future__ import annotations

import importlib

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop.state import Game

# name -> "module:attribute"; imported on first use so listing games stays cheap.
_GAMES: dict[str, str] = {
    "jam": "jamsumo_sim.rules.game:JAM",
    "sumo": "jamsumo_sim.rules.game:SUMO",
    "jamsumo": "jamsumo_sim.rules.game:JAMSUMO",
    "jumble_jam": "card_games.jumble_jam:GAME",
    "jellyfish": "card_games.jellyfish:GAME",
    "jumblejack": "card_games.jumblejack:GAME",
    "the_jam": "card_games.the_jam:GAME",
}
_LOADED: dict[str, Game] = {}


def register_game(name: str, game: Game | str) -> None:
    """Register a game object (or a lazy ``"module:attr"`` reference) under ``name``."""
    if isinstance(game, str):
        _GAMES[name] = game
        _LOADED.pop(name, None)
    else:
        _LOADED[name] = game


def game_names() -> list[str]:
    return sorted(set(_GAMES) | set(_LOADED))


def get_game(name: str) -> Game:
    """The game registered as ``name``; a one-line UserError when there is none."""
    if name in _LOADED:
        return _LOADED[name]
    ref = _GAMES.get(name)
    if ref is None:
        raise UserError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    module_name, _, attr = ref.partition(":")
    game = getattr(importlib.import_module(module_name), attr)
    _LOADED[name] = game
    return game
