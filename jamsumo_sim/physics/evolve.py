"""One model step, the hot path: friction kick -> collision steps (Chipmunk) with a look at the
cached arbiters after each -> one batch read -> screen the state, kick and count the collision steps
for the next step in one compiled call -> Python bookkeeping only when the screen or a contact asks.

Velocities are leapfrog-staggered: a die whose velocity is a step's end's (just flicked, or flat
again after a pitch or a flight: ``fresh``) first gets a half kick, so constant deceleration
integrates exactly.

Most steps run in :mod:`.compiled_steps`' loop (Chipmunk called from numba, many steps per call);
what it hands back ends here, and with ``COMPILED = False`` every step runs here, bit for bit the
same.

Collision steps per model step (physics.md s8.1): Chipmunk has no continuous collision detection,
so a spinning die's corner (up to ~15.6 m/s at the launch cap and full offset) could pass another
die between two collision steps.  A swept test (:func:`jamsumo_sim.physics.step_kernels.swept_substeps`)
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

from . import (
    _chipmunk,
    compiled_guard,
    compiled_steps,
    contacts,
    pitch,
    space,
    step_kernels,
    support,
    view,
)
from .params import PhysicsParams

if TYPE_CHECKING:
    from .state import WorldState

# Most two shapes may sweep towards each other per collision step, as a fraction of the die's
# size (0.25 mm at 16 mm): a contact is then met at most this deep, well inside the rounded edge.
# How deep a first contact is met decides Chipmunk's contact points (one corner, or two along a
# face), hence how the pair turns: met up to 0.5 mm deep (model 0.7), gentle two-die hits turned
# a p90 47 deg off the converged reference, 0.25 mm deep about half that (physics.md s9.2).
SWEEP_FRACTION = 1.0 / 64.0
# Shortest collision step (s): bounds the cost of a step (64 collision steps at dt = 2 ms).
MIN_COLLISION_STEP = 1.0 / 32000.0
# Collision steps of a step in which no pair is at risk: one integrates free motion exactly and
# resolves slow contacts (fine-step references in the tests raise it).
QUIET_STEPS = 1
# False: every step takes exactly ``collision_substeps`` collision steps, as model 0.3 did (for
# tests and benchmarks that show what the swept steps change; not a user setting).
SWEPT = True
# False: the collision steps from Python, one C call each, and every step ended in Python (the
# same steps bit for bit, slower; tests/physics/test_compiled_steps.py compares the two).  False
# from the start, with one warning, where compiled_guard finds the platform, the pymunk release or
# its struct layout other than the compiled loop's calls by address were built for.
COMPILED = compiled_guard.compiled_default()


def sweep_params(p: PhysicsParams) -> np.ndarray:
    """The swept test's parameters for these physics parameters (step_kernels.sweep_params)."""
    # refine divides the step, the swept distance and the shortest collision step alike, so the
    # most collision steps per model step stay the same
    n_max = max(p.collision_substeps, math.ceil(p.dt / MIN_COLLISION_STEP - 1e-9))
    return step_kernels.sweep_params(
        dt=p.step,
        half=0.5 * p.die_size,
        r_corner=p.die_size / math.sqrt(2.0),
        s_max=SWEEP_FRACTION * p.die_size / p.refine,
        n_quiet=QUIET_STEPS,
        n_floor=p.collision_substeps,
        n_max=n_max,
    )


def collision_steps(w: WorldState) -> tuple[int, float]:
    """(collision steps, length of a leading one in s or 0) for the model step about to be taken,
    from the state just read (step_kernels.swept_substeps)."""
    if not SWEPT:
        return w.params.collision_substeps, 0.0
    if not w._order:
        return QUIET_STEPS, 0.0
    return step_kernels.swept_substeps(w._rbase, w._rows, w._groups, w._wall_boxes, w._sweep_prm)


def step(w: WorldState, max_steps: int = 1, stop_at_rest: bool = False) -> None:
    """Advance one fixed model step ``params.step`` (collision steps: :func:`collision_steps`), or
    up to ``max_steps`` of them while nothing but Chipmunk and the compiled kernels has work (no
    first contact, no die for the support bookkeeping, no energy to limit; with
    ``stop_at_rest`` not once every die rests): the steps are the same either way, bit for bit
    (:mod:`.compiled_steps`)."""
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
    key0 = w._index_key
    w._unchecked = False
    w._current = False
    w._canonical = False
    space = w.space
    # pymunk's wrapper only when it has work queued (bodies added since the last step to check);
    # otherwise Chipmunk's step directly (nothing here adds or removes during a step, and the
    # wrapper's bookkeeping costs a sixth of a bare step)
    if _chipmunk.has_queued_work(space):
        if w._special:  # (the band of its first collision step, as the loops below set it)
            sub = p.step / n_sub if lead == 0.0 else (p.step - lead) / (n_sub - 1)
            _bands(w, _mid_time(0, sub, lead))
        space.step(lead if lead > 0.0 else p.step / n_sub)
        first_done = 1
    else:
        first_done = 0
    if SWEPT and COMPILED and not (w._dirty and _any_flying(w)):
        used, ke_before = _compiled_substeps(
            w, first_done, n_sub, lead, ke_before, max_steps, stop_at_rest, key0
        )
        if used < 0:
            return  # the compiled call ended the step
    else:
        used = _python_substeps(w, first_done, n_sub, lead)
    w._pairs_used = used  # (the energy limiter's contact groups)
    w._current = False  # a read during the collision steps (collect_collisions) is stale now
    view.read(w)
    # bodies came or went in the contact bookkeeping: the rows of the step's start are gone
    reindexed = w._index_key is not key0
    if not w._order:
        return
    # after contacts the kick below goes into the spare write buffer, so the World's keeps the
    # velocities this step's contacts started from (the energy limiter's)
    out = w._wspare[0] if used else w._wbuf
    # screen this state, kick and count the collision steps for the next step in one call (all
    # dropped if the bookkeeping below changes anything: with a die pitched on a surface it always
    # does, so no kick then), and list the dice that bookkeeping must look at (support.after_step)
    end = step_kernels.finish_model_step(
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
    _end_step(w, end, used, ke_before, reindexed)


def _any_flying(w: WorldState) -> bool:
    """A die in flight: its height band is taken at every collision step (:func:`_bands`), which
    the compiled loop does from the records (compiled_steps.pack_special, flying_entries) as long
    as the World's rows are the step's; a step continued after bodies came or went takes its
    collision steps here."""
    return any(d.airborne for d in w._order)


def _python_substeps(
    w: WorldState, first_done: int, n_sub: int, lead: float, used: int = 0, start: int = 0
) -> int:
    """The step's collision steps from ``first_done`` on, each followed by a look at Chipmunk's
    cached arbiters (first contacts become events), from collision step ``start`` on (the
    compiled loop took those before); returns the pair entries noted (``used`` so far)."""
    p = w.params
    cspace = w.space._space
    afloats, aints, adata = w._abuf._float_arr, w._abuf._int_arr, w._adata
    space_step, each_arbiter = _chipmunk.space_step, _chipmunk.each_cached_arbiter
    get_arbiters, note_contacts = _chipmunk.GET_ARBITERS, step_kernels.note_contacts
    arb_ints, pairs = w._arb_ints, w._pairs
    # n_sub equal collision steps, or a leading one of length lead and n_sub - 1 equal ones
    sub = p.step / n_sub if lead == 0.0 else (p.step - lead) / (n_sub - 1)
    # (used: the touching pairs of all collision steps, for the energy limiter)
    for k in range(start, n_sub):
        if k >= first_done:
            if w._special:
                _bands(w, _mid_time(k, sub, lead))
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
                contacts.collect_collisions(w, _contact_time(w, k, n_sub, lead))
                # (re-sized if the bookkeeping re-indexed)
                arb_ints, pairs = w._arb_ints, w._pairs
    return used


def _mid_time(k: int, sub: float, lead: float) -> float:
    """The middle of collision step ``k`` (s into the model step; compiled_steps.run_steps')."""
    if lead == 0.0:
        return (k + 0.5) * sub
    if k == 0:
        return 0.5 * lead
    return lead + (k - 0.5) * sub


def _bands(w: WorldState, t: float) -> None:
    """Every die in flight (the compiled loop's kinds) in its height band at ``t`` s into the
    step, its base then: a die rising past the dice's tops stops meeting them within the step,
    not at its end (at the default step a striker rising over the die it hit met it again up to
    a step after it was above it).  A die above a die's top with their footprints overlapping is
    kept above that top (step_kernels.flight_floor): it comes down on that top or edge at the
    flight step, not against the side (a band taken on its way down put it among the dice for a
    collision step, and the solver shoved it off the die it was landing on, more often the finer
    the step)."""
    p = w.params
    g = p.gravity
    half, slop = w._half_size, p.collision_slop
    for i, d in enumerate(w._order):
        if d.airborne:  # (compiled_steps.KIND_FLYING*: a die in flight leans on none)
            flat = d.z + d.vz * t - 0.5 * g * t * t
            base, low = flat, d.z
            pt = d.pitch
            if pt is not None:  # (its lowest corner: step_kernels.air_low)
                base = step_kernels.air_low(flat, pt.phi, pt.rate, t, half)
                low = step_kernels.air_low(low, pt.phi, pt.rate, 0.0, half)
            floor = step_kernels.flight_floor(
                w._rbase, w._rows, i, low, w._land_tops, w._groups, half, slop
            )
            if base < floor:
                base = floor
            f = space.band_filter(base, p.die_size, w._wall_top, max(flat, base))
            if d.shape.filter != f:
                d.shape.filter = f


def _contact_time(w: WorldState, k: int, n_sub: int, lead: float) -> float:
    """The end time of collision step ``k`` of the step under way (its contacts' events' time)."""
    p = w.params
    sub = p.step / n_sub if lead == 0.0 else (p.step - lead) / (n_sub - 1)
    done = (k + 1) / n_sub if lead == 0.0 else (lead + k * sub) / p.step
    return (w.steps - 1 + done) * p.step


def _compiled_substeps(
    w: WorldState,
    k: int,
    n_sub: int,
    lead: float,
    ke_before: float,
    max_steps: int,
    stop_at_rest: bool,
    key0: tuple,
) -> tuple[int, float]:
    """:func:`_python_substeps` in compiled calls (:func:`compiled_steps.run_steps`), which also
    end the step and take up to ``max_steps - 1`` further ones while nothing needs Python.
    Returns (pair entries noted, the step's kick energy) when the caller must end the step (the
    contact bookkeeping changed the state), else (-1, 0) (the step is ended)."""
    res = w._res
    used = 0
    extra = max_steps - 1
    stepped = k > 0  # pymunk's wrapper took the first collision step: only its contacts here
    k = 0
    cs = compiled_steps
    while True:
        if w._addr is None or w._addr_space is not w.space:
            # (a new Space or new write buffers always come with a re-index, which drops the
            # addresses; the Space's identity is checked too: a stale address would be a crash)
            w._addr = cs.addresses(w)
            w._addr_space = w.space
        finish = not w._dirty and bool(w._order)
        kinds = finish and w._special and w._kind_idx
        if kinds:
            cs.pack_special(w)
        # the height bands of dice in flight (_bands): from packed records, or with the flags
        # stale (a die launched in this step) from the records directly
        bands = finish and w._special
        if not finish and w._special and w._order and w._index_key is key0:
            bands = cs.flying_entries(w)
        q = pitch._consts_array(w) if w._any_pitched else w._no_pitch_prm
        status = cs.run_steps(
            w._addr, res, k, stepped, n_sub, lead, used, ke_before, finish, extra, stop_at_rest,
            not w._any_pitched, w._arb_ints, w._pairs, w._rbase, w._rows, w._flags, w._wbuf,
            w._wspare[0], w._prm, w._pts, w._groups, w._wall_boxes, w._sweep_prm,
            w._special_arr, w._special, w._cand, w._kind, w._sp, w._sp_tmp, w._pitch_st,
            w._bodies, w._shapes, q, w._flight_prm, w._max_top, w._land_tops, w._plat_tops,
            w._partner, w._stands, w._arb_floats, w._first, w._first_imp, w._id_sorted,
            w._id_order, w._deferred, bool(bands), w.steps,
        )  # fmt: skip
        n_def = int(res[cs.R_DEFERRED])
        if n_def:
            contacts.log_deferred(w, w._deferred[:n_def].tolist())
        if kinds and res[cs.R_SPECIALS]:
            cs.unpack_special(w)
        steps = int(res[cs.R_STEPS])
        if steps:
            w.steps += steps
            extra -= steps
        if int(res[cs.R_SWAPS]) & 1:
            view.swap_write_buffers(w)
        used = int(res[cs.R_USED])
        if status != cs.CONTACT:
            break
        n_sub, lead, ke_before = int(res[cs.R_N_SUB]), float(res[cs.R_LEAD]), res[cs.R_KE_BEFORE]
        k = int(res[cs.R_K])
        first = int(res[cs.R_FIRST])
        if first < 0:
            first, used = contacts.grow_pairs(w, w._abuf._int_arr.num, used)
        if first:
            contacts.collect_collisions(w, _contact_time(w, k, n_sub, lead))
        k += 1
        stepped = False
        if w._dirty and w._index_key is not key0 and _any_flying(w):  # (see _any_flying)
            return _python_substeps(w, k, n_sub, lead, used, k), ke_before
    if status == cs.SUBSTEPS_DONE:
        return used, float(res[cs.R_KE_BEFORE])
    w._pairs_used = used
    # the state compiled_steps read is the Space's (view.read's effects)
    w._current = True
    w._row_patch = []
    if w._moved:
        w._moved = set()
    end = (
        int(res[cs.R_CODE]), float(res[cs.R_KE_AFTER]), int(res[cs.R_KICKED]),
        float(res[cs.R_KE_KICKED]), int(res[cs.R_N_NEXT]), float(res[cs.R_LEAD_NEXT]),
        int(res[cs.R_N_CAND]),
    )  # fmt: skip
    _end_step(w, end, used, float(res[cs.R_KE_BEFORE]), w._index_key is not key0)
    return -1, 0.0


def _end_step(
    w: WorldState,
    end: tuple[int, float, int, float, int, float, int],
    used: int,
    ke_before: float,
    reindexed: bool,
) -> None:
    """The step's end after its read and finish_model_step (``end``: that call's values): the
    pending kick, the write buffers, the energy limiter and the support bookkeeping."""
    code, ke_after, kicked, ke_kicked, n_next, lead_next, n_cand = end
    w._screened = code
    pre = None
    if used:
        # no kick (kicked < 0) leaves ``out`` untouched: the World's buffer is the pre-contact one
        pre = view.swap_write_buffers(w) if kicked >= 0 else w._wbuf
    if kicked >= 0:
        w._pending = (kicked, ke_kicked, n_next, lead_next)
    # the contacts gave energy (Chipmunk's sequential impulses can): take it back, also where the
    # contact bookkeeping changed the state (a hop, a strike: their own laws make none)
    if pre is not None and not reindexed and ke_after > ke_before:
        contacts.limit_contact_energy(w, pre[w._rows])
    if n_cand:
        support.after_step(w, n_cand)
        if w._dirty or not w._current:
            w._pending = None
