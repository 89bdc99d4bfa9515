"""Hostile filmed-tumble files for the installed `jamsumo calibrate` (issue 17): each case exits 2
with one stderr line naming the file, line and column where there is one, before any fitting."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from jamsumo_sim.calibration.limits import MAX_TUMBLE_SHOTS

from .harness import assert_one_line_error, run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "calibration" / "samples"
HEADER = "shot,x0,y0,direction,speed,height,offset,quarter_turns,face,travel,hopped"
GOOD = "a,-0.9,0,0,2,0.8,0,3,2,0.2,1"


@pytest.fixture()
def work(tmp_path: Path) -> Path:
    for name in ("plank.toml", "tilt.csv"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path


def calibrate(work: Path, *args: str):
    return run_cli("jamsumo", "calibrate", *args, "--board", "plank.toml", cwd=work)


def tumbles(work: Path, *rows: str, header: str = HEADER) -> str:
    (work / "tum.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return "tum.csv"


@pytest.mark.parametrize(
    ("row", "where", "fragment"),
    [
        ("a,-0.9,0,0,2,0.8,0,2.5,2,0.2,1", "tum.csv:2:8:", "'quarter_turns'"),
        ("a,-0.9,0,0,2,0.8,0,1e9,2,0.2,1", "tum.csv:2:8:", "whole number from 0 to 1000"),
        ("a,-0.9,0,0,2,0.8,0,3,0,0.2,1", "tum.csv:2:9:", "'face'"),
        ("a,-0.9,0,0,2,0.8,0,3,2,0.2,perhaps", "tum.csv:2:11:", "'hopped'"),
        ("a,-0.9,0,0,nan,0.8,0,3,2,0.2,1", "tum.csv:2:5:", "not a finite number"),
        ("a,-0.9,0,0,7,0.8,0,3,2,0.2,1", "tum.csv:2:5:", "max_launch_speed"),
        ("a,-0.9,0,0,2,-0.1,0,3,2,0.2,1", "tum.csv:2:6:", "'height'"),
        ("a,-0.9,0,0,2,0.8,0,3,2,99,1", "tum.csv:2:10:", "diagonal"),
        ("a,-1.5,0,0,2,0.8,0,3,2,0.2,1", "tum.csv:2:2:", "off the board"),
    ],
)
def test_bad_values_name_line_and_column(work, row, where, fragment):
    assert_one_line_error(calibrate(work, tumbles(work, row)), where, fragment)


def test_repeated_shot_label(work):
    out = calibrate(work, tumbles(work, GOOD, GOOD))
    assert_one_line_error(out, "tum.csv:3:1:", "appears twice")


def test_missing_column_names_it(work):
    header = HEADER.replace(",hopped", ",hoped")
    out = calibrate(work, tumbles(work, GOOD, header=header))
    assert_one_line_error(out, "tum.csv:1:", "missing column 'hopped'", "unknown column 'hoped'")


def test_too_many_tumble_shots(work):
    rows = [f"s{i},-0.9,0,0,2,0.8,0,3,2,0.2,1" for i in range(MAX_TUMBLE_SHOTS + 1)]
    out = calibrate(work, tumbles(work, *rows))
    assert_one_line_error(out, f"tum.csv:{MAX_TUMBLE_SHOTS + 2}:", "tumble shots")


def test_shots_too_scattered_to_compare(work):
    out = calibrate(work, tumbles(work, GOOD, "b,-0.9,0,0,3,0.95,0,9,2,0.6,1"))
    assert_one_line_error(out, "2 tumble shots", "no speed/height bin")


def test_tumble_parameter_without_tumble_data(work):
    out = calibrate(work, "tilt.csv", "--fit", "hop_lift")
    assert_one_line_error(out, "--fit", "hop_lift needs tumble data")


def test_unknown_parameter_lists_the_tumble_ones(work):
    out = calibrate(work, tumbles(work, GOOD), "--fit", "hop_height")
    assert_one_line_error(out, "cannot fit 'hop_height'", "mu_landing", "restitution_landing")
