"""Mouse gestures → flick parameters.  Pure functions of world coordinates: testable without a window.

A flick is aimed like a finger drawing back: press on a die, drag *back*, release.  The push goes the
opposite way to the pull; the pull's length sets the power (capped, with a curve for soft shots); the
press point's position along the struck face sets the offset (spin); the wheel sets the strike height.
Given the physics parameters, the power sets the fingertip's speed (full power: a centred strike at the
launch speed cap) and the impulse follows from it (jamsumo_sim.physics.flick.finger_impulse), so the same pull
launches an off-centre strike slower.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from jamsumo_sim.physics.flick import Flick, finger_for_launch, finger_impulse
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.ui.theme import GestureSettings


@dataclass(frozen=True)
class DieSpot:
    """Where a die lies, as far as grabbing it is concerned (world metres, radians)."""

    id: str
    x: float
    y: float
    angle: float
    size: float


@dataclass(frozen=True)
class FlickParams:
    """What the drag means: the arguments of a flick plus what the aim display needs."""

    die: str
    direction: float  # rad, world frame: where the die is pushed
    impulse: float  # N·s
    offset: float  # -0.5..0.5 along the struck face (positive: to the left of the push)
    height: float  # 0..1 of the die's height
    speed: float  # predicted launch speed, m/s (impulse / mass)
    power: float  # 0..1 of the cap
    face_normal: float  # rad, world frame: outward normal of the struck (rear) face
    finger_speed: float | None = None  # m/s, set when the physics parameters were given


def _wrap(angle: float) -> float:
    return math.atan2(math.sin(angle), math.cos(angle))


def local_coords(die: DieSpot, x: float, y: float) -> tuple[float, float]:
    """A world point in the die's body frame (metres from its centre along its own axes)."""
    dx, dy = x - die.x, y - die.y
    c, s = math.cos(die.angle), math.sin(die.angle)
    return (c * dx + s * dy, -s * dx + c * dy)


def die_contains(die: DieSpot, x: float, y: float, slack: float = 0.0) -> bool:
    """True if (x, y) lies on the die's square top, grown by ``slack`` × size on every side."""
    lx, ly = local_coords(die, x, y)
    half = die.size * (0.5 + slack)
    return abs(lx) <= half and abs(ly) <= half


def pick_die(dice: Iterable[DieSpot], x: float, y: float, slack: float = 0.0) -> str | None:
    """The id of the die under (x, y) — the nearest centre if several qualify — or None."""
    best: tuple[float, str] | None = None
    for die in dice:
        if die_contains(die, x, y, slack):
            d = math.hypot(x - die.x, y - die.y)
            if best is None or d < best[0]:
                best = (d, die.id)
    return None if best is None else best[1]


def struck_face_normal(die_angle: float, direction: float) -> float:
    """World angle of the outward normal of the face a push along ``direction`` strikes.

    The finger hits the rear face: the side face whose normal is nearest the opposite of the push.
    """
    rear = direction + math.pi - die_angle
    k = round(rear / (math.pi / 2)) % 4
    return _wrap(die_angle + k * math.pi / 2)


def power_from_pull(pull: float, settings: GestureSettings) -> float:
    """0..1 power for a drag-back of ``pull`` metres (0 below the dead zone, 1 at ``pull_full``)."""
    if pull < settings.pull_min:
        return 0.0
    return min(1.0, (pull / settings.pull_full) ** settings.power_curve)


def clamp_height(height: float) -> float:
    return min(1.0, max(0.0, height))


def height_after_wheel(height: float, notches: float, settings: GestureSettings) -> float:
    """Wheel up raises the strike point, wheel down lowers it; kept within 0..1."""
    return clamp_height(round((height + notches * settings.height_step) * 1000) / 1000)


def flick_from_drag(
    die: DieSpot,
    press: tuple[float, float],
    current: tuple[float, float],
    height: float,
    settings: GestureSettings,
    max_speed: float,
    die_mass: float,
    physics: PhysicsParams | None = None,
) -> FlickParams | None:
    """The flick a drag from ``press`` (on the die) to ``current`` would make, or None (too short).

    With ``physics`` the power sets the finger speed (power x max_speed / (1 + finger_restitution))
    and ``impulse`` is what that finger gives at this offset, angle and height; without it the power
    sets the launch speed directly (impulse = power x max_speed x die_mass).
    """
    dx, dy = press[0] - current[0], press[1] - current[1]
    pull = math.hypot(dx, dy)
    power = power_from_pull(pull, settings)
    if power <= 0.0:
        return None
    direction = math.atan2(dy, dx)
    normal = struck_face_normal(die.angle, direction)
    # offset: where along the struck face the finger lands = the press point's position along that
    # face (its tangent points to the left of the push when looking along the push)
    tangent = normal - math.pi / 2
    px, py = press[0] - die.x, press[1] - die.y
    along = px * math.cos(tangent) + py * math.sin(tangent)
    offset = max(-0.5, min(0.5, along / die.size))
    finger = None
    speed = power * max_speed
    impulse = speed * die_mass
    if physics is not None:
        finger = finger_for_launch(speed, physics)
        flick = Flick(die.id, direction, None, offset, clamp_height(height), finger)
        # the finger's mass at the struck point depends on the push's angle to the face
        off_normal = math.remainder(direction - (normal + math.pi), 2 * math.pi)
        impulse = finger_impulse(flick, physics, off_normal)
        speed = impulse / die_mass
    return FlickParams(
        die=die.id,
        direction=_wrap(direction),
        impulse=impulse,
        offset=offset,
        height=clamp_height(height),
        speed=speed,
        power=power,
        face_normal=normal,
        finger_speed=finger,
    )
