"""The compact layout (issue 35: "Jumble Jam's board scrolls off while you choose a jar; The Jam
is longer than 24 rows"): every screen a person is asked at fits 80 columns × 24 rows, in every
game; `board` redraws the table with the moves, `full` shows all of it, `log` the events; a list
of one kind is never folded; a forced move is not asked; what changed is marked."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest

from card_games.cli import main
from card_games.terminal.changes import changes, marked
from card_games.terminal.table import Look, look_for

from .tables_helpers import PROMPT, FirstMovePerson

COLUMNS, ROWS = 80, 24
# A table starts with its title (after the change-mark gutter); a screen is what a person sees
# from the last table drawn to the prompt.
TITLE = re.compile(r"^[ *]?\s?(Jumble Jam|The Jam|Jelly Fish|JumbleJack) ")
GAMES = [  # (game, players, seats, seed): the smallest and largest tables
    ("jumble-jam", 3, "human,smart,smart", 2),
    ("jumble-jam", 5, "human,smart,smart,smart,smart", 3),
    ("the-jam", 2, "human,smart", 2),
    ("the-jam", 4, "human,smart,smart,smart", 3),
    ("jellyfish", 3, "human,smart,smart", 2),
    ("jellyfish", 6, "human,smart,smart,smart,smart,smart", 3),
    ("jumblejack", 4, "human,smart,smart,smart", 2),
    ("jumblejack", 8, "human,smart,smart,smart,smart,smart,smart,smart", 3),
]


def play(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: list[str],
    person: type[FirstMovePerson] = FirstMovePerson,
) -> str:
    screen = io.StringIO()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", str(COLUMNS))
    monkeypatch.setenv("LINES", str(ROWS))
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", person(screen))
    assert main(["play", *args, "--compact"]) == 0
    return screen.getvalue()


def screens(out: str) -> list[list[str]]:
    """What the person sees at each prompt: from the last table drawn before it to the prompt.
    (Piped, the answer is not echoed: a prompt line is cut at the prompt.)"""
    found, current = [], []
    for line in out.split("\n"):
        prompt = PROMPT.match(line)
        current.append(prompt.group(0) if prompt else line)
        if prompt:
            titles = [i for i, ln in enumerate(current) if TITLE.match(ln)]
            found.append(current[titles[-1] :] if titles else current)
            current = []
    return found


@pytest.mark.parametrize(("game", "players", "seats", "seed"), GAMES)
def test_every_screen_of_a_seeded_game_fits_80_by_24(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, players: int, seats: str, seed: int
) -> None:
    out = play(
        monkeypatch,
        tmp_path,
        [game, "--players", str(players), "--seats", seats, "--seed", str(seed)],
    )
    shown = screens(out)
    assert len(shown) > 5
    for rows in shown:
        assert len(rows) <= ROWS, "\n".join(rows)
        assert all(len(line) <= COLUMNS for line in rows), "\n".join(rows)
        if rows[-1] == "seat 0> ":  # a move's prompt (a dialogue's steps: 'board' redraws)
            assert TITLE.match(rows[0]), "\n".join(rows)  # the table is on the screen
    tallest = max(len(rows) for rows in shown)
    print(f"{game} {players}p: {len(shown)} screens, at most {tallest} rows")


class BoardPerson(FirstMovePerson):
    """Types 'board', 'full' and 'log' at the first prompt, then plays the first moves."""

    commands = ["board", "full", "log"]

    def readline(self, size: int = -1) -> str:
        if self.commands:
            self.commands = self.commands[1:]
            return type(self).commands[len(type(self).commands) - len(self.commands) - 1] + "\n"
        return super().readline(size)


def test_board_redraws_the_table_with_the_moves_full_shows_all_and_log_the_events(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = play(
        monkeypatch,
        tmp_path,
        ["the-jam", "--players", "2", "--seats", "human,smart", "--seed", "2"],
        BoardPerson,
    )
    first, board, full, log = out.split("seat 0> ")[:4]
    menu = [ln for ln in first.splitlines() if re.match(r"^\s+\d+\. ", ln)]
    assert menu and TITLE.match(board.strip("\n").splitlines()[0])
    last = first.rstrip().splitlines()[-1]
    assert board.rstrip().endswith(last)  # the table, then the same moves again
    assert "task W4 Jam for winter" not in first and "Tasks W4" in first  # compact: names
    assert "task W4 Jam for winter" in full  # full: every task written out
    assert full.rstrip().endswith(last)
    assert " - " in log and "Seat 0 draws" in log or "You draw" in log


def test_a_long_list_of_one_kind_is_shown_whole_side_by_side(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # was "17 moves in 1 kinds; a word lists matching moves: … type 'jar' to list them"
    out = play(
        monkeypatch,
        tmp_path,
        ["jumble-jam", "--players", "3", "--seats", "human,smart,smart", "--seed", "2"],
    )
    first = out.split("seat 0> ")[0]
    assert "kinds" not in first and "more:" not in first
    numbers = sorted(int(n) for n in re.findall(r"(\d+)\. jar ", first))
    assert numbers == list(range(1, 18))
    assert len([ln for ln in first.splitlines() if ". jar " in ln]) <= 5  # side by side


def test_a_forced_move_is_played_and_said_not_asked(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = play(
        monkeypatch,
        tmp_path,
        ["jellyfish", "--players", "2", "--seats", "human,smart", "--seed", "1"],
    )
    forced = re.findall(r"Seat 0: your only move, played: (steal .*)\.", out)
    assert forced
    for rows in screens(out):
        menu = [ln for ln in rows if re.match(r"^\s+\d+\. ", ln)]
        assert len(menu) != 1  # never asked to choose among one


def test_changes_since_the_last_look_are_marked() -> None:
    before = ["Seat 0  3 coins  O04", "Seat 1  2 coins  -", "Deck 9"]
    after = ["Seat 0  3 coins  O04", "Seat 1  5 coins  O02", "Deck 8", "Seat 2 joins"]
    found = changes(before, after)
    assert set(found) == {1, 2, 3}
    assert [after[1][a:b] for a, b in found[1]] == ["5", "O02"]  # word by word, not the line
    assert [after[3][a:b] for a, b in found[3]] == ["Seat", "2", "joins"]
    plain = marked("\n".join(after), before, Look(plain=True))
    assert [ln[0] for ln in plain.splitlines()] == [" ", "*", "*", "*"]
    assert marked("\n".join(after), None, Look(plain=True)).count("*") == 0  # the first look
    colour = marked("\n".join(after), before, Look(plain=False))
    assert "\x1b[7m5" in colour and "\x1b[7mO02" in colour and "3 coins" in colour.splitlines()[0]


def test_a_persons_table_marks_what_changed_since_their_previous_turn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = play(
        monkeypatch,
        tmp_path,
        ["jellyfish", "--players", "3", "--seats", "human,smart,smart", "--seed", "2"],
    )
    shown = screens(out)
    assert not any(ln.startswith("*") for ln in shown[0])  # nothing to compare the first with
    later = [rows for rows in shown[1:] if any(ln.startswith("*") for ln in rows)]
    assert len(later) >= len(shown) // 2
    # a seat whose sets changed is marked, the title line never is unless its status changed
    assert any(ln.startswith("*Seat") for rows in later for ln in rows)


def test_piped_output_is_never_compact_whatever_lines_says(monkeypatch):
    """LINES describes a terminal; a piped process that inherits it (pytest-xdist's workers set 24)
    has no screen, so it gets the full table; a terminal under 40 rows gets the compact one."""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("LINES", "24")
    assert not look_for(io.StringIO(), plain=False).compact
    assert look_for(Tty(), plain=False).compact
    monkeypatch.setenv("LINES", "50")
    assert not look_for(Tty(), plain=False).compact
