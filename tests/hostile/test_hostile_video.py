"""Hostile input to the installed `jamsumo track` and `jamsumo markers` (issue 22): each bad input exits 2
with one stderr line and no traceback; a bad stretch of an otherwise good video is a per-shot warning."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.child_limits import cpu_limited, hang_guard

from .harness import assert_one_line_error, run_cli, script

cv2 = pytest.importorskip("cv2")


def _grey_video(path: Path, frames: int = 6) -> Path:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (64, 48))
    for _ in range(frames):
        w.write(np.full((48, 64, 3), 128, np.uint8))
    w.release()
    return path


@pytest.fixture
def grey(tmp_path) -> Path:
    return _grey_video(tmp_path / "grey.avi")


def test_missing_video(tmp_path):
    out = run_cli(
        "jamsumo",
        "track",
        str(tmp_path / "nope.mp4"),
        "--dice",
        "red",
        "--out",
        str(tmp_path / "o"),
    )
    assert_one_line_error(out, "no such file")


def test_unreadable_video(tmp_path):
    bad = tmp_path / "notes.mp4"
    bad.write_text("this is not a video\n" * 50)
    out = run_cli("jamsumo", "track", str(bad), "--dice", "red", "--out", str(tmp_path / "o"))
    assert_one_line_error(out, "cannot decode", "notes.mp4")


def test_video_without_markers(grey, tmp_path):
    out = run_cli("jamsumo", "track", str(grey), "--dice", "red", "--out", str(tmp_path / "o"))
    assert_one_line_error(out, "none of the board's markers", "jamsumo markers")


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--dice", "purple"], "no colour 'purple'"),
        (["--dice", "red,red"], "--dice must name"),
        ([], "--dice is required"),
        (["--dice", "red", "--preview", "x.gif"], "unsupported file type"),
        (["--dice", "red", "--pick", "ten,20"], "--pick must be"),
        (["--dice", "red", "--fps", "nan"], "--fps must be"),
        (["--calibrate-camera", "--checkerboard", "9by6"], "--checkerboard must be"),
    ],
)
def test_bad_options(grey, tmp_path, extra, fragment):
    out = run_cli("jamsumo", "track", str(grey), "--out", str(tmp_path / "o"), *extra, cwd=tmp_path)
    assert_one_line_error(out, fragment)


def test_out_is_a_file(grey, tmp_path):
    f = tmp_path / "taken"
    f.write_text("x")
    assert_one_line_error(
        run_cli("jamsumo", "track", str(grey), "--dice", "red", "--out", str(f)), "is a file"
    )


def test_folder_of_frames_needs_fps(tmp_path):
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "a.png"), np.zeros((8, 8, 3), np.uint8))
    out = run_cli(
        "jamsumo", "track", str(tmp_path / "frames"), "--dice", "red", "--out", str(tmp_path / "o")
    )
    assert_one_line_error(out, "--fps")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("version = 2\n", "version must be 1"),
        ("version = 1\n[colours.red]\nranges = [[9, 2, 0, 255, 0, 255]]\n", "lo <= hi"),
        ("version = 1\n[colours\n", "colours file"),
    ],
)
def test_bad_colours_file(grey, tmp_path, text, fragment):
    f = tmp_path / "c.toml"
    f.write_text(text)
    out = run_cli(
        "jamsumo",
        "track",
        str(grey),
        "--dice",
        "red",
        "--colours",
        str(f),
        "--out",
        str(tmp_path / "o"),
    )
    assert_one_line_error(out, fragment)


def test_camera_file_for_another_frame_size(grey, tmp_path):
    f = tmp_path / "cam.json"
    f.write_text(json.dumps({"version": 1, "width": 1920, "height": 1080, "source": "x",
                             "matrix": [[1000, 0, 960], [0, 1000, 540], [0, 0, 1]],
                             "distortion": [0, 0, 0, 0, 0]}))  # fmt: skip
    out = run_cli(
        "jamsumo",
        "track",
        str(grey),
        "--dice",
        "red",
        "--camera",
        str(f),
        "--out",
        str(tmp_path / "o"),
    )
    assert_one_line_error(out, "calibrated for 1920x1080", "64x48")


def test_markers_pdf_needs_pdf_suffix(tmp_path):
    assert_one_line_error(
        run_cli("jamsumo", "markers", "--out", str(tmp_path / "m.txt")), "unsupported file type"
    )


@pytest.mark.slow
def test_bad_stretches_are_per_shot_warnings(tmp_path):
    """Shot 1's die leaves the view while it slides; the markers are covered during shot 2; shot 3 is
    clean: two warnings, one shot written, exit 0."""
    from jamsumo_sim.calibration.model import with_fitted
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.physics.params import PhysicsParams
    from tests.video.synth import Camera, Renderer, random_shots, write_video

    board = load_board("standard")
    params = with_fitted(PhysicsParams.from_board(board), ["mu_board"], [0.3])
    rng = np.random.default_rng(11)
    camera = Camera()
    renderer = Renderer(board, camera, rng, params.die_size)
    shots = random_shots(board, params, rng, 3)
    first = 2 + 4  # frames before shot 1's slide
    n1 = int(np.hypot(*shots[0].launch[3:5]) / (0.3 * 9.81) * 60 * 1.3) + 8
    start2 = first + n1 + 4 + 2 + 4  # shot 2's slide begins
    video = tmp_path / "v.avi"
    write_video(video, renderer, board, params, shots, 60.0, rest_frames=4,
                hide_markers=range(start2 + 2, start2 + 12), leave_frame=frozenset({0}))  # fmt: skip
    cam = tmp_path / "cam.json"
    cam.write_text(json.dumps(camera.intrinsics().to_json()))
    run = subprocess.run([script("jamsumo"), "track", str(video), "--dice", "red", "--camera", str(cam),
                          "--out", str(tmp_path / "o")], capture_output=True, text=True,
                         timeout=hang_guard(300), preexec_fn=cpu_limited(300))  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    warns = [ln for ln in run.stderr.splitlines() if ln.strip()]
    assert any("left the frame" in w and "shot dropped" in w for w in warns), warns
    assert any("markers were not found" in w and "shot dropped" in w for w in warns), warns
    rest = (tmp_path / "o" / "rest_poses.csv").read_text().splitlines()
    assert sum(not ln.startswith("#") for ln in rest) == 2  # header + the one clean shot
