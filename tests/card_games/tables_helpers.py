"""Helpers for the terminal-table tests: play a whole game through ``card-games`` in-process,
a person at seat 0 always choosing the first move the latest menu lists."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from card_games.cli import main

MENU_ITEM = re.compile(r"^\s*(\d+)\.\s")
PROMPT = re.compile(r"^[\w ]{1,30}> ")  # "seat 0> ", "offer> ", "seat 0 fill> "
# A person who keeps choosing: bounded, so a menu that never ends the game fails the test.
MAX_ANSWERS = 3000

GAMES = {  # cli name: (players, seats, seed)
    "jellyfish": (3, "human,smart,smart", 2),
    "jumble-jam": (3, "human,smart,smart", 2),
    "jumblejack": (4, "human,smart,smart,smart", 2),
    "the-jam": (2, "human,smart", 2),
}


def listed_since_last_answer(screen: str) -> list[str]:
    """The move numbers listed since the person last answered, in the order shown."""
    lines = screen.splitlines()[:-1]  # the last line is the prompt now waiting
    numbers: list[str] = []
    for line in reversed(lines):
        if PROMPT.match(line):
            break
        match = MENU_ITEM.match(line)
        if match:
            numbers.append(match.group(1))
    return numbers[::-1]


class FirstMovePerson(io.TextIOBase):
    """stdin that answers each prompt with the first move listed; when an answer is refused
    (the same list comes back, or none is shown), the next move of the list."""

    def __init__(self, screen: io.StringIO) -> None:
        self.screen = screen
        self.answers = 0
        self.menu: list[str] = ["1"]
        self.tail = ""
        self.index = 0

    def readline(self, size: int = -1) -> str:
        self.answers += 1
        if self.answers > MAX_ANSWERS:
            return ""  # end of input: the game is saved and stops
        tail = self.screen.getvalue()[-6000:]
        menu = listed_since_last_answer(tail)
        if menu and tail[-400:] != self.tail:
            self.menu, self.index = menu, 0
        else:  # refused: the same list again, or only a message
            self.index += 1
        self.tail = tail[-400:]
        return self.menu[self.index % len(self.menu)] + "\n"

    def isatty(self) -> bool:
        return False


def play_as_person(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, *extra: str, width: int = 80
) -> str:
    """Everything printed on stdout by one game with a person at seat 0."""
    players, seats, seed = GAMES[game]
    screen = io.StringIO()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", str(width))
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", FirstMovePerson(screen))
    args = ["play", game, "--players", str(players), "--seats", seats, "--seed", str(seed)]
    assert main([*args, *extra]) == 0
    return screen.getvalue()
