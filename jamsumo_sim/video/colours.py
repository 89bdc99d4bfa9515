"""Dice colours as HSV ranges (a data file), and the --pick helper that samples one from a frame."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import fileio
from ..errors import UserError
from ..resources import read_asset_text
from .cvload import cv2

COLOURS_VERSION = 1
MAX_COLOURS = 16
MAX_RANGES = 4
HSV_TOP = (179, 255, 255)  # OpenCV's 8-bit HSV: hue 0-179, saturation and value 0-255
PICK_HALF = 3  # --pick takes the median of a 7 x 7 patch
PICK_SPREAD = (8, 60, 80)  # the suggested range: median +- these (hue, saturation, value)


@dataclass(frozen=True)
class Colour:
    name: str
    ranges: tuple[tuple[int, int, int, int, int, int], ...]  # (h_lo, h_hi, s_lo, s_hi, v_lo, v_hi)

    def mask(self, hsv: np.ndarray) -> np.ndarray:
        cv = cv2()
        out = np.zeros(hsv.shape[:2], np.uint8)
        for h0, h1, s0, s1, v0, v1 in self.ranges:
            out |= cv.inRange(hsv, (h0, s0, v0), (h1, s1, v1))
        return out


def load_colours(path: str | Path | None = None) -> dict[str, Colour]:
    if path is None:
        where = "dice colours (packaged)"
        raw = fileio.parse_toml(read_asset_text("dice_colours.toml"), where)
    else:
        where = f"colours file {path}"
        raw = fileio.read_toml(path, "colours file")
    if raw.get("version") != COLOURS_VERSION:
        raise UserError(f"{where}: version must be {COLOURS_VERSION}")
    table = raw.get("colours")
    if not isinstance(table, dict) or not table or len(table) > MAX_COLOURS:
        raise UserError(f"{where}: needs a [colours.NAME] table (1 to {MAX_COLOURS})")
    out = {}
    for name, body in table.items():
        ranges = body.get("ranges") if isinstance(body, dict) else None
        if not isinstance(ranges, list) or not 1 <= len(ranges) <= MAX_RANGES:
            raise UserError(f"{where}: colours.{name[:30]}.ranges must be a list of 1-{MAX_RANGES}")
        parsed = []
        for r in ranges:
            ok = isinstance(r, list) and len(r) == 6 and all(type(v) is int for v in r)
            if not ok or not all(0 <= r[2 * k] <= r[2 * k + 1] <= HSV_TOP[k] for k in range(3)):
                raise UserError(
                    f"{where}: colours.{name[:30]}: each range is [h_lo, h_hi, s_lo, s_hi, v_lo, v_hi], "
                    f"integers with lo <= hi within 0-179 (hue) and 0-255"
                )
            parsed.append(tuple(r))
        out[name] = Colour(name, tuple(parsed))
    return out


def pick_colour(frame: np.ndarray, x: int, y: int, name: str = "mine") -> str:
    """A TOML snippet with an HSV range around the colour at pixel (x, y) of a BGR frame."""
    cv = cv2()
    h, w = frame.shape[:2]
    if not (0 <= x < w and 0 <= y < h):
        raise UserError(f"--pick: pixel ({x}, {y}) is outside the {w}x{h} frame")
    patch = frame[
        max(0, y - PICK_HALF) : y + PICK_HALF + 1, max(0, x - PICK_HALF) : x + PICK_HALF + 1
    ]
    hsv = cv.cvtColor(patch, cv.COLOR_BGR2HSV).reshape(-1, 3)
    med = np.median(hsv, axis=0).astype(int)
    lo = [max(0, int(m - d)) for m, d in zip(med, PICK_SPREAD, strict=True)]
    hi = [min(t, int(m + d)) for m, d, t in zip(med, PICK_SPREAD, HSV_TOP, strict=True)]
    rng = [lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]]
    return (
        f"# pixel ({x}, {y}): median HSV {med.tolist()}\n"
        f"version = {COLOURS_VERSION}\n\n[colours.{name}]\nranges = [{rng}]\n"
    )
