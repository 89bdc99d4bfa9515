"""The generic card-games CLI end to end with The Jam: headless JSON, record/verify, save/resume."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.child_limits import cpu_limited, hang_guard

ENV = dict(os.environ, PYTHONHASHSEED="0")


def run(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "card_games", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=ENV,
        cwd=cwd,
        timeout=hang_guard(120),
        preexec_fn=cpu_limited(120),
        check=False,
    )


def test_headless_json_and_record_verify(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    out = run(
        "play",
        "the-jam",
        "--players",
        "3",
        "--seats",
        "smart,random,random",
        "--seed",
        "3",
        "--variant",
        "travel",
        "--json",
        "--record",
        str(record),
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["game"] == "the-jam" and result["players"] == 3 and result["variant"] == "travel"
    assert len(result["scores"]) == 3 and result["winner"] and result["turns"] > 0
    verify = run("replay", str(record), "--verify")
    assert verify.returncode == 0 and "OK" in verify.stdout
    # a tampered record is caught
    data = json.loads(record.read_text())
    data["digest"] = "0" * 16
    record.write_text(json.dumps(data))
    assert run("replay", str(record), "--verify").returncode == 1


def test_human_plays_saves_and_resumes(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    out = run(
        "play",
        "the-jam",
        "--players",
        "2",
        "--seats",
        "human,random",
        "--seed",
        "4",
        "--variant",
        "kids",
        "--record",
        str(save),
        stdin="nonsense\n99\n1\n1\nquit\n",
    )
    assert out.returncode == 0, out.stderr
    assert "Your hand:" in out.stdout and "Basket" in out.stdout
    assert "not a legal move" in out.stdout and "There is no move 99" in out.stdout
    data = json.loads(save.read_text())
    assert data["finished"] is False and len([e for e in data["history"] if "seat" in e]) >= 2
    resumed = run("resume", str(save), "--seats", "random,random", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["game"] == "the-jam"


def test_bad_variant_is_one_clear_line() -> None:
    out = run("play", "the-jam", "--players", "2", "--variant", "nope", "--seats", "random,random")
    assert out.returncode == 2 and "no variant 'nope'" in out.stderr and out.stderr.count("\n") == 1
