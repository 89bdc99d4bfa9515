"""Hostile input to the table rules (issue 18): --table/--practice, set-up actions and execution
outcomes in replay files. The installed ``jamsumo`` runs (10 s of CPU, 1 GiB); each bad input is one
stderr line and exit 2; replay readers called in-process let only UserError escape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.replay import content_hash, save_replay, verify_replay
from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.rules.game import SUMO
from jamsumo_sim.turnloop import play

from .harness import assert_one_line_error, run_cli

SHORT = {"players": 2, "rounds": 1, "max_turns": 2, "shot_time": 1.5, "noise": "table"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A short Sumo replay with set-ups and execution outcomes."""
    result = play(SUMO, [RandomBot(s, SUMO) for s in range(2)], seed=4, params=SHORT)
    path = tmp_path_factory.mktemp("rec") / "r.json"
    save_replay(path, result.state, ["random", "random"])
    return json.loads(path.read_text())


def _write(tmp_path: Path, data: dict[str, Any]) -> Path:
    data = {**data, "content_sha256": content_hash(data)}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    return path


def _entry(data: dict[str, Any], kind: str) -> dict[str, Any]:
    for e in data["history"]:
        if kind == "setup" and "action" in e and "corner" in e["action"].get("args", {}):
            return e
        if kind == "execution" and "chance" in e and e["chance"]["name"].startswith("execution"):
            return e
    raise AssertionError(kind)


def test_table_and_practice_exclude_each_other():
    out = run_cli("jamsumo", "match", "--mode", "sumo", "--table", "--practice")
    assert_one_line_error(out, "--practice", "--table", "not allowed with")


def test_resume_refuses_a_new_noise_level(tmp_path):
    out = run_cli("jamsumo", "match", "--resume", "s.json", "--table", cwd=tmp_path)
    assert_one_line_error(out, "--resume continues the saved match as it was: drop --table")


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["params"].update(noise="godlike"), "unknown noise level 'godlike'"),
        (lambda d: d["params"].update(noise=[1]), "unknown noise level"),
        (lambda d: d["params"].update(sumo_setup="random"), "sumo_setup must be one of"),
        (lambda d: _entry(d, "setup")["action"]["args"].update(x1="far"), "not a valid set-up"),
        (lambda d: _entry(d, "setup")["action"]["args"].update(x9=0.0), "not a valid set-up"),
        (lambda d: _entry(d, "setup")["action"]["args"].update(corner=7), "not a valid set-up"),
        (
            lambda d: _entry(d, "execution")["chance"]["args"].update(angle=3.0),
            "cannot be replayed",
        ),
        (lambda d: _entry(d, "execution")["chance"]["args"].pop("height"), "cannot be replayed"),
    ],
)
def test_bad_records_are_one_line_exit_2(tmp_path, recorded, change, fragment):
    data = json.loads(json.dumps(recorded))
    change(data)
    path = _write(tmp_path, data)
    with pytest.raises(UserError) as info:
        verify_replay(path)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_a_bad_record_through_the_installed_command(tmp_path, recorded):
    data = json.loads(json.dumps(recorded))
    _entry(data, "setup")["action"]["args"]["y2"] = None
    path = _write(tmp_path, data)
    assert_one_line_error(run_cli("jamsumo", "replay", str(path), "--verify"), "not a valid set-up")


def test_a_set_up_out_of_its_area_is_a_divergence_not_a_crash(tmp_path, recorded):
    data = json.loads(json.dumps(recorded))
    _entry(data, "setup")["action"]["args"]["x1"] = 5.0  # 5 m: off the board
    path = _write(tmp_path, data)
    report = verify_replay(path)
    assert not report.ok and "must lie inside" in report.message
    out = run_cli("jamsumo", "replay", str(path), "--verify")
    assert out.code == 1 and "Traceback" not in out.stderr + out.stdout
