"""The World: a pymunk Space (metres, top-down 2D) holding the dice and the platforms' walls.

A thin façade over the physics package.  The World is a :class:`~.state.WorldState` (the plain
state: board, parameters, dice records, Space, event log, buffers) with the public methods on
top; every step module takes that state and none imports this module, so data flows one way
(docs/design.md shows the floors):

- :mod:`.evolve` one fixed step (:meth:`World.step`): friction kick (coupled patch friction and the
  surface force, compiled in :mod:`.step_kernels`), Chipmunk collision steps (as many as the swept
  test of the fastest corners asks for), one batch read, the screen for edge, hole and rest;
  :mod:`.compiled_steps` the same compiled into one call into Chipmunk, many steps at a time;
- :mod:`.view` the batch buffers (one ``pymunk.batch`` read/write of all dice per step) and
  :mod:`._chipmunk` the code touching pymunk internals (and :mod:`.compiled_steps` the addresses of
  its C functions and objects);
- :mod:`.space` the Space's assembly (die bodies, platform walls, filters, canonical rebuild);
- :mod:`.contacts` first contacts as ``collision`` events, edge-on-edge hops, impact tumbles, the
  energy limiter;
- :mod:`.support` off the side and the hole (fall, drop in, ride over, trip over the far rim);
  :mod:`.platforms` climbs, landings, straddles; :mod:`.tumbles` face changes; :mod:`.pitch`
  tumbling and rolling (a die tipped up on an edge: quarter turns while its energy allows);
  :mod:`.flight` hops, flight and landings; :mod:`.stacking` dice on or against dice;
- :mod:`.flick.apply` the fair-flick check and the strike (the laws: :mod:`.flick.laws`);
- :mod:`.rest` the rest criterion, run to rest and settling (a rest state is canonical);
- :mod:`.snapshot` exact copies, snapshots, checksums.

Rest criterion (:meth:`World.at_rest`): no die is falling and every die in play moves slower than
``rest_speed`` and spins slower than ``rest_spin``.  :meth:`run_until_rest` then zeroes all velocities
exactly and rebuilds the Space from the rest state (dropping Chipmunk's cached contact impulses), so a
rest state is canonical: a world restored from :meth:`snapshot` re-simulates bit-identically.

Cost: per model step, one batch read, one compiled call (screen the state for the edge, the hole and
rest; kick and count the collision steps for the next step; list the dice the support bookkeeping
must look at), one batch write, and per collision step Chipmunk's step plus a look at its cached
contacts -- all of it, many steps at a time, in one compiled call into Chipmunk
(:mod:`.compiled_steps`), together with the usual step of a die pitched, in flight, leaning or
stacked; Python runs only when something happens (a contact that sets off bookkeeping, a landing,
a lift-off, a die at the edge or the hole, rest); a change of a die's status rewrites only its
flags (physics/view.py).
See ``benchmarks/bench_physics.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .. import errors
from . import compiled_steps, evolve, rest, snapshot, space, step_kernels, view
from .board import BoardSpec, load_board
from .datatypes import IN_HOLE, LEAN_TILT, ON_BOARD, DieRecord, DieState, ShotResult
from .die import Orientation
from .events import Event
from .flick import apply as flicks
from .flick.laws import Flick
from .friction import patch_points
from .params import PhysicsParams
from .state import WorldState
from .surface import Surface


class World(WorldState):
    """The physics of one board and its dice; see the module docstring for the step and rest rules."""

    def __init__(
        self,
        board: BoardSpec | None = None,
        params: PhysicsParams | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        self.board = board if board is not None else load_board("standard")
        self.params = params if params is not None else PhysicsParams.from_board(self.board)
        # the chance models (edge-on-edge hops, physics/flight.py) draw from it: seeded by the caller
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.events: list[Event] = []
        self.steps = 0
        self._dice: dict[str, DieRecord] = {}
        self._setup_derived()
        space.build_space(self)

    def _setup_derived(self) -> None:
        """Everything that follows from the board and the parameters (also for copies)."""
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
            dt=p.step, mass=p.die_mass, inertia=p.die_inertia, mu_k=p.mu_board, mu_s=p.mu_static,
            gravity=p.gravity, c_slope=s.c_slope, c_radial=s.c_radial, inv_span=s.inv_span,
            r_dish=s.r_dish,
            tilt=(s.tilt[0], s.tilt[1]), flat=self._flat, statics_hold=self._statics_hold,
            half=self._half, hole_r=self._hole_r, rest_speed=p.rest_speed,
            rest_spin=p.rest_spin, air_drag=p.air_drag,
        )  # fmt: skip
        n = p.support_samples
        g = np.linspace(-p.die_size / 2, p.die_size / 2, n)
        gx, gy = np.meshgrid(g, g, indexing="ij")
        self._footprint = np.stack([gx.ravel(), gy.ravel()], axis=1)
        self._half_diag = p.die_size / math.sqrt(2)
        self._half_size = 0.5 * p.die_size  # (physics/flight.py: flight_clear's half)
        # the platforms' wall boxes and the swept collision steps' parameters (evolve)
        walls = np.array([plat.bounds for plat in self.board.platforms], dtype=float)
        self._wall_boxes = np.ascontiguousarray(walls.reshape(-1, 4))
        self._wall_top = max((plat.height for plat in self.board.platforms), default=0.0)
        # the platforms' tops for the compiled flight test (step_kernels.flight_clear), computed
        # as Platform.contains and flight._surface_under do
        tops = [(q.x, q.y, q.width / 2, q.depth / 2, q.height) for q in self.board.platforms]
        self._plat_tops = np.array(tops, dtype=float).reshape(-1, 5)
        self._sweep_prm = evolve.sweep_params(p)
        self._flight_prm = compiled_steps.flight_params(self)
        view.init_buffers(self)

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
        d = DieRecord(
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
        space.add_body(self, d)
        self._canonical = False
        self._unchecked = True  # support not yet checked: not at rest before a step
        rest.canonicalise_if_resting(self)

    def remove_die(self, die_id: str) -> None:
        """Take a die away entirely (it no longer exists in this world)."""
        d = self._get(die_id)
        if d.in_space:
            space.remove_body(self, d)
        del self._dice[die_id]
        self._canonical = False
        rest.canonicalise_if_resting(self)

    def place_die(
        self, die_id: str, x: float, y: float, angle: float = 0.0, face: int | None = None
    ) -> None:
        """Put an existing die (e.g. one that went off the side) back at rest at (x, y)."""
        d = self._get(die_id)
        orientation = Orientation.with_top(face) if face is not None else d.orientation
        self.remove_die(die_id)
        self.add_die(die_id, x, y, angle, orientation=orientation)

    def set_contact_group(self, die_id: str, group: int) -> None:
        """Promise that dice of different groups never touch: the caller drops their contacts (the
        calibration runs many shots in one World this way).  The swept collision steps then ignore
        such pairs, so a shot takes the collision steps it would take alone (unless a die of its
        own group or a platform wall is at risk).  All dice start in group 0."""
        self._get(die_id).group = int(group)
        view.invalidate(self)  # the kernels read the groups in World order

    @property
    def die_ids(self) -> tuple[str, ...]:
        return tuple(self._dice)

    def _get(self, die_id: str) -> DieRecord:
        try:
            return self._dice[die_id]
        except KeyError:
            raise errors.UserError(f"no die {die_id!r}") from None

    def state(self, die_id: str) -> DieState:
        d = self._get(die_id)
        if d.in_space:
            space.pull(d)
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
        elif d.lean is not None:
            tilt = LEAN_TILT
        z = 0.0
        if d.on_die is not None:
            z = d.z
        elif d.airborne:  # above the board or the platform under its centre
            plat = self.board.platform_at(d.x, d.y)
            z = d.z - (plat.height if plat is not None else 0.0)
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
            flat=d.status == ON_BOARD
            and not falling
            and d.straddle is None
            and d.pitch is None
            and not d.airborne
            and d.on_die is None
            and d.lean is None,
            on_platform=d.level if d.status == ON_BOARD else None,
            falling=falling,
            drop=drop,
            tilt=tilt,
            pitch=d.pitch.phi if d.pitch is not None else 0.0,
            z=z,
            airborne=d.airborne,
            on_die=d.on_die if d.on_die is not None else d.lean,
        )

    def states(self) -> list[DieState]:
        return [self.state(i) for i in self._dice]

    def surface_height(self, x: float, y: float) -> float:
        """Height (m) of the playing surface at (x, y) (dish and platforms; tilt not included)."""
        plat = self.board.platform_at(x, y)
        if plat is not None:
            return plat.height
        return float(self._surface.height(x, y))

    # --- flicks, steps, rest ------------------------------------------------------------------

    def check_flick(self, flick: Flick) -> str | None:
        """Why ``flick`` is not a fair flick, or None if it is."""
        return flicks.check_flick(self, flick)

    def apply_flick(self, flick: Flick) -> None:
        """Strike a die: impulse J along ``direction`` at the contact point on the struck face.

        Raises :class:`IllegalAction` with the reason if the flick is not fair.
        """
        flicks.apply_flick(self, flick)

    def step(self) -> None:
        """Advance one fixed model step ``params.step`` (Space steps: :mod:`.evolve`)."""
        evolve.step(self)

    def at_rest(self) -> bool:
        """True when no die falls and every die in play is slower than rest_speed / rest_spin.

        False right after dice were added or flicked, until a step has checked their support.
        """
        return rest.at_rest(self)

    def run_until_rest(self, max_time: float = 30.0) -> ShotResult:
        """Step until :meth:`at_rest` (then settle) or ``max_time`` seconds have passed.

        Steps at least once after dice were added or flicked (support is checked in a step); a world
        already at rest just settles (so ``run_until_rest(0.0)`` settles an animated world exactly
        as a full run would).
        """
        return rest.run_until_rest(self, max_time)

    # --- copies, snapshots, checksums ---------------------------------------------------------

    def copy(self) -> World:
        """An exact, independent copy at any moment, mid-motion too: its future equals the
        original's bit for bit (Chipmunk's solver state included; docs/physics.md "Copies and
        snapshots").  The original is not touched."""
        return snapshot.copy_world(self)

    def snapshot(self) -> dict[str, Any]:
        """JSON-able full state (board, params, time, every die incl. orientation and status).

        Exact for a world at rest after :meth:`run_until_rest` (canonical); mid-motion it omits the
        Space's cached contact impulses, so use :meth:`copy` there.
        """
        return snapshot.snapshot(self)

    @classmethod
    def from_snapshot(
        cls, snap: Mapping[str, Any], rng: np.random.Generator | None = None
    ) -> World:
        return snapshot.from_snapshot(cls, snap, rng)

    def checksum(self) -> str:
        """sha256 over the bit-exact state: ids, positions, angles, orientations, statuses, levels."""
        return snapshot.checksum(self)


def warm_up() -> None:
    """Load (or, the first time, compile) the step kernels now rather than at the first step: the
    window calls this at start so the first flick does not stall for a fraction of a second."""
    world = World()
    world.add_die("warm-up", 0.1, 0.1, face=1, vx=0.1)
    world.step()  # the kick, then the screen-and-kick
    # the kernels one sliding die does not reach (contacts, the hole, dice in flight, rest), with
    # the argument types of the World's own calls
    w = world
    step_kernels.note_contacts(w._arb_ints, 0, w._pairs, 0)
    step_kernels.first_contacts(w._arb_ints, w._arb_floats, 0, w._first, w._first_imp)
    step_kernels.contact_groups(w._pairs, 0, np.zeros(1, dtype=np.uintp))
    step_kernels.supported(0.0, 0.0, 0.0, w._footprint, w.board.hole_radius)
    step_kernels.dice_near(w._rbase, w._rows, 0.0, 0.0, 0.0, w._near_idx, w._near_pose)
    step_kernels.screen(w._rbase, w._rows, w._prm)
    step_kernels.pitch_step(
        np.zeros(step_kernels.N_PITCH_STATE), np.ones(step_kernels.N_PITCH_PARAMS)
    )  # rocks back flat at once: loads the kernel
    step_kernels.flight_clear(
        w._rbase, w._rows, 0, 0.0, 0.0, 0.0, 0.0, True, w._land_tops, w._groups, w._plat_tops,
        w._hole_r, 0.0, 0.0,
    )  # fmt: skip
    # the end of a step the contact bookkeeping changed (physics/evolve.py's Python path)
    step_kernels.finish_model_step(
        w._rbase, w._rows, w._flags, w._wbuf, w._prm, w._pts, w._groups, w._wall_boxes,
        w._sweep_prm, w._special_arr, False, w._cand, True,
    )  # fmt: skip
