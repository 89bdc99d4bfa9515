"""Bots at a human pace (issue 35): ``--pace SECONDS`` pauses after each bot move shown live, a
default pause at a terminal, none when piped or with ``--json``. The sleep is replaced: the test
asserts the pauses asked for and never waits for them."""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

import pytest

from card_games.cli import main
from card_games.terminal.pace import DEFAULT_PACE_S, choose_pace

from .tables_helpers import FirstMovePerson


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[float]:
    asked: list[float] = []
    monkeypatch.setattr(time, "sleep", asked.append)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    return asked


def _bot_moves(record: Path) -> int:
    data = json.loads(record.read_text())
    return sum(1 for h in data["history"] if h.get("seat") in (1, 2))


def test_pace_pauses_after_every_bot_move_and_shows_it_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pauses: list[float]
) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stdin", FirstMovePerson(screen))
    record = tmp_path / "g.json"
    args = ["play", "jellyfish", "--players", "3", "--seats", "human,smart,smart", "--seed", "2"]
    assert main([*args, "--pace", "0.25", "--record", str(record)]) == 0
    assert pauses and set(pauses) == {0.25}
    assert len(pauses) == _bot_moves(record)
    out = screen.getvalue()
    # a bot's move is printed as it happens, and not listed again in the next table
    line = "Seat 1 draws"
    live = [ln for ln in out.splitlines() if ln.startswith(f"  {line}")]
    listed = [ln for ln in out.splitlines() if ln.startswith(f" - {line}")]
    assert live and not listed


def test_no_pace_when_piped_or_json_and_a_default_at_a_terminal(
    monkeypatch: pytest.MonkeyPatch, pauses: list[float]
) -> None:
    bots = ["play", "jellyfish", "--players", "2", "--seats", "smart,smart", "--seed", "3"]
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    assert main(bots) == 0
    assert pauses == []  # piped: at once
    monkeypatch.setattr(sys, "stdout", Tty())
    assert main([*bots, "--json"]) == 0
    assert pauses == []  # --json: nothing to follow
    assert main([*bots, "--pace", "0"]) == 0
    assert pauses == []
    assert main(bots) == 0
    assert pauses and set(pauses) == {DEFAULT_PACE_S}  # a terminal: the default pace
    assert choose_pace(2.0, False, False) == 2.0  # asked for: also when piped
    assert choose_pace(2.0, True, True) == 0.0


@pytest.mark.parametrize("bad", ["-1", "nan", "61", "soon"])
def test_a_bad_pace_is_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["play", "jellyfish", "--players", "2", "--pace", bad])
    assert stop.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
