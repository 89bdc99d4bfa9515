"""Frames from a video file OpenCV decodes (MP4, AVI/MJPG, ...) or from a folder of images."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import UserError
from .cvload import cv2

MAX_FRAMES = 100_000  # ~14 min at 120 frames/s: more is not one calibration session
MAX_PIXELS = 4096 * 4096
MAX_FPS = 1000.0
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")


@dataclass(frozen=True)
class Source:
    path: Path
    fps: float
    width: int
    height: int
    frames: int  # best guess; a video's header may be off by a few

    def read(self) -> Iterator[np.ndarray]:
        cv = cv2()
        if self.path.is_dir():
            for f in _images(self.path)[:MAX_FRAMES]:
                img = cv.imread(str(f), cv.IMREAD_COLOR)
                if img is None:
                    raise UserError(f"video folder {self.path}: cannot decode {f.name}")
                if img.shape[:2] != (self.height, self.width):
                    raise UserError(f"video folder {self.path}: {f.name} has another frame size")
                yield img
            return
        cap = cv.VideoCapture(str(self.path))
        try:
            for _ in range(MAX_FRAMES):
                ok, img = cap.read()
                if not ok:
                    return
                yield img
        finally:
            cap.release()


def _images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def open_source(path: str | Path, fps: float | None) -> Source:
    cv = cv2()
    p = Path(path)
    if not p.exists():
        raise UserError(f"video {p}: no such file or folder")
    if fps is not None and not (0 < fps <= MAX_FPS):
        raise UserError(f"--fps must be in (0, {MAX_FPS:g}], got {fps:g}")
    if p.is_dir():
        files = _images(p)
        if not files:
            raise UserError(f"video folder {p}: no images ({', '.join(IMAGE_SUFFIXES)})")
        first = cv.imread(str(files[0]), cv.IMREAD_COLOR)
        if first is None:
            raise UserError(f"video folder {p}: cannot decode {files[0].name}")
        if fps is None:
            raise UserError(f"video folder {p}: give the frame rate with --fps")
        h, w = first.shape[:2]
        n = min(len(files), MAX_FRAMES)
    else:
        if p.stat().st_size == 0:
            raise UserError(f"video {p}: the file is empty (0 bytes)")
        cap = cv.VideoCapture(str(p))
        try:
            ok, first = cap.read() if cap.isOpened() else (False, None)
            if not ok or first is None:
                raise UserError(
                    f"video {p}: OpenCV cannot decode it (not a video, or a codec it lacks)"
                )
            h, w = first.shape[:2]
            rate = float(cap.get(cv.CAP_PROP_FPS) or 0)
            n = int(cap.get(cv.CAP_PROP_FRAME_COUNT) or 0)
        finally:
            cap.release()
        if fps is None:
            if not 0 < rate <= MAX_FPS:
                raise UserError(f"video {p}: its frame rate is unknown ({rate:g}); give --fps")
            fps = rate
    if w * h > MAX_PIXELS:
        raise UserError(f"video {p}: frames of {w}x{h} are larger than 4096x4096")
    return Source(p, float(fps), w, h, n)
