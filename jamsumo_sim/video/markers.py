"""The board's ArUco markers: their corners in board coordinates and their detection in a frame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from ..physics.board import BoardSpec, Marker
from .cvload import cv2

DICTIONARY = "DICT_4X4_50"
MIN_MARKERS = 2  # two markers give 8 coplanar points: enough for a pose (solvePnP needs 4)
# A camera on a stand does not move: its markers are decoded again only when a corner has moved
# (found again by cornerSubPix) or a marker's pixels changed (a hand), and at least every
# RECHECK_FRAMES frames.
STILL_CORNER_PX = 0.1  # corner shift below which the camera has not moved (noise moves it ~0.03 px)
STILL_PATCH_GREY = 12.0  # mean |grey change| over a marker above which it is not the same view
RECHECK_FRAMES = 30
SUBPIX_WINDOW = (3, 3)


def marker_corners(m: Marker) -> np.ndarray:
    """(4, 3) board coordinates (z = 0) of ArUco's corners 0..3: top-left, top-right, bottom-right,
    bottom-left, with the marker's top facing +y."""
    h = m.size / 2
    return np.array(
        [
            [m.x - h, m.y + h, 0],
            [m.x + h, m.y + h, 0],
            [m.x + h, m.y - h, 0],
            [m.x - h, m.y - h, 0],
        ],
        dtype=np.float64,
    )


def board_markers(board: BoardSpec) -> tuple[Marker, ...]:
    if len(board.markers) < MIN_MARKERS:
        raise UserError(
            f"board {board.name!r} has {len(board.markers)} [[markers]]; tracking needs at least "
            f"{MIN_MARKERS} (the standard board has 4)"
        )
    return board.markers


def _grey(frame: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    x0, y0, x1, y1 = box
    crop = frame[y0:y1, x0:x1]
    return crop if crop.ndim == 2 else cv2().cvtColor(crop, cv2().COLOR_BGR2GRAY)


def _subpix(grey: np.ndarray, corners: np.ndarray) -> np.ndarray:
    cv = cv2()
    crit = (cv.TERM_CRITERIA_EPS + cv.TERM_CRITERIA_MAX_ITER, 20, 0.005)
    pts = corners.reshape(-1, 1, 2).astype(np.float32).copy()
    return (
        cv.cornerSubPix(grey, pts, SUBPIX_WINDOW, (-1, -1), crit).reshape(-1, 2).astype(np.float64)
    )


def dictionary():
    cv = cv2()
    return cv.aruco.getPredefinedDictionary(getattr(cv.aruco, DICTIONARY))


@dataclass(frozen=True)
class Detection:
    """Marker corners found in one frame: image points (N, 2) and their board points (N, 3)."""

    image: np.ndarray
    board: np.ndarray
    ids: tuple[int, ...]


class MarkerDetector:
    """Finds the board's markers in frames (grey or BGR)."""

    def __init__(self, markers: tuple[Marker, ...]):
        cv = cv2()
        params = cv.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv.aruco.CORNER_REFINE_SUBPIX  # corners to ~0.1 px
        self._detector = cv.aruco.ArucoDetector(dictionary(), params)
        self._by_id = {m.id: m for m in markers}

        self._last: dict[int, np.ndarray] = {}  # image corners of each marker in the last frame
        # the last decoded detection, kept while the camera stands still
        self._det: Detection | None = None
        self._ref: list[tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]] = []
        self._age = 0

    def detect(self, frame: np.ndarray) -> Detection:
        """The markers of one frame: the very same Detection as the last frame's when the camera has
        not moved; else first searched near where they were in the last frame (a camera moves little
        between frames, and small crops are fast), the whole frame when one is missing."""
        if self._det is not None and self._age < RECHECK_FRAMES and self._still(frame):
            self._age += 1
            return self._det
        found = self._near_last(frame) if len(self._last) == len(self._by_id) else None
        if found is None:
            corners, ids, _ = self._detector.detectMarkers(frame)
            found = [] if ids is None else list(zip(corners, ids.ravel().tolist(), strict=True))
        det = self._collect(found)
        self._last = {i: det.image[4 * k : 4 * k + 4] for k, i in enumerate(det.ids)}
        self._remember(frame, det)
        return det

    def _remember(self, frame: np.ndarray, det: Detection) -> None:
        """Keep each marker's grey patch and its corners as cornerSubPix finds them, to compare
        later frames with; only when all the board's markers are seen (else decode every frame)."""
        self._det, self._ref, self._age = None, [], 0
        if len(det.ids) != len(self._by_id):
            return
        h, w = frame.shape[:2]
        m = SUBPIX_WINDOW[0] + 3
        for k in range(len(det.ids)):
            c = det.image[4 * k : 4 * k + 4]
            x0, y0 = (int(v) - m for v in c.min(axis=0))
            x1, y1 = (int(v) + m + 1 for v in c.max(axis=0))
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                return
            box = (x0, y0, x1, y1)
            grey = _grey(frame, box)
            self._ref.append((box, grey, _subpix(grey, c - (x0, y0))))
        self._det = det

    def _still(self, frame: np.ndarray) -> bool:
        for (x0, y0, x1, y1), grey0, corners0 in self._ref:
            grey = _grey(frame, (x0, y0, x1, y1))
            if float(np.mean(cv2().absdiff(grey, grey0))) > STILL_PATCH_GREY:
                return False
            moved = np.hypot(*(_subpix(grey, corners0) - corners0).T)
            if not np.all(moved < STILL_CORNER_PX):
                return False
        return True

    def _near_last(self, frame: np.ndarray) -> list | None:
        h, w = frame.shape[:2]
        found = []
        for i, c in self._last.items():
            span = float(np.max(np.ptp(c, axis=0)))
            (x0, y0), (x1, y1) = c.min(axis=0) - span, c.max(axis=0) + span
            x0, y0 = max(0, int(x0)), max(0, int(y0))
            x1, y1 = min(w, int(x1) + 1), min(h, int(y1) + 1)
            corners, ids, _ = self._detector.detectMarkers(frame[y0:y1, x0:x1])
            hit = [] if ids is None else [k for k, j in enumerate(ids.ravel()) if j == i]
            if len(hit) != 1:
                return None
            found.append((corners[hit[0]] + np.array([x0, y0], np.float32), i))
        return found

    def _collect(self, found: list) -> Detection:
        img, brd, ids_ = [], [], []
        if found:
            for c, i in found:
                m = self._by_id.get(int(i))
                if m is None or i in ids_:  # unknown or duplicated id: not one of ours
                    continue
                img.append(np.asarray(c, dtype=np.float64).reshape(4, 2))
                brd.append(marker_corners(m))
                ids_.append(int(i))
        if not ids_:
            return Detection(np.zeros((0, 2)), np.zeros((0, 3)), ())
        return Detection(np.concatenate(img), np.concatenate(brd), tuple(ids_))
