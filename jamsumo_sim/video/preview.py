"""--preview: the video with each die's fitted top face drawn on it ("no markers" if no pose)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ..errors import UserError
from .camera import Intrinsics, Pose, project
from .cvload import cv2
from .dice import DieSeen


class Preview:
    def __init__(
        self, path: Path, fps: float, width: int, height: int, cam: Intrinsics, size: float
    ):
        cv = cv2()
        fourcc = cv.VideoWriter_fourcc(*("mp4v" if path.suffix.lower() == ".mp4" else "MJPG"))
        self._tmp = path.with_name(f".{path.name}.part{path.suffix}")
        self._path = path
        # like every other output, a missing folder is made (check_output_path vetted it)
        path.parent.mkdir(parents=True, exist_ok=True)
        self._w = cv.VideoWriter(str(self._tmp), fourcc, fps, (width, height))
        if not self._w.isOpened():
            raise UserError(f"--preview {path}: OpenCV cannot write this video type")
        self._cam, self._size = cam, size

    def add(
        self, k: int, frame: np.ndarray, pose: Pose | None, seen: dict[str, DieSeen | None]
    ) -> None:
        cv = cv2()
        img = frame.copy()
        if pose is None:
            cv.putText(img, "no markers", (10, 30), cv.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2)
        else:
            for name, d in seen.items():
                if d is None:
                    continue
                a = self._size / 2
                c, s = math.cos(d.angle), math.sin(d.angle)
                sq = np.array([[a, a], [-a, a], [-a, -a], [a, -a]]) @ np.array([[c, s], [-s, c]])
                pts = np.c_[sq + (d.x, d.y), np.full(4, self._size)]
                q = project(pts, pose, self._cam).astype(np.int32)
                cv.polylines(img, [q], True, (0, 255, 0), 1, cv.LINE_AA)
                cv.putText(
                    img,
                    name,
                    tuple(int(v) for v in q[0]),
                    cv.FONT_HERSHEY_SIMPLEX,
                    0.4,
                    (0, 255, 0),
                    1,
                )
        self._w.write(img)

    def close(self) -> None:
        self._w.release()
        if self._tmp.exists():
            self._tmp.replace(self._path)
