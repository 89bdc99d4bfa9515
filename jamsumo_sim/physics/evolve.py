"""One model step, the hot path: friction kick -> collision substeps (Chipmunk) with a look at the
cached arbiters after each -> one batch read -> screen the state and kick for the next step in one
compiled call -> Python bookkeeping only when the screen or a contact asks for it.

Velocities are leapfrog-staggered: a die launched by a flick first gets a half kick, so constant
deceleration integrates exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import step_kernels
from . import _chipmunk, contacts, support, view

if TYPE_CHECKING:
    from .world import World


def step(w: World) -> None:
    """Advance one fixed model step ``params.dt`` (``collision_substeps`` Space steps)."""
    p = w.params
    if w._dirty or not w._current:
        view.read(w)
    pending = w._pending
    if pending is None and w._order:
        pending = step_kernels.kick(w._rbase, w._rows, w._flags, w._wbuf, w._prm, w._pts)
    kicked, ke_before = pending if pending is not None else (0, 0.0)
    w._pending = None
    if w._any_fresh:
        for d in w._order:
            d.fresh = False
        w._any_fresh = False
    if kicked > 0:
        view.push_velocities(w)
    w.steps += 1  # events of this step carry its end time (collisions: their substep's)
    w._unchecked = False
    w._current = False
    w._canonical = False
    w._contacts: list[np.ndarray] = []
    space = w.space
    # pymunk's wrapper only when it has work queued (bodies added since the last step to check);
    # otherwise Chipmunk's step directly (nothing here adds or removes during a step, and the
    # wrapper's bookkeeping costs a sixth of a bare step)
    wrapped = _chipmunk.has_queued_work(space)
    cspace = space._space
    afloats, aints, adata = w._abuf._float_arr, w._abuf._int_arr, w._adata
    n_sub = p.collision_substeps
    sub = p.dt / n_sub
    for k in range(n_sub):
        if wrapped and k == 0:
            space.step(sub)
        else:
            _chipmunk.space_step(cspace, sub)
        afloats.num = 0
        aints.num = 0
        _chipmunk.each_cached_arbiter(cspace, _chipmunk.GET_ARBITERS, adata)
        if aints.num:
            contacts.collect_collisions(w, (w.steps - 1 + (k + 1) / n_sub) * p.dt)
    was_dirty = w._dirty
    view.read(w)
    if not w._order:
        return
    # the velocities this step's contacts started from (the kick below overwrites them)
    pre = w._wbuf[w._rows] if w._contacts else None
    # screen this state and kick for the next step in one call (the kick is dropped if
    # the bookkeeping below changes anything)
    code, ke_after, kicked, ke_kicked = step_kernels.advance(
        w._rbase, w._rows, w._flags, w._wbuf, w._prm, w._pts
    )
    w._screened = code
    if kicked >= 0:
        w._pending = (kicked, ke_kicked)
    if pre is not None and not was_dirty and ke_after > ke_before:
        contacts.limit_contact_energy(w, pre)
    if code & step_kernels.NEAR_EDGE_OR_HOLE or w._special:
        support.after_step(w)
        if w._dirty or not w._current:
            w._pending = None
