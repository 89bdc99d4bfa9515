"""A flick: an impulse from a fingertip on one side face of one die.

``direction`` is the push direction (world radians, counter-clockwise from +x); ``impulse`` in N s
(launch speed J/m, ~4.5 mN s per m/s for a 4.5 g die); ``offset`` in -0.5..0.5 of the face width along
the struck face, positive to the left of the push direction (off-centre strikes spin the die: a strike
left of centre turns it clockwise); ``height`` in 0..1 of the face height (0.5 = mid-height; higher
strikes pitch the die forward and, hard enough, tumble it: physics.md s4).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from .errors import UserError
from .params import PhysicsParams


@dataclass(frozen=True)
class Flick:
    die: str
    direction: float
    impulse: float
    offset: float = 0.0
    height: float = 0.5

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Flick:
        if not isinstance(d, dict):
            raise UserError(f"a flick must be an object, got {d!r}")
        unknown = set(d) - {"die", "direction", "impulse", "offset", "height"}
        if unknown:
            raise UserError(f"flick has unknown field {sorted(unknown)[0]!r}")
        for k in ("die", "direction", "impulse"):
            if k not in d:
                raise UserError(f"flick lacks {k!r}")
        vals = {}
        for k in ("direction", "impulse", "offset", "height"):
            if k in d:
                v = d[k]
                # huge ints overflow float(): bound them before any float arithmetic
                if (
                    isinstance(v, bool)
                    or not isinstance(v, int | float)
                    or (isinstance(v, int) and abs(v) > 2**64)
                    or not math.isfinite(v)
                ):
                    raise UserError(f"flick {k} must be a finite number, got {repr(v)[:30]}")
                vals[k] = float(v)
        return cls(die=str(d["die"]), **vals)


def launch_speed(flick: Flick, params: PhysicsParams) -> float:
    """Launch speed (m/s) of the struck die: J / m."""
    return flick.impulse / params.die_mass


def struck_side(direction: float, die_angle: float) -> int:
    """Index k (0..3) of the struck side in the die's body frame: outward normal at angle k*pi/2.

    The struck face is the one whose outward normal is most nearly opposite the push direction.
    """
    back = direction - die_angle + math.pi
    return round(back / (math.pi / 2)) % 4


def contact_point(
    flick: Flick, x: float, y: float, angle: float, size: float
) -> tuple[float, float]:
    """World point where the finger meets the struck face (mid-height projection)."""
    k = struck_side(flick.direction, angle)
    na = angle + k * math.pi / 2
    nx, ny = math.cos(na), math.sin(na)
    # to the left of the push direction, along the face: normal turned -90 degrees
    lx, ly = ny, -nx
    half = size / 2
    return (
        x + half * nx + flick.offset * size * lx,
        y + half * ny + flick.offset * size * ly,
    )


def pitch_rate(flick: Flick, params: PhysicsParams) -> float:
    """Forward pitch rate (rad/s) from a strike at height b = height*a (physics.md s4, rough):
    w = v0 (b - a/2) / (a^2 (1/6 + (1 - mu)/4)); zero at or below mid-height."""
    return strike_pitch_rate(launch_speed(flick, params), flick.height * params.die_size, params)


def strike_pitch_rate(dv: float, b: float, params: PhysicsParams) -> float:
    """Forward pitch rate of a die whose speed jumps by ``dv`` from a blow ``b`` metres above its
    base (a finger, or another die standing on a different level); 0 at or below mid-height."""
    a = params.die_size
    if b <= a / 2:
        return 0.0
    return dv * (b - a / 2) / (a * a * (1 / 6 + (1 - params.mu_board) / 4))


def pitch_tumble_rate(params: PhysicsParams) -> float:
    """Pitch rate above which a struck die tumbles forward: sqrt(12 g (sqrt2 - 1) / (5 a)) [derived]."""
    return math.sqrt(12 * params.gravity * (math.sqrt(2) - 1) / (5 * params.die_size))


def flick_tumbles(flick: Flick, params: PhysicsParams) -> bool:
    """True if the strike is high and hard enough to tumble the die forward."""
    return pitch_rate(flick, params) >= pitch_tumble_rate(params)


def trip_speed(step: float, params: PhysicsParams) -> float:
    """Speed (m/s) above which a die sliding into an edge ``step`` metres above its base tumbles over it.

    Angular momentum about the edge is conserved at impact, w = v h / k^2 with h = a/2 - step the CoM's
    height above the edge and k^2 = a^2/6 + (a/2)^2 + h^2; the die tips over when that rotation lifts its
    CoM over the edge, (1/2) k^2 w^2 >= g (d - h), d = sqrt((a/2)^2 + h^2) (physics.md s4: 0.42 m/s at
    step 0, 0.56 at 2 mm, 0.86 at 4 mm for a 16 mm die).  Infinite for steps at or above mid-height.
    """
    a = params.die_size
    h = a / 2 - step
    if h <= 0:
        return math.inf
    k2 = a * a / 6 + (a / 2) ** 2 + h * h
    d = math.sqrt((a / 2) ** 2 + h * h)
    return math.sqrt(2 * params.gravity * (d - h) * k2) / h


def speed_after_trip(v: float, step: float, params: PhysicsParams) -> float:
    """Speed after tumbling over an edge ``step`` above the base (energy after the edge impact, minus the
    lift, times ``tumble_energy_retained`` for the landing on the next face); 0 if it cannot."""
    a = params.die_size
    h = a / 2 - step
    if h <= 0:
        return 0.0
    k2 = a * a / 6 + (a / 2) ** 2 + h * h
    e_rot = 0.5 * v * v * h * h / k2  # per unit mass, just after the impact
    left = e_rot - params.gravity * step
    if left <= 0:
        return 0.0
    return math.sqrt(2 * params.tumble_energy_retained * left)
