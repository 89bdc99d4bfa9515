"""Hostile input to the installed `jamsumo play`: one test per class of bad input; each must exit 2 with
one line on stderr and no traceback, within 10 s of CPU and 1 GiB (see harness.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hostile.harness import assert_one_line_error, run_cli


def _play(*args: str, data: Path, display: bool = True):
    env = {"XDG_DATA_HOME": str(data)}
    if not display:  # no display at all: the headless demo match path
        env.update({"SDL_VIDEODRIVER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    return run_cli("jamsumo", "play", *args, env=env)


def test_window_size_out_of_bounds(tmp_path):
    # 100000x100000 would ask for tens of GB of surfaces: refused before pygame starts
    out = _play("--size", "100000x100000", "--frames", "1", data=tmp_path)
    assert_one_line_error(out, "--size", "7680x4320")


def test_window_size_malformed(tmp_path):
    assert_one_line_error(_play("--size", "9" * 5000 + "x800", data=tmp_path), "--size")


def test_frame_count_out_of_bounds(tmp_path):
    assert_one_line_error(_play("--frames", "1" + "0" * 30, data=tmp_path), "--frames")


def test_seed_out_of_bounds(tmp_path):
    assert_one_line_error(_play("--seed", str(2**64), "--frames", "1", data=tmp_path), "--seed")


@pytest.mark.parametrize("kind", ["unsupported type", "folder is a file", "same as an input"])
def test_screenshot_path_refused_before_the_work(tmp_path, kind):
    params = tmp_path / "p.toml"
    params.write_text("")
    (tmp_path / "file").write_text("")
    shot = {
        "unsupported type": tmp_path / "shot.xyz",
        "folder is a file": tmp_path / "file" / "shot.png",
        "same as an input": params,
    }[kind]
    args = ["--frames", "100000", "--screenshot", str(shot), "--params", str(params)]
    assert_one_line_error(_play(*args, data=tmp_path), "--screenshot")
    assert params.read_text() == ""


def test_params_file_not_utf8(tmp_path):
    params = tmp_path / "p.toml"
    params.write_bytes(b"# \xb5 in Latin-1\n")
    assert_one_line_error(
        _play("--params", str(params), "--frames", "1", data=tmp_path), str(params)
    )


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe garbage", b"[" * 200_000, b'{"autosave_version": 1' + b"0" * 5000 + b"}"],
    ids=["garbage", "deep", "huge-number"],
)
def test_resume_from_a_damaged_autosave(tmp_path, content):
    path = tmp_path / "jamsumo" / "autosave.json"
    path.parent.mkdir()
    path.write_bytes(content)
    line = assert_one_line_error(_play("--resume", "--frames", "1", data=tmp_path), str(path))
    assert "kept as" in line
    assert [p.read_bytes() for p in path.parent.glob("autosave-*.json")] == [content]


def test_unknown_seat_kind(tmp_path):
    assert_one_line_error(
        _play("--seats", "human,wizard", "--frames", "1", data=tmp_path), "wizard"
    )


def test_headless_demo_match_bad_input(tmp_path):
    # no display and no --frames: the demo match between bots; bad input still stops it first
    assert_one_line_error(_play("--seats", "random", data=tmp_path, display=False), "--seats")
    shot = str(tmp_path / "x.png")
    out = _play("--seats", "random,random", "--screenshot", shot, data=tmp_path, display=False)
    assert_one_line_error(out, "--screenshot")
