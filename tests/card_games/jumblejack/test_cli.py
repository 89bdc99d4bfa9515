"""End to end through the generic ``card-games`` command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from card_games.cli import main


def test_headless_json_in_a_fresh_interpreter() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "card_games",
            "play",
            "jumblejack",
            "--players",
            "5",
            "--seats",
            "smart,random,random,random,smart",
            "--seed",
            "3",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(out.stdout)
    assert result["game"] == "jumblejack" and result["players"] == 5 and result["seed"] == 3
    assert result["variant"] == "standard" and len(result["scores"]) == 5
    assert result["winner"] == [s for s, v in enumerate(result["scores"]) if v == 1.0]
    assert result["turns"] > 5


def test_record_replay_and_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    assert (
        main(
            [
                "play",
                "jumblejack",
                "--players",
                "6",
                "--seats",
                "smart,random,smart,random,random,random",
                "--seed",
                "4",
                "--record",
                str(record),
            ]
        )
        == 0
    )
    assert "JumbleJack:" in capsys.readouterr().out
    assert main(["replay", str(record), "--verify"]) == 0
    assert "OK" in capsys.readouterr().out
    assert main(["replay", str(record)]) == 0
    shown = capsys.readouterr().out
    assert "Round 1" in shown and "Your secret pirate" not in shown  # public lines only
    data = json.loads(record.read_text())
    data["history"][1]["chance"]["args"]["order"].reverse()  # tamper: a different deal
    record.write_text(json.dumps(data))
    # a deal that is not the seed's is a different game: verify names the move (exit 1)
    assert main(["replay", str(record), "--verify"]) == 1
    assert "move 2: the recorded chance outcome is not what seed 4 gives" in capsys.readouterr().err


def test_a_person_plays_saves_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "save.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("nonsense\n1\nquit\n"))
    assert (
        main(
            [
                "play",
                "jumblejack",
                "--players",
                "4",
                "--seats",
                "human,random,random,random",
                "--seed",
                "8",
                "--record",
                str(save),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Your secret pirate wears" in out and "is not a legal move" in out
    saved = json.loads(save.read_text())
    assert saved["finished"] is False
    moves = len(saved["history"])
    # resume: always the first listed move until the game ends
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 200))
    assert main(["resume", str(save)]) == 0
    assert "Winner" in capsys.readouterr().out
    final = json.loads(save.read_text())
    assert final["finished"] is True and final["history"][:moves] == saved["history"]
