"""Frame by frame: the camera pose from the markers, each die's top face from its colour."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from .camera import Intrinsics, Pose, board_pose
from .colours import Colour
from .cvload import cv2
from .dice import DieSeen, die_pixels, find_die_blob, read_pips
from .markers import MarkerDetector

# A die whose blob moved less than this (px, image centroid) since its last fit keeps that fit: a
# resting die is fitted once, not in every frame.
STILL_PX = 0.15
# A die is first looked for within this many die sizes (px) of its last blob: it slides at most
# about one die size per frame at 60 frames/s; not found there (or touching the window's edge): the
# whole frame.
WINDOW_DICE = 4.0


@dataclass
class DieTrack:
    """One die's observations, one row per frame: x, y, angle (nan where not seen), misfit, face."""

    colour: str
    xya: list[tuple[float, float, float]] = field(default_factory=list)
    misfit: list[float] = field(default_factory=list)
    face: list[int] = field(default_factory=list)  # 0 = not read

    def array(self) -> np.ndarray:
        return np.array(self.xya, dtype=float).reshape(-1, 3)


@dataclass
class Tracking:
    fps: float
    markers_seen: list[int] = field(default_factory=list)  # markers found per frame
    marker_rms: list[float] = field(default_factory=list)  # px; nan: no pose in that frame
    dice: dict[str, DieTrack] = field(default_factory=dict)

    @property
    def frames(self) -> int:
        return len(self.markers_seen)

    def has_pose(self) -> np.ndarray:
        return np.isfinite(np.array(self.marker_rms, dtype=float))


@dataclass
class _Last:
    centroid: np.ndarray  # px, in the frame
    box: tuple[int, int, int, int]  # the blob's bounding box x, y, w, h (px)
    seen: DieSeen
    face: int


def track(
    frames: Iterable[np.ndarray],
    fps: float,
    detector: MarkerDetector,
    cam: Intrinsics,
    colours: list[Colour],
    die_size: float,
    on_frame: Callable[[int, np.ndarray, Pose | None, dict[str, DieSeen | None]], None]
    | None = None,
) -> Tracking:
    out = Tracking(fps, dice={c.name: DieTrack(c.name) for c in colours})
    last: dict[str, _Last | None] = {c.name: None for c in colours}
    nan3 = (np.nan, np.nan, np.nan)
    last_det, pose = None, None
    for k, frame in enumerate(frames):
        det = detector.detect(frame)
        if det is not last_det:  # the same one: the camera stood still, so did its pose
            pose = board_pose(det, cam)
            last_det = det
        out.markers_seen.append(len(det.ids))
        out.marker_rms.append(np.nan if pose is None else pose.rms_px)
        whole = None  # the frame's HSV, made once when a die is looked for in the whole frame
        seen: dict[str, DieSeen | None] = {}
        for c in colours:
            tr = out.dice[c.name]
            found = None
            if pose is not None:
                found, whole = _find(frame, whole, c, pose, cam, die_size, last)
            else:
                last[c.name] = None
            seen[c.name] = None if found is None else found.seen
            if found is None:
                tr.xya.append(nan3)
                tr.misfit.append(np.nan)
                tr.face.append(0)
            else:
                die = found.seen
                tr.xya.append((die.x, die.y, die.angle))
                tr.misfit.append(die.misfit)
                tr.face.append(found.face)
        if on_frame is not None:
            on_frame(k, frame, pose, seen)
    return out


def _find(frame, whole, colour: Colour, pose: Pose, cam, size, last: dict):
    """(the die's _Last or None, the frame's HSV if it was made)."""
    cv = cv2()
    prev = last[colour.name]
    h, w = frame.shape[:2]
    if prev is not None:
        x, y, bw, bh = prev.box
        m = int(WINDOW_DICE * die_pixels(pose, cam, size))
        x0, y0, x1, y1 = max(0, x - m), max(0, y - m), min(w, x + bw + m), min(h, y + bh + m)
        crop = frame[y0:y1, x0:x1]
        found = _in(
            crop, cv.cvtColor(crop, cv.COLOR_BGR2HSV), (x0, y0), colour, pose, cam, size, prev
        )
        if found is not None:
            bx, by, bw, bh = found.box
            inner = (
                bx > x0 or x0 == 0,
                by > y0 or y0 == 0,
                bx + bw < x1 or x1 == w,
                by + bh < y1 or y1 == h,
            )
            if all(inner):  # wholly inside the window: the whole frame would find the same blob
                last[colour.name] = found
                return found, whole
    if whole is None:
        whole = cv.cvtColor(frame, cv.COLOR_BGR2HSV)
    found = _in(frame, whole, (0, 0), colour, pose, cam, size, prev)
    last[colour.name] = found
    return found, whole


def _in(
    bgr, hsv, origin, colour: Colour, pose: Pose, cam, size, prev: _Last | None
) -> _Last | None:
    """The die in an image (a crop of the frame at ``origin``), or None."""
    cv = cv2()
    mask = colour.mask(hsv)
    m = cv.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        return None
    centroid = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]]) + origin
    if prev is not None and np.linalg.norm(centroid - prev.centroid) < STILL_PX:
        return prev  # the same blob: the same fit and face
    die = find_die_blob(bgr, hsv, colour, pose, cam, size, origin, mask)
    if die is None:
        return None
    seen, box = die
    face = read_pips(bgr, seen, pose, cam, size, origin) or 0
    return _Last(centroid, box, seen, face)
