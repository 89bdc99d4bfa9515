"""One die in one frame: its colour blob, the centre and yaw of its top face, and its pips.

The blob's outline, sent onto the plane of the top face (z = die size), is the convex hull of the top
square (true size there) and of the bottom square seen through the camera centre (a slightly smaller
square shifted towards the point under the camera).  Fitting that model to the outline gives the top
face's centre and yaw without parallax; the pips are then counted on the top face rectified to a square.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from .camera import Intrinsics, Pose, project, to_plane
from .colours import Colour
from .cvload import cv2

QUARTER = math.pi / 2
BLOB_AREA = (0.4, 4.0)  # blob area / expected top-face area: outside this it is not one whole die
MAX_OUTLINE_POINTS = 128  # outline points fitted (evenly taken): enough for ~0.1 px, stays fast
UPSAMPLE = 4  # the outline is found on the mask enlarged this much (to 1/4 pixel)
ANGLE_STEPS = 9  # starting angles tried over a quarter turn (10 degrees apart)
MAX_FIT_RMS = (
    0.15  # outline misfit / die size above which the pose is not trusted (a hand, two dice)
)
PIP_GRID = 48  # px of the rectified top face


@dataclass(frozen=True)
class DieSeen:
    """Top-face centre (m), yaw (rad, modulo a quarter turn) and outline misfit (m) of one die."""

    x: float
    y: float
    angle: float
    misfit: float


def _model_outline(p: np.ndarray, a: float, nadir: np.ndarray, s: float) -> np.ndarray:
    x, y, th = p
    c, si = math.cos(th), math.sin(th)
    corners = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]]) * (a / 2)
    top = corners @ np.array([[c, si], [-si, c]]) + (x, y)
    bottom = nadir + s * (top - nadir)
    pts = np.concatenate([top, bottom]).astype(np.float32)
    return cv2().convexHull(pts).reshape(-1, 2).astype(np.float64)


def _distance_to_polygon(points: np.ndarray, poly: np.ndarray) -> np.ndarray:
    a = poly
    b = np.roll(poly, -1, axis=0)
    ab = b - a
    ap = points[:, None, :] - a[None]
    u = np.clip(np.sum(ap * ab, axis=2) / np.maximum(np.sum(ab * ab, axis=1), 1e-18), 0, 1)
    d = ap - u[..., None] * ab[None]
    return np.sqrt(np.min(np.sum(d * d, axis=2), axis=1))


def find_die(
    hsv: np.ndarray, colour: Colour, pose: Pose, cam: Intrinsics, size: float
) -> DieSeen | None:
    """The die of ``colour`` in a frame (HSV), or None when no blob of a die's size is found."""
    cv = cv2()
    mask = colour.mask(hsv)
    contours, _ = cv.findContours(mask, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_NONE)
    if not contours:
        return None
    blob = max(contours, key=cv.contourArea)
    if len(blob) < 8:
        return None
    outline = _subpixel_outline(mask, blob)
    plane = to_plane(outline, size, pose, cam)
    area = abs(cv.contourArea(plane.astype(np.float32) * 1e4)) / 1e8  # m^2 (scaled for float32)
    if not BLOB_AREA[0] <= area / size**2 <= BLOB_AREA[1]:
        return None
    step = max(1, len(plane) // MAX_OUTLINE_POINTS)
    pts = plane[::step]
    c = pose.centre
    nadir, s = c[:2], (c[2] - size) / c[2]
    (rx, ry), _, ang = cv.minAreaRect(pts.astype(np.float32) * 1e4)
    start = np.array([rx / 1e4, ry / 1e4, math.radians(ang) % QUARTER])

    def resid(p: np.ndarray) -> np.ndarray:
        return _distance_to_polygon(pts, _model_outline(p, size, nadir, s))

    # the rectangle's angle is biased by the side faces: try the quarter turn in steps, keep the best
    tries = [start + (0, 0, k * QUARTER / ANGLE_STEPS) for k in range(ANGLE_STEPS)]
    p0 = min(tries, key=lambda p: float(np.sum(resid(p) ** 2)))
    best = least_squares(resid, p0, x_scale=(size, size, 0.1), diff_step=1e-4, method="lm")
    x, y, th = best.x
    misfit = float(np.sqrt(2 * best.cost / len(pts)))
    if misfit > MAX_FIT_RMS * size:
        return None
    return DieSeen(float(x), float(y), float(th % QUARTER), misfit)


def _subpixel_outline(mask: np.ndarray, blob: np.ndarray) -> np.ndarray:
    """The blob's edge to a fraction of a pixel: the mask around it enlarged UPSAMPLE times with
    linear interpolation crosses one half midway between a pixel inside and one outside."""
    cv = cv2()
    x, y, w, h = cv.boundingRect(blob)
    x0, y0 = max(0, x - 2), max(0, y - 2)
    crop = np.zeros((h + 4, w + 4), np.uint8)
    sub = mask[y0 : y + h + 2, x0 : x + w + 2]
    only = np.zeros_like(sub)
    cv.drawContours(only, [blob - (x0, y0)], -1, 255, -1)  # this blob only, its holes (pips) filled
    crop[: sub.shape[0], : sub.shape[1]] = only
    big = cv.resize(crop, None, fx=UPSAMPLE, fy=UPSAMPLE, interpolation=cv.INTER_LINEAR)
    cs, _ = cv.findContours((big > 127).astype(np.uint8), cv.RETR_EXTERNAL, cv.CHAIN_APPROX_NONE)
    pts = max(cs, key=cv.contourArea).reshape(-1, 2).astype(np.float64)
    return (pts + 0.5) / UPSAMPLE - 0.5 + (x0, y0)


# The 3 x 3 places a pip can take on a face (x, y in units of the pip offset) and the six faces,
# each also turned a quarter (the yaw is known only modulo a quarter turn).
_PLACES = [(u, v) for v in (1, 0, -1) for u in (-1, 0, 1)]
_FACES = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, 1), (-1, 1), (1, -1)],
    5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
    6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)],
}
PIP_OFFSET = 0.28  # pip centres at +-0.28 die sizes from the face centre (4.5 mm on a 16 mm die)
PIP_SAMPLE = 0.06  # radius (die sizes) of the disc sampled at each place
MIN_PIP_CONTRAST = 25.0  # (value - saturation) between pips and face below which no pips are seen


def _patterns() -> list[tuple[int, np.ndarray]]:
    out = []
    for face, pips in _FACES.items():
        for turn in (False, True):
            on = {(-v, u) if turn else (u, v) for u, v in pips}
            out.append((face, np.array([p in on for p in _PLACES])))
    return out


def read_pips(
    frame: np.ndarray, die: DieSeen, pose: Pose, cam: Intrinsics, size: float
) -> int | None:
    """The number on the top face (1-6) from the white pips at its nine possible places, or None."""
    cv = cv2()
    u = (np.arange(PIP_GRID) + 0.5) / PIP_GRID - 0.5
    gx, gy = np.meshgrid(u * size, -u * size)
    c, s = math.cos(die.angle), math.sin(die.angle)
    pts = np.stack(
        [
            (die.x + c * gx - s * gy).ravel(),
            (die.y + s * gx + c * gy).ravel(),
            np.full(gx.size, size),
        ],
        axis=1,
    )
    img = project(pts, pose, cam).reshape(PIP_GRID, PIP_GRID, 2).astype(np.float32)
    face = cv.remap(frame, img[..., 0], img[..., 1], cv.INTER_LINEAR)
    hsv = cv.cvtColor(face, cv.COLOR_BGR2HSV).astype(float)
    white = hsv[..., 2] - hsv[..., 1]  # high on white pips, low on a saturated face
    r = (np.arange(PIP_GRID) + 0.5) / PIP_GRID - 0.5
    cx, cy = np.meshgrid(r, -r)
    level = np.array(
        [
            np.mean(white[np.hypot(cx - p * PIP_OFFSET, cy - q * PIP_OFFSET) < PIP_SAMPLE])
            for p, q in _PLACES
        ]
    )
    best, best_score = None, -np.inf
    for number, on in _patterns():
        score = level[on].mean() - level[~on].mean()
        if score > best_score:
            best, best_score = number, score
    return best if best_score >= MIN_PIP_CONTRAST else None
