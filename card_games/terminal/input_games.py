"""Which game reads which typed words: a person's :class:`~card_games.terminal.input.CardInput`
for a game, with that game's extension (The Jam's offers, Jumble Jam's fills), if any.  Kept apart
from input.py, which the extensions build on (no import back)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from card_games.terminal.input import CardInput, Extension, MenuFormat, format_menu
from card_games.terminal.input_jam import JamInput
from card_games.terminal.input_jumble import JumbleInput

EXTENSIONS: dict[str, Callable[[], Extension]] = {"the_jam": JamInput, "jumble_jam": JumbleInput}


def card_input(
    game: Any, fmt: MenuFormat = format_menu, menu_rows: Callable[[], int] | None = None
) -> CardInput:
    """A new input helper for one person playing ``game`` at a terminal."""
    return CardInput(EXTENSIONS.get(game.name, Extension)(), fmt, menu_rows)
