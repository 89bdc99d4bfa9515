"""Hostile input to the installed `jamsumo calibrate`: one test per class of bad input (issue 15).

Each case must exit 2 with one stderr line naming the file (and line, column where there is one), no
traceback, within the harness's 10 s of CPU and 1 GiB; outputs are checked before any fitting and
never overwrite an input.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from jamsumo_sim.calibration.limits import MAX_LINES

from .harness import assert_one_line_error, run_cli

SAMPLES = Path(__file__).resolve().parents[2] / "calibration" / "samples"
REST = "shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1"
COLLISION = "shot,x0,y0,angle0,vx0,vy0,omega0,tx0,ty0,tangle0,x1,y1,angle1,tx1,ty1,tangle1"


@pytest.fixture()
def work(tmp_path: Path) -> Path:
    """A folder with the plank board and the tilt sample (fits in a blink: no physics engine)."""
    for name in ("plank.toml", "tilt.csv"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    return tmp_path


def calibrate(work: Path, *args: str):
    return run_cli("jamsumo", "calibrate", *args, "--board", "plank.toml", cwd=work)


def write(work: Path, name: str, text: str | bytes) -> str:
    p = work / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return name


def test_absurd_launch_speed(work):
    f = write(work, "big.csv", f"{REST}\na,0,0,0,1,0,0,0.2,0,0\nb,0,0,0,1e300,0,0,0.2,0,0\n")
    assert_one_line_error(calibrate(work, f), "big.csv:3:5:", "launch speed", "5 m/s cap")


def test_launch_speed_above_the_cap(work):
    f = write(work, "fast.csv", f"{COLLISION}\nc,-0.1,0,0,4,3.1,0,0,0,0,0.1,0,0,0.3,0,0\n")
    assert_one_line_error(calibrate(work, f), "fast.csv:2:5:", "speed 5.06", "above the 5 m/s cap")


def test_values_out_of_their_range(work):
    text = "shot,t,x,y,angle\na,0,0,0,0\na,0.1,0.1,0,0\na,1e12,0.2,0,0\n"
    assert_one_line_error(calibrate(work, write(work, "t.csv", text)), "t.csv:4:2:", "'t'")


def test_collision_dice_start_overlapping(work):
    f = write(work, "ov.csv", f"{COLLISION}\nc,0,0,0,1,0,0,0.012,0.003,0.3,0.2,0,0,0.4,0,0\n")
    assert_one_line_error(calibrate(work, f), "ov.csv:2:8:", "start overlapping")


def test_same_file_twice_even_through_a_symlink(work):
    os.symlink(work / "tilt.csv", work / "again.csv")
    out = calibrate(work, "tilt.csv", "again.csv")
    assert_one_line_error(out, "again.csv", "tilt.csv", "given twice")


def test_unknown_header_column(work):
    f = write(work, "typo.csv", "angle_deg,sliped\n10,0\n")
    assert_one_line_error(
        calibrate(work, f), "typo.csv:1:", "missing column 'slipped'", "unknown column 'sliped'"
    )


def test_not_utf8_csv_and_toml(work):
    f = write(work, "latin1.csv", b"# gemessen von J\xfcrgen\nangle_deg,slipped\n10,0\n")
    assert_one_line_error(calibrate(work, f), "latin1.csv", "not UTF-8", "line 1")
    params = write(work, "p.toml", b"# \xb5 = friction\nversion = 1\n[params]\nmu_board = 0.3\n")
    assert_one_line_error(calibrate(work, "tilt.csv", "--params", params), "p.toml", "not UTF-8")


def test_nan_and_inf_values(work):
    f = write(work, "nan.csv", "angle_deg,slipped\n10,0\nNaN,1\n")
    assert_one_line_error(calibrate(work, f), "nan.csv:3:1:", "not a finite number")


def test_huge_files(work):
    many = write(work, "many.csv", "angle_deg,slipped\n" + "10,0\n" * MAX_LINES)
    assert_one_line_error(calibrate(work, many), "many.csv", f"more than {MAX_LINES} lines")
    with open(work / "huge.csv", "wb") as fh:  # sparse: the size check must come before reading
        fh.truncate(65 * 2**20)
    assert_one_line_error(calibrate(work, "huge.csv"), "huge.csv", "too large")


def test_output_that_is_an_input_is_refused(work):
    before = (work / "tilt.csv").read_bytes()
    out = calibrate(work, "tilt.csv", "--out", "tilt.csv")
    assert_one_line_error(out, "tilt.csv", "also an input")
    assert (work / "tilt.csv").read_bytes() == before
    out = calibrate(work, "tilt.csv", "--out", "plank.toml")  # the board file is an input too
    assert_one_line_error(out, "plank.toml", "also an input")


def test_plot_format_or_folder_refused_before_any_work(work):
    # the data file is bad too: the output check must come first, before reading (let alone fitting)
    bad = write(work, "bad.csv", "angle_deg,slipped\n10,maybe\n")
    assert_one_line_error(calibrate(work, bad, "--plot", "fit.xyz"), "fit.xyz", "'xyz'")
    (work / "plots").mkdir()
    assert_one_line_error(calibrate(work, bad, "--plot", "plots"), "plots", "directory")
    assert sorted(p.name for p in work.iterdir()) == [
        "bad.csv",
        "plank.toml",
        "plots",
        "tilt.csv",
    ]


def test_bad_numeric_options(work):
    assert_one_line_error(calibrate(work, "tilt.csv", "--starts", "1000000"), "--starts")
    assert_one_line_error(calibrate(work, "tilt.csv", "--holdout", "nan"), "--holdout")
    assert_one_line_error(calibrate(work, "tilt.csv", "--fit", "x" * 5000), "--fit", "...")
