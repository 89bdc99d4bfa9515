"""The batch buffers: one pymunk.batch read of every body per model step into a numpy array, the
per-die index into it (die i = row ``rows[i]``), the kernels' per-die flags, and the velocity write
buffer the friction kick fills.

The World holds the state (``_rbase``, ``_rows``, ``_order``, ``_index``, ``_flags``, ``_wbuf``, ...)
and two validity flags: ``_dirty`` (the body set or a die's status changed: re-index) and
``_current`` (the read state still shows the Space).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pymunk.batch as pb

from .. import step_kernels
from . import _chipmunk

if TYPE_CHECKING:
    from .world import World


def init_buffers(w: World) -> None:
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
    # the touching (body a, body b) ids of a step's collision steps (evolve, the energy limiter)
    w._pairs = np.zeros(4096, dtype=np.uintp)
    w._pairs_used = 0
    w._current = False
    w._dirty = True
    w._unchecked = False
    w._tilted = set()  # (step, striker, struck) of this step's pitched strikes (physics/flight.py)


def read(w: World) -> None:
    """Refresh the per-die state view from the Space (one batch call) unless it is current."""
    if w._current and not w._dirty:
        return
    buf = w._buf
    fa = buf._float_arr
    if w._dirty:
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
        w._dirty = False
    else:
        fa.num = 0
        _chipmunk.each_body(w.space._space, _chipmunk.GET_BODIES, w._rdata)
    w._current = True
    w._screened = -1  # screen() has not looked at this state yet
    w._pending = None  # nor has the kick


def size_buffers(w: World) -> None:
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
        w._abuf.set_int_buf(w._arb_ints)
        w._abuf.set_float_buf(w._arb_floats)


# Per-die views of the state read last; for the Python-side bookkeeping, which touches a few dice
# now and then.
def pos(w: World) -> np.ndarray:
    return w._rbase[w._rows, 0:2]


def ang(w: World) -> np.ndarray:
    return w._rbase[w._rows, 2]


def vc(w: World) -> np.ndarray:
    st = w._rbase[w._rows]
    return st[:, 3] + 1j * st[:, 4]


def omega(w: World) -> np.ndarray:
    return w._rbase[w._rows, 5]


def pre_vc(w: World) -> np.ndarray:
    """Velocities after this step's friction kick, before its collisions (valid while the
    Space steps: the end of the step writes the next kick over them)."""
    out = w._wbuf[w._rows]
    return out[:, 0] + 1j * out[:, 1]


def refresh_flags(w: World, nrows: int) -> None:
    """Per-die flags for the kernels, from the dice records (after any change of status)."""
    order = w._order
    grounded, low = step_kernels.GROUNDED, step_kernels.LOW
    w._flags = np.array(
        [
            # a pitched die stands on an edge: no patch friction (physics/pitch.py); an
            # airborne one touches nothing (physics/flight.py)
            (grounded if d.fall_time is None and d.pitch is None and not d.airborne else 0)
            | (low if d.level is None else 0)
            | (step_kernels.FRESH if d.fresh else 0)
            for d in order
        ],
        dtype=np.int8,
    )
    w._groups = np.array([d.group for d in order], dtype=np.int64)
    w._all_grounded = all(d.fall_time is None and d.pitch is None and not d.airborne for d in order)
    w._any_fresh = any(d.fresh for d in order)
    special = [
        bool(
            d.straddle
            or d.level
            or d.riding
            or d.fall_time is not None
            or d.pitch is not None
            or d.airborne
            or d.on_die is not None
            or d.lean is not None
        )
        for d in order
    ]
    w._special_arr = np.array(special, dtype=bool)
    # the highest top of a die standing anywhere (physics/flight.py: a flight above it lands on
    # no die); a die on a die stands d.z up
    w._max_top = w.params.die_size + max(
        [w._wall_top] + [d.z for d in order if d.on_die is not None]
    )
    w._special = any(special)
    if nrows != w._nrows:
        # the velocity write buffer: one (vx, vy, w) row per body in the Space's order
        w._nrows = nrows
        w._wbuf = np.zeros((nrows, 3))
        w._wbuffer = pb.Buffer()
        w._wbuffer.set_float_buf(w._wbuf.reshape(-1))
        w._wdata = _chipmunk.batch_request(w._wbuffer, _chipmunk.WRITE_FIELDS)
    else:
        # a row no die holds (the walls' static body) must push zero velocity; the dice's rows
        # keep this step's pre-contact velocities (a climb mid-step re-indexes the bodies)
        others = np.ones(nrows, dtype=bool)
        others[w._rows] = False
        w._wbuf[others] = 0.0


def write(w: World, vc: np.ndarray, omega: np.ndarray) -> None:
    out = w._wbuf
    rows = w._rows
    out[rows, 0] = vc.real
    out[rows, 1] = vc.imag
    out[rows, 2] = omega
    push_velocities(w)


def push_velocities(w: World) -> None:
    """Set every body's velocity from the write buffer (pymunk.batch.set_space_bodies, minus
    building the request on every call)."""
    fa = w._wbuffer._float_arr
    num = fa.num
    fa.num = 0
    _chipmunk.each_body(w.space._space, _chipmunk.SET_BODIES, w._wdata)
    fa.num = num
