"""End to end through the generic `card-games` CLI: headless JSON, record/verify, save and resume."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.child_limits import cpu_limited, hang_guard

ROOT = Path(__file__).resolve().parents[3]


def cli(*args: str, stdin: str = "", tmp: Path | None = None) -> subprocess.CompletedProcess[str]:
    env_home = {"XDG_DATA_HOME": str(tmp)} if tmp else {}
    import os

    return subprocess.run(
        [sys.executable, "-m", "card_games", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, **env_home},
        timeout=hang_guard(60),
        preexec_fn=cpu_limited(60),
        check=False,
    )


def test_headless_json_record_and_verify(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    out = cli(
        "play", "jumble-jam", "--players", "3", "--seats", "smart,random,random",
        "--seed", "3", "--variant", "kickstarter", "--json", "--record", str(record),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["game"] == "jumble-jam" and result["players"] == 3 and result["seed"] == 3
    assert result["variant"] == "kickstarter" and len(result["scores"]) == 3
    assert result["winner"] and result["turns"] > 0
    verify = cli("replay", str(record), "--verify")
    assert verify.returncode == 0 and "OK" in verify.stdout
    shown = cli("replay", str(record))
    assert "game over" in shown.stdout and "the Kitty moved" not in shown.stdout
    # a tampered record fails verification
    data = json.loads(record.read_text())
    data["digest"] = "0" * 16
    record.write_text(json.dumps(data))
    assert cli("replay", str(record), "--verify").returncode == 1


def test_human_bad_input_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    out = cli(
        "play", "jumble-jam", "--players", "2", "--seats", "human,random", "--seed", "5",
        "--record", str(save), stdin="bogus\n99\njar A1|B1\n1\nquit\n", tmp=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "'bogus' is not a legal move" in out.stdout
    assert "There is no move 99" in out.stdout
    assert "Your hand" in out.stdout and "Orders on display" in out.stdout
    data = json.loads(save.read_text())
    moves = [e["action"]["name"] for e in data["history"] if e.get("seat") == 0]
    assert moves[:2] == ["jar A1|B1", "jar A1|A2"]
    assert data["finished"] is False
    resumed = cli("resume", str(save), "--seats", "random,random", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["game"] == "jumble-jam"


def test_bad_player_count_is_one_clear_line() -> None:
    out = cli("play", "jumble-jam", "--players", "6")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "2–5 players" in out.stderr
