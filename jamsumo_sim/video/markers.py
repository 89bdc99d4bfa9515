"""The board's ArUco markers: their corners in board coordinates and their detection in a frame."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import BoardSpec, Marker
from ..errors import UserError
from .cvload import cv2

DICTIONARY = "DICT_4X4_50"
MIN_MARKERS = 2  # two markers give 8 coplanar points: enough for a pose (solvePnP needs 4)


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

    def detect(self, frame: np.ndarray) -> Detection:
        """The markers of one frame: first searched near where they were in the last frame (a camera
        moves little between frames, and small crops are fast), the whole frame when one is missing."""
        found = self._near_last(frame) if len(self._last) == len(self._by_id) else None
        if found is None:
            corners, ids, _ = self._detector.detectMarkers(frame)
            found = [] if ids is None else list(zip(corners, ids.ravel().tolist(), strict=True))
        det = self._collect(found)
        self._last = {i: det.image[4 * k : 4 * k + 4] for k, i in enumerate(det.ids)}
        return det

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
