"""A sweep spec names its other dice as the spec numbers them, and reads a relative board file from
its own folder, as a scenario does (qa)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import jamsumo_sim
from jamsumo_sim.errors import UserError
from jamsumo_sim.sweep.cli import _check_position
from jamsumo_sim.sweep.spec import parse_spec, read_spec

SPEC = {
    "version": 1, "board": "standard", "mode": "jam",
    "die": {"x": 0.0, "y": -0.18, "angle": 0.0, "face": 4}, "dice": [],
    "aim": 1.57, "speed": 1.0, "repeats": 1,
}  # fmt: skip


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ([{"id": "a"}], "spec s.json: dice[0] lacks 'x'"),
        ([{"id": "a", "x": 0.1, "y": 0.1}, {"id": "b", "x": 0.2, "y": 0.1, "face": 9}],
         "spec s.json: dice[1].face must be an integer 1..6, got 9"),
        ([{"id": "a", "x": 0.0, "y": -0.18}],
         "spec s.json: die ('shooter') and dice[0] ('a') start overlapping"),
    ],
)  # fmt: skip
def test_dice_are_numbered_as_in_the_spec(dice: list, expected: str) -> None:
    spec = parse_spec({**SPEC, "dice": dice}, "spec s.json")
    with pytest.raises(UserError) as info:
        _check_position(spec, "s.json")
    assert str(info.value).startswith(expected), str(info.value)


def test_too_many_dice_counts_the_spec_dice() -> None:
    dice = [{"id": f"d{i}", "x": -0.3 + 0.03 * (i % 20), "y": 0.2} for i in range(64)]
    with pytest.raises(UserError, match=r"\.dice has 64 dice; at most 63 besides the die"):
        parse_spec({**SPEC, "dice": dice}, "spec s.json")


def test_a_relative_board_file_is_read_from_the_spec_folder(tmp_path, monkeypatch) -> None:
    folder = tmp_path / "specs"
    folder.mkdir()
    shutil.copy(
        Path(jamsumo_sim.__file__).parent / "assets/boards/standard.toml", folder / "b.toml"
    )
    (folder / "s.json").write_text(json.dumps({**SPEC, "board": "b.toml"}))
    monkeypatch.chdir(tmp_path)  # elsewhere than the spec
    spec = read_spec("specs/s.json")
    assert Path(spec.board) == folder.resolve() / "b.toml"
    _check_position(spec, "specs/s.json")  # the board is found
