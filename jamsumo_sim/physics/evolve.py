"""One model step, the hot path: friction kick -> collision steps (Chipmunk) with a look at the
cached arbiters after each -> one batch read -> screen the state, kick and count the collision steps
for the next step in one compiled call -> Python bookkeeping only when the screen or a contact asks.

Velocities are leapfrog-staggered: a die launched by a flick first gets a half kick, so constant
deceleration integrates exactly.

Collision steps per model step (physics.md s8.1): Chipmunk has no continuous collision detection,
so a spinning die's corner (up to ~15.6 m/s at the launch cap and full offset) could pass another
die between two collision steps.  A swept test (:func:`jamsumo_sim.step_kernels.swept_substeps`)
looks at every pair of shapes (two dice, a die and a platform wall) that can touch within the step.
If none sweeps towards the other farther than ``SWEEP_FRACTION`` of a die's size, ``QUIET_STEPS``
(one) collision step takes the whole step: nothing can be missed or met deep.  Otherwise at least
``collision_substeps``, and short enough that no such pair moves more than that per collision step
(at most one every ``MIN_COLLISION_STEP``), after one leading step up to the first time such a pair
could touch.  The count follows from the state only, so it is deterministic.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .. import step_kernels
from ..params import PhysicsParams
from . import _chipmunk, contacts, support, view

if TYPE_CHECKING:
    from .world import World

# Most two shapes may sweep towards each other per collision step, as a fraction of the die's
# size (0.5 mm at 16 mm): a contact is then met at most this deep, well inside the rounded edge.
SWEEP_FRACTION = 1.0 / 32.0
# Shortest collision step (s): bounds the cost of a step (64 collision steps at dt = 2 ms).
MIN_COLLISION_STEP = 1.0 / 32000.0
# Collision steps of a step in which no pair is at risk: one integrates free motion exactly and
# resolves slow contacts (fine-step references in the tests raise it).
QUIET_STEPS = 1
# False: every step takes exactly ``collision_substeps`` collision steps, as model 0.3 did (for
# tests and benchmarks that show what the swept steps change; not a user setting).
SWEPT = True


def sweep_params(p: PhysicsParams) -> np.ndarray:
    """The swept test's parameters for these physics parameters (step_kernels.sweep_params)."""
    n_max = max(p.collision_substeps, math.ceil(p.dt / MIN_COLLISION_STEP - 1e-9))
    return step_kernels.sweep_params(
        dt=p.dt,
        half=0.5 * p.die_size,
        r_corner=p.die_size / math.sqrt(2.0),
        s_max=SWEEP_FRACTION * p.die_size,
        n_quiet=QUIET_STEPS,
        n_floor=p.collision_substeps,
        n_max=n_max,
    )


def collision_steps(w: World) -> tuple[int, float]:
    """(collision steps, length of a leading one in s or 0) for the model step about to be taken,
    from the state just read (step_kernels.swept_substeps)."""
    if not SWEPT:
        return w.params.collision_substeps, 0.0
    if not w._order:
        return QUIET_STEPS, 0.0
    return step_kernels.swept_substeps(w._rbase, w._rows, w._groups, w._wall_boxes, w._sweep_prm)


def step(w: World) -> None:
    """Advance one fixed model step ``params.dt`` (collision steps: :func:`collision_steps`)."""
    p = w.params
    if w._dirty or not w._current or w._row_patch:
        view.read(w)
    pending = w._pending
    w._pending = None
    if pending is not None:
        kicked, ke_before, n_sub, lead = pending
        if not SWEPT:
            n_sub, lead = p.collision_substeps, 0.0
    else:
        n_sub, lead = collision_steps(w)
        kicked, ke_before = 0, 0.0
        if w._order:
            kicked, ke_before = step_kernels.kick(
                w._rbase, w._rows, w._flags, w._wbuf, w._prm, w._pts
            )
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
    space = w.space
    cspace = space._space
    # pymunk's wrapper only when it has work queued (bodies added since the last step to check);
    # otherwise Chipmunk's step directly (nothing here adds or removes during a step, and the
    # wrapper's bookkeeping costs a sixth of a bare step)
    if _chipmunk.has_queued_work(space):
        space.step(lead if lead > 0.0 else p.dt / n_sub)
        first_done = 1
    else:
        first_done = 0
    afloats, aints, adata = w._abuf._float_arr, w._abuf._int_arr, w._adata
    space_step, each_arbiter = _chipmunk.space_step, _chipmunk.each_cached_arbiter
    get_arbiters, note_contacts = _chipmunk.GET_ARBITERS, step_kernels.note_contacts
    arb_ints, pairs = w._arb_ints, w._pairs
    # n_sub equal collision steps, or a leading one of length lead and n_sub - 1 equal ones
    sub = p.dt / n_sub if lead == 0.0 else (p.dt - lead) / (n_sub - 1)
    used = 0  # the touching pairs of all collision steps, for the energy limiter
    for k in range(n_sub):
        if k >= first_done:
            space_step(cspace, lead if k == 0 and lead > 0.0 else sub)
        afloats.num = 0
        aints.num = 0
        each_arbiter(cspace, get_arbiters, adata)
        num = aints.num
        if num:
            first, used = note_contacts(arb_ints, num, pairs, used)
            if first < 0:
                first, used = contacts.grow_pairs(w, num, used)
                pairs = w._pairs
            if first:
                done = (k + 1) / n_sub if lead == 0.0 else (lead + k * sub) / p.dt
                contacts.collect_collisions(w, (w.steps - 1 + done) * p.dt)
                # (re-sized if the bookkeeping re-indexed)
                arb_ints, pairs = w._arb_ints, w._pairs
    w._pairs_used = used
    was_dirty = w._dirty
    w._current = False  # a read during the collision steps (collect_collisions) is stale now
    view.read(w)
    if not w._order:
        return
    # after contacts the kick below goes into the spare write buffer, so the World's keeps the
    # velocities this step's contacts started from (the energy limiter's)
    out = w._wspare[0] if used else w._wbuf
    # screen this state, kick and count the collision steps for the next step in one call (all
    # dropped if the bookkeeping below changes anything: with a die pitched on a surface it always
    # does, so no kick then), and list the dice that bookkeeping must look at (support.after_step)
    code, ke_after, kicked, ke_kicked, n_next, lead_next, n_cand = step_kernels.finish_model_step(
        w._rbase,
        w._rows,
        w._flags,
        out,
        w._prm,
        w._pts,
        w._groups,
        w._wall_boxes,
        w._sweep_prm,
        w._special_arr,
        w._special,
        w._cand,
        not w._any_pitched,
    )
    w._screened = code
    pre = None
    if used:
        # no kick (kicked < 0) leaves ``out`` untouched: the World's buffer is the pre-contact one
        pre = view.swap_write_buffers(w) if kicked >= 0 else w._wbuf
    if kicked >= 0:
        w._pending = (kicked, ke_kicked, n_next, lead_next)
    if pre is not None and not was_dirty and ke_after > ke_before:
        contacts.limit_contact_energy(w, pre[w._rows])
    if n_cand:
        support.after_step(w, n_cand)
        if w._dirty or not w._current:
            w._pending = None
