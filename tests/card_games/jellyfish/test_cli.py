"""End to end through the generic `card-games` command: headless, record/verify, save and resume.

One real subprocess proves the installed entry point works; the rest call ``main`` in-process
(same code path, without paying an interpreter start per call).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from card_games.cli import main
from tests.child_limits import cpu_limited, hang_guard

ROOT = Path(__file__).resolve().parents[3]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_headless_json_result_in_a_subprocess() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "card_games", "play", "jellyfish", "--players", "3",
         "--seats", "smart,random,smart", "--seed", "3", "--json"],
        capture_output=True, text=True, cwd=ROOT, check=False,
        timeout=hang_guard(120), preexec_fn=cpu_limited(120),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["game"] == "jellyfish" and result["players"] == 3 and result["seed"] == 3
    assert result["variant"] == "standard" and len(result["scores"]) == 3
    assert result["winner"] and result["turns"] > 0


def test_record_replay_and_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = str(tmp_path / "game.json")
    args = (
        "play",
        "jellyfish",
        "--players",
        "4",
        "--seats",
        "smart,random,smart,random",
        "--seed",
        "8",
    )
    code, out, _ = run(capsys, *args, "--json", "--record", record)
    assert code == 0
    result = json.loads(out)
    assert run(capsys, *args, "--json")[1] == out  # same seed, same game
    code, out, _ = run(capsys, "replay", record, "--verify")
    assert code == 0 and "OK" in out
    code, out, _ = run(capsys, "replay", record)
    assert "Seat 0 is dealt" in out and f"Winner: seat {result['winner'][0]} after" in out
    data = json.loads(Path(record).read_text())
    data["digest"] = "0" * 16  # a tampered record fails verification
    Path(record).write_text(json.dumps(data))
    assert run(capsys, "replay", record, "--verify")[0] == 1


def test_human_bad_input_reprompts_quit_saves_and_resume_finishes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = str(tmp_path / "save.json")
    monkeypatch.setattr(sys, "stdin", io.StringIO("nonsense\n99\n1\n1\nquit\n"))
    code, out, err = run(
        capsys,
        "play",
        "jellyfish",
        "--players",
        "2",
        "--seats",
        "human,random",
        "--seed",
        "4",
        "--record",
        save,
    )
    assert code == 0 and "Saved to" in err
    assert "Seat 0 (you)" in out and "Seat 0, your move:" in out
    assert "is not a legal move" in out and "There is no move 99" in out
    saved = json.loads(Path(save).read_text())
    assert saved["finished"] is False
    moves = len(saved["history"])
    # resume as a person: one more move, quit; then let bots finish it
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    code, out, err = run(capsys, "resume", save)
    assert code == 0 and "Resuming" in err
    assert len(json.loads(Path(save).read_text())["history"]) > moves
    code, out, _ = run(capsys, "resume", save, "--seats", "smart,random", "--json")
    assert code == 0 and json.loads(out)["game"] == "jellyfish"
    assert json.loads(Path(save).read_text())["finished"] is True
    assert run(capsys, "replay", save, "--verify")[0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [(("--players", "7"), "2–6 players"), (("--players", "2", "--variant", "x"), "no variant")],
)
def test_bad_options_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    code, _, err = run(capsys, "play", "jellyfish", *args)
    assert code == 2 and message in err and "Traceback" not in err


def test_unwritable_record_and_save_paths_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --record naming a directory: refused before the game starts → one line, exit 2
    code, out, err = run(
        capsys, "play", "jellyfish", "--players", "2", "--seats", "random,random",
        "--record", str(tmp_path),
    )  # fmt: skip
    assert code == 2 and "is a directory" in err and len(err.strip().splitlines()) == 1
    assert out == ""  # nothing was played
    # a person's `save DIR` says it could not save and asks again; `quit` then saves normally
    save = str(tmp_path / "save.json")
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"save {tmp_path}\n1\nquit\n"))
    code, _, err = run(
        capsys, "play", "jellyfish", "--players", "2", "--seats", "human,random",
        "--record", save, "--seed", "0",
    )  # fmt: skip
    assert code == 0 and "Could not save" in err and "Traceback" not in err
    assert json.loads(Path(save).read_text())["finished"] is False
