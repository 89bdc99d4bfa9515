"""The board's [[markers]], the printed markers PDF, and camera intrinsics from markers or a checkerboard."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.video.camera import calibrate_checkerboard, estimate_from_markers, pinhole
from jamsumo_sim.video.cvload import cv2
from jamsumo_sim.video.markers import MarkerDetector, dictionary, marker_corners
from tests.child_limits import cpu_limited, hang_guard

from .synth import Camera, Renderer


def test_standard_board_markers_are_the_issues_defaults():
    ms = load_board("standard").markers
    assert [(m.id, m.x, m.y, m.size) for m in ms] == [
        (0, -0.26, -0.26, 0.03), (1, 0.26, -0.26, 0.03), (2, 0.26, 0.26, 0.03), (3, -0.26, 0.26, 0.03),
    ]  # fmt: skip
    # ArUco's first corner -> second corner runs along +x on the marker's +y side
    c = marker_corners(ms[0])
    assert c[1, 0] - c[0, 0] == pytest.approx(0.03) and c[0, 1] == pytest.approx(-0.245)


@pytest.mark.parametrize(
    ("markers", "fragment"),
    [
        ([{"id": 60, "x": 0.26, "y": 0.26, "size": 0.03}], "id must be an integer 0 to 49"),
        ([{"id": 1, "x": 0.3, "y": 0.3, "size": 0.03}] * 2, "two markers have the same id"),
        ([{"id": 1, "x": 0.3, "y": 0.3, "size": 2.0}], "size must be"),
        ([{"id": 1, "x": 0.3, "size": 0.03}], "missing 'y'"),
    ],
)
def test_bad_markers_tables_are_one_line_errors(markers, fragment):
    with pytest.raises(UserError, match=re.escape(fragment)):
        load_board({"version": 1, "markers": markers})


def test_markers_pdf_is_a4_at_true_scale(tmp_path):
    from jamsumo_sim.video.printout import write_markers_pdf

    out = write_markers_pdf(load_board("standard"), tmp_path / "m.pdf")
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", data)
    assert box and abs(float(box[1]) - 595.3) < 1 and abs(float(box[2]) - 841.9) < 1  # A4 in points
    gs = shutil.which("gs")
    if gs is None:
        pytest.skip("ghostscript is not installed: the page is not rasterised")
    png = tmp_path / "m.png"
    subprocess.run([gs, "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=pnggray", "-r150",
                    f"-sOutputFile={png}", str(out)], check=True,
                   timeout=hang_guard(60), preexec_fn=cpu_limited(60))  # fmt: skip
    cv = cv2()
    page = cv.imread(str(png), cv.IMREAD_GRAYSCALE)
    corners, ids, _ = cv.aruco.ArucoDetector(dictionary()).detectMarkers(page)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for c in corners:  # 30 mm at 150 dots per inch, top edge along the page's x
        top = c[0][1] - c[0][0]
        assert np.linalg.norm(top) / 150 * 25.4 == pytest.approx(30.0, abs=0.4)
        assert abs(top[1]) < 1.5 and top[0] > 0


def test_focal_length_estimated_from_the_markers_of_a_tilted_view():
    board = load_board("standard")
    camera = Camera(tilt_deg=25.0, dist=(0, 0, 0, 0, 0))
    frame = Renderer(board, camera, np.random.default_rng(3), 0.016).frame(camera.pose(), [])
    det = MarkerDetector(board.markers).detect(frame)
    cam, note = estimate_from_markers([det], camera.width, camera.height)
    assert "estimated from the markers" in note
    assert cam.focal == pytest.approx(camera.focal, rel=0.03)


def test_checkerboard_clip_gives_the_focal_length_and_distortion():
    cv = cv2()
    truth = pinhole(640, 480, 520.0, (-0.08, 0.02, 0, 0, 0))
    pattern, square = (9, 6), 60
    board = np.full(
        ((pattern[1] + 1) * square + 2 * square, (pattern[0] + 1) * square + 2 * square),
        255,
        np.uint8,
    )
    for r in range(pattern[1] + 1):
        for c in range(pattern[0] + 1):
            if (r + c) % 2 == 0:
                y, x = square + r * square, square + c * square
                board[y : y + square, x : x + square] = 0
    frames = []
    rng = np.random.default_rng(4)
    h, w = board.shape
    obj = np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], float) * 0.0005
    for _ in range(8):  # the board seen from 8 directions, through the distorting lens
        rvec = rng.uniform(-0.4, 0.4, 3)
        tvec = np.array([-0.22, -0.16, 0.55]) + rng.uniform(-0.03, 0.03, 3)
        K = truth.K
        ideal, _ = cv.projectPoints(obj, rvec, tvec, K, None)
        H = cv.getPerspectiveTransform(
            np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32),
            ideal.reshape(4, 2).astype(np.float32),
        )
        undist = cv.warpPerspective(board, H, (640, 480), borderValue=128)
        # distort: each output pixel takes the undistorted image where its ray lands
        grid = (
            np.stack(np.meshgrid(np.arange(640), np.arange(480)), -1)
            .reshape(-1, 1, 2)
            .astype(np.float64)
        )
        und = cv.undistortPoints(grid, K, truth.dist, P=K).reshape(480, 640, 2).astype(np.float32)
        frames.append(cv.remap(undist, und[..., 0], und[..., 1], cv.INTER_LINEAR, borderValue=128))
    cam = calibrate_checkerboard(frames, pattern)
    assert cam.focal == pytest.approx(520.0, rel=0.01)
    assert cam.distortion[0] == pytest.approx(-0.08, abs=0.02)


def test_too_few_checkerboard_views_is_one_line():
    with pytest.raises(UserError, match="checkerboard was found in 0 of 2 frames"):
        calibrate_checkerboard([np.zeros((48, 64), np.uint8)] * 2, (9, 6))


def test_a_still_camera_keeps_its_markers_a_moved_or_covered_one_is_decoded_again():
    """Markers are decoded again only when the view changed: the same Detection while the camera
    stands still (new noise in every frame), new corners when it moved (0.3 mm), none when the
    markers are covered."""
    board = load_board("standard")
    camera = Camera(tilt_deg=20.0)
    renderer = Renderer(board, camera, np.random.default_rng(5), 0.016)
    detector = MarkerDetector(board.markers)
    first = detector.detect(renderer.frame(camera.pose(), []))
    assert len(first.ids) == 4
    for _ in range(5):
        assert detector.detect(renderer.frame(camera.pose(), [])) is first
    moved = detector.detect(renderer.frame(camera.pose(np.array([0.0003, 0.0])), []))
    assert moved is not first and len(moved.ids) == 4
    assert np.max(np.abs(moved.image - first.image)) > 0.15
    renderer.markers = False  # a hand over the markers (the table's colour where they lay)
    assert detector.detect(renderer.frame(camera.pose(np.array([0.0003, 0.0])), [])).ids == ()
