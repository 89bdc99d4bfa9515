"""Hostile input to the card-game table flags (issue 19): ``--aid`` on a game without a memory
aid, ``--plain`` given a value; each is one stderr line and exit 2, checked before play."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import assert_one_line_error, run_cli


@pytest.mark.parametrize("game", ["jellyfish", "jumble-jam", "the-jam"])
def test_aid_is_jumblejack_only(game: str, tmp_path: Path) -> None:
    out = run_cli(
        "card-games",
        "play",
        game,
        "--players",
        "2",
        "--seats",
        "random,random",
        "--aid",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert_one_line_error(out, "--aid", "JumbleJack")
    assert out.stdout == ""  # refused before the first move


def test_aid_on_resume_of_another_game(tmp_path: Path) -> None:
    record = tmp_path / "g.json"
    saved = run_cli(
        "card-games",
        "play",
        "jellyfish",
        "--players",
        "2",
        "--seats",
        "human,random",
        "--seed",
        "0",
        "--record",
        str(record),
        stdin="quit\n",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert saved.code == 0 and record.exists()
    out = run_cli("card-games", "resume", str(record), "--aid")
    assert_one_line_error(out, "--aid", "JumbleJack")


def test_plain_takes_no_value(tmp_path: Path) -> None:
    out = run_cli(
        "card-games",
        "play",
        "jumblejack",
        "--players",
        "4",
        "--plain=yes",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert_one_line_error(out, "--plain")


def test_plain_and_aid_are_accepted_for_jumblejack(tmp_path: Path) -> None:
    seats = "random,random,random,random"
    out = run_cli(
        "card-games",
        "play",
        "jumblejack",
        "--players",
        "4",
        "--seats",
        seats,
        "--seed",
        "0",
        "--plain",
        "--aid",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert out.code == 0 and "\x1b[" not in out.stdout
