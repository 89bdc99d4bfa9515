"""A lone die's shot in the compiled model (lone_kernel) wherever it covers the shot, in the World
where it does not: :func:`launch` the flick without a World, :func:`run_launched` from there; if
the model stops, the caller puts the model's state into its World (:func:`enter`: the die's
records and body overwritten, the Space rebuilt around it; or, when the model stopped before
its first step, the World flicked the same way) and runs
:func:`run_to_rest`, the World's run-to-rest loop (physics/rest.py) that hands the die back to
the model after each World step that leaves it in a state the model covers (:func:`plain`).

A hand-over writes the model's state into the World: the body's pose and velocities, the die's
records, the pending kick (or none) and the step count (``_rbase``/``_wbuf``/``_flags``/``_pending``:
physics/view.py, physics/evolve.py: this module is the one place to update if those change).  It is
exact but for Chipmunk's broad phase, whose cached collision hints differ after the body's jump
(docs/sweep.md: a few shots in 10 000 differ in the last bits, all within 0.1 mm / 0.1 deg).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..physics import evolve, flight, pitch, rest, space, step_kernels, tumbles, view
from ..physics.datatypes import OFF, ON_BOARD, DieRecord, Pitch
from ..physics.die import tumble as turn
from ..physics.flick import Flick
from ..physics.flick import apply as flicks
from . import lone_kernel


@dataclass(frozen=True)
class Ended:
    """A shot the kernel finished: where the die stopped (or left the board)."""

    status: str
    x: float
    y: float
    angle: float
    rested: bool
    platform: str | None  # the platform whose top it rests on
    flat: bool  # False if it rests straddling a platform's edge


@dataclass(frozen=True)
class Setup:
    """The kernel's fixed inputs for one World (board geometry, platforms, footprint)."""

    geo: np.ndarray
    tops: np.ndarray
    names: tuple[str, ...]
    pitch: np.ndarray  # lone_kernel.pitch_params
    pitch_world: np.ndarray  # the World's step_kernels.pitch_params (pitch._consts)
    buffers: Buffers
    world: object  # the World whose kernel parameters (step_kernels' vectors) these are
    groups: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))  # one die


# Quarter turns one kernel call can log (lone_kernel hands a step to the World when it is full)
LOG_SIZE = 4096


class Buffers:
    """The kernel's per-shot state arrays, reused from shot to shot (lone_kernel.run_lone)."""

    def __init__(self) -> None:
        self.state = np.zeros((1, 6))
        self.out = np.zeros((1, 3))
        self.flags = np.zeros(1, dtype=np.int8)
        self.pending = np.zeros(5)  # lone_kernel.run_lone's
        self.where = np.zeros(2, dtype=np.int64)
        self.pit = np.zeros(5)
        self.air = np.zeros(3)
        # the quarter turns of one kernel call (a long tumbling flight turns hundreds of times)
        self.log = np.zeros(LOG_SIZE, dtype=np.int64)
        self.why = np.zeros(lone_kernel.N_WHY, dtype=np.int64)


@dataclass
class Stats:
    """Model steps taken by the World and by the kernel (for the benchmark and the docs)."""

    world_steps: int = 0
    kernel_steps: int = 0
    handovers: int = 0
    world_shots: int = 0  # shots the World took part in (the batch runner counts them)
    lift_offs: int = 0  # taken in the kernel
    landings: int = 0  # from flight, in the kernel
    hole_slides: int = 0  # kernel steps ending over the hole's disc, still held up
    why: dict[int, int] = field(default_factory=dict)  # lone_kernel.WHY_* -> hand-overs


def setup(w) -> Setup:
    """The kernel's fixed inputs for World ``w`` (lone_kernel.run_plain's ``geo`` and ``tops``)."""
    p = w.params
    touch = tumbles.TOUCH_FRACTION * p.collision_slop  # as tumbles.sweep computes it
    geo = np.array([p.step, w.board.half, w.board.hole_radius, w._wall_top, touch])
    plats = w.board.platforms  # the order of the World's wall boxes
    tops = np.array([[q.x, q.y, q.width / 2, q.depth / 2, q.height] for q in plats]).reshape(-1, 5)
    q = lone_kernel.pitch_params(
        a=p.die_size, g=p.gravity, mu_pitch=p.mu_pitch, mu_landing=p.mu_landing,
        hop_lift=p.hop_lift, hop_min_speed=p.hop_min_speed, tip_rate=pitch.tip_rate(p),
        edge_inertia=pitch.edge_inertia(p), mass=p.die_mass, dt=p.step, refine=p.refine,
        restitution_landing=p.restitution_landing,
    )  # fmt: skip
    pitch._consts(w)  # the World's pitch_step parameters, as its pitch.step_die makes them
    qk = w._pitch_consts[2]
    names = tuple(q.name for q in plats)
    return Setup(geo, np.ascontiguousarray(tops), names, q, qk, Buffers(), w)


def plain(w, d: DieRecord) -> bool:
    """After the World's last step the lone die is in a state the kernel models (lone_kernel):
    on the board or a platform's top, flat, pitched on an edge or in flight, with no contact
    cached in the Space (the kernel takes the World's pending kick, or kicks as the World's next
    step would)."""
    return (
        w._pairs_used == 0
        and d.status == ON_BOARD
        and d.fall_time is None
        and not d.riding
        and d.on_die is None
        and d.lean is None
        and len(w._order) == 1
    )


def max_steps(w, max_time: float) -> int:
    """rest.run_until_rest's step budget for ``max_time``."""
    return max(1, int(math.ceil(max_time / w.params.step - 1e-9)))


def run_to_rest(
    w,
    d: DieRecord,
    max_time: float,
    fixed: Setup,
    stats: Stats | None = None,
    limit: int | None = None,
) -> tuple[Ended | None, bool]:
    """rest.run_until_rest for a World holding the lone die ``d`` only.  Returns (the outcome if
    the kernel ended the shot, else None: the World ran it to its end and settled if it rested;
    whether it rested).  ``limit``: the step count to stop at, for a shot the kernel began (then
    the World is mid-shot, not at rest)."""
    if limit is None:
        limit = w.steps + max_steps(w, max_time)
        rested = rest.at_rest(w)
    else:
        rested = False
    moving = step_kernels.ALL_RESTING
    while not rested and w.steps < limit:
        evolve.step(w)
        if stats is not None:
            stats.world_steps += 1
        # run_until_rest's rest test (skipped when the step's own screen says it moves)
        if not (w._screened >= 0 and not w._screened & moving and w._current and not w._dirty):
            rested = rest.at_rest(w)
            if rested:
                break
        if w.steps < limit and plain(w, d):
            ended, _ = _kernel_phase(w, d, limit, fixed, stats)
            if ended is not None:
                return ended, ended.rested
    if rested:
        rest.settle(w)
    return None, rested


@dataclass(frozen=True)
class Launch:
    """A lone die at rest just flicked (flicks.apply_flick's result, without a World)."""

    state: tuple[float, float, float, float, float, float]  # x, y, angle, vx, vy, omega
    pitch: Pitch | None
    level: str | None
    air: tuple[float, float] | None = None  # (z, vz) of a die the strike lifted off at once


def launch(probe, flick: Flick) -> Launch | str:
    """The flick of ``probe``'s lone die at rest (a World that never steps), as flicks.apply_flick
    would leave it, or the reason it is not fair (the World's own check)."""
    reason = flicks.check_flick(probe, flick)
    if reason is not None:
        return reason
    p = probe.params
    d = probe._dice[flick.die]
    x, y = d.body.position
    ang = d.body.angle
    # flicks.apply_flick on a body at rest: the same launch
    dvx, dvy, dw, rate, rise = flicks.launch(flick, x, y, ang, p, probe._inertia)
    vx, vy, omega = 0.0 + dvx, 0.0 + dvy, 0.0 + dw
    # pitch.start(w, d, way, rate, "flick") on a die not pitched
    way, rate, vz = flicks.start_pitch(flick, ang, rate, rise, p)
    started = None
    if rate > 0.0:
        side = round(way / pitch.QUARTER) % 4
        heading = math.remainder(ang + side * pitch.QUARTER, 2 * math.pi)
        started = Pitch(0.0, rate, side, heading, "flick")
        if vz <= 0.0:
            # flight.leave_if_lifting: struck hard enough high up, it leaves the board at the strike
            vz = flight.lifts_at_once(0.0, rate, p)
            if vz > 0.0:
                started = Pitch(0.0, p.hop_lift * rate, side, heading, "flick")
    if vz > 0.0:
        state = (x, y, ang, vx, vy, omega)
        return Launch(state, started, None, (flight.base_height(probe, d), vz))
    return Launch((x, y, ang, vx, vy, omega), started, d.level)


def run_launched(
    go: Launch, nsteps: int, fixed: Setup, stats: Stats | None = None
) -> tuple[Ended | None, int]:
    """Run a launched shot in the kernel from its flick for at most ``nsteps`` steps.  Returns
    (the outcome if the kernel ended it (its face: :func:`turned`), else None; the steps taken):
    with None the caller flicks in the World and :func:`resume` s it after those steps."""
    b = fixed.buffers
    b.state[0] = go.state
    b.pending[0] = -2.0  # the first step kicks a half step from the flick
    names = fixed.names
    b.where[0] = names.index(go.level) if go.level else -1
    b.where[1] = -1
    pt = go.pitch
    if pt is not None:
        b.pit[:] = (1.0, pt.phi, pt.rate, pt.side, pt.heading)
    else:
        b.pit[0] = 0.0
    b.air[:] = 0.0
    if go.air is not None:
        b.air[:] = (1.0, *go.air)
    b.log[0] = 0
    w = fixed.world
    code, steps = lone_kernel.run_lone(
        b.state, b.out, b.flags, w._prm, w._pts, fixed.groups, w._wall_boxes, w._sweep_prm,
        fixed.geo, fixed.tops, w._footprint, b.where, b.pit, b.air, fixed.pitch, fixed.pitch_world,
        b.log, b.why, 0, nsteps, b.pending,
    )  # fmt: skip
    if stats is not None:
        stats.kernel_steps += steps
        stats.lift_offs += go.air is not None  # lifted off at the strike (launch)
        _count(stats, fixed, code)
    if code == lone_kernel.NEEDS_WORLD:
        return None, steps
    return _ended(code, fixed), steps


def _count(stats: Stats, fixed: Setup, code: int) -> None:
    why = fixed.buffers.why.tolist()
    if code == lone_kernel.NEEDS_WORLD:
        stats.why[why[0]] = stats.why.get(why[0], 0) + 1
    stats.lift_offs += why[lone_kernel.N_LIFT_OFFS]
    stats.landings += why[lone_kernel.N_LANDINGS]
    stats.hole_slides += why[lone_kernel.N_HOLE_SLIDES]


# die.tumble's results, (orientation, side) -> orientation: 24 orientations, a few sides (an
# Orientation checks itself on creation, which cost more than the kernel's whole shot)
_TURNS: dict = {}


def turned(orientation, fixed: Setup):
    """``orientation`` after the quarter turns the kernel logged (tumbles.tumble)."""
    log = fixed.buffers.log
    if log[0] == 0:
        return orientation
    for side in log[1 : log[0] + 1].tolist():
        key = (orientation, side)
        nxt = _TURNS.get(key)
        if nxt is None:
            nxt = _TURNS[key] = turn(orientation, side * pitch.QUARTER)
        orientation = nxt
    return orientation


def _ended(code: int, fixed: Setup) -> Ended:
    b = fixed.buffers
    x, y, angle = float(b.state[0, 0]), float(b.state[0, 1]), float(b.state[0, 2])
    level = fixed.names[b.where[0]] if b.where[0] >= 0 else None
    flat = bool(b.where[1] < 0)
    if code == lone_kernel.RESTED:
        return Ended(ON_BOARD, x, y, angle, True, level, flat)
    if code == lone_kernel.OFF:
        return Ended(OFF, x, y, angle, True, None, False)
    flat = flat and b.pit[0] == 0.0 and b.air[0] == 0.0
    return Ended(ON_BOARD, x, y, angle, False, level, flat)


def resume(w, d: DieRecord, go: Launch, steps: int, fixed: Setup) -> None:
    """Put the state the kernel reached ``steps`` steps after the flick into World ``w`` (the
    same flick just applied there)."""
    if steps == 0:
        return  # the World is where the kernel started
    d.fresh = False  # the first step's half kick is done
    d.orientation = turned(d.orientation, fixed)
    _commit(w, d, d.pitch.cause if d.pitch is not None else "flick", fixed, w.steps + steps)


def enter(w, d: DieRecord, orientation, steps: int, fixed: Setup) -> None:
    """Put the state the kernel reached ``steps`` steps after the flick into World ``w``, whose
    lone die ``d`` (in the Space, as any earlier shot left it) started from ``orientation``,
    without putting it back and flicking it there first: its records as a fresh World's flick
    and steps would have left them, :func:`resume`'s state, then the Space rebuilt canonically
    around it (no cached contacts or broad-phase pairs, no bias velocities: :func:`rest.settle`'s
    rebuild; the next step kicks anew, as the World would).  The batch runner's cheap reset (a
    World per shot made and flicked costs more than the kernel's whole shot)."""
    d.orientation = turned(orientation, fixed)
    d.fresh = False  # the first step's half kick is done
    d.fall_time = None
    d.riding = False
    d.lean = d.on_die = None
    d.pitch = None
    w.events.clear()
    _commit(w, d, "flick", fixed, w.steps + steps)
    # a Space rebuilt around the body where it is now: Chipmunk's broad phase then meets the walls
    # as a fresh World's does (a body moved in one jump leaves its cached bounds and collision
    # pairs behind, and a contact soon after can differ, up to 0.5 mm at rest; docs/sweep.md)
    space.build_space(w, reuse=True)
    # (the rebuilt World kicks again: a half kick if the kernel's pending one was)
    pending = fixed.buffers.pending
    if pending[0] >= 0.0 and pending[4] != 0.0:
        d.fresh = True


def _kernel_phase(
    w, d: DieRecord, limit: int, fixed: Setup, stats: Stats | None
) -> tuple[Ended | None, int]:
    """Run the kernel from the World's state; (the outcome if it ended the shot, steps taken)."""
    b = fixed.buffers
    pending = b.pending
    pending[4] = 0.0
    if w._pending is not None and w._current and not w._dirty:
        pending[:4] = w._pending
    else:
        # the World kicks at the start of the next step (a half kick for a fresh die)
        pending[0] = -2.0 if d.fresh else -1.0
        view.read(w)  # what the World's next step does first (the pitch moved the body)
    row = w._rows[0]
    state, out, flags = b.state, b.out, b.flags
    state[0] = w._rbase[row]
    out[0] = w._wbuf[row]
    flags[0] = w._flags[0]
    names = fixed.names
    where = b.where
    where[0] = names.index(d.level) if d.level else -1
    where[1] = names.index(d.straddle) if d.straddle else -1
    pt = d.pitch
    pit = b.pit
    if pt is not None:
        pit[:] = (1.0, pt.phi, pt.rate, pt.side, pt.heading)
    else:
        pit[0] = 0.0
    air = b.air
    air[:] = (1.0 if d.airborne else 0.0, d.z, d.vz)
    log = b.log
    log[0] = 0
    start = w.steps
    code, steps = lone_kernel.run_lone(
        state, out, flags, w._prm, w._pts, fixed.groups, w._wall_boxes, w._sweep_prm, fixed.geo,
        fixed.tops, w._footprint, where, pit, air, fixed.pitch, fixed.pitch_world, log, b.why,
        start, limit, pending,
    )  # fmt: skip
    if stats is not None:
        stats.kernel_steps += steps - start
        _count(stats, fixed, code)
    d.orientation = turned(d.orientation, fixed)
    took = steps - start
    if code != lone_kernel.NEEDS_WORLD:
        return _ended(code, fixed), took
    if not took:
        return None, 0  # no step taken: the World's state is the kernel's
    if stats is not None:
        stats.handovers += 1
    _commit(w, d, pt.cause if pt is not None else "flick", fixed, steps)
    return None, took


def _commit(w, d: DieRecord, cause: str, fixed: Setup, steps: int) -> None:
    """The die's records and body from the kernel's buffers (the state after its last step)."""
    _records(w, d, fixed)
    pit = fixed.buffers.pit
    if pit[0] != 0.0:
        d.pitch = Pitch(float(pit[1]), float(pit[2]), int(pit[3]), float(pit[4]), cause)
    else:
        d.pitch = None
    b = fixed.buffers
    _resume(w, d, b.state, b.out, b.flags, b.pending, steps)


def _records(w, d: DieRecord, fixed: Setup) -> None:
    """The die's level, straddle, flight and collision filter from the kernel's buffers."""
    b = fixed.buffers
    names, where, air = fixed.names, b.where, b.air
    level = names[where[0]] if where[0] >= 0 else None
    straddle = names[where[1]] if where[1] >= 0 else None
    airborne = bool(air[0] != 0.0)
    if airborne:
        d.z, d.vz = float(air[1]), float(air[2])
    else:
        d.z = d.vz = 0.0  # on the board or a top (flight._land)
    if (d.level, d.straddle, d.airborne) != (level, straddle, airborne) or airborne:
        # stepped off a top, cleared its edge, flew higher or lower (its height band)
        d.level, d.straddle, d.airborne = level, straddle, airborne
        d.shape.filter = space.die_filter(w, d)


def _resume(w, d: DieRecord, state, out, flags, pending, steps: int) -> None:
    """Put the kernel's state back into the World, as its own last step would have left it."""
    b = d.body
    b.position = (float(state[0, 0]), float(state[0, 1]))
    b.angle = float(state[0, 2])
    b.velocity = (float(state[0, 3]), float(state[0, 4]))
    b.angular_velocity = float(state[0, 5])
    w.steps = steps
    w._unchecked = False
    w._canonical = False
    view.invalidate(w)  # same bodies: view.read refreshes all flags (and the next step kicks)
    d.fresh = bool(pending[0] < -1.5)  # that kick a half one
    if pending[0] < 0.0:
        w._current = False
        return
    view.read(w)
    w._flags[:] = flags
    w._wbuf[w._rows[0]] = out[0]
    w._pending = (int(pending[0]), float(pending[1]), int(pending[2]), float(pending[3]))


def warm_up() -> None:
    """Load (or compile and cache) the kernel in this process: a slow slide across open board (the
    sweep's Dask runner calls it before workers start; numba's cache is not safe to build from many
    processes at once)."""
    from ..world import World

    w = World()
    w.add_die("warm-up", 0.1, -0.1, face=1)
    w.apply_flick(Flick("warm-up", 0.0, finger_speed=0.5))
    run_to_rest(w, w._dice["warm-up"], 1.0, setup(w))
