"""Camera intrinsics (from a checkerboard clip, a file, or estimated from the markers) and the board pose.

The pose of each frame comes from the marker corners (solvePnP on the board plane); with it a pixel can be
sent back onto any plane z = h above the board, which is how the die's top face loses its parallax.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import fileio
from ..errors import UserError
from .cvload import cv2
from .markers import Detection

CAMERA_VERSION = 1
# A phone's main camera sees ~65-75 degrees across its long side: f ~ 0.75 x width.  Used only when the
# markers cannot fix the focal length (a camera looking straight down) and no calibration is given.
DEFAULT_FOCAL_OVER_WIDTH = 0.75
MAX_FOCAL_SPREAD = (
    0.03  # relative std of an estimated focal length above which the estimate is refused
)
MAX_CALIBRATION_FRAMES = 40  # views of the checkerboard used by calibrateCamera (it is O(n^2))
MAX_REPROJECTION_PX = 3.0  # a frame whose markers fit worse than this has no trustworthy pose


@dataclass(frozen=True)
class Intrinsics:
    """Pinhole matrix and OpenCV distortion of one camera at one frame size; ``source`` says where from."""

    width: int
    height: int
    matrix: tuple[tuple[float, ...], ...]
    distortion: tuple[float, ...]
    source: str

    @property
    def K(self) -> np.ndarray:
        return np.array(self.matrix, dtype=np.float64)

    @property
    def dist(self) -> np.ndarray:
        return np.array(self.distortion, dtype=np.float64)

    @property
    def focal(self) -> float:
        return float(self.matrix[0][0])

    def to_json(self) -> dict:
        return {
            "version": CAMERA_VERSION,
            "width": self.width,
            "height": self.height,
            "matrix": [list(r) for r in self.matrix],
            "distortion": list(self.distortion),
            "source": self.source,
        }


def pinhole(width: int, height: int, focal: float, dist=(0.0,) * 5, source: str = "") -> Intrinsics:
    K = ((focal, 0.0, width / 2), (0.0, focal, height / 2), (0.0, 0.0, 1.0))
    return Intrinsics(width, height, K, tuple(float(d) for d in dist), source)


def load_camera(path: str | Path, width: int, height: int) -> Intrinsics:
    raw = fileio.read_json(path, "camera file")
    where = f"camera file {path}"
    if not isinstance(raw, dict) or raw.get("version") != CAMERA_VERSION:
        raise UserError(f"{where}: not a camera file (expected a version {CAMERA_VERSION} object)")
    try:
        K = np.array(raw["matrix"], dtype=np.float64)
        dist = np.array(raw["distortion"], dtype=np.float64).ravel()
        w, h = int(raw["width"]), int(raw["height"])
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{where}: missing or bad field ({exc})") from None
    if K.shape != (3, 3) or not np.all(np.isfinite(K)) or K[0, 0] <= 0 or K[1, 1] <= 0:
        raise UserError(
            f"{where}: matrix must be a 3 x 3 camera matrix with positive focal lengths"
        )
    if dist.size not in (4, 5, 8, 12, 14) or not np.all(np.isfinite(dist)):
        raise UserError(f"{where}: distortion must hold 4, 5, 8, 12 or 14 finite numbers")
    if (w, h) != (width, height):
        raise UserError(f"{where}: calibrated for {w}x{h} frames, the video has {width}x{height}")
    return Intrinsics(w, h, tuple(map(tuple, K.tolist())), tuple(dist.tolist()), f"file {path}")


def estimate_from_markers(
    detections: Iterable[Detection], width: int, height: int
) -> tuple[Intrinsics, str]:
    """The focal length from the markers seen in several frames (principal point at the centre, no
    distortion), or the phone default when the views cannot fix it; returns it and a sentence saying so."""
    cv = cv2()
    obj, img = [], []
    for d in detections:
        if len(d.ids) >= 3:
            obj.append(d.board.astype(np.float32))
            img.append(d.image.astype(np.float32))
    default = DEFAULT_FOCAL_OVER_WIDTH * width
    if obj:
        K0 = pinhole(width, height, default).K
        flags = (
            cv.CALIB_USE_INTRINSIC_GUESS
            | cv.CALIB_FIX_PRINCIPAL_POINT
            | cv.CALIB_FIX_ASPECT_RATIO
            | cv.CALIB_ZERO_TANGENT_DIST
            | cv.CALIB_FIX_K1
            | cv.CALIB_FIX_K2
            | cv.CALIB_FIX_K3
        )
        try:
            _, K, _, _, _, std, _, _ = cv.calibrateCameraExtended(
                obj[:MAX_CALIBRATION_FRAMES], img[:MAX_CALIBRATION_FRAMES], (width, height),
                K0, np.zeros(5), flags=flags,
            )  # fmt: skip
            f, sf = float(K[0, 0]), float(std.ravel()[0])
            if math.isfinite(f) and f > 0 and sf / f < MAX_FOCAL_SPREAD:
                cam = pinhole(width, height, f, source="estimated from the markers")
                return cam, (
                    f"camera: no calibration given; focal length estimated from the markers: "
                    f"{f:.0f} +- {sf:.1f} px, no lens distortion (use --camera for better parallax)"
                )
        except cv.error:
            pass
    cam = pinhole(width, height, default, source="assumed phone default")
    return cam, (
        f"camera: no calibration given and the markers cannot fix the focal length (camera too "
        f"square-on); assumed {default:.0f} px ({DEFAULT_FOCAL_OVER_WIDTH} x width), no distortion"
    )


def calibrate_checkerboard(frames: Iterable[np.ndarray], pattern: tuple[int, int]) -> Intrinsics:
    """Intrinsics from frames of a checkerboard with ``pattern`` inner corners (cols, rows)."""
    cv = cv2()
    grid = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    grid[:, :2] = np.mgrid[0 : pattern[0], 0 : pattern[1]].T.reshape(-1, 2)
    obj, img, size, seen = [], [], None, 0
    crit = (cv.TERM_CRITERIA_EPS + cv.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
    for frame in frames:
        seen += 1
        grey = frame if frame.ndim == 2 else cv.cvtColor(frame, cv.COLOR_BGR2GRAY)
        size = (grey.shape[1], grey.shape[0])
        ok, corners = cv.findChessboardCorners(grey, pattern)
        if not ok:
            continue
        corners = cv.cornerSubPix(grey, corners, (5, 5), (-1, -1), crit)
        obj.append(grid)
        img.append(corners)
    if len(obj) < 3:
        raise UserError(
            f"--calibrate-camera: a {pattern[0]}x{pattern[1]} checkerboard was found in "
            f"{len(obj)} of {seen} frames; need at least 3 (film it from several angles)"
        )
    step = max(1, len(obj) // MAX_CALIBRATION_FRAMES)
    rms, K, dist, _, _ = cv.calibrateCamera(obj[::step], img[::step], size, None, None)
    return Intrinsics(
        size[0], size[1], tuple(map(tuple, K.tolist())), tuple(dist.ravel().tolist()),
        f"checkerboard, {len(obj[::step])} views, rms {rms:.2f} px",
    )  # fmt: skip


@dataclass(frozen=True)
class Pose:
    """Board-to-camera rotation R and translation t (x_cam = R x_board + t); rms of the markers in px."""

    R: np.ndarray
    t: np.ndarray
    rms_px: float

    @property
    def centre(self) -> np.ndarray:
        """The camera's centre in board coordinates."""
        return -self.R.T @ self.t


def board_pose(det: Detection, cam: Intrinsics) -> Pose | None:
    """The camera pose from the markers of one frame; None when they are too few or fit too badly."""
    cv = cv2()
    if len(det.ids) < 2:
        return None
    ok, rvec, tvec = cv.solvePnP(det.board, det.image, cam.K, cam.dist, flags=cv.SOLVEPNP_IPPE)
    if not ok:
        return None
    rvec, tvec = cv.solvePnPRefineLM(det.board, det.image, cam.K, cam.dist, rvec, tvec)
    proj, _ = cv.projectPoints(det.board, rvec, tvec, cam.K, cam.dist)
    rms = float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - det.image) ** 2, axis=1))))
    R, _ = cv.Rodrigues(rvec)
    pose = Pose(R, tvec.ravel(), rms)
    if rms > MAX_REPROJECTION_PX or pose.centre[2] <= 0:  # a camera under the table is a wrong pose
        return None
    return pose


def to_plane(pixels: np.ndarray, z: float, pose: Pose, cam: Intrinsics) -> np.ndarray:
    """Board (x, y) where the rays through image ``pixels`` (N, 2) meet the plane at height z."""
    cv = cv2()
    norm = cv.undistortPoints(pixels.reshape(-1, 1, 2).astype(np.float64), cam.K, cam.dist)
    rays = np.concatenate([norm.reshape(-1, 2), np.ones((len(pixels), 1))], axis=1) @ pose.R
    c = pose.centre
    lam = (z - c[2]) / rays[:, 2]
    return c[:2] + lam[:, None] * rays[:, :2]


def project(points: np.ndarray, pose: Pose, cam: Intrinsics) -> np.ndarray:
    """Image pixels (N, 2) of board points (N, 3)."""
    cv = cv2()
    rvec, _ = cv.Rodrigues(pose.R)
    out, _ = cv.projectPoints(
        points.reshape(-1, 3).astype(np.float64), rvec, pose.t, cam.K, cam.dist
    )
    return out.reshape(-1, 2)
