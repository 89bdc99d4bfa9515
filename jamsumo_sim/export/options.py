"""The export's settings and their limits, in one place, and the parsers of its options."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

FORMATS = (".mp4", ".gif", ".html", ".png")
SIZE_LIMITS = ((160, 3840), (120, 2160))  # px: (width low, high), (height low, high)
DEFAULT_SIZE = (960, 600)
FPS_RANGE = (1, 120)
GIF_MAX_FPS = 50  # GIF delays are whole hundredths of a second; browsers slow down faster ones
DEFAULT_FPS = {".mp4": 30, ".gif": 25}
SPEED_RANGE = (0.01, 100.0)  # playback speed: slow-motion study to a fast skim
SECONDS_RANGE = (0.0, 10.0)  # --trails and --hold
DEFAULT_HOLD = 0.5  # s of still picture before and after each shot in a video
# Frames of one video export (docs/export.md "Limits"): counted before any frame is drawn (module
# budget). Both formats are written frame by frame, so memory does not grow with them; these bound
# the run time and the file (drawing and encoding take ~20 ms a frame at 960x600, ~0.1 s at 4K).
MAX_VIDEO_FRAMES = 100_000  # MP4: ~55 min at 30 fps
MAX_GIF_FRAMES = 1500  # GIF: 60 s at 25 fps; longer belongs in an MP4 (players seek, browsers cope)
HTML_MIN_RATE = (
    60.0  # Hz: the page's trajectories are samples of the re-simulation at least this often
)

_SIZE = re.compile(r"(\d{1,5})[xX×](\d{1,5})")


def size_arg(text: str) -> tuple[int, int]:
    """``WxH`` in pixels, each within :data:`SIZE_LIMITS` and even (H.264 needs even sides)."""
    m = _SIZE.fullmatch(text.strip()) if len(text) <= 20 else None
    (wl, wh), (hl, hh) = SIZE_LIMITS
    if m is None:
        raise argparse.ArgumentTypeError(
            f"must be WIDTHxHEIGHT in pixels, e.g. 960x600, not {text[:20]!r}"
        )
    w, h = int(m.group(1)), int(m.group(2))
    if not (wl <= w <= wh and hl <= h <= hh) or w % 2 or h % 2:
        raise argparse.ArgumentTypeError(
            f"{w}x{h}: the width must be {wl} to {wh} and the height {hl} to {hh} pixels, both even"
        )
    return (w, h)


def number_arg(low: float, high: float, what: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text) if len(text) <= 30 else math.nan
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # also refuses nan and inf
            raise argparse.ArgumentTypeError(
                f"{what} must be a number from {low:g} to {high:g}, not {text[:30]!r}"
            )
        return value

    return parse
