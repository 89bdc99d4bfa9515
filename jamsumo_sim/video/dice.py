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
UPSAMPLE = 4  # the outline is found on the colour crop enlarged this much (to 1/4 pixel)
ANGLE_STEPS = 9  # starting angles tried over a quarter turn (10 degrees apart)
MAX_FIT_RMS = (
    0.15  # outline misfit / die size above which the pose is not trusted (a hand, two dice)
)
# Gaps closed in a die's colour mask, in die sizes: the pips (0.175 across) and the colour bleeding
# round them (video codecs keep colour at half resolution).  At a few pixels per pip a row of pips
# (2, 3, 5) cuts the mask in two; closing is harmless to the outline, the die being convex.
CLOSE_GAP = 0.35
MAX_GROW = (
    0.15  # the outline's offset from the die's edges / die size above which it is not one die
)
PIP_GRID = 48  # px of the rectified top face


@dataclass(frozen=True)
class DieSeen:
    """Top-face centre (m), yaw (rad, modulo a quarter turn) and outline misfit (m) of one die."""

    x: float
    y: float
    angle: float
    misfit: float


_CORNERS = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=float) / 2


@dataclass(frozen=True)
class _Outline:
    """The die's outline on the plane of its top face: the convex hull of the top square and of the
    bottom square seen through the camera (``s`` times as large round the ``nadir``), moved out by
    the 4th parameter.  Residuals are the outline points' signed distances beyond the hull's nearest
    side line (the distance to the outline, except off the corners outside), with their exact
    Jacobian."""

    points: np.ndarray  # (N, 2) m
    size: float
    nadir: np.ndarray
    s: float

    def _hull(self, p: np.ndarray):
        x, y, th = p[:3]
        c, si = math.cos(th), math.sin(th)
        arm = (_CORNERS * self.size) @ np.array([[c, si], [-si, c]])
        top = arm + (x, y)
        verts = np.concatenate([top, self.nadir + self.s * (top - self.nadir)])
        idx = cv2().convexHull(verts.astype(np.float32), returnPoints=False).ravel()
        if len(idx) > 2 and _area2(verts[idx]) < 0:
            idx = idx[::-1]  # counter-clockwise, so that the side normals point out
        # d vertex / d (x, y, theta): a bottom vertex moves s times as much as its top vertex
        scale = np.where(idx < 4, 1.0, self.s)
        dth = np.stack([-arm[idx % 4, 1], arm[idx % 4, 0]], axis=1) * scale[:, None]
        return verts[idx], scale, dth

    def _active(self, p: np.ndarray):
        a, scale, dth = self._hull(p)
        e = np.concatenate([a[1:], a[:1]]) - a
        length = np.maximum(np.hypot(e[:, 0], e[:, 1]), 1e-18)
        normal = np.stack([e[:, 1], -e[:, 0]], axis=1) / length[:, None]
        d = self.points @ normal.T - np.sum(normal * a, axis=1)
        k = np.argmax(d, axis=1)
        return d[np.arange(len(k)), k] - p[3], k, a, e, length, normal, scale, dth

    def residuals(self, p: np.ndarray) -> np.ndarray:
        return self._active(p)[0]

    def jacobian(self, p: np.ndarray) -> np.ndarray:
        _, k, a, e, length, normal, scale, dth = self._active(p)
        m = len(a)
        # moving a side line's ends A, B by dA, dB moves the distance of a point beyond it (u along
        # the side from A) by -n . ((1 - u) dA + u dB)
        u = np.sum((self.points - a[k]) * e[k], axis=1) / length[k] ** 2
        n = normal[k]
        k2 = (k + 1) % m
        wa, wb = (1 - u) * scale[k], u * scale[k2]
        jac = np.empty((len(k), 4))
        jac[:, 0] = -n[:, 0] * (wa + wb)
        jac[:, 1] = -n[:, 1] * (wa + wb)
        jac[:, 2] = -np.sum(n * ((1 - u)[:, None] * dth[k] + u[:, None] * dth[k2]), axis=1)
        jac[:, 3] = -1.0
        return jac


def _area2(poly: np.ndarray) -> float:
    """Twice the signed area (positive counter-clockwise)."""
    e = np.concatenate([poly[1:], poly[:1]]) - poly
    return float(np.sum(poly[:, 0] * e[:, 1] - poly[:, 1] * e[:, 0]))


def die_pixels(pose: Pose, cam: Intrinsics, size: float) -> float:
    """About how many pixels a die's side spans (seen from the camera's height)."""
    return cam.focal * size / max(float(pose.centre[2]) - size, size)


def find_die(
    frame: np.ndarray,
    hsv: np.ndarray,
    colour: Colour,
    pose: Pose,
    cam: Intrinsics,
    size: float,
    origin: tuple[int, int] = (0, 0),
) -> DieSeen | None:
    """The die of ``colour`` in a frame (BGR and HSV of the same image, or of the same crop whose
    top-left pixel is ``origin`` in the frame), or None when no blob of a die's size is found."""
    found = find_die_blob(frame, hsv, colour, pose, cam, size, origin)
    return None if found is None else found[0]


def find_die_blob(
    frame: np.ndarray,
    hsv: np.ndarray,
    colour: Colour,
    pose: Pose,
    cam: Intrinsics,
    size: float,
    origin: tuple[int, int] = (0, 0),
    raw: np.ndarray | None = None,
) -> tuple[DieSeen, tuple[int, int, int, int]] | None:
    """find_die, and the blob's bounding box (x, y, w, h) in the frame; ``raw``: the colour's mask
    of ``hsv`` when already made."""
    cv = cv2()
    k = 2 * math.ceil(CLOSE_GAP * die_pixels(pose, cam, size) / 2) + 1
    raw = colour.mask(hsv) if raw is None else raw
    mask = cv.morphologyEx(raw, cv.MORPH_CLOSE, cv.getStructuringElement(cv.MORPH_ELLIPSE, (k, k)))
    contours, _ = cv.findContours(mask, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_NONE)
    if not contours:
        return None
    blob = max(contours, key=cv.contourArea)
    if len(blob) < 8:
        return None
    bx, by, bw, bh = cv.boundingRect(blob)
    box = (bx + origin[0], by + origin[1], bw, bh)
    outline = _subpixel_outline(frame, hsv, raw, blob, colour) + origin
    plane = to_plane(outline, size, pose, cam)
    area = abs(cv.contourArea(plane.astype(np.float32) * 1e4)) / 1e8  # m^2 (scaled for float32)
    if not BLOB_AREA[0] <= area / size**2 <= BLOB_AREA[1]:
        return None
    step = max(1, len(plane) // MAX_OUTLINE_POINTS)
    pts = plane[::step]
    c = pose.centre
    (rx, ry), _, ang = cv.minAreaRect(pts.astype(np.float32) * 1e4)
    start = np.array([rx / 1e4, ry / 1e4, math.radians(ang) % QUARTER])

    model = _Outline(pts, size, c[:2], (c[2] - size) / c[2])
    # the rectangle's angle is biased by the side faces: try the quarter turn in steps, keep the
    # best. The 4th parameter moves the whole outline out (blur, anti-aliasing and the colour
    # threshold put the edge a fraction of a pixel off the die's): with a die of fixed size it would
    # rotate within that band.
    tries = [np.r_[start + (0, 0, k * QUARTER / ANGLE_STEPS), 0.0] for k in range(ANGLE_STEPS)]
    p0 = min(tries, key=lambda p: float(np.sum(model.residuals(p) ** 2)))
    best = least_squares(
        model.residuals, p0, jac=model.jacobian, x_scale=(size, size, 0.1, size), method="lm"
    )
    x, y, th, grow = best.x
    misfit = float(np.sqrt(2 * best.cost / len(pts)))
    if misfit > MAX_FIT_RMS * size or abs(grow) > MAX_GROW * size:
        return None
    return DieSeen(float(x), float(y), float(th % QUARTER), misfit), box


def _subpixel_outline(
    frame: np.ndarray, hsv: np.ndarray, raw: np.ndarray, blob: np.ndarray, colour: Colour
) -> np.ndarray:
    """The blob's edge to a fraction of a pixel, where the die covers half a pixel.

    The colour crop round the blob is enlarged UPSAMPLE times (linear interpolation) and thresholded
    half-way between the saturation of the die and of what lies round it: saturation does not change
    with shading, so the top and the darker side faces are cut alike (the colour file's lower bound,
    set for detection, would cut a quarter of a pixel outside).  Pip gaps closed in the mask stay
    closed."""
    cv = cv2()
    x, y, w, h = cv.boundingRect(blob)
    m = 3
    x0, y0 = max(0, x - m), max(0, y - m)
    x1, y1 = min(raw.shape[1], x + w + m), min(raw.shape[0], y + h + m)
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv.drawContours(region, [blob - (x0, y0)], -1, 255, -1)  # this blob only, its holes filled
    near = cv.dilate(region, np.ones((3, 3), np.uint8))
    sat = hsv[y0:y1, x0:x1, 1]
    inside = sat[(region > 0) & (raw[y0:y1, x0:x1] > 0)]
    around = sat[near == 0]
    mid = (
        int(round((float(np.median(inside)) + float(np.median(around))) / 2))
        if inside.size and around.size
        else 0
    )
    edge = Colour(
        colour.name, tuple((*r[:2], max(r[2], min(mid, r[3])), *r[3:]) for r in colour.ranges)
    )
    big = cv.resize(
        frame[y0:y1, x0:x1], None, fx=UPSAMPLE, fy=UPSAMPLE, interpolation=cv.INTER_LINEAR
    )
    grow = {"fx": UPSAMPLE, "fy": UPSAMPLE, "interpolation": cv.INTER_NEAREST}
    filled = cv.resize(region & ~raw[y0:y1, x0:x1], None, **grow)  # the closed gaps
    cut = (edge.mask(cv.cvtColor(big, cv.COLOR_BGR2HSV)) & cv.resize(near, None, **grow)) | filled
    cs, _ = cv.findContours(cut, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_NONE)
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
    frame: np.ndarray,
    die: DieSeen,
    pose: Pose,
    cam: Intrinsics,
    size: float,
    origin: tuple[int, int] = (0, 0),
) -> int | None:
    """The number on the top face (1-6) from the white pips at its nine possible places, or None;
    ``frame`` may be a crop whose top-left pixel is ``origin`` in the frame."""
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
    img = project(pts, pose, cam) - origin
    img = img.reshape(PIP_GRID, PIP_GRID, 2).astype(np.float32)
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
