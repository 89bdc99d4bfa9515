"""`jamsumo match`: result printing, JSON shape, recording, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jamsumo_sim.cli import main


def test_match_json_shape_and_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "m.json"
    argv = [
        "match",
        "--mode",
        "jamsumo",
        "--players",
        "2",
        "--seats",
        "random,random",
        "--seed",
        "3",
        "--max-turns",
        "2",
        "--rounds",
        "1",
        "--json",
        "--record",
        str(rec),
    ]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"mode", "players", "seed", "rounds", "totals", "winner"} <= set(out)
    assert out["mode"] == "jamsumo" and out["players"] == 2 and out["seed"] == 3
    assert [r["mode"] for r in out["rounds"]] == ["jam", "sumo"]
    assert all(r["capped"] for r in out["rounds"])
    jam, sumo = out["rounds"]
    assert out["totals"] == [sumo["scores"][k] - jam["scores"][k] for k in range(2)]
    assert main(["replay", str(rec), "--verify"]) == 0


def test_match_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "match",
        "--mode",
        "sumo",
        "--players",
        "3",
        "--seats",
        "random,random,random",
        "--seed",
        "1",
        "--max-turns",
        "2",
        "--rounds",
        "1",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "round 1 sumo: points" in out and "winner:" in out and "turn cap" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "5"], "2–4 players"),
        (["--seats", "random"], "takes 2–4 players, not 1"),
        (["--seats", "random,wizard"], "unknown seat"),
        (["--seats", "random,random:hard"], "only the planner has levels"),
        (["--seats", "random,planner:godlike"], "unknown planner level"),
        (["--max-turns", "0"], "max_turns"),
        (["--seed", "-1"], "non-negative"),
        (["--params", "/nonexistent.toml"], "cannot read"),
    ],
)
def test_bad_input_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["match", "--mode", "jam", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_resume_an_unfinished_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jamsumo_sim.replay import save_replay
    from tests.jamsumo.helpers import new_state, settle_marker

    state = new_state("jam", rounds=1, max_turns=3)
    settle_marker(state, 1)
    state.apply_action(state.legal_actions()[0])
    path = tmp_path / "saved.json"
    save_replay(path, state, ["random", "random"])
    assert main(["match", "--resume", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] and out["turns"] == 3 and out["rounds"][0]["capped"]


def test_unwritable_record_path_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["match", "--mode", "sumo", "--seats", "random,random", "--max-turns", "2"]
    assert main([*argv, "--rounds", "1", "--record", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "cannot write replay" in err and len(err.splitlines()) == 1


def test_players_follow_the_seats_and_resume_keeps_the_saved_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = tmp_path / "m3.json"
    argv = ["match", "--mode", "jam", "--seats", "random,random,random", "--rounds", "1"]
    assert main([*argv, "--max-turns", "3", "--json", "--record", str(rec)]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 3
    # a finished match cannot be resumed, and a resume takes no new rules
    assert main(["match", "--resume", str(rec)]) == 2
    assert "already finished" in capsys.readouterr().err
    assert main(["match", "--resume", str(rec), "--mode", "sumo"]) == 2
    assert "drop --mode" in capsys.readouterr().err
