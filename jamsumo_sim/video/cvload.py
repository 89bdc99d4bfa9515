"""Import OpenCV once, with a one-line error when the optional extra is missing."""

from __future__ import annotations

import os
from functools import cache
from types import ModuleType

from ..errors import UserError
from ..extras import require


@cache  # called in every fit: the checks once (a failed import raises, and is not cached)
def cv2(needed_by: str = "video tracking") -> ModuleType:
    """OpenCV (the video extra); ``needed_by`` names the command in the error without it."""
    # FFmpeg and OpenCV log to stderr on their own (e.g. "moov atom not found"): a bad video must give
    # one line, ours.  Only defaults: a user's own setting wins.
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")
    os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
    module = require("cv2", "video", needed_by)
    if not hasattr(module, "aruco"):
        raise UserError("this OpenCV build has no cv2.aruco; install opencv-python-headless >= 4.7")
    return module
