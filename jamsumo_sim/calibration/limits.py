"""Sane ranges of everything `jamsumo calibrate` reads, in one place (documented in docs/limits.md).

Sizes bound the work: every residual evaluation simulates every shot, so a file with a million shots
would not crash but would never finish.  Physical
bounds (launch speed, spin) come from the params (the board's ``max_launch_speed`` and die), not from
literals here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..physics.params import PhysicsParams

MAX_DATA_FILES = 50
MAX_LINES = 200_000  # per file, comments included: 100 tracked shots of 2 000 frames fit easily
MAX_LINE_CHARS = 10_000  # a row with a long notes column, far below csv's 128 KiB field limit
MAX_COLUMNS = 64
MAX_SHOTS = 1_000  # kinematic shots in all files together (the samples have 68)
MAX_TRACKED_SHOTS = 200  # every evaluation steps each track, one Python call per die and step
MAX_SHOT_SECONDS = (
    20.0  # simulated time before a shot counts as never resting; tracks must fit in it
)
MAX_ABS_ANGLE = 10_000.0  # rad (~1 600 turns): any unwrapped track, and still exact to 1e-12 rad
MAX_ABS_TIME = 1e6  # s: video timestamps; t - t0 stays exact to far below a microsecond
OVERLAP_SLACK = (
    0.0005  # m: measured start poses of two dice may overlap this much (measuring error)
)
FLICK_MAX_OFFSET = 0.5  # a fair flick strikes the face at most half a die width off centre
# Tumble shots (filmed flicks: quarter turns counted, travel measured; calibration/tumbles.py).
MAX_TUMBLE_SHOTS = 400  # every evaluation of the tumble fit simulates each one (~10-20 ms apiece)
MAX_QUARTER_TURNS = 1_000  # the model's hardest flick (5 m/s at the top) makes ~120

# The fit's starting points besides the data's guess and the board's defaults: the guess scaled by
# these factors.  More starts would repeat points, so --starts is at most MAX_STARTS.
FIT_SPREAD_FACTORS = (0.6, 1.5, 0.8, 1.25)
MAX_STARTS = 2 + len(FIT_SPREAD_FACTORS)


@dataclass(frozen=True)
class DataLimits:
    """The physical bounds a measurement must respect, from the params it will be simulated with."""

    max_speed: float  # m/s: the params' max_launch_speed, the cap on every flick
    max_spin: float  # rad/s: the fastest spin a fair flick at max_speed can give
    die_size: float  # m
    edge_radius: float  # m: the die's footprint is a square with corners rounded by this

    @classmethod
    def from_params(cls, params: PhysicsParams) -> DataLimits:
        # An impulse J at offset o*a from the centre gives v = J/m and omega = J o a / (m a^2 / 6),
        # so omega <= 6 * FLICK_MAX_OFFSET * v_max / a (937 rad/s for 5 m/s and a 16 mm die).
        spin = 6 * FLICK_MAX_OFFSET * params.max_launch_speed / params.die_size
        return cls(params.max_launch_speed, spin, params.die_size, params.die_edge_radius)


# --- do two dice overlap? -------------------------------------------------------------------------

Point = tuple[float, float]


def _corners(x: float, y: float, angle: float, half: float) -> list[Point]:
    c, s = math.cos(angle), math.sin(angle)
    return [
        (x + c * dx - s * dy, y + s * dx + c * dy)
        for dx, dy in ((half, half), (-half, half), (-half, -half), (half, -half))
    ]


def _separated(a: list[Point], b: list[Point]) -> bool:
    """Separating-axis test for two convex polygons (here: squares)."""
    for poly in (a, b):
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y1 - y0, x0 - x1
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) < min(pb) or max(pb) < min(pa):
                return True
    return False


def _point_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    length2 = ax * ax + ay * ay
    t = 0.0 if length2 == 0 else ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / length2
    t = min(max(t, 0.0), 1.0)
    return math.hypot(p[0] - a[0] - t * ax, p[1] - a[1] - t * ay)


def footprint_gap(
    first: tuple[float, float, float], second: tuple[float, float, float], lim: DataLimits
) -> float:
    """Distance (m) between two dice's footprints at (x, y, angle); negative when they overlap.

    A die is the physics engine's shape: a square of side ``die_size - 2 r`` inflated by r (rounded
    corners), so the gap is the distance between the inner squares minus 2 r.
    """
    half = lim.die_size / 2 - lim.edge_radius
    a, b = _corners(*first, half), _corners(*second, half)
    if not _separated(a, b):
        return -lim.die_size  # the inner squares themselves intersect: deep overlap
    d = min(
        *(_point_segment(p, b[i], b[(i + 1) % 4]) for p in a for i in range(4)),
        *(_point_segment(p, a[i], a[(i + 1) % 4]) for p in b for i in range(4)),
    )
    return d - 2 * lim.edge_radius
