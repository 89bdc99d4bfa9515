"""The World's value types: die statuses, the public per-die state, a shot's result, and the
mutable per-die record the physics modules share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

import pymunk

from .. import errors
from .die import Orientation
from .events import Event

ON_BOARD = "on_board"
IN_HOLE = "in_hole"
OFF = "off_board"
STATUSES = (ON_BOARD, IN_HOLE, OFF)
PITCH_CAUSES = ("flick", "rim", "step", "impact")
# Largest pitch rate a snapshot may hold (rad/s): ~20x what the launch cap's highest flick gives.
MAX_PITCH_RATE = 1.0e4
# A leaning die (physics/stacking.py) stays propped while its centre is within this many die sizes
# of the other's: corner to face, touching, is (1/2 + 1/sqrt2) = 1.21 sizes.
LEAN_REACH = 1.25
# Tilt (rad) a leaning die is drawn with: a 16 mm die propped on another's rounded top edge.
LEAN_TILT = 0.35


class IllegalAction(errors.IllegalAction):
    """An unfair or impossible flick; the message says why."""


@dataclass(frozen=True)
class DieState:
    """A die's state at one instant (SI units, world frame)."""

    id: str
    x: float
    y: float
    angle: float
    vx: float
    vy: float
    omega: float
    face: int  # top face, 1..6
    orientation: Orientation
    status: str  # "on_board" | "in_hole" | "off_board"
    flat: bool  # lying flat on one surface (not falling, not straddling a level change)
    on_platform: str | None  # platform name if resting on its top
    falling: bool  # over the hole, unsupported
    drop: float  # how far (m) the die has dropped below the surface (0 on the board, a when holed)
    tilt: float  # tilt from flat (rad): straddling a platform edge, for drawing
    pitch: float = 0.0  # rad the die is tipped up on an edge (tumbling or rocking), for drawing
    z: float = 0.0  # m, its base's height above the local surface (0 resting on the board)
    airborne: bool = False  # in flight (physics/flight.py)
    on_die: str | None = None  # the die it rests on or leans against (physics/stacking.py)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "x": self.x,
            "y": self.y,
            "angle": self.angle,
            "vx": self.vx,
            "vy": self.vy,
            "omega": self.omega,
            "face": self.face,
            "orientation": self.orientation.as_list(),
            "status": self.status,
            "flat": self.flat,
            "on_platform": self.on_platform,
            "z": self.z,
        }


@dataclass(frozen=True)
class ShotResult:
    """Outcome of :meth:`World.run_until_rest`."""

    time_to_rest: float  # s of simulated time used (max_time if it did not come to rest)
    steps: int
    events: tuple[Event, ...]
    rested: bool


class Pitch(NamedTuple):
    """A die tipped up on an edge (physics/pitch.py).  Immutable (a copied World's records share
    it); a named tuple rather than a frozen dataclass: a pitched die gets a new one every model
    step, and a frozen dataclass's constructor costs four times as much."""

    phi: float  # rad, 0 = flat on its face, pi/2 = landing on the next face
    rate: float  # rad/s, > 0 tipping forward
    side: int  # body side 0..3 it tips towards (outward normal at side * pi/2 in its frame)
    heading: float  # world direction (rad) of the pitch's angular momentum's forward sense
    cause: str  # what started it: "flick" | "rim" | "step" | "impact"

    def to_json(self) -> list[Any]:
        return [self.phi, self.rate, self.side, self.heading, self.cause]


@dataclass(eq=False)
class DieRecord:
    """Mutable per-die record (internal to the physics package)."""

    id: str
    orientation: Orientation
    status: str = ON_BOARD
    level: str | None = None  # platform name if on a platform's top
    straddle: str | None = None  # platform whose edge the die straddles (not flat)
    fall_time: float | None = None  # s since the die lost support over the hole
    fresh: bool = False  # velocity of a step's end (flicked, flat again): next kick is a half
    riding: bool = False  # sliding over the hole's far rim on its rounded edge
    airborne: bool = False  # in flight: ballistic height, no board friction (physics/flight.py)
    z: float = 0.0  # m, centre height - a/2 above the board plane while airborne or on a die
    vz: float = 0.0  # m/s, vertical speed while airborne
    on_die: str | None = None  # the die it rests on top of (physics/stacking.py)
    lean: str | None = None  # the die it leans against, tilted (physics/stacking.py)
    pitch: Pitch | None = None  # tipped up on an edge, tumbling or rocking (physics/pitch.py)
    # the step (World.steps) in which a flat die was tipped up after that step's kick had given
    # it the slope's force (pitch.start): its pitch step does not pay the dish's rise again
    kicked_step: int = -1
    group: int = 0  # dice of different groups never touch (World.set_contact_group)
    x: float = 0.0  # pose/velocity cache; authoritative when the die is out of the space
    y: float = 0.0
    angle: float = 0.0
    vx: float = 0.0
    vy: float = 0.0
    omega: float = 0.0
    body: pymunk.Body | None = field(default=None, repr=False)
    shape: pymunk.Poly | None = field(default=None, repr=False)
    body_id: int = field(default=-1, repr=False)  # body.id (a cffi call each time it is read)

    @property
    def in_space(self) -> bool:
        return self.body is not None
