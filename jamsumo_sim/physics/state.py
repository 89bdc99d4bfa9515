"""The state every physics step module works on: the board, the parameters, the dice records, the
Space, the event log, the step counter, the seeded generator, the constants derived from them, and
the batch buffers and their validity flags.

The step modules (:mod:`.space`, :mod:`.view`, :mod:`.contacts`, :mod:`.flight`, :mod:`.pitch`,
:mod:`.support`, :mod:`.evolve`, :mod:`.rest`, :mod:`.snapshot`, ...) take a :class:`WorldState`
and never the World, so data flows one way: the World (physics/world.py) is a WorldState with the
public methods on top, and nothing below it imports it.

The fields are plain attributes (a step writes them hundreds of times per shot; no properties in the
hot path).  Who sets them: :class:`~jamsumo_sim.physics.world.World` (the inputs and the derived
constants), :func:`.space.build_space` (the Space and the walls), :func:`.view.init_buffers` and
:mod:`.view` (the batch buffers, the per-die index and flags), :mod:`.compiled_steps` (the addresses
its loop calls through).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import pymunk
    import pymunk.batch as pb

    from .board import BoardSpec
    from .datatypes import DieRecord
    from .events import Event
    from .params import PhysicsParams
    from .surface import Surface


class WorldState:
    """The physics state of one board and its dice (see the module docstring)."""

    # --- the inputs and the record of what happened --------------------------------------------
    board: BoardSpec
    params: PhysicsParams
    rng: np.random.Generator  # the chance models' draws (edge-on-edge hops), seeded by the caller
    events: list[Event]
    steps: int  # model steps taken
    _dice: dict[str, DieRecord]  # insertion order is the canonical order

    # --- the Space (physics/space.py) ----------------------------------------------------------
    space: pymunk.Space
    _walls_body: pymunk.Body
    _walls: list[pymunk.Poly]
    _body_gen: int  # counts bodies added to and removed from the Space (view.index_key)

    # --- constants derived from the board and the parameters (World._setup_derived) -------------
    _surface: Surface
    _statics_hold: bool  # no spot is steeper than the static friction angle
    _flat: bool
    _half: float
    _hole_r: float
    _pts: np.ndarray  # friction patch points, (2, K)
    _inertia: float
    _prm: np.ndarray  # step_kernels.step_params
    _footprint: np.ndarray  # support samples under a die's face, (n*n, 2)
    _half_diag: float
    _half_size: float
    _wall_boxes: np.ndarray
    _wall_top: float
    _plat_tops: np.ndarray
    _sweep_prm: np.ndarray  # step_kernels.sweep_params (evolve.sweep_params)
    _flight_prm: np.ndarray  # compiled_steps.flight_params
    _pitch_consts: tuple[Any, ...]  # pitch._consts' cache (set on the first pitched die)

    # --- validity flags ------------------------------------------------------------------------
    _canonical: bool  # the Space is a canonical rebuild of the records (rest, copies)
    _unchecked: bool  # dice added or flicked: support not yet checked, not at rest before a step
    _current: bool  # the read state still shows the Space (view.read)
    _dirty: bool  # the body set or a die's status changed (view.read re-indexes or re-flags)
    _screened: int  # step_kernels.screen() bits of the current state (-1: not screened)
    _pending: Any  # (dice kicked, energy) of a kick in _wbuf, or None
    _marked: list[DieRecord] | None  # dice whose flags changed since the last read (None: all)
    _moved: set[str]  # dice a jump moved since the last read: their rows are stale
    _row_patch: list[tuple[DieRecord, float, float, float]]  # velocities not yet in their rows
    _index_key: Any  # view.index_key at the last re-index
    _edge_draws: tuple[int, set[tuple[str, str]]]  # (window, pairs that drew their hop chance)
    # (step, pair -> the energy it held after its pitched strike in that step: flight)
    _struck: tuple[int, dict[tuple[str, str], float]]

    # --- the batch read and the per-die index (physics/view.py) --------------------------------
    _buf: pb.Buffer
    _rdata: Any
    _rbase: np.ndarray  # one (x, y, angle, vx, vy, w) row per body in the Space
    _nrows: int
    _rows: np.ndarray  # die i's row in _rbase
    _order: list[DieRecord]  # the dice in the Space, in Chipmunk's body order
    _index: dict[str, int]  # die id -> its index in _order
    _by_body: dict[int, DieRecord]  # body id -> die
    _id_order: np.ndarray
    _id_sorted: np.ndarray
    _abuf: pb.Buffer
    _adata: Any
    _arb_ints: np.ndarray  # (body a, body b, first contact) per cached arbiter
    _arb_floats: np.ndarray  # (impulse x, impulse y) per cached arbiter
    _first: np.ndarray  # the first contacts' (body a, body b) ids
    _first_imp: np.ndarray  # and their impulses
    _pairs: np.ndarray  # the touching (body a, body b) ids of a step's collision steps
    _pairs_used: int
    _cand: np.ndarray  # the compiled searches' output buffers
    _near_idx: np.ndarray
    _near_pose: np.ndarray

    # --- the kernels' per-die flags (view.refresh_flags / update_flags) -------------------------
    _flags: np.ndarray
    _special_arr: np.ndarray
    _pitched_arr: np.ndarray
    _tops: np.ndarray
    _groups: np.ndarray
    _land_tops: np.ndarray
    _kind: np.ndarray  # compiled_steps.die_kind per die
    _partner: np.ndarray
    _stands: np.ndarray
    _kind_idx: list[int]
    _bodies: np.ndarray  # cpBody / cpShape addresses of special dice
    _shapes: np.ndarray
    _any_pitched: bool
    _all_grounded: bool
    _any_fresh: bool
    _special: bool
    _max_top: float

    # --- the velocity write buffers -----------------------------------------------------------
    _wbuf: np.ndarray  # one (vx, vy, w) row per body in the Space's order
    _wbuffer: pb.Buffer
    _wdata: Any
    _wspare: tuple[np.ndarray, pb.Buffer, Any]
    _other_rows: np.ndarray  # rows no die holds (the walls' static body)

    # --- the compiled steps (physics/compiled_steps.py) ----------------------------------------
    _addr: np.ndarray | None  # the addresses its loop calls through (None: to be taken anew)
    _addr_space: pymunk.Space | None  # the Space _addr was taken from
    _res: np.ndarray
    _pitch_st: np.ndarray
    _deferred: np.ndarray  # first contacts needing only a log entry (contacts.log_deferred)
    _no_pitch_prm: np.ndarray
    _sp: np.ndarray  # the special dice's numbers and their step's results
    _sp_tmp: np.ndarray

    @property
    def time(self) -> float:
        """Simulated time (s): steps x the model step, so it never accumulates rounding error."""
        return self.steps * self.params.step

    def _setup_derived(self) -> None:
        """Set the derived constants and the buffers (the World does; snapshot.copy_world calls it
        on a fresh copy)."""
        raise NotImplementedError
