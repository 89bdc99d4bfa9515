"""`card-games replay --verify` names the move a record was changed at (not a later chance draw),
catches changed seat labels and refuses unknown ones, each in one line (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_games.cli import main
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.serialize import state_from_json


def verify(capsys: pytest.CaptureFixture[str], record: Path) -> tuple[int, str, str]:
    code = main(["replay", str(record), "--verify"])
    out = capsys.readouterr()
    with capsys.disabled():  # shown with -s, kept out of the next capture
        print(out.out, out.err)
    return code, out.out, out.err


@pytest.fixture
def record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    args = ["play", "jumble-jam", "--players", "2", "--seats", "random,smart", "--seed", "0"]
    assert main([*args, "--record", str(path), "--json"]) == 0
    capsys.readouterr()
    assert verify(capsys, path)[0] == 0
    return path


def change_a_legal_move(data: dict) -> int:
    """Replace the first seat move that has another legal choice by that choice; its index."""
    for index, entry in enumerate(data["history"]):
        if "action" not in entry:
            continue
        state = state_from_json({**data, "history": data["history"][:index]})
        others = [a for a in state.legal_actions() if a != Action.from_json(entry["action"])]
        if others and index > 10:
            entry["action"] = others[0].to_json()
            return index
    raise AssertionError("no move with a second choice")


def test_a_changed_legal_move_is_reported_at_that_move(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(record.read_text())
    index = change_a_legal_move(data)
    record.write_text(json.dumps(data))
    code, out, err = verify(capsys, record)
    assert code == 1 and out == "" and len(err.strip().splitlines()) == 1
    assert f"move {index + 1} (seat " in err and "changed at this move" in err


def test_changed_seat_labels_are_caught(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record.read_text())
    data["seats"] = ["smart", "smart"]
    record.write_text(json.dumps(data))
    code, _, err = verify(capsys, record)
    assert code == 1 and "seats were changed" in err and len(err.strip().splitlines()) == 1

    data["seatings"][0]["seats"] = ["smart", "smart"]  # both changed alike: the check differs
    record.write_text(json.dumps(data))
    code, _, err = verify(capsys, record)
    assert code == 1 and "seat labels" in err and len(err.strip().splitlines()) == 1


def test_unknown_seats_are_refused(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(record.read_text())
    data["seats"] = ["random", "wizard"]
    record.write_text(json.dumps(data))
    code, _, err = verify(capsys, record)
    assert code == 2 and "seat 1 is 'wizard'" in err and len(err.strip().splitlines()) == 1


def test_resuming_with_other_seats_still_verifies(
    record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A seat change made by `resume --seats` is part of the record, not an edit."""
    data = json.loads(record.read_text())
    cut = len(data["history"]) // 2
    data["history"] = data["history"][:cut]
    data.update(finished=False, result=None, move_checks=data["move_checks"][:cut])
    data["digest"] = state_from_json(data).digest()
    record.write_text(json.dumps(data))
    finish = tmp_path / "finish.json"
    args = ["resume", str(record), "--seats", "smart,random", "--record", str(finish), "--json"]
    assert main(args) == 0
    capsys.readouterr()
    code, out, _ = verify(capsys, finish)
    assert code == 0 and "OK" in out
    seatings = json.loads(finish.read_text())["seatings"]
    assert [s["seats"] for s in seatings] == [["random", "smart"], ["smart", "random"]]
