"""Cube orientation of a die: which face points up, and which point along the die's body axes.

A standard right-handed d6: opposite faces sum to 7, and with 1 on top and 2 facing the viewer, 3 is on
the right (outward normals satisfy n1 x n2 = n3).  An :class:`Orientation` is one of the 24 proper
rotations, written as the faces that point along the die's body axes +z (top), +x (east), +y (north);
the body frame turns with the die's in-plane angle.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass

import numpy as np

# Reference die: face -> outward normal in the die's own frame (right-handed: n1 x n2 = n3).
_REFERENCE_NORMALS = {
    1: (0, 0, 1),
    2: (0, -1, 0),
    3: (1, 0, 0),
    4: (-1, 0, 0),
    5: (0, 1, 0),
    6: (0, 0, -1),
}


def _normal(face: int) -> np.ndarray:
    return np.array(_REFERENCE_NORMALS[face], dtype=int)


@dataclass(frozen=True, order=True)
class Orientation:
    """Faces pointing up (+z), east (+x body axis) and north (+y body axis); the other three are 7 − these."""

    top: int
    east: int
    north: int

    def __post_init__(self) -> None:
        faces = (self.top, self.east, self.north)
        if not all(isinstance(f, int) and 1 <= f <= 6 for f in faces):
            raise ValueError(f"faces must be integers 1..6, got {faces}")
        if len({min(f, 7 - f) for f in faces}) != 3:
            raise ValueError(f"faces {faces} include a pair of opposite or equal faces")
        # handedness: the body axes x, y, z are right-handed, so n(east) x n(north) = n(top)
        if not np.array_equal(np.cross(_normal(self.east), _normal(self.north)), _normal(self.top)):
            raise ValueError(f"faces {faces} would make a left-handed die")

    @property
    def bottom(self) -> int:
        return 7 - self.top

    @property
    def west(self) -> int:
        return 7 - self.east

    @property
    def south(self) -> int:
        return 7 - self.north

    def face_towards(self, body_angle: float) -> int:
        """The side face whose outward normal is nearest the in-plane body-frame direction ``body_angle``."""
        k = round(body_angle / (math.pi / 2)) % 4
        return (self.east, self.north, self.west, self.south)[k]

    def as_list(self) -> list[int]:
        return [self.top, self.east, self.north]

    @classmethod
    def from_list(cls, faces) -> Orientation:
        top, east, north = (int(f) for f in faces)
        return cls(top, east, north)

    @classmethod
    def with_top(cls, top: int) -> Orientation:
        """The canonical orientation showing ``top``: the smallest valid (east, north)."""
        for o in ALL_ORIENTATIONS:
            if o.top == top:
                return o
        raise ValueError(f"no face {top}")


def _all_orientations() -> tuple[Orientation, ...]:
    out = []
    for top in range(1, 7):
        for east in range(1, 7):
            for north in range(1, 7):
                with contextlib.suppress(ValueError):
                    out.append(Orientation(top, east, north))
    return tuple(sorted(out))


ALL_ORIENTATIONS: tuple[Orientation, ...] = _all_orientations()
assert len(ALL_ORIENTATIONS) == 24


def face_up(orientation: Orientation) -> int:
    """The face value showing on top."""
    return orientation.top


def tumble(orientation: Orientation, direction: float) -> Orientation:
    """A quarter turn forward about the horizontal axis across the motion.

    ``direction`` is the direction of motion in the die's body frame (rad, from the body +x axis); it is
    snapped to the nearest body axis, the die rolls over the edge on that side.
    """
    k = round(direction / (math.pi / 2)) % 4
    t, e, n = orientation.top, orientation.east, orientation.north
    if k == 0:  # rolls toward +x: top goes east, west comes up
        return Orientation(7 - e, t, n)
    if k == 1:  # toward +y: top goes north, south comes up
        return Orientation(7 - n, e, t)
    if k == 2:  # toward -x: top goes west, east comes up
        return Orientation(e, 7 - t, n)
    return Orientation(n, e, 7 - t)  # toward -y: top goes south, north comes up
