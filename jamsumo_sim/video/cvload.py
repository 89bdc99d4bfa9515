"""Import OpenCV once, with a one-line error when the optional extra is missing."""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType

from ..errors import UserError


@cache  # called in every fit: the checks once (a failed import raises, and is not cached)
def cv2() -> ModuleType:
    # FFmpeg and OpenCV log to stderr on their own (e.g. "moov atom not found"): a bad video must give
    # one line, ours.  Only defaults: a user's own setting wins.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
    try:
        import cv2 as module
    except ImportError:
        raise UserError(
            "video tracking needs OpenCV: pip install 'jamsumo[video]' (opencv-python-headless)"
        ) from None
    if not hasattr(module, "aruco"):
        raise UserError("this OpenCV build has no cv2.aruco; install opencv-python-headless >= 4.7")
    return module
