"""The World: a pymunk Space (metres, top-down 2D) holding the dice and the platforms' walls.

One fixed step (:meth:`World.step`):

1. friction kick: coupled patch friction and the surface force (dish slope, board tilt) change every
   grounded die's velocity, in one compiled pass over all dice (:mod:`jamsumo_sim.step_kernels`; the
   dice are read and written with ``pymunk.batch``; resting dice on a flat board cost nothing).
   Velocities are leapfrog-staggered: a die launched by a flick first gets a half kick, so constant
   deceleration integrates exactly;
2. ``Space.step`` (``collision_substeps`` times): die-die and die-wall contacts (restitution/friction
   per pair of materials) and the drift; a group of touching dice whose kinetic energy the solver
   increased (it can, by a few per cent, for restitution >~ 0.8) is scaled back to its energy;
3. bookkeeping: first contacts become ``collision`` events (dice on different levels meeting above a
   die's mid-height may tumble it); a die whose centre of mass leaves the board goes ``off_board``; a
   die whose centre of mass leaves its support over the hole falls (ballistic drop, delta = g t^2/2)
   and at the far rim drops ``in_hole``, rides over on its rounded edge, or trips over the edge
   (``skim``, ``tumble``); dice climb onto JAM platforms (fast: tumble up) or bounce off their walls,
   and straddle a platform's edge (not flat) when stepping off.

Rest criterion (:meth:`World.at_rest`): no die is falling and every die in play moves slower than
``rest_speed`` and spins slower than ``rest_spin``.  :meth:`run_until_rest` then zeroes all velocities
exactly and rebuilds the Space from the rest state (dropping Chipmunk's cached contact impulses), so a
rest state is canonical: a world restored from :meth:`snapshot` re-simulates bit-identically.

Cost: per model step, one batch read, one compiled call (screen the state for the edge, the hole and
rest; kick for the next step), one batch write, and per collision step Chipmunk's step plus a look at
its cached contacts; Python runs only when something happens (a first contact, a die near the edge or
the hole, a platform).  About 2x a bare pymunk step at the default dt = 2 ms with 2 collision steps; see
``benchmarks/bench_physics.py``.

Material pairs: Chipmunk multiplies the two shapes' elasticity (and friction) values.  With the two
materials here (plastic dice, wooden platform walls; wood never meets wood) the pair table factorises
exactly: die value sqrt(e_die_die), wall value e_die_wood / sqrt(e_die_die) (same for friction), so each
contact gets the table's value with no per-contact Python callback (which would cost more than the
whole step in a packed cluster).  ``tests/physics`` checks the arbiters' values against the table.
"""

from __future__ import annotations

import copy as _copy
import hashlib
import math
import struct
import weakref
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pymunk
import pymunk.batch as pb
from pymunk._chipmunk import ffi as _ffi
from pymunk._chipmunk import lib as _lib

from . import errors, step_kernels
from .board import BoardSpec, Platform, board_to_dict, load_board
from .die import Orientation, tumble
from .events import COLLISION, FLICK, HOLE, OFF_BOARD, PLATFORM, SKIM, TUMBLE, Event
from .flick import (
    Flick,
    contact_point,
    flick_tumbles,
    launch_speed,
    pitch_tumble_rate,
    speed_after_trip,
    strike_pitch_rate,
    struck_side,
    trip_speed,
)
from .friction import patch_points
from .params import PhysicsParams
from .surface import Surface

SNAPSHOT_VERSION = 1

ON_BOARD = "on_board"
IN_HOLE = "in_hole"
OFF = "off_board"
STATUSES = (ON_BOARD, IN_HOLE, OFF)

_DIE_CAT = 0b01
_WALL_CAT = 0b10
_FILTER_LOW = pymunk.ShapeFilter(categories=_DIE_CAT, mask=_DIE_CAT | _WALL_CAT)
_FILTER_HIGH = pymunk.ShapeFilter(categories=_DIE_CAT, mask=_DIE_CAT)  # above the walls' tops

_BF = pb.BodyFields
_READ_FIELDS = _BF.POSITION | _BF.ANGLE | _BF.VELOCITY | _BF.ANGULAR_VELOCITY
_WRITE_FIELDS = _BF.VELOCITY | _BF.ANGULAR_VELOCITY
_AF = pb.ArbiterFields
_ARB_FIELDS = _AF.BODY_A_ID | _AF.BODY_B_ID | _AF.IS_FIRST_CONTACT | _AF.TOTAL_IMPULSE
# The per-step batch calls go straight to pymunk's C iterators (what pymunk.batch's get/set functions
# do, minus building the request struct and reading the flag enums on every call).
_GET_BODIES = _ffi.addressof(_lib, "pmSpaceBodyGetIteratorFuncBatched")
_SET_BODIES = _ffi.addressof(_lib, "pmSpaceBodySetIteratorFuncBatched")
_GET_ARBITERS = _ffi.addressof(_lib, "pmSpaceArbiterIteratorFuncBatched")


def _batch_request(buf: pb.Buffer, fields) -> Any:
    """A reusable pmBatchedData request for ``buf`` (as built by pymunk.batch on each call)."""
    data = _ffi.new("pmBatchedData *")
    data.fields = fields.value
    data.floatArray = buf._float_arr
    data.intArray = buf._int_arr
    return data


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
        }


@dataclass(frozen=True)
class ShotResult:
    """Outcome of :meth:`World.run_until_rest`."""

    time_to_rest: float  # s of simulated time used (max_time if it did not come to rest)
    steps: int
    events: tuple[Event, ...]
    rested: bool


@dataclass(eq=False)
class _Die:
    """Mutable per-die record (internal)."""

    id: str
    orientation: Orientation
    status: str = ON_BOARD
    level: str | None = None  # platform name if on a platform's top
    straddle: str | None = None  # platform whose edge the die straddles (not flat)
    fall_time: float | None = None  # s since the die lost support over the hole
    fresh: bool = False  # launched impulsively: next friction kick is a half step
    riding: bool = False  # sliding over the hole's far rim on its rounded edge
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


def die_body(
    p: PhysicsParams, x: float, y: float, angle: float, vx: float, vy: float, omega: float
) -> tuple[pymunk.Body, pymunk.Poly]:
    """A die's pymunk body and rounded-box shape (die-die elasticity and friction: see the module
    docstring's material pairs); the benchmark's bare Space builds its dice with this too."""
    body = pymunk.Body(p.die_mass, p.die_inertia)
    body.position = (x, y)
    body.angle = angle
    body.velocity = (vx, vy)
    body.angular_velocity = omega
    inner = p.die_size - 2 * p.die_edge_radius
    shape = pymunk.Poly.create_box(body, (inner, inner), radius=p.die_edge_radius)
    shape.elasticity = math.sqrt(p.restitution)
    shape.friction = math.sqrt(p.mu_die)
    return body, shape


class World:
    """The physics of one board and its dice; see the module docstring for the step and rest rules."""

    def __init__(
        self,
        board: BoardSpec | None = None,
        params: PhysicsParams | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.board = board if board is not None else load_board("standard")
        self.params = params if params is not None else PhysicsParams.from_board(self.board)
        # no model draws from it yet; kept so any future chance model is seeded by the caller
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.events: list[Event] = []
        self.steps = 0
        self._dice: dict[str, _Die] = {}
        self._setup_derived()
        self._build_space()

    # --- construction -----------------------------------------------------------------------

    def _setup_derived(self) -> None:
        p = self.params
        self._surface = Surface(self.board, p.gravity)
        # if no spot of the board is steeper than the static friction angle, a resting die can never
        # start to slide by itself, so resting dice need no friction work at all
        self._statics_hold = self._surface.max_slope() < p.mu_static
        self._flat = self._surface.trivially_flat
        self._half = self.board.half
        self._hole_r = self.board.hole_radius
        # (2, K): x row and y row, each contiguous for the kernel
        self._pts = np.ascontiguousarray(
            patch_points(p.patch_fraction * p.die_size, p.patch_quadrature).T
        )
        self._inertia = p.die_inertia
        s = self._surface
        self._prm = step_kernels.step_params(
            dt=p.dt, mass=p.die_mass, inertia=p.die_inertia, mu_k=p.mu_board, mu_s=p.mu_static,
            gravity=p.gravity, k_dish=s.k, r_dish=s.r_dish, tilt=(s.tilt[0], s.tilt[1]),
            flat=self._flat, statics_hold=self._statics_hold, half=self._half,
            hole_r=self._hole_r, rest_speed=p.rest_speed, rest_spin=p.rest_spin,
        )  # fmt: skip
        n = p.support_samples
        g = np.linspace(-p.die_size / 2, p.die_size / 2, n)
        gx, gy = np.meshgrid(g, g, indexing="ij")
        self._footprint = np.stack([gx.ravel(), gy.ravel()], axis=1)
        self._half_diag = p.die_size / math.sqrt(2)
        # Batch buffers backed by numpy arrays of our own, sized in _size_buffers so Chipmunk's
        # iterators never need to grow them (pymunk would realloc memory it does not own)
        self._buf = pb.Buffer()
        self._rdata = _batch_request(self._buf, _READ_FIELDS)
        self._rbase = np.zeros((0, 6))  # one (x, y, angle, vx, vy, w) row per body in the Space
        self._screened = -1  # step_kernels.screen() bits of the current state (-1: not screened)
        self._pending: tuple[int, float] | None = None  # (dice kicked, energy) of a kick in _wbuf
        self._nrows = -1  # bodies in the Space when last indexed (sizes the write buffer)
        self._abuf = pb.Buffer()
        self._adata = _batch_request(self._abuf, _ARB_FIELDS)
        self._arb_ints = np.zeros(0, dtype=np.uintp)  # (body a, body b, first contact) per arbiter
        self._arb_floats = np.zeros(0)  # (impulse x, impulse y) per arbiter
        self._current = False
        self._dirty = True
        self._unchecked = False

    def _build_space(self, reuse: bool = False) -> None:
        """(Re)build the pymunk Space from the dice records, in insertion order (canonical).

        ``reuse``: move the existing bodies and shapes (dice and walls) into the fresh Space instead of
        making new ones (a tenth of the cost).  A moved body carries nothing a new one would not have:
        removing its shapes drops its contacts, its bias velocities are reset by every step, and its
        pose and velocity are the record's; the fresh Space assigns shape ids in the same order.  So
        both ways give the same Space, bit for bit (tests/physics/test_world.py checks re-simulation).
        """
        p = self.params
        old = self.space if reuse else None
        moved: list[tuple[pymunk.Body, list[pymunk.Shape]]] = []
        if old is not None:
            moved.append((self._walls_body, self._walls))
            for d in self._dice.values():
                if d.in_space:
                    d.shape.filter = _FILTER_HIGH if (d.level or d.straddle) else _FILTER_LOW
                    moved.append((d.body, [d.shape]))
            _detach(old, moved)
        else:
            for d in self._dice.values():
                if d.in_space:
                    self._pull(d)
                    d.body = d.shape = None
        space = pymunk.Space()
        space.iterations = p.solver_iterations
        space.collision_slop = p.collision_slop
        # fraction of an overlap (beyond the slop) pushed out per collision step, via Chipmunk's
        # bias pseudo-velocities (no energy added); its default, 10 % per 1/60 s, leaves dice that
        # stopped mid-impact overlapping by more than the slop
        sub = p.dt / p.collision_substeps
        space.collision_bias = (1.0 - p.overlap_correction) ** (1.0 / sub)
        space.gravity = (0.0, 0.0)
        space.damping = 1.0
        self.space = space
        if old is not None:
            _attach(space, moved)
        else:
            self._make_walls()
            # the walls hang on a static body of the World's own, so they can move to a new Space
            space.add(self._walls_body, *self._walls)
            for d in self._dice.values():
                if d.status == ON_BOARD:
                    self._add_body(d)
        self._canonical = True
        self._dirty = True
        self._current = False

    def _make_walls(self) -> None:
        """The JAM platforms' side walls: static boxes dice bounce off (or climb, see _maybe_climb)."""
        p = self.params
        e_die = math.sqrt(p.restitution)
        f_die = math.sqrt(p.mu_die)
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        walls = []
        for plat in self.board.platforms:
            x0, y0, x1, y1 = plat.bounds
            wall = pymunk.Poly(body, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
            wall.elasticity = p.restitution_wood / e_die if e_die > 0 else 0.0
            wall.friction = p.mu_wood / f_die if f_die > 0 else 0.0
            wall.filter = pymunk.ShapeFilter(categories=_WALL_CAT, mask=_DIE_CAT)
            walls.append(wall)
        self._walls_body = body
        self._walls = walls

    def _add_body(self, d: _Die) -> None:
        body, shape = die_body(self.params, d.x, d.y, d.angle, d.vx, d.vy, d.omega)
        shape.filter = _FILTER_HIGH if (d.level or d.straddle) else _FILTER_LOW
        self.space.add(body, shape)
        d.body, d.shape, d.body_id = body, shape, body.id
        self._dirty = True

    def _remove_body(self, d: _Die) -> None:
        self._pull(d)
        self.space.remove(d.body, d.shape)
        d.body = d.shape = None
        self._dirty = True

    def _pull(self, d: _Die) -> None:
        """Copy a body's pose and velocity into its record."""
        b = d.body
        d.x, d.y = b.position
        d.angle = b.angle
        d.vx, d.vy = b.velocity
        d.omega = b.angular_velocity

    # --- dice ------------------------------------------------------------------------------

    def add_die(
        self,
        die_id: str,
        x: float,
        y: float,
        angle: float = 0.0,
        face: int | None = None,
        orientation: Orientation | None = None,
        vx: float = 0.0,
        vy: float = 0.0,
        omega: float = 0.0,
    ) -> None:
        """Put a die on the board (on a platform's top if its centre is over one)."""
        if die_id in self._dice:
            raise errors.UserError(f"duplicate die id {die_id!r}")
        for name, v in (
            ("x", x),
            ("y", y),
            ("angle", angle),
            ("vx", vx),
            ("vy", vy),
            ("omega", omega),
        ):
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise errors.UserError(f"die {die_id!r}: {name} must be a finite number, got {v!r}")
        if not self.board.on_board(x, y):
            raise errors.UserError(f"die {die_id!r} at ({x}, {y}) is not on the board")
        if orientation is None:
            if face is None:
                raise errors.UserError(f"die {die_id!r}: give a face (1..6) or an orientation")
            if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
                raise errors.UserError(f"die {die_id!r}: face must be 1..6, got {face!r}")
            orientation = Orientation.with_top(face)
        elif face is not None and face != orientation.top:
            raise errors.UserError(f"die {die_id!r}: face {face} disagrees with its orientation")
        plat = self.board.platform_at(x, y)
        d = _Die(
            id=die_id,
            orientation=orientation,
            level=plat.name if plat else None,
            x=float(x),
            y=float(y),
            angle=float(angle),
            vx=float(vx),
            vy=float(vy),
            omega=float(omega),
            fresh=bool(vx or vy or omega),
        )
        self._dice[die_id] = d
        self._add_body(d)
        self._canonical = False
        self._unchecked = True  # support not yet checked: not at rest before a step
        self._canonicalise_if_resting()

    def remove_die(self, die_id: str) -> None:
        """Take a die away entirely (it no longer exists in this world)."""
        d = self._get(die_id)
        if d.in_space:
            self._remove_body(d)
        del self._dice[die_id]
        self._canonical = False
        self._canonicalise_if_resting()

    def _resting(self) -> bool:
        """Every die in play exactly still and none falling (support need not be checked yet)."""
        for d in self._dice.values():
            if d.in_space:
                b = d.body
                if d.fall_time is not None or b.angular_velocity != 0 or b.velocity != (0, 0):
                    return False
        return True

    def _canonicalise_if_resting(self) -> None:
        """Between shots (the rules adding, placing or removing dice) keep the Space canonical:
        rebuilt in insertion order with no cached contacts, as after run_until_rest."""
        if not self._canonical and self._resting():
            self._build_space(reuse=True)

    def place_die(
        self, die_id: str, x: float, y: float, angle: float = 0.0, face: int | None = None
    ) -> None:
        """Put an existing die (e.g. one that went off the side) back at rest at (x, y)."""
        d = self._get(die_id)
        orientation = Orientation.with_top(face) if face is not None else d.orientation
        self.remove_die(die_id)
        self.add_die(die_id, x, y, angle, orientation=orientation)

    @property
    def die_ids(self) -> tuple[str, ...]:
        return tuple(self._dice)

    def _get(self, die_id: str) -> _Die:
        try:
            return self._dice[die_id]
        except KeyError:
            raise errors.UserError(f"no die {die_id!r}") from None

    @property
    def time(self) -> float:
        """Simulated time (s): steps x dt, so it never accumulates rounding error."""
        return self.steps * self.params.dt

    def state(self, die_id: str) -> DieState:
        d = self._get(die_id)
        if d.in_space:
            self._pull(d)
        a = self.params.die_size
        falling = d.fall_time is not None
        if d.status == IN_HOLE:
            drop = a
        elif falling:
            drop = 0.5 * self.params.gravity * d.fall_time**2
        else:
            drop = 0.0
        tilt = 0.0
        if d.straddle:
            tilt = math.atan2(self.board.platform(d.straddle).height, a)
        return DieState(
            id=d.id,
            x=d.x,
            y=d.y,
            angle=d.angle,
            vx=d.vx,
            vy=d.vy,
            omega=d.omega,
            face=d.orientation.top,
            orientation=d.orientation,
            status=d.status,
            flat=d.status == ON_BOARD and not falling and d.straddle is None,
            on_platform=d.level if d.status == ON_BOARD else None,
            falling=falling,
            drop=drop,
            tilt=tilt,
        )

    def states(self) -> list[DieState]:
        return [self.state(i) for i in self._dice]

    def surface_height(self, x: float, y: float) -> float:
        """Height (m) of the playing surface at (x, y) (dish and platforms; tilt not included)."""
        plat = self.board.platform_at(x, y)
        if plat is not None:
            return plat.height
        return float(self._surface.height(x, y))

    # --- flicks ----------------------------------------------------------------------------

    def check_flick(self, flick: Flick) -> str | None:
        """Why ``flick`` is not a fair flick, or None if it is."""
        p = self.params
        d = self._dice.get(flick.die)
        if d is None:
            return f"no die {flick.die!r}"
        if d.status != ON_BOARD or not d.in_space:
            return f"die {flick.die!r} is not in play ({d.status})"
        for name in ("direction", "impulse", "offset", "height"):
            v = getattr(flick, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                return f"{name} must be a finite number"
        if flick.impulse <= 0:
            return "impulse must be > 0"
        v0 = launch_speed(flick, p)
        if v0 > p.max_launch_speed:
            return f"launch speed {v0:.3g} m/s is above the {p.max_launch_speed:g} m/s cap"
        if flick.height > 1:
            return "the finger would strike the top face (height > 1)"
        if flick.height < 0:
            return "the finger would strike the board, not the die (height < 0)"
        if abs(flick.offset) > 0.5:
            return "the finger would miss the face (|offset| > 0.5)"
        other = self._finger_hits_other(flick, d)
        if other is not None:
            return f"the finger would strike more than one die ({flick.die!r} and {other!r})"
        return None

    def _finger_hits_other(self, flick: Flick, d: _Die) -> str | None:
        """Another die inside the finger's rectangle behind the struck face (touching it counts)."""
        p = self.params
        x, y = d.body.position
        ang = d.body.angle
        k = struck_side(flick.direction, ang)
        na = ang + k * math.pi / 2
        n = np.array([math.cos(na), math.sin(na)])
        t = np.array([n[1], -n[0]])
        cx, cy = contact_point(flick, x, y, ang, p.die_size)
        centre = np.array([cx, cy]) + n * (p.finger_depth / 2)
        half = np.array([p.finger_depth / 2, p.finger_width / 2])
        axes_f = np.stack([n, t])
        tol = p.collision_slop
        for o in self._dice.values():
            if o is d or not o.in_space:
                continue
            ox, oy = o.body.position
            if math.hypot(ox - centre[0], oy - centre[1]) > (
                self._half_diag + math.hypot(*half) + tol
            ):
                continue
            oa = o.body.angle
            axes_o = np.array([[math.cos(oa), math.sin(oa)], [-math.sin(oa), math.cos(oa)]])
            if _boxes_overlap(
                centre, axes_f, half, np.array([ox, oy]), axes_o, np.full(2, p.die_size / 2), tol
            ):
                return o.id
        return None

    def apply_flick(self, flick: Flick) -> None:
        """Strike a die: impulse J along ``direction`` at the contact point on the struck face.

        Raises :class:`IllegalAction` with the reason if the flick is not fair.
        """
        reason = self.check_flick(flick)
        if reason is not None:
            raise IllegalAction(f"illegal flick: {reason}")
        p = self.params
        d = self._dice[flick.die]
        b = d.body
        x, y = b.position
        ang = b.angle
        cx, cy = contact_point(flick, x, y, ang, p.die_size)
        dx, dy = math.cos(flick.direction), math.sin(flick.direction)
        j = flick.impulse
        rx, ry = cx - x, cy - y
        b.velocity = (b.velocity.x + j * dx / p.die_mass, b.velocity.y + j * dy / p.die_mass)
        b.angular_velocity = b.angular_velocity + (rx * dy - ry * dx) * j / self._inertia
        d.fresh = True
        self._current = False
        self._unchecked = True
        k = struck_side(flick.direction, ang)
        face = d.orientation.face_towards(k * math.pi / 2)
        self.events.append(
            Event(self.time, FLICK, (d.id,), {**flick.to_json(), "face_struck": face})
        )
        if flick_tumbles(flick, p):
            before = d.orientation.top
            d.orientation = tumble(d.orientation, flick.direction - ang)
            self.events.append(
                Event(
                    self.time,
                    TUMBLE,
                    (d.id,),
                    {"before": before, "after": d.orientation.top, "cause": "flick"},
                )
            )
        self._dirty = True
        self._canonical = False

    # --- stepping --------------------------------------------------------------------------

    def _read(self) -> None:
        """Refresh the per-die state view from the Space (one batch call) unless it is current."""
        if self._current and not self._dirty:
            return
        buf = self._buf
        fa = buf._float_arr
        if self._dirty:
            self._size_buffers()
            fa.num = 0
            buf._int_arr.num = 0
            pb.get_space_bodies(self.space, _READ_FIELDS | _BF.BODY_ID, buf)
            ids = np.frombuffer(buf.int_buf(), dtype=np.uintp).tolist()
            by_id = {d.body_id: d for d in self._dice.values() if d.in_space}
            rows, order = [], []
            for i, bid in enumerate(ids):
                d = by_id.get(bid)
                if d is not None:
                    rows.append(i)
                    order.append(d)
            self._order = order
            self._rows = np.array(rows, dtype=np.intp)
            self._index = {d.id: i for i, d in enumerate(order)}
            self._by_body = by_id
            self._refresh_flags(len(ids))
            self._dirty = False
        else:
            fa.num = 0
            _lib.cpSpaceEachBody(self.space._space, _GET_BODIES, self._rdata)
        self._current = True
        self._screened = -1  # screen() has not looked at this state yet
        self._pending = None  # nor has the kick

    def _size_buffers(self) -> None:
        """Give the batch iterators numpy buffers large enough for this Space: 6 floats per body; per
        pair of shapes (a Space caches at most one contact arbiter per pair) 3 ints and 2 floats."""
        n_bodies = len(self.space._bodies) + 1
        if self._rbase.shape[0] < n_bodies:
            self._rbase = np.zeros((n_bodies + 8, 6))
            self._buf.set_float_buf(self._rbase.reshape(-1))
        n_shapes = len(self.space._shapes)
        pairs = n_shapes * (n_shapes - 1) // 2 + 1
        if len(self._arb_floats) < 2 * pairs + 8:
            pairs += 64
            self._arb_ints = np.zeros(3 * pairs + 8, dtype=np.uintp)
            self._arb_floats = np.zeros(2 * pairs + 8)
            self._abuf.set_int_buf(self._arb_ints)
            self._abuf.set_float_buf(self._arb_floats)

    # Per-die views of the state read last (die i = row self._rows[i]); for the Python-side
    # bookkeeping, which touches a few dice now and then.
    @property
    def _pos(self) -> np.ndarray:
        return self._rbase[self._rows, 0:2]

    @property
    def _ang(self) -> np.ndarray:
        return self._rbase[self._rows, 2]

    @property
    def _vc(self) -> np.ndarray:
        st = self._rbase[self._rows]
        return st[:, 3] + 1j * st[:, 4]

    @property
    def _w(self) -> np.ndarray:
        return self._rbase[self._rows, 5]

    @property
    def _pre_vc(self) -> np.ndarray:
        """Velocities after this step's friction kick, before its collisions (valid while the
        Space steps: the end of the step writes the next kick over them)."""
        out = self._wbuf[self._rows]
        return out[:, 0] + 1j * out[:, 1]

    def _refresh_flags(self, nrows: int) -> None:
        """Per-die flags for the kernels, from the dice records (after any change of status)."""
        order = self._order
        grounded, low = step_kernels.GROUNDED, step_kernels.LOW
        self._flags = np.array(
            [
                (grounded if d.fall_time is None else 0)
                | (low if d.level is None else 0)
                | (step_kernels.FRESH if d.fresh else 0)
                for d in order
            ],
            dtype=np.int8,
        )
        self._all_grounded = all(d.fall_time is None for d in order)
        self._any_fresh = any(d.fresh for d in order)
        special = [
            bool(d.straddle or d.level or d.riding or d.fall_time is not None) for d in order
        ]
        self._special_arr = np.array(special, dtype=bool)
        self._special = any(special)
        if nrows != self._nrows:
            # the velocity write buffer: one (vx, vy, w) row per body in the Space's order
            self._nrows = nrows
            self._wbuf = np.zeros((nrows, 3))
            self._wbuffer = pb.Buffer()
            self._wbuffer.set_float_buf(self._wbuf.reshape(-1))
            self._wdata = _batch_request(self._wbuffer, _WRITE_FIELDS)
        else:
            # a row no die holds (the walls' static body) must push zero velocity; the dice's rows
            # keep this step's pre-contact velocities (a climb mid-step re-indexes the bodies)
            others = np.ones(nrows, dtype=bool)
            others[self._rows] = False
            self._wbuf[others] = 0.0

    def _write(self, vc: np.ndarray, w: np.ndarray) -> None:
        out = self._wbuf
        rows = self._rows
        out[rows, 0] = vc.real
        out[rows, 1] = vc.imag
        out[rows, 2] = w
        self._push_velocities()

    def _push_velocities(self) -> None:
        """Set every body's velocity from the write buffer (pymunk.batch.set_space_bodies, minus
        building the request on every call)."""
        fa = self._wbuffer._float_arr
        num = fa.num
        fa.num = 0
        _lib.cpSpaceEachBody(self.space._space, _SET_BODIES, self._wdata)
        fa.num = num

    def step(self) -> None:
        """Advance one fixed model step ``params.dt`` (``collision_substeps`` Space steps)."""
        p = self.params
        if self._dirty or not self._current:
            self._read()
        pending = self._pending
        if pending is None and self._order:
            pending = step_kernels.kick(
                self._rbase, self._rows, self._flags, self._wbuf, self._prm, self._pts
            )
        kicked, ke_before = pending if pending is not None else (0, 0.0)
        self._pending = None
        if self._any_fresh:
            for d in self._order:
                d.fresh = False
            self._any_fresh = False
        if kicked > 0:
            self._push_velocities()
        self.steps += 1  # events of this step carry its end time (collisions: their substep's)
        self._unchecked = False
        self._current = False
        self._canonical = False
        self._contacts: list[np.ndarray] = []
        space = self.space
        # pymunk's wrapper only when it has work queued (bodies added since the last step to check);
        # otherwise Chipmunk's step directly (nothing here adds or removes during a step, and the
        # wrapper's bookkeeping costs a sixth of a bare step)
        wrapped = bool(space._bodies_to_check or space._add_later or space._remove_later)
        cspace = space._space
        afloats, aints, adata = self._abuf._float_arr, self._abuf._int_arr, self._adata
        n_sub = p.collision_substeps
        sub = p.dt / n_sub
        for k in range(n_sub):
            if wrapped and k == 0:
                space.step(sub)
            else:
                _lib.cpSpaceStep(cspace, sub)
            afloats.num = 0
            aints.num = 0
            _lib.cpSpaceEachCachedArbiter(cspace, _GET_ARBITERS, adata)
            if aints.num:
                self._collect_collisions((self.steps - 1 + (k + 1) / n_sub) * p.dt)
        was_dirty = self._dirty
        self._read()
        if not self._order:
            return
        # the velocities this step's contacts started from (the kick below overwrites them)
        pre = self._wbuf[self._rows] if self._contacts else None
        # screen this state and kick for the next step in one call (the kick is dropped if
        # the bookkeeping below changes anything)
        code, ke_after, kicked, ke_kicked = step_kernels.advance(
            self._rbase, self._rows, self._flags, self._wbuf, self._prm, self._pts
        )
        self._screened = code
        if kicked >= 0:
            self._pending = (kicked, ke_kicked)
        if pre is not None and not was_dirty and ke_after > ke_before:
            self._limit_contact_energy(pre)
        if code & step_kernels.NEAR_EDGE_OR_HOLE or self._special:
            self._after_step()
            if self._dirty or not self._current:
                self._pending = None

    def _limit_contact_energy(self, pre: np.ndarray) -> None:
        """Contacts must not create kinetic energy.  Chipmunk's sequential impulses with restitution at
        a box's two contact points (plus friction) can overshoot by a few per cent for e >~ 0.8; where
        a group of touching dice gained energy in this step, scale its motion relative to the group's
        centre-of-mass velocity back to the energy it had (momentum is kept; with a wall in the group
        the whole motion is scaled).  Only called when the total energy grew; ``pre`` holds each
        die's (vx, vy, w) before the step's contacts."""
        p = self.params
        m, inertia = p.die_mass, self._inertia
        v0, w0, v1, w1 = pre[:, 0] + 1j * pre[:, 1], pre[:, 2], self._vc, self._w
        ke0 = 0.5 * m * (v0.real**2 + v0.imag**2) + 0.5 * inertia * w0**2
        ke1 = 0.5 * m * (v1.real**2 + v1.imag**2) + 0.5 * inertia * w1**2
        n = len(self._order)
        parent = list(range(n + 1))  # n = the static world (walls)

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        index = {d.body.id: i for i, d in enumerate(self._order)}
        for pairs in self._contacts:
            for a_id, b_id in pairs.tolist():
                ia, ib = index.get(a_id, n), index.get(b_id, n)
                parent[find(ia)] = find(ib)
        groups: dict[int, list[int]] = {}
        for i in range(n):
            groups.setdefault(find(i), []).append(i)
        vc, w = v1.copy(), w1.copy()
        changed = False
        for root, members in groups.items():
            idx = np.array(members)
            before, after = ke0[idx].sum(), ke1[idx].sum()
            if after <= before or len(members) < 2 and root != find(n):
                continue
            if root == find(n):  # touches a wall: no momentum to keep
                s = math.sqrt(before / after)
                vc[idx] *= s
                w[idx] *= s
            else:
                vcm = vc[idx].mean()
                ke_cm = 0.5 * m * len(members) * abs(vcm) ** 2
                s = math.sqrt(max(before - ke_cm, 0.0) / (after - ke_cm)) if after > ke_cm else 0.0
                vc[idx] = vcm + s * (vc[idx] - vcm)
                w[idx] *= s
            changed = True
        if changed:
            self._write(vc, w)
            # the read state must show the scaled velocities (positions are unchanged)
            rb, rows = self._rbase, self._rows
            rb[rows, 3] = vc.real
            rb[rows, 4] = vc.imag
            rb[rows, 5] = w
            self._screened = -1
            self._pending = None

    def _after_step(self) -> None:
        """Edge, hole and platform bookkeeping after a model step, for the dice the screen found."""
        order = self._order
        pos = self._pos
        r = self._hole_r
        ap = np.abs(pos)
        amax = np.maximum(ap[:, 0], ap[:, 1])
        off = np.greater(amax, self._half)
        r2 = pos[:, 0] ** 2 + pos[:, 1] ** 2
        near = r2 < r * r
        if not (np.count_nonzero(off) or np.count_nonzero(near) or self._special):
            return
        cand = off | near
        if self._special:
            cand = cand | self._special_arr
        changed = False
        for i in np.flatnonzero(cand):
            d = order[i]
            if d.status != ON_BOARD:
                continue
            if off[i]:
                self._to_off_board(d)
                changed = True
                continue
            if d.fall_time is not None or d.riding or near[i]:
                changed |= self._hole_logic(d, i, bool(near[i]))
            if d.level or d.straddle:
                changed |= self._platform_logic(d, i)
        if changed:
            self._dirty = True

    def _collect_collisions(self, t: float) -> None:
        """Contacts of the collision step just taken (the cached arbiters in ``self._abuf``): note
        the touching pairs, log first contacts as collision events (tumbles, platform climbs)."""
        ints = self._arb_ints[: self._abuf._int_arr.num].reshape(-1, 3)
        self._contacts.append(ints[:, :2].copy())
        first = ints[:, 2].nonzero()[0]
        if first.size == 0:
            return
        imp = self._arb_floats[: 2 * len(ints)].reshape(-1, 2)
        if self._dirty:
            self._read()
        by_body = self._by_body
        # Chipmunk lists cached arbiters in hash order (pointer-based, differs between processes):
        # handle first contacts in an order fixed by the dice ids, so the event log is reproducible
        todo = []
        for k in first.tolist():
            a = by_body.get(int(ints[k, 0]))
            b = by_body.get(int(ints[k, 1]))
            key = tuple(sorted(d.id for d in (a, b) if d is not None))
            j = float(math.hypot(imp[k, 0], imp[k, 1]))
            todo.append((key, j, a, b))
        todo.sort(key=lambda item: item[:2])
        for _key, j, a, b in todo:
            if a is not None and b is not None:
                ids = tuple(sorted((a.id, b.id)))
                self.events.append(Event(t, COLLISION, ids, {"impulse": j, "kind": "die"}))
                if a.level != b.level or a.fall_time is not None or b.fall_time is not None:
                    self._impact_tumbles(a, b, j)
            else:
                d = a or b
                if d is None:
                    continue
                plat = self._nearest_platform(d)
                self.events.append(
                    Event(
                        t,
                        COLLISION,
                        (d.id,),
                        {"impulse": j, "kind": "wall", "platform": plat.name if plat else None},
                    )
                )
                if plat is not None and d.level is None and d.fall_time is None:
                    self._maybe_climb(d, plat)

    def _base_height(self, d: _Die) -> float:
        """Height of a die's base above the board: platform top, or below it while falling."""
        if d.level:
            return self.board.platform(d.level).height
        if d.fall_time is not None:
            return -0.5 * self.params.gravity * d.fall_time**2
        return 0.0

    def _impact_tumbles(self, a: _Die, b: _Die, impulse: float) -> None:
        """Dice on different levels meet off their mid-heights: the one struck above its mid-height
        pitches forward like a high flick and tumbles if hard enough (physics.md s4)."""
        p = self.params
        size = p.die_size
        ha, hb = self._base_height(a), self._base_height(b)
        lo, hi = max(ha, hb), min(ha, hb) + size
        if hi <= lo:
            return
        centre = 0.5 * (lo + hi)
        dv = impulse / p.die_mass
        limit = pitch_tumble_rate(p)
        for d, h, other in ((a, ha, b), (b, hb, a)):
            if strike_pitch_rate(dv, centre - h, p) >= limit:
                (x, y), (ox, oy) = d.body.position, other.body.position
                self._tumble(d, math.atan2(y - oy, x - ox) - d.body.angle, "impact")

    # --- hole -------------------------------------------------------------------------------

    def _supported(self, i: int) -> bool:
        """Centre of mass inside the convex hull of the footprint's part outside the hole disk."""
        x, y = self._pos[i]
        r = self.board.hole_radius
        if x * x + y * y >= r * r:
            return True
        c, s = math.cos(self._ang[i]), math.sin(self._ang[i])
        fp = self._footprint
        px = x + c * fp[:, 0] - s * fp[:, 1]
        py = y + s * fp[:, 0] + c * fp[:, 1]
        keep = px * px + py * py >= r * r
        if not keep.any():
            return False
        ang = np.sort(np.arctan2(py[keep] - y, px[keep] - x))
        gaps = np.diff(np.concatenate([ang, ang[:1] + 2 * math.pi]))
        return bool(gaps.max() < math.pi)

    def _hole_logic(self, d: _Die, i: int, over_hole: bool) -> bool:
        """Falling at the hole: ballistic drop while unsupported; at the far rim drop in, ride over
        (drop within the rounded edge) or trip over the rim edge (physics.md s3, s4)."""
        p = self.params
        vx, vy = self._vc[i].real, self._vc[i].imag
        v = math.hypot(vx, vy)
        if d.riding:
            # sliding up over the far rim on its rounded edge: supported by the rim until clear
            if over_hole and v > 0:
                return False
            d.riding = False
        if d.fall_time is None:
            if self._supported(i):
                return False
            d.fall_time = 0.0
            self._special = True
            return True
        d.fall_time += p.dt
        depth = 0.5 * p.gravity * d.fall_time**2
        if depth >= p.hole_catch_fraction * p.die_size:
            self._to_hole(d, depth)
            return True
        x, y = self._pos[i]
        rim = False
        if v > 0:
            # the leading face's midpoint has reached the far rim
            fx, fy = x + 0.5 * p.die_size * vx / v, y + 0.5 * p.die_size * vy / v
            r = self.board.hole_radius
            rim = fx * fx + fy * fy >= r * r and fx * vx + fy * vy > 0
        if not rim and not self._supported(i):
            return False
        # the die meets the far rim (or lands back on its support), an edge `depth` above its base
        b = d.body
        if depth <= p.die_edge_radius:
            v_out = math.sqrt(max(0.0, v * v - 2 * p.gravity * depth))
            # at the far rim it slides up on its rounded edge, held by the rim until clear of the hole
            d.riding = rim
            tumbled = False
        elif v >= trip_speed(depth, p):
            v_out = speed_after_trip(v, depth, p)
            tumbled = True
        else:
            self._to_hole(d, depth)
            return True
        d.fall_time = None
        scale = v_out / v if v > 0 else 0.0
        b.velocity = (vx * scale, vy * scale)
        self._current = False
        self.events.append(Event(self.time, SKIM, (d.id,), {"depth": depth, "speed": v}))
        if tumbled:
            # rolling over the rim edge carries the centre one die width forward
            b.position = (x + p.die_size * vx / v, y + p.die_size * vy / v)
            b.angular_velocity = 0.0
            self.space.reindex_shapes_for_body(b)
            self._tumble(d, math.atan2(vy, vx) - self._ang[i], "rim")
        return True

    def _to_hole(self, d: _Die, depth: float) -> None:
        self._remove_body(d)
        d.status = IN_HOLE
        d.fall_time = None
        d.vx = d.vy = d.omega = 0.0
        self.events.append(Event(self.time, HOLE, (d.id,), {"depth": depth}))

    def _to_off_board(self, d: _Die) -> None:
        self._remove_body(d)
        d.status = OFF
        d.fall_time = None
        d.level = d.straddle = None
        d.vx = d.vy = d.omega = 0.0
        self.events.append(Event(self.time, OFF_BOARD, (d.id,), {}))

    def _tumble(self, d: _Die, body_dir: float, cause: str) -> None:
        before = d.orientation.top
        d.orientation = tumble(d.orientation, body_dir)
        self.events.append(
            Event(
                self.time,
                TUMBLE,
                (d.id,),
                {"before": before, "after": d.orientation.top, "cause": cause},
            )
        )

    # --- platforms --------------------------------------------------------------------------

    def _nearest_platform(self, d: _Die) -> Platform | None:
        x, y = d.body.position
        best, bd = None, math.inf
        for plat in self.board.platforms:
            x0, y0, x1, y1 = plat.bounds
            dist = math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1))
            if dist < bd:
                best, bd = plat, dist
        return best

    def _maybe_climb(self, d: _Die, plat: Platform) -> None:
        """A die that hit a platform's wall fast enough tumbles up onto it (physics.md s4 step trip);
        slower ones keep the wall's bounce (restitution_wood) that the solver already applied."""
        p = self.params
        i = self._index[d.id]
        x, y = d.body.position  # after this collision step
        vx, vy = self._pre_vc[i].real, self._pre_vc[i].imag
        x0, y0, x1, y1 = plat.bounds
        # outward normal of the side the die is at
        dists = {(-1, 0): x0 - x, (1, 0): x - x1, (0, -1): y0 - y, (0, 1): y - y1}
        n = max(dists, key=dists.get)
        vn = -(vx * n[0] + vy * n[1])
        if vn < trip_speed(plat.height, p):
            return
        v_in = speed_after_trip(vn, plat.height, p)
        vt = (vx + vn * n[0], vy + vn * n[1])  # tangential part
        a = p.die_size
        nx = (
            min(max(x, x0 + a / 2), x1 - a / 2) if n[0] == 0 else x - n[0] * (a / 2 + abs(dists[n]))
        )
        ny = (
            min(max(y, y0 + a / 2), y1 - a / 2) if n[1] == 0 else y - n[1] * (a / 2 + abs(dists[n]))
        )
        b = d.body
        b.position = (nx, ny)
        b.velocity = (vt[0] - n[0] * v_in, vt[1] - n[1] * v_in)
        b.angular_velocity = 0.0
        d.level = plat.name
        d.shape.filter = _FILTER_HIGH
        self.space.reindex_shapes_for_body(b)
        self._tumble(d, math.atan2(-n[1], -n[0]) - b.angle, "step")
        self.events.append(
            Event(self.time, PLATFORM, (d.id,), {"platform": plat.name, "action": "landed"})
        )
        self._special = True
        self._dirty = True

    def _footprint_overlaps(self, i: int, plat: Platform) -> bool:
        x, y = self._pos[i]
        c, s = math.cos(self._ang[i]), math.sin(self._ang[i])
        fp = self._footprint
        px = x + c * fp[:, 0] - s * fp[:, 1]
        py = y + s * fp[:, 0] + c * fp[:, 1]
        x0, y0, x1, y1 = plat.bounds
        return bool(((px > x0) & (px < x1) & (py > y0) & (py < y1)).any())

    def _platform_logic(self, d: _Die, i: int) -> bool:
        x, y = self._pos[i]
        if d.level:
            plat = self.board.platform(d.level)
            if plat.contains(x, y):
                return False
            d.level = None
            d.straddle = plat.name
            self.events.append(
                Event(self.time, PLATFORM, (d.id,), {"platform": plat.name, "action": "left"})
            )
            return True
        plat = self.board.platform(d.straddle)
        if plat.contains(x, y):  # pushed back up: its centre of mass is over the top again
            d.level, d.straddle = plat.name, None
            return True
        if self._footprint_overlaps(i, plat):
            return False
        d.straddle = None
        d.shape.filter = _FILTER_LOW
        return True

    # --- rest -------------------------------------------------------------------------------

    def at_rest(self) -> bool:
        """True when no die falls and every die in play is slower than rest_speed / rest_spin.

        False right after dice were added or flicked, until a step has checked their support.
        """
        if self._unchecked:
            return False
        self._read()
        if not self._order:
            return True
        if not self._all_grounded:
            return False
        if self._screened < 0:
            self._screened = step_kernels.screen(self._rbase, self._rows, self._prm)[0]
        return bool(self._screened & step_kernels.ALL_RESTING)

    def _settle(self) -> None:
        """Zero all velocities and rebuild the Space: the rest state becomes canonical."""
        self._read()
        if self._order:
            self._wbuf[:] = 0.0
            self._push_velocities()
        for d in self._dice.values():
            d.fresh = False
        for d in self._dice.values():
            if d.in_space and d.level:
                self.events.append(
                    Event(self.time, PLATFORM, (d.id,), {"platform": d.level, "action": "rest"})
                )
        self._build_space(reuse=True)

    def run_until_rest(self, max_time: float = 30.0) -> ShotResult:
        """Step until :meth:`at_rest` (then settle) or ``max_time`` seconds have passed.

        Steps at least once after dice were added or flicked (support is checked in a step); a world
        already at rest just settles (so ``run_until_rest(0.0)`` settles an animated world exactly
        as a full run would).
        """
        start_steps = self.steps
        start_events = len(self.events)
        limit = start_steps + max(1, int(math.ceil(max_time / self.params.dt - 1e-9)))
        rested = self.at_rest()
        while not rested and self.steps < limit:
            self.step()
            rested = self.at_rest()
        if rested:
            self._settle()
        return ShotResult(
            time_to_rest=(self.steps - start_steps) * self.params.dt,
            steps=self.steps - start_steps,
            events=tuple(self.events[start_events:]),
            rested=rested,
        )

    # --- copies, snapshots, checksums ---------------------------------------------------------

    def copy(self) -> World:
        """An exact, independent copy (Space included, so cached contact impulses carry over)."""
        new = object.__new__(World)
        new.board = self.board
        new.params = self.params
        new.rng = _copy.deepcopy(self.rng)
        new.events = list(self.events)
        new.steps = self.steps
        new._setup_derived()
        for d in self._dice.values():
            if d.in_space:
                self._pull(d)
        new._dice = {k: _copy.copy(d) for k, d in self._dice.items()}
        for d in new._dice.values():
            d.body = d.shape = None
        new._unchecked = self._unchecked
        if not self._canonical and self._resting():
            self._build_space(
                reuse=True
            )  # a resting world is canonical: dropping cached contacts is exact
        if self._canonical:
            new._build_space()
            return new
        new.space = self.space.copy()
        bodies_old = list(self.space.bodies)
        bodies_new = list(new.space.bodies)
        body_map = {id(a): b for a, b in zip(bodies_old, bodies_new, strict=True)}
        shapes_new = {
            id(s.body): s for s in new.space.shapes if s.body is not None and s.body in bodies_new
        }
        for k, d in self._dice.items():
            if d.in_space:
                nb = body_map[id(d.body)]
                nd = new._dice[k]
                nd.body = nb
                nd.body_id = nb.id
                nd.shape = shapes_new[id(nb)]
        (new._walls_body,) = (b for b in bodies_new if b.body_type == pymunk.Body.STATIC)
        new._walls = [s for s in new.space.shapes if s.body is new._walls_body]
        new._canonical = False
        new._dirty = True
        return new

    def snapshot(self) -> dict[str, Any]:
        """JSON-able full state (board, params, time, every die incl. orientation and status).

        Exact for a world at rest after :meth:`run_until_rest` (canonical); mid-motion it omits the
        Space's cached contact impulses, so use :meth:`copy` there.
        """
        dice = []
        for d in self._dice.values():
            if d.in_space:
                self._pull(d)
            dice.append(
                {
                    "id": d.id,
                    "x": d.x,
                    "y": d.y,
                    "angle": d.angle,
                    "vx": d.vx,
                    "vy": d.vy,
                    "omega": d.omega,
                    "orientation": d.orientation.as_list(),
                    "status": d.status,
                    "level": d.level,
                    "straddle": d.straddle,
                    "fall_time": d.fall_time,
                    "fresh": d.fresh,
                    "riding": d.riding,
                }
            )
        return {
            "version": SNAPSHOT_VERSION,
            "board": board_to_dict(self.board),
            "params": self.params.to_dict(),
            "steps": self.steps,
            "unchecked": self._unchecked,
            "dice": dice,
        }

    @classmethod
    def from_snapshot(
        cls, snap: Mapping[str, Any], rng: np.random.Generator | None = None
    ) -> World:
        if snap.get("version") != SNAPSHOT_VERSION:
            raise errors.UserError(f"unsupported snapshot version {snap.get('version')!r}")
        board = load_board(snap["board"])
        params = PhysicsParams.from_board(board).with_overrides(snap["params"])
        w = cls(board, params, rng)
        w.steps = int(snap["steps"])
        for s in snap["dice"]:
            d = _Die(
                id=s["id"],
                orientation=Orientation.from_list(s["orientation"]),
                status=s["status"],
                level=s.get("level"),
                straddle=s.get("straddle"),
                fall_time=s.get("fall_time"),
                fresh=bool(s.get("fresh", False)),
                riding=bool(s.get("riding", False)),
                x=float(s["x"]),
                y=float(s["y"]),
                angle=float(s["angle"]),
                vx=float(s["vx"]),
                vy=float(s["vy"]),
                omega=float(s["omega"]),
            )
            if d.status not in STATUSES:
                raise errors.UserError(f"snapshot die {d.id!r}: bad status {d.status!r}")
            w._dice[d.id] = d
        w._build_space()
        w._unchecked = bool(snap.get("unchecked", False))
        return w

    def checksum(self) -> str:
        """sha256 over the bit-exact state: ids, positions, angles, orientations, statuses, levels."""
        h = hashlib.sha256()
        for d in self._dice.values():
            if d.in_space:
                self._pull(d)
            h.update(d.id.encode())
            h.update(b"\0")
            h.update(struct.pack("<6d", d.x, d.y, d.angle, d.vx, d.vy, d.omega))
            h.update(bytes(d.orientation.as_list()))
            h.update(f"{d.status}|{d.level}|{d.straddle}|{d.fall_time!r}|{d.riding}".encode())
        return h.hexdigest()


def warm_up() -> None:
    """Load (or, the first time, compile) the step kernels now rather than at the first step: the
    window calls this at start so the first flick does not stall for a fraction of a second."""
    world = World()
    world.add_die("warm-up", 0.1, 0.1, face=1, vx=0.1)
    world.step()  # the kick, then the screen-and-kick


def _boxes_overlap(c1, ax1, h1, c2, ax2, h2, tol: float) -> bool:
    """Separating-axis test of two oriented rectangles (centres, unit axes as rows, half sizes)."""
    dvec = c2 - c1
    for axes in (ax1, ax2):
        for u in axes:
            r1 = abs(ax1[0] @ u) * h1[0] + abs(ax1[1] @ u) * h1[1]
            r2 = abs(ax2[0] @ u) * h2[0] + abs(ax2[1] @ u) * h2[1]
            if abs(dvec @ u) > r1 + r2 + tol:
                return False
    return True


def _detach(space: pymunk.Space, moved: list[tuple[pymunk.Body, list[pymunk.Shape]]]) -> None:
    """Take bodies and their shapes out of ``space`` (Space.remove minus its per-object checks and
    callbacks; the World registers none).  Removing a shape drops its cached contacts."""
    cs = space._space
    for body, shapes in moved:
        for shape in shapes:
            _lib.cpSpaceRemoveShape(cs, shape._shape)
            del space._shapes[shape]
            shape._space = None
        _lib.cpSpaceRemoveBody(cs, body._body)
        del space._bodies[body]
        body._space = None


def _attach(space: pymunk.Space, moved: list[tuple[pymunk.Body, list[pymunk.Shape]]]) -> None:
    """Put detached bodies and shapes into ``space`` in the given order (Space.add, minus the checks
    of a body's mass made when it was first added)."""
    cs = space._space
    ref = weakref.ref(space)
    for body, shapes in moved:
        body._space = ref
        space._bodies[body] = None
        _lib.cpSpaceAddBody(cs, body._body)
        for shape in shapes:
            shape._space = ref
            space._shapes[shape] = None
            _lib.cpSpaceAddShape(cs, shape._shape)
