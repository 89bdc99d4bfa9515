"""The batch buffers: one pymunk.batch read of every body per model step into a numpy array, the
per-die index into it (die i = row ``rows[i]``), the kernels' per-die flags, and the velocity write
buffer the friction kick fills.

The state (physics/state.py) holds them (``_rbase``, ``_rows``, ``_order``, ``_index``,
``_flags``, ``_wbuf``, ...) and two validity flags: ``_dirty`` (the body set or a die's status
changed) and ``_current`` (the read state still shows the Space).  A dirty read re-indexes the rows only when a body came or went
(:func:`index_key`); a die whose status changed is marked (:func:`mark`) and only its entries in
the flag arrays are rewritten (:func:`update_flags`); ``_dirty`` set with no die marked refreshes
every die's flags.  Dice that a jump moved after the read (``_moved``) have stale rows until the
next read; a velocity a pitched die's compiled step set waits in ``_row_patch`` for
:func:`patch_rows` (or the next read).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pymunk.batch as pb

from . import _chipmunk, compiled_steps, step_kernels

if TYPE_CHECKING:
    from .datatypes import DieRecord
    from .state import WorldState


def init_buffers(w: WorldState) -> None:
    """Batch buffers backed by numpy arrays of our own, sized in size_buffers so Chipmunk's
    iterators never need to grow them (pymunk would realloc memory it does not own)."""
    w._buf = pb.Buffer()
    w._rdata = _chipmunk.batch_request(w._buf, _chipmunk.READ_FIELDS)
    w._rbase = np.zeros((0, 6))  # one (x, y, angle, vx, vy, w) row per body in the Space
    w._screened = -1  # step_kernels.screen() bits of the current state (-1: not screened)
    w._pending = None  # (dice kicked, energy) of a kick in _wbuf
    w._nrows = -1  # bodies in the Space when last indexed (sizes the write buffer)
    w._abuf = pb.Buffer()
    w._adata = _chipmunk.batch_request(w._abuf, _chipmunk.ARB_FIELDS)
    w._arb_ints = np.zeros(0, dtype=np.uintp)  # (body a, body b, first contact) per arbiter
    w._arb_floats = np.zeros(0)  # (impulse x, impulse y) per arbiter
    # the first contacts' (body a, body b) ids and impulses (step_kernels.first_contacts)
    w._first = np.zeros(0, dtype=np.uintp)
    w._first_imp = np.zeros(0)
    # the touching (body a, body b) ids of a step's collision steps (evolve, the energy limiter)
    w._pairs = np.zeros(4096, dtype=np.uintp)
    w._pairs_used = 0
    w._current = False
    w._dirty = True
    # the compiled searches' output buffers, sized by refresh_flags
    w._cand = np.zeros(0, dtype=np.int64)
    w._near_idx = np.zeros(0, dtype=np.int64)
    w._near_pose = np.zeros((0, 3))
    w._marked = []  # dice whose flags changed since the last read (None: all; view.mark)
    w._body_gen = 0  # counts bodies added to and removed from the Space (view.index_key)
    w._index_key = None
    w._unchecked = False
    w._edge_draws = (-1, set())  # (step, pairs that drew their edge-on-edge chance in it: flight)
    w._struck = (-1, {})  # (step, pair -> the energy it held after a pitched strike in it: flight)
    # dice whose bodies a jump (tumble, climb, trip) moved since the last read: their rows are stale
    w._moved = set()
    # (die, vx, vy, w) written to a body since the last read, its row not yet (patch_rows)
    w._row_patch = []
    # the compiled steps' addresses (physics/compiled_steps.addresses; None: to be taken anew
    # after a re-index, which a new Space or new write buffers always come with) and results
    w._addr = None
    w._addr_space = None  # the Space w._addr was taken from
    w._res = np.zeros(compiled_steps.N_RES)
    w._pitch_st = np.zeros(step_kernels.N_PITCH_STATE)
    # first contacts the compiled steps found needing only a log entry (contacts.log_deferred)
    w._deferred = np.zeros((256, 4))
    w._no_pitch_prm = np.zeros(
        step_kernels.N_PITCH_PARAMS
    )  # (pitch_step's parameters before any die pitched)


def read(w: WorldState) -> None:
    """Refresh the per-die state view from the Space (one batch call) unless it is current.

    ``_dirty`` with the same bodies in the same Space as at the last index (a die's status changed,
    no body came or went: the usual case, a hop, a landing, a pitch) refreshes the kernels' flags
    only; the rows, the order and the index stay (Chipmunk keeps its body order while no body is
    added or removed)."""
    if w._current and not w._dirty and not w._row_patch:
        return
    w._row_patch = []
    buf = w._buf
    fa = buf._float_arr
    if w._dirty and w._index_key != index_key(w):
        size_buffers(w)
        fa.num = 0
        buf._int_arr.num = 0
        pb.get_space_bodies(w.space, _chipmunk.READ_FIELDS | _chipmunk.BF.BODY_ID, buf)
        ids = np.frombuffer(buf.int_buf(), dtype=np.uintp).tolist()
        by_id = {d.body_id: d for d in w._dice.values() if d.in_space}
        rows, order = [], []
        for i, bid in enumerate(ids):
            d = by_id.get(bid)
            if d is not None:
                rows.append(i)
                order.append(d)
        w._order = order
        w._rows = np.array(rows, dtype=np.intp)
        w._index = {d.id: i for i, d in enumerate(order)}
        w._by_body = by_id
        refresh_flags(w, len(ids))
        w._index_key = index_key(w)
        w._dirty = False
        w._marked = []
        w._addr = None
        # body id -> die, for the compiled steps (step_kernels._die_index)
        body_ids = np.array([d.body_id for d in order], dtype=np.uintp)
        w._id_order = np.argsort(body_ids)
        w._id_sorted = body_ids[w._id_order]
    else:
        fa.num = 0
        _chipmunk.each_body(w.space._space, _chipmunk.GET_BODIES, w._rdata)
        if w._dirty:
            if w._marked:
                update_flags(w, w._marked)
            else:  # invalidate(), or ``_dirty`` set directly (jamsumo_sim/sweep/lone.py): all
                refresh_flags(w, w._nrows)
            w._dirty = False
            w._marked = []
    w._current = True
    if w._moved:
        w._moved = set()
    w._screened = -1  # screen() has not looked at this state yet
    w._pending = None  # nor has the kick


def patch_rows(w: WorldState) -> None:
    """After the support bookkeeping: the velocities it wrote to single bodies (a pitched die's
    compiled step, physics/pitch.py) go into their rows if nothing else changed since the read
    (the same doubles a read would get: Chipmunk hands back what was set); otherwise the read
    state is stale, as after any other change."""
    patches = w._row_patch
    w._row_patch = []
    if not (w._current and not w._dirty and not w._moved):
        w._current = False
        return
    rb, rows, index = w._rbase, w._rows, w._index
    for d, vx, vy, om in patches:
        row = rows[index[d.id]]
        rb[row, 3] = vx
        rb[row, 4] = vy
        rb[row, 5] = om
    w._screened = -1  # screen() has not looked at this state yet
    w._pending = None  # nor has the kick


def index_key(w: WorldState) -> tuple:
    """What the rows and the order depend on: the Space, its bodies' generation (space.add_body,
    remove_body and build_space count up) and their number."""
    return (w.space, w._body_gen, _chipmunk.body_count(w.space))


def size_buffers(w: WorldState) -> None:
    """Give the batch iterators numpy buffers large enough for this Space: 6 floats per body; per
    pair of shapes (a Space caches at most one contact arbiter per pair) 3 ints and 2 floats."""
    n_bodies = _chipmunk.body_count(w.space) + 1
    if w._rbase.shape[0] < n_bodies:
        w._rbase = np.zeros((n_bodies + 8, 6))
        w._buf.set_float_buf(w._rbase.reshape(-1))
    n_shapes = _chipmunk.shape_count(w.space)
    pairs = n_shapes * (n_shapes - 1) // 2 + 1
    if len(w._arb_floats) < 2 * pairs + 8:
        pairs += 64
        w._arb_ints = np.zeros(3 * pairs + 8, dtype=np.uintp)
        w._arb_floats = np.zeros(2 * pairs + 8)
        w._first = np.zeros(2 * pairs + 8, dtype=np.uintp)
        w._first_imp = np.zeros(2 * pairs + 8)
        w._abuf.set_int_buf(w._arb_ints)
        w._abuf.set_float_buf(w._arb_floats)


# Per-die views of the state read last; for the Python-side bookkeeping, which touches a few dice
# now and then.
def pos(w: WorldState) -> np.ndarray:
    return w._rbase[w._rows, 0:2]


def ang(w: WorldState) -> np.ndarray:
    return w._rbase[w._rows, 2]


def vc(w: WorldState) -> np.ndarray:
    st = w._rbase[w._rows]
    return st[:, 3] + 1j * st[:, 4]


def omega(w: WorldState) -> np.ndarray:
    return w._rbase[w._rows, 5]


def pre_vc(w: WorldState) -> np.ndarray:
    """Velocities after this step's friction kick, before its collisions (valid while the
    Space steps: the end of the step writes the next kick over them)."""
    out = w._wbuf[w._rows]
    return out[:, 0] + 1j * out[:, 1]


def die_entry(d: DieRecord) -> tuple[int, bool, bool, float]:
    """A die's entries in the kernels' arrays: (flag bits, special, pitched on a surface, the
    height of its base if it stands on a die or -inf)."""
    # a pitched die stands on an edge: no patch friction (physics/pitch.py); an airborne one
    # touches nothing (physics/flight.py)
    g = d.fall_time is None and d.pitch is None and not d.airborne
    f = step_kernels.GROUNDED if g else 0
    if d.level is None:
        f |= step_kernels.LOW
    if d.fresh:
        f |= step_kernels.FRESH
    special = bool(
        d.straddle or d.level or d.riding or not g or d.on_die is not None or d.lean is not None
    )
    pitched = d.pitch is not None and not d.airborne
    return f, special, pitched, (d.z if d.on_die is not None else -math.inf)


def landing_top(w: WorldState, d: DieRecord) -> float:
    """The height (m) of ``d``'s top if a die in flight could land on it (physics/flight.py
    _surface_under: not airborne, not falling), computed as flight does; NaN otherwise."""
    if d.airborne or d.fall_time is not None:
        return math.nan
    if d.on_die is not None:
        base = d.z
    elif d.level:
        base = w.board.platform(d.level).height
    else:
        base = 0.0
    return base + w.params.die_size


def mark(w: WorldState, d: DieRecord) -> None:
    """``d``'s status changed (falling, pitched, airborne, on a platform or a die, ...): its flags
    are refreshed at the next read, in place (:func:`update_flags`) if no body came or went."""
    w._dirty = True
    if w._marked is not None:
        w._marked.append(d)


def invalidate(w: WorldState) -> None:
    """Something beyond single dice changed (the groups): refresh every die's flags."""
    w._dirty = True
    w._marked = None


def update_flags(w: WorldState, dice: list[DieRecord]) -> None:
    """The marked dice's entries in the kernels' arrays, in place, and what follows from all."""
    index, order = w._index, w._order
    flags, special, pitched, tops = w._flags, w._special_arr, w._pitched_arr, w._tops
    groups = w._groups
    land_tops = w._land_tops
    for d in dice:
        i = index.get(d.id)
        if i is None or order[i] is not d:
            continue  # not in the Space
        flags[i], special[i], pitched[i], tops[i] = die_entry(d)
        kind, w._partner[i], w._stands[i] = compiled_steps.die_kind(w, d)
        w._kind[i] = kind
        if kind:
            compiled_steps.note_addresses(w, i, d, kind)
        groups[i] = d.group
        land_tops[i] = landing_top(w, d)
    _aggregate(w)


def _aggregate(w: WorldState) -> None:
    bits, top = step_kernels.flag_summary(w._flags, w._special_arr, w._pitched_arr, w._tops)
    # a die pitched on a surface moves in the bookkeeping after every step (physics/pitch.py),
    # so a kick for the next step computed before it would be dropped (physics/evolve.py)
    w._any_pitched = bool(bits & step_kernels.ANY_PITCHED)
    w._all_grounded = bool(bits & step_kernels.ALL_GROUNDED)
    w._any_fresh = bool(bits & step_kernels.ANY_FRESH)
    w._special = bool(bits & step_kernels.ANY_SPECIAL)
    w._kind_idx = np.flatnonzero(w._kind).tolist()
    # the highest top of a die standing anywhere (physics/flight.py: a flight above it lands on
    # no die); a die on a die stands d.z up
    w._max_top = w.params.die_size + max(w._wall_top, top)


def refresh_flags(w: WorldState, nrows: int) -> None:
    """Per-die flags for the kernels, from the dice records (after any change of status)."""
    order = w._order
    n = len(order)
    # one row per die: die_entry's four, the group, landing_top, compiled_steps.die_kind's three
    # (a die in no special state, most of them: the constants these give it)
    plain = (step_kernels.GROUNDED | step_kernels.LOW, 0, 0, -math.inf)
    fresh = (step_kernels.GROUNDED | step_kernels.LOW | step_kernels.FRESH, 0, 0, -math.inf)
    top = w.params.die_size
    rows = []
    w._bodies = np.zeros(n, dtype=np.int64)  # cpBody / cpShape addresses of special dice
    w._shapes = np.zeros(n, dtype=np.int64)
    for i, d in enumerate(order):
        if not (
            d.level or d.straddle or d.riding or d.airborne or d.pitch is not None
            or d.fall_time is not None or d.on_die is not None or d.lean is not None
        ):  # fmt: skip
            rows.append((*(fresh if d.fresh else plain), d.group, top, 0, -1, 1))
            continue
        kind, partner, stands = compiled_steps.die_kind(w, d)
        rows.append((*die_entry(d), d.group, landing_top(w, d), kind, partner, stands))
        if kind:
            compiled_steps.note_addresses(w, i, d, kind)
    cols = np.array(rows, dtype=float).reshape(n, 9).T
    w._flags = cols[0].astype(np.int8)
    w._special_arr = cols[1].astype(bool)
    w._pitched_arr = cols[2].astype(bool)
    w._tops = cols[3].copy()
    w._groups = cols[4].astype(np.int64)
    w._land_tops = cols[5].copy()
    w._kind = cols[6].astype(np.int8)
    w._partner = cols[7].astype(np.int64)
    w._stands = cols[8].astype(bool)
    _aggregate(w)
    n = len(w._order)
    if len(w._near_idx) != n:
        # the compiled searches' output buffers (step_kernels.support_candidates, dice_near)
        w._cand = np.zeros(2 * n, dtype=np.int64)
        w._near_idx = np.zeros(n, dtype=np.int64)
        w._near_pose = np.zeros((n, 3))
        # the special dice's numbers and their step's results (physics/compiled_steps)
        w._sp = np.zeros((n, compiled_steps.N_SP))
        w._sp_tmp = np.zeros((n, 5))
    if nrows != w._nrows:
        # the velocity write buffer: one (vx, vy, w) row per body in the Space's order
        w._nrows = nrows
        w._wbuf, w._wbuffer, w._wdata = _write_buffer(nrows)
        # a second one: a step with contacts kicks the next step into it and keeps the first as
        # the velocities its contacts started from (physics/evolve.py), instead of a copy
        w._wspare = _write_buffer(nrows)
        others = np.ones(nrows, dtype=bool)
        others[w._rows] = False
        w._other_rows = np.flatnonzero(others)
    else:
        # a row no die holds (the walls' static body) must push zero velocity; the dice's rows
        # keep this step's pre-contact velocities (a climb mid-step re-indexes the bodies)
        if w._index_key != index_key(w):
            others = np.ones(nrows, dtype=bool)
            others[w._rows] = False
            w._other_rows = np.flatnonzero(others)
        w._wbuf[w._other_rows] = 0.0
        w._wspare[0][w._other_rows] = 0.0


def _write_buffer(nrows: int) -> tuple[np.ndarray, pb.Buffer, object]:
    """A velocity write buffer (one (vx, vy, w) row per body in the Space's order), its
    pymunk.batch Buffer and the batch request pushing it."""
    arr = np.zeros((nrows, 3))
    buf = pb.Buffer()
    buf.set_float_buf(arr.reshape(-1))
    return arr, buf, _chipmunk.batch_request(buf, _chipmunk.WRITE_FIELDS)


def swap_write_buffers(w: WorldState) -> np.ndarray:
    """Make the spare write buffer (holding the next step's kick) the World's; returns the one
    it replaces (this step's pre-contact velocities)."""
    old = (w._wbuf, w._wbuffer, w._wdata)
    w._wbuf, w._wbuffer, w._wdata = w._wspare
    w._wspare = old
    a = w._addr
    if a is not None:
        compiled_steps.swap_write_addresses(a)
    return old[0]


def write(w: WorldState, vc: np.ndarray, omega: np.ndarray) -> None:
    out = w._wbuf
    rows = w._rows
    out[rows, 0] = vc.real
    out[rows, 1] = vc.imag
    out[rows, 2] = omega
    push_velocities(w)


def push_velocities(w: WorldState) -> None:
    """Set every body's velocity from the write buffer (pymunk.batch.set_space_bodies, minus
    building the request on every call)."""
    fa = w._wbuffer._float_arr
    num = fa.num
    fa.num = 0
    _chipmunk.each_body(w.space._space, _chipmunk.SET_BODIES, w._wdata)
    fa.num = num
