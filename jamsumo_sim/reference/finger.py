"""Where the finger starts and how it moves for a flick: the game's flick (direction, offset along
the struck face, height up it, finger speed) on the reference's finger shape.  Pure math."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.flick import Flick, finger_for_launch, struck_side
from ..physics.params import PhysicsParams
from .config import FingerConfig


@dataclass(frozen=True)
class FingerStart:
    pos: np.ndarray  # (3,) m, the finger geom's centre
    yaw: float  # rad, the finger's x axis (its pad normal) along the struck face's inward normal
    vel: np.ndarray  # (3,) m/s, constant until it lets go


def finger_speed(flick: Flick, params: PhysicsParams) -> float:
    """The finger's speed (m/s); an impulse flick counts as the finger of a centred mid strike."""
    if flick.finger_speed is not None:
        return float(flick.finger_speed)
    return finger_for_launch(float(flick.impulse) / params.die_mass, params)  # type: ignore[arg-type]


def finger_start(
    flick: Flick,
    x: float,
    y: float,
    angle: float,
    base: float,
    params: PhysicsParams,
    cfg: FingerConfig,
) -> FingerStart:
    """The finger ``gap`` behind the struck face of a die at (x, y, angle) resting at height ``base``:
    its centre ``offset`` a along the face (left of the push) and ``height`` a above the base."""
    a = params.die_size
    k = struck_side(flick.direction, angle)
    na = angle + k * math.pi / 2  # outward normal of the struck face
    nx, ny = math.cos(na), math.sin(na)
    lx, ly = ny, -nx  # along the face, left of a push against it
    back = cfg.gap + (cfg.pad_thickness / 2 if cfg.shape == "pad" else cfg.point_radius)
    dist = a / 2 + back
    pos = np.array(
        [
            x + dist * nx + flick.offset * a * lx,
            y + dist * ny + flick.offset * a * ly,
            base + flick.height * a,
        ]
    )
    v = finger_speed(flick, params)
    vel = np.array([v * math.cos(flick.direction), v * math.sin(flick.direction), 0.0])
    return FingerStart(pos=pos, yaw=na + math.pi, vel=vel)
