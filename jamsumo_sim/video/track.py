"""Frame by frame: the camera pose from the markers, each die's top face from its colour."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from .camera import Intrinsics, Pose, board_pose
from .colours import Colour
from .cvload import cv2
from .dice import DieSeen, find_die, read_pips
from .markers import MarkerDetector

# A die whose blob moved less than this (px, image centroid) since its last fit keeps that fit: a
# resting die is fitted once, not in every frame.
STILL_PX = 0.15


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
    centroid: np.ndarray
    seen: DieSeen


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
    cv = cv2()
    out = Tracking(fps, dice={c.name: DieTrack(c.name) for c in colours})
    last: dict[str, _Last | None] = {c.name: None for c in colours}
    nan3 = (np.nan, np.nan, np.nan)
    for k, frame in enumerate(frames):
        det = detector.detect(frame)
        pose = board_pose(det, cam)
        out.markers_seen.append(len(det.ids))
        out.marker_rms.append(np.nan if pose is None else pose.rms_px)
        hsv = cv.cvtColor(frame, cv.COLOR_BGR2HSV) if pose is not None else None
        seen: dict[str, DieSeen | None] = {}
        for c in colours:
            tr = out.dice[c.name]
            die = None
            if pose is not None:
                die = _find(hsv, c, pose, cam, die_size, last, cv)
            seen[c.name] = die
            if die is None:
                tr.xya.append(nan3)
                tr.misfit.append(np.nan)
                tr.face.append(0)
            else:
                tr.xya.append((die.x, die.y, die.angle))
                tr.misfit.append(die.misfit)
                tr.face.append(read_pips(frame, die, pose, cam, die_size) or 0)
        if on_frame is not None:
            on_frame(k, frame, pose, seen)
    return out


def _find(hsv, colour: Colour, pose: Pose, cam, size, last: dict, cv) -> DieSeen | None:
    mask = colour.mask(hsv)
    m = cv.moments(mask, binaryImage=True)
    if m["m00"] <= 0:
        last[colour.name] = None
        return None
    centroid = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    prev = last[colour.name]
    if prev is not None and np.linalg.norm(centroid - prev.centroid) < STILL_PX:
        return prev.seen
    die = find_die(hsv, colour, pose, cam, size)
    last[colour.name] = None if die is None else _Last(centroid, die)
    return die
