"""The collision steps and the end of a model step in one compiled call, calling Chipmunk's C
functions (``cpSpaceStep``, its body and cached-arbiter iterators with pymunk.batch's callbacks)
through their addresses: what :mod:`.evolve` did from Python per collision step (a C call through
cffi, two counter writes, the arbiter walk, the contact note) and per model step (the batch read,
the screen-kick-count call, the velocity push), with Python's per-call cost paid once per call.

:func:`run_steps` finishes the model step under way from a given collision step and then, while
nothing asks for Python, takes whole further steps (at most ``max_extra``).  It also takes the
usual step of a die pitched on a surface, in flight, leaning on or standing on another die
(:func:`special_steps`: support._after_step_die's branch for such a die when nothing but numbers
change; their numbers are packed into ``w._sp`` before a call and written back after it), and it
notes first contacts that the contact bookkeeping would only log (:func:`_defer_plain`; logged
after the call by contacts.log_deferred).  It stops at any other first contact (:data:`CONTACT`:
the Python bookkeeping takes it, then calls again from the next collision step), or with the step
ended as far as the loop goes (:data:`DONE`: the caller does the rest: the energy limiter, the
support bookkeeping of other dice) or only its collision steps taken (:data:`SUBSTEPS_DONE`, when
the caller said the records changed and it must read the state itself).

The calls and their order are exactly :mod:`.evolve`'s Python path (same C calls with the same
arguments, the same compiled kernels): results are bit-identical with either path
(tests/physics/test_compiled_steps.py).  The function addresses are runtime arguments, so the
machine code holds no process-specific address and numba's cache can keep it.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from . import (
    _chipmunk,
    step_kernels,  # (points numba's cache at the user's folder, before the kernels below)
)
from .datatypes import LEAN_REACH, Pitch
from .space import BAND_SHIFT, BANDS_PER_DIE, DIE_CAT, N_BANDS, WALL_CAT

if TYPE_CHECKING:
    from .state import WorldState

_JIT = step_kernels._JIT
_tuple_new = tuple.__new__  # Pitch(...) minus the named tuple's constructor frame

# run_steps' outcomes
DONE = 0  # the last step finished: its end values in ``res``
CONTACT = 1  # a collision step found first contacts (or filled ``pairs``): Python takes them
SUBSTEPS_DONE = 2  # the step's collision steps are taken; the caller reads and finishes it

# layout of ``res`` (float64)
R_CODE, R_KE_AFTER, R_KICKED, R_KE_KICKED, R_N_NEXT, R_LEAD_NEXT, R_N_CAND = 0, 1, 2, 3, 4, 5, 6
R_USED, R_FIRST, R_K, R_STEPS, R_SWAPS, R_N_SUB, R_LEAD, R_KE_BEFORE = 7, 8, 9, 10, 11, 12, 13, 14
R_SPECIALS, R_DEFERRED = 15, 16
N_RES = 17
# columns of the deferred first contacts (``deferred``): time, the two dice (World order), impulse
D_T, D_A, D_B, D_J = 0, 1, 2, 3

# layout of ``addr`` (int64): what run_steps calls and passes, as addresses
A_SPACE, A_STEP, A_EACH_BODY, A_EACH_ARB, A_GET_BODIES, A_SET_BODIES, A_GET_ARBS = range(7)
A_RDATA, A_RNUM, A_ADATA, A_AFNUM, A_AINUM = 7, 8, 9, 10, 11
A_WDATA, A_WNUM, A_SDATA, A_SNUM = 12, 13, 14, 15  # the World's write buffer and the spare
# cpBodySetVelocity, cpBodySetAngularVelocity, cpShapeSetFilter
A_SET_VEL, A_SET_SPIN, A_SET_FILTER = 16, 17, 18
N_ADDR = 19


address = _chipmunk.address
# the C functions at A_STEP..A_GET_ARBS and A_SET_VEL..A_SET_FILTER (signatures: compiled_guard)
_FUNC_NAMES = (
    "cpSpaceStep",
    "cpSpaceEachBody",
    "cpSpaceEachCachedArbiter",
    "pmSpaceBodyGetIteratorFuncBatched",
    "pmSpaceBodySetIteratorFuncBatched",
    "pmSpaceArbiterIteratorFuncBatched",
)
_SETTER_NAMES = ("cpBodySetVelocity", "cpBodySetAngularVelocity", "cpShapeSetFilter")


@functools.cache
def _function_addresses() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The addresses of _FUNC_NAMES and _SETTER_NAMES, taken at the first compiled call rather
    than at import: where compiled_guard found one missing, only the Python path runs."""
    return (
        tuple(_chipmunk.function_address(name) for name in _FUNC_NAMES),
        tuple(_chipmunk.function_address(name) for name in _SETTER_NAMES),
    )


def addresses(w: WorldState) -> np.ndarray:
    """``w``'s ``addr`` vector for run_steps: its Space, the C functions, its batch requests and
    their arrays' counters (the ``num`` field leads pymunk's pmFloatArray / pmIntArray)."""
    funcs, setters = _function_addresses()
    a = np.zeros(N_ADDR, dtype=np.int64)
    a[A_SPACE] = address(w.space._space)
    a[A_STEP : A_GET_ARBS + 1] = funcs
    a[A_RDATA] = address(w._rdata)
    a[A_RNUM] = address(w._buf._float_arr)
    a[A_ADATA] = address(w._adata)
    a[A_AFNUM] = address(w._abuf._float_arr)
    a[A_AINUM] = address(w._abuf._int_arr)
    a[A_WDATA] = address(w._wdata)
    a[A_WNUM] = address(w._wbuffer._float_arr)
    spare = w._wspare
    a[A_SDATA] = address(spare[2])
    a[A_SNUM] = address(spare[1]._float_arr)
    a[A_SET_VEL], a[A_SET_SPIN], a[A_SET_FILTER] = setters
    return a


def swap_write_addresses(a: np.ndarray) -> None:
    """The World's write buffer and the spare traded places (view.swap_write_buffers)."""
    a[A_WDATA], a[A_SDATA] = a[A_SDATA], a[A_WDATA]
    a[A_WNUM], a[A_SNUM] = a[A_SNUM], a[A_WNUM]


def pack_special(w: WorldState) -> None:
    """The special dice's numbers from their records into ``w._sp`` (before a call)."""
    sp, order = w._sp, w._order
    for i in w._kind_idx:
        d = order[i]
        pt = d.pitch
        if pt is not None:
            sp[i, S_PHI] = pt.phi
            sp[i, S_RATE] = pt.rate
        sp[i, S_Z] = d.z
        sp[i, S_VZ] = d.vz
        sp[i, S_KICKED] = d.kicked_step


def unpack_special(w: WorldState) -> None:
    """The numbers a call stepped back into the records (as pitch.py and flight.py write them:
    a new Pitch with the side, heading and cause kept)."""
    sp, order, kind = w._sp, w._order, w._kind
    for i in w._kind_idx:
        d = order[i]
        phi, rate, z, vz = sp[i].tolist()[:4]
        kd = kind[i]
        pt = d.pitch
        if kd == KIND_PITCHED:
            d.pitch = _tuple_new(Pitch, (phi, rate, pt.side, pt.heading, pt.cause))
        elif kd in (KIND_FLYING, KIND_FLYING_PITCHED):
            d.z, d.vz = z, vz
            if kd == KIND_FLYING_PITCHED:
                d.pitch = _tuple_new(Pitch, (phi, pt.rate, pt.side, pt.heading, pt.cause))


def flying_entries(w: WorldState) -> bool:
    """With the flags stale (a die launched within the step, ``w._dirty``): every die in flight
    as a flying kind, with its height and rise in ``w._sp``, for run_steps' height bands (the
    next read rebuilds the changed dice's entries anyway).  True if any die is in flight."""
    kind, sp = w._kind, w._sp
    found = False
    for i, d in enumerate(w._order):
        if d.airborne:
            k = KIND_FLYING if d.pitch is None else KIND_FLYING_PITCHED
            if kind[i] != k:
                kind[i] = k
                note_addresses(w, i, d, k)
            sp[i, S_Z] = d.z
            sp[i, S_VZ] = d.vz
            found = True
        elif kind[i] == KIND_FLYING or kind[i] == KIND_FLYING_PITCHED:
            kind[i] = KIND_PYTHON
    return found


def note_addresses(w: WorldState, i: int, d, kind: int) -> None:
    """Die ``i``'s cpBody address (a pitched die: the loop sets its velocity) or cpShape address
    (a flying one: the loop sets its collision filter) into ``w._bodies`` / ``w._shapes``, kept on
    the record beside the body they belong to (a body keeps its address while it lives)."""
    kept = d.__dict__.get("_addresses")
    if kept is None or kept[0] is not d.body:
        kept = d._addresses = (d.body, address(d.body._body), address(d.shape._shape))
    if kind == KIND_PITCHED:
        w._bodies[i] = kept[1]
    elif kind in (KIND_FLYING, KIND_FLYING_PITCHED):
        w._shapes[i] = kept[2]


def die_kind(w: WorldState, d) -> tuple[int, int, bool]:
    """(kind, partner, stands) of a die in the Space: whether the compiled loop may take its usual
    special step (KIND_*: physics/support._after_step_die's branch for it, nothing else), the
    World index of the die it leans on or stands on (-1), and whether a die could lean on or
    stand on it (flight.standing, but for the group and identity the loop checks)."""
    stands = not d.airborne and d.fall_time is None
    partner = -1
    other = d.on_die if d.on_die is not None else d.lean
    if other is not None:
        partner = w._index.get(other, -1)
        if partner < 0 or w._order[partner] is d or d.airborne or d.pitch is not None:
            return KIND_PYTHON, -1, stands
        if d.fall_time is not None or d.riding:
            return KIND_PYTHON, -1, stands
        if d.on_die is not None:
            return KIND_ON_DIE, partner, stands
        if d.level or d.straddle:
            return KIND_PYTHON, -1, stands
        return KIND_LEANING, partner, stands
    return _alone_kind(d), partner, stands


def _alone_kind(d) -> int:
    if d.airborne:
        return KIND_FLYING if d.pitch is None else KIND_FLYING_PITCHED
    if d.pitch is None or d.fall_time is not None or d.level or d.straddle or d.riding:
        return KIND_PYTHON
    return KIND_PITCHED


# --- calls through addresses (LLVM: int -> function pointer, call) -----------------------------


@intrinsic
def _call_ptr_double(typingctx, fn, ptr, x):
    """``((void (*)(void *, double)) fn)(ptr, x)``: cpSpaceStep, cpBodySetAngularVelocity."""
    sig = types.void(types.int64, types.int64, types.float64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(64), ir.DoubleType()])
        f = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(f, [args[1], args[2]])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _call_3(typingctx, fn, a, b, c):
    """``((void (*)(int64, int64, int64)) fn)(a, b, c)``: Chipmunk's iterators (space, callback,
    data), and cpShapeSetFilter (shape, filter): a cpShapeFilter (group: uintptr_t; categories,
    mask: unsigned int) is 16 bytes of integers, passed by value as two 64-bit integers (x86-64
    SysV, AArch64): the group, and categories | mask << 32."""
    sig = types.void(types.int64, types.int64, types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(ir.VoidType(), [i64, i64, i64])
        f = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(f, [args[1], args[2], args[3]])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _load_i32(typingctx, addr):
    """The C ``int`` at ``addr``."""
    sig = types.int32(types.int64)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(32).as_pointer())
        return builder.load(ptr)

    return sig, codegen


@intrinsic
def _store_i32(typingctx, addr, value):
    """``*(int *) addr = value``"""
    sig = types.void(types.int64, types.int32)

    def codegen(context, builder, signature, args):
        ptr = builder.inttoptr(args[0], ir.IntType(32).as_pointer())
        builder.store(args[1], ptr)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def _call_set_velocity(typingctx, fn, body, vx, vy):
    """``((void (*)(cpBody *, cpVect)) fn)(body, (vx, vy))`` (a cpVect by value travels as two
    doubles in the x86-64 and AArch64 calling conventions, as clang lowers it)."""
    sig = types.void(types.int64, types.int64, types.float64, types.float64)

    def codegen(context, builder, signature, args):
        dbl = ir.DoubleType()
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(64), dbl, dbl])
        f = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(f, [args[1], args[2], args[3]])
        return context.get_dummy_value()

    return sig, codegen


@njit(inline="always", **_JIT)
def _push(addr, data, num):
    """view.push_velocities: every body's velocity from a write buffer (its iterator reads from
    the counter, so the counter goes to 0 for the walk and back after)."""
    saved = _load_i32(num)
    _store_i32(num, np.int32(0))
    _call_3(addr[A_EACH_BODY], addr[A_SPACE], addr[A_SET_BODIES], data)
    _store_i32(num, saved)


# --- the usual step of a die pitched on a surface or in flight, compiled -----------------------
# Kinds (view.die_entry): which dice the loop may step itself when the screen lists them; every
# other die it lists (near the edge or the hole, on or against a die, on a platform, falling, a
# pitched die there) is Python's, and so is every step of these that changes more than numbers
# (a face lands, it lifts off or comes down, tumbles in the air, or changes height band).
KIND_PYTHON, KIND_PITCHED, KIND_FLYING, KIND_FLYING_PITCHED = 0, 1, 2, 3
KIND_LEANING, KIND_ON_DIE = 4, 5  # against or on the die ``partner`` (physics/stacking.py)
# columns of the special dice's state (``special_state``): the pitch (phi, rate), flight (z, vz)
S_PHI, S_RATE, S_Z, S_VZ = 0, 1, 2, 3
# the step (World.steps) in which a flat die was tipped up after its kick (DieRecord.kicked_step):
# its pitch step pays no dish in that step (pitch._on_dish)
S_KICKED = 4
N_SP = 5
# layout of flight_params' vector
F_DT, F_G, F_HALF_A, F_SIZE, F_WALL_TOP, F_HOLE_R, F_SLOP, F_REACH = 0, 1, 2, 3, 4, 5, 6, 7
F_LEAN_REACH, F_MASS, F_HOP_SPEED, F_RESTITUTION, F_HOP_CHANCE = 8, 9, 10, 11, 12
N_FLIGHT = 13


def flight_params(w: WorldState) -> np.ndarray:
    """The special steps' parameters, each the double physics/flight.py and support.tips_in use."""
    p = w.params
    a = np.zeros(N_FLIGHT)
    a[F_DT], a[F_G], a[F_HALF_A], a[F_SIZE] = p.step, p.gravity, 0.5 * p.die_size, p.die_size
    a[F_WALL_TOP], a[F_HOLE_R], a[F_SLOP] = w._wall_top, w._hole_r, p.collision_slop
    a[F_REACH] = w._hole_r + p.die_size
    a[F_LEAN_REACH] = LEAN_REACH * p.die_size
    a[F_MASS], a[F_HOP_SPEED] = p.die_mass, p.hop_speed
    a[F_RESTITUTION], a[F_HOP_CHANCE] = p.restitution, p.hop_edge_chance
    return a


@njit(inline="always", **_JIT)
def _band_key(z, size, wall_top, flat):
    """space.band_filter's arguments to _band as one number: equal keys, equal filters."""
    k = int(z * BANDS_PER_DIE / size)
    if k < 0:
        k = 0
    if k > N_BANDS - 1:
        k = N_BANDS - 1
    return 4 * k + 2 * (z < size) + (flat < wall_top)


@njit(inline="always", **_JIT)
def _band_bits(key):
    """space._band's filter for a band key: categories | mask << 32 (group 0)."""
    k = key // 4
    lo = k - BANDS_PER_DIE if k > BANDS_PER_DIE else 0
    hi = k + BANDS_PER_DIE if k + BANDS_PER_DIE < N_BANDS - 1 else N_BANDS - 1
    cat = np.int64(1) << (BAND_SHIFT + k)
    mask = ((np.int64(1) << (hi - lo + 1)) - 1) << (BAND_SHIFT + lo)
    if key & 2:
        cat |= DIE_CAT
        mask |= DIE_CAT
    if key & 1:
        mask |= WALL_CAT
    return cat | (mask << 32)


@njit(**_JIT)
def special_steps(
    cand, n_cand, kind, sp, tmp, st, state, rows, q, fprm, max_top, land_tops, groups, plats,
    partner, stands, step_no,
):  # fmt: skip
    """physics/support.after_step for the listed dice, if every one of them takes the usual step
    (support._after_step_die's branches for the kinds above, nothing else): their new numbers in
    ``tmp`` (a pitched die: phi, rate, vx, vy, spin; a flying one: z, vz, phi) and True; else
    False with nothing changed.  The same operations in the same order as pitch._kernel_step,
    support.tips_in and flight.step_die."""
    dt, g, half_a = fprm[F_DT], fprm[F_G], fprm[F_HALF_A]
    for j in range(n_cand):
        i = cand[2 * j]
        if cand[2 * j + 1] != 0:
            return False  # past the edge or over the hole
        kd = kind[i]
        r = rows[i]
        if kd == KIND_PITCHED:
            st[step_kernels.P_PHI] = sp[i, S_PHI]
            st[step_kernels.P_RATE] = sp[i, S_RATE]
            st[step_kernels.P_VX] = state[r, 3]
            st[step_kernels.P_VY] = state[r, 4]
            st[step_kernels.P_SPIN] = state[r, 5]
            st[step_kernels.P_X] = state[r, 0]
            st[step_kernels.P_Y] = state[r, 1]
            # (this kind: alone on the board; not tipped up in this step after its kick:
            # pitch._on_dish, pitch._kernel_step)
            st[step_kernels.P_DISH] = 0.0 if sp[i, S_KICKED] == step_no else 1.0
            if step_kernels.pitch_step(st, q) != step_kernels.PITCH_ON:
                return False
            x, y = state[r, 0], state[r, 1]
            reach = fprm[F_REACH]
            if not x * x + y * y > reach * reach:
                return False  # support.tips_in looks closer
            for c in range(5):
                tmp[j, c] = st[c]
        elif kd in (KIND_LEANING, KIND_ON_DIE):
            o = partner[i]
            if not stands[o] or groups[o] != groups[i]:
                return False  # its prop or support is gone: it drops or falls off
            ro = rows[o]
            if kd == KIND_LEANING:
                dist = step_kernels.py_hypot(state[ro, 0] - state[r, 0], state[ro, 1] - state[r, 1])
                if not dist <= fprm[F_LEAN_REACH]:
                    return False
            else:  # stacking._over_top
                c, s = math.cos(state[ro, 2]), math.sin(state[ro, 2])
                dx, dy = state[r, 0] - state[ro, 0], state[r, 1] - state[ro, 1]
                if not (abs(c * dx + s * dy) <= half_a and abs(-s * dx + c * dy) <= half_a):
                    return False
        elif kd in (KIND_FLYING, KIND_FLYING_PITCHED):
            z0, vz = sp[i, S_Z], sp[i, S_VZ]
            z1 = z0 + dt * vz - 0.5 * g * dt * dt
            vz1 = vz - g * dt
            phi = 0.0
            if kd == KIND_FLYING_PITCHED:
                phi0 = sp[i, S_PHI]
                low0 = z0 - half_a * (math.cos(phi0) + math.sin(phi0) - 1.0)
                phi = phi0 + sp[i, S_RATE] * dt
                if phi >= step_kernels.QUARTER_TURN or phi < 0.0:
                    return False  # a quarter turn in the air: a tumble event
                low1 = z1 - half_a * (math.cos(phi) + math.sin(phi) - 1.0)
            else:
                low0 = z0 - 0.0
                low1 = z1
            dice = low1 <= max_top
            if not step_kernels.flight_clear(
                state, rows, i, state[r, 0], state[r, 1], low0, low1, dice, land_tops, groups,
                plats, fprm[F_HOLE_R], fprm[F_SLOP], half_a,
            ):  # fmt: skip
                return False
            size, wall_top = fprm[F_SIZE], fprm[F_WALL_TOP]
            # the band of the coming step (space.flight_base: halfway through it), set always
            # (flight._refilter sets it if it differs from the one set now: the collision
            # steps' bands, evolve._bands, may have changed it within the step)
            flat = z1 + 0.5 * dt * vz1 - 0.125 * g * dt * dt
            base = flat
            if kd == KIND_FLYING_PITCHED:  # (space.air_base: its lowest corner)
                base = step_kernels.air_low(flat, phi, sp[i, S_RATE], 0.5 * dt, half_a)
            tmp[j, 3] = _band_key(base, size, wall_top, flat)
            tmp[j, 0] = z1
            tmp[j, 1] = vz1
            tmp[j, 2] = phi
        else:
            return False
    return True


@njit(inline="always", **_JIT)
def _commit_special(addr, cand, n_cand, kind, sp, tmp, state, rows, bodies, shapes):
    """special_steps' results into the state: the pitch and flight numbers; a pitched die's
    velocity to its body and its row (pitch._kernel_step, view.patch_rows).  True if a velocity
    changed."""
    patched = False
    for j in range(n_cand):
        i = cand[2 * j]
        if kind[i] == KIND_PITCHED:
            sp[i, S_PHI] = tmp[j, 0]
            sp[i, S_RATE] = tmp[j, 1]
            vx, vy, spin = tmp[j, 2], tmp[j, 3], tmp[j, 4]
            _call_set_velocity(addr[A_SET_VEL], bodies[i], vx, vy)
            _call_ptr_double(addr[A_SET_SPIN], bodies[i], spin)
            r = rows[i]
            state[r, 3] = vx
            state[r, 4] = vy
            state[r, 5] = spin
            patched = True
        elif kind[i] == KIND_FLYING or kind[i] == KIND_FLYING_PITCHED:
            sp[i, S_Z] = tmp[j, 0]
            sp[i, S_VZ] = tmp[j, 1]
            if kind[i] == KIND_FLYING_PITCHED:
                sp[i, S_PHI] = tmp[j, 2]
            if tmp[j, 3] >= 0:
                _call_3(addr[A_SET_FILTER], shapes[i], 0, _band_bits(int(tmp[j, 3])))
    return patched


@njit(**_JIT)
def _defer_plain(
    arb_ints, arb_floats, num, first_ids, first_imp, id_sorted, id_order, special, deferred,
    n_def, t, fprm, addr, state, rows,
):  # fmt: skip
    """The first contacts of the collision step just taken, if every one is between two dice in no
    special state whose exchange is slower than a hop (flight.exchange_speed below ``hop_speed``,
    or no edge-on-edge chance at all): contacts.collect_collisions would only log them (no hop
    chance, tumble, strike or climb), so they are noted in ``deferred`` (from row ``n_def``) for
    the caller to log, and the new count is returned; else -1, nothing noted."""
    m = step_kernels.first_contacts(arb_ints, arb_floats, num, first_ids, first_imp)
    if n_def + m > deferred.shape[0]:
        return -1
    n = id_sorted.shape[0]
    for c in range(m):
        ia = step_kernels._die_index(id_sorted, id_order, first_ids[2 * c], n)
        ib = step_kernels._die_index(id_sorted, id_order, first_ids[2 * c + 1], n)
        if ia == n or ib == n or special[ia] or special[ib]:
            return -1  # a wall, or a die whose contacts need the bookkeeping
    # (no edge-on-edge chance at all: contacts.on_collision draws none, at any speed)
    if fprm[F_HOP_CHANCE] > 0.0 and not _all_slow(
        first_ids, first_imp, m, id_sorted, id_order, fprm, addr, state, rows
    ):
        return -1  # fast enough for an edge-on-edge hop's chance (contacts.on_collision)
    for c in range(m):
        row = n_def + c
        deferred[row, D_T] = t
        deferred[row, D_A] = step_kernels._die_index(id_sorted, id_order, first_ids[2 * c], n)
        deferred[row, D_B] = step_kernels._die_index(id_sorted, id_order, first_ids[2 * c + 1], n)
        deferred[row, D_J] = step_kernels.py_hypot(first_imp[2 * c], first_imp[2 * c + 1])
    return n_def + m


@njit(**_JIT)
def _all_slow(first_ids, first_imp, m, id_sorted, id_order, fprm, addr, state, rows):
    """Every one of the ``m`` first contacts (two dice each) meets slower than ``hop_speed``, by
    flight.exchange_speed from the bodies' positions and velocities now (mid-step, as
    contacts.on_collision reads them from the bodies).  They come from one batch read into the
    read state's rows, which are put back after it (the state of the step's start is what the
    rest of the step reads)."""
    saved = state.copy()
    # (its count ends as the step's start read left it: the same bodies)
    _store_i32(addr[A_RNUM], np.int32(0))
    _call_3(addr[A_EACH_BODY], addr[A_SPACE], addr[A_GET_BODIES], addr[A_RDATA])
    mass, hop_speed, e = fprm[F_MASS], fprm[F_HOP_SPEED], fprm[F_RESTITUTION]
    n = id_sorted.shape[0]
    slow = True
    for c in range(m):
        ra = rows[step_kernels._die_index(id_sorted, id_order, first_ids[2 * c], n)]
        rb = rows[step_kernels._die_index(id_sorted, id_order, first_ids[2 * c + 1], n)]
        impulse = step_kernels.py_hypot(first_imp[2 * c], first_imp[2 * c + 1])
        speed = step_kernels.exchange_speed(
            state[ra, 0], state[ra, 1], state[rb, 0], state[rb, 1], state[ra, 3], state[ra, 4],
            state[rb, 3], state[rb, 4], impulse, mass, e,
        )  # fmt: skip
        if not speed < hop_speed:
            slow = False
            break
    state[:] = saved
    return slow


@njit(**_JIT)
def run_steps(
    addr: np.ndarray,
    res: np.ndarray,
    k0: int,
    stepped: bool,
    n_sub: int,
    lead: float,
    used: int,
    ke_before: float,
    finish: bool,
    max_extra: int,
    stop_at_rest: bool,
    kick_next: bool,
    arb_ints: np.ndarray,
    pairs: np.ndarray,
    state: np.ndarray,
    rows: np.ndarray,
    flags: np.ndarray,
    wbuf: np.ndarray,
    spare: np.ndarray,
    prm: np.ndarray,
    points: np.ndarray,
    groups: np.ndarray,
    walls: np.ndarray,
    sprm: np.ndarray,
    special: np.ndarray,
    with_special: bool,
    cand: np.ndarray,
    kind: np.ndarray,
    sp: np.ndarray,
    tmp: np.ndarray,
    st: np.ndarray,
    bodies: np.ndarray,
    shapes: np.ndarray,
    q: np.ndarray,
    fprm: np.ndarray,
    max_top: float,
    land_tops: np.ndarray,
    plats: np.ndarray,
    partner: np.ndarray,
    stands: np.ndarray,
    arb_floats: np.ndarray,
    first_ids: np.ndarray,
    first_imp: np.ndarray,
    id_sorted: np.ndarray,
    id_order: np.ndarray,
    deferred: np.ndarray,
    bands: bool,
    steps_base: int,
) -> int:
    """Take collision steps ``k0..n_sub-1`` (``stepped``: the caller took step k0, look at its
    contacts only) of the model step under way (``n_sub`` of them, a
    leading one ``lead`` long if > 0; ``used`` pair entries noted so far, ``ke_before`` its kick's
    energy), then, if ``finish``, read the state and finish the step (step_kernels.
    finish_model_step), and go on with up to ``max_extra`` whole steps while nothing needs Python.
    Returns DONE, CONTACT or SUBSTEPS_DONE; ``res`` holds the values the caller needs (module
    constants R_*): the step's collision-step counts, the contact note, the end values, how many
    steps began here and how often the write buffers swapped (a step with contacts kicks the next
    into the spare, which then becomes the World's, as in evolve)."""
    dt = prm[step_kernels._P_DT]
    space = addr[A_SPACE]
    f_step, f_each_arb, f_each_body = addr[A_STEP], addr[A_EACH_ARB], addr[A_EACH_BODY]
    g_arbs, adata = addr[A_GET_ARBS], addr[A_ADATA]
    afnum, ainum = addr[A_AFNUM], addr[A_AINUM]
    wdata, wnum, sdata, snum = addr[A_WDATA], addr[A_WNUM], addr[A_SDATA], addr[A_SNUM]
    zero = np.int32(0)
    steps = 0
    swaps = 0
    specials = 0  # steps whose special dice this call stepped (their numbers are in ``sp``)
    n_def = 0  # first contacts noted in ``deferred`` for the caller to log
    k = k0
    # dice in flight take their height band at every collision step (evolve._bands): with
    # ``bands``, their kinds and their numbers in ``sp`` are the records' (pack_special, or
    # flying_entries with the flags stale)
    n_fly = 0
    if bands:
        for i in range(kind.shape[0]):
            if kind[i] == KIND_FLYING or kind[i] == KIND_FLYING_PITCHED:
                n_fly += 1
    g, size, wall_top = fprm[F_G], fprm[F_SIZE], fprm[F_WALL_TOP]
    half_a, slop = fprm[F_HALF_A], fprm[F_SLOP]
    floors = np.empty(kind.shape[0] if n_fly else 0)
    while True:
        sub = dt / n_sub if lead == 0.0 else (dt - lead) / (n_sub - 1)
        # each flying die's floor (step_kernels.flight_floor): the step's read and heights are
        # those of this call or of the step it just began, the same for all its collision steps
        for i in range(floors.shape[0]):
            if kind[i] == KIND_FLYING or kind[i] == KIND_FLYING_PITCHED:
                low = sp[i, S_Z]
                if kind[i] == KIND_FLYING_PITCHED:  # (evolve._bands: its lowest corner)
                    low = step_kernels.air_low(low, sp[i, S_PHI], sp[i, S_RATE], 0.0, half_a)
                floors[i] = step_kernels.flight_floor(
                    state, rows, i, low, land_tops, groups, half_a, slop
                )
        while k < n_sub:
            if stepped:
                stepped = False  # the caller took this collision step (pymunk's wrapper)
            else:
                if n_fly:
                    # evolve._mid_time
                    if lead == 0.0:
                        tm = (k + 0.5) * sub
                    elif k == 0:
                        tm = 0.5 * lead
                    else:
                        tm = lead + (k - 0.5) * sub
                    for i in range(kind.shape[0]):
                        if kind[i] == KIND_FLYING or kind[i] == KIND_FLYING_PITCHED:
                            flat = sp[i, S_Z] + sp[i, S_VZ] * tm - 0.5 * g * tm * tm
                            base = flat
                            if kind[i] == KIND_FLYING_PITCHED:
                                base = step_kernels.air_low(
                                    flat, sp[i, S_PHI], sp[i, S_RATE], tm, half_a
                                )
                            if base < floors[i]:
                                base = floors[i]
                            bits = _band_bits(_band_key(base, size, wall_top, max(flat, base)))
                            _call_3(addr[A_SET_FILTER], shapes[i], 0, bits)
                _call_ptr_double(f_step, space, lead if k == 0 and lead > 0.0 else sub)
            _store_i32(afnum, zero)
            _store_i32(ainum, zero)
            _call_3(f_each_arb, space, g_arbs, adata)
            num = _load_i32(ainum)
            if num:
                first, used = step_kernels.note_contacts(arb_ints, num, pairs, used)
                if first > 0 and finish:
                    # (not with the records changed since the read: the bookkeeping of a
                    # contact reads the state then, which ends the step otherwise)
                    # evolve._contact_time, for steps_base + steps begun
                    done = (k + 1) / n_sub if lead == 0.0 else (lead + k * sub) / dt
                    t = (steps_base + steps - 1 + done) * dt
                    m = _defer_plain(
                        arb_ints, arb_floats, num, first_ids, first_imp, id_sorted, id_order,
                        special, deferred, n_def, t, fprm, addr, state, rows,
                    )  # fmt: skip
                    if m >= 0:
                        n_def = m
                        first = 0
                if first != 0:
                    res[R_FIRST] = first
                    res[R_DEFERRED] = n_def
                    res[R_K] = k
                    res[R_USED] = used
                    res[R_STEPS] = steps
                    res[R_SWAPS] = swaps
                    res[R_SPECIALS] = specials
                    res[R_N_SUB] = n_sub
                    res[R_LEAD] = lead
                    res[R_KE_BEFORE] = ke_before
                    return CONTACT
            k += 1
        res[R_USED] = used
        res[R_STEPS] = steps
        res[R_SWAPS] = swaps
        res[R_SPECIALS] = specials
        res[R_DEFERRED] = n_def
        res[R_N_SUB] = n_sub
        res[R_LEAD] = lead
        res[R_KE_BEFORE] = ke_before
        if not finish:
            return SUBSTEPS_DONE
        # view.read: one batch read of every body
        _store_i32(addr[A_RNUM], zero)
        _call_3(f_each_body, space, addr[A_GET_BODIES], addr[A_RDATA])
        out = spare if used else wbuf
        code, ke_after, kicked, ke_kicked, n_next, lead_next, n_cand = (
            step_kernels.finish_model_step(
                state, rows, flags, out, prm, points, groups, walls, sprm, special,
                with_special, cand, kick_next,
            )
        )  # fmt: skip
        # the support bookkeeping, if only dice of the kinds above in their usual step (not
        # before the energy limiter, which Python runs first)
        limit = used != 0 and ke_after > ke_before
        handled = False
        if n_cand != 0 and not limit:
            handled = special_steps(
                cand, n_cand, kind, sp, tmp, st, state, rows, q, fprm, max_top, land_tops,
                groups, plats, partner, stands, steps_base + steps,
            )  # fmt: skip
            if handled:
                if _commit_special(addr, cand, n_cand, kind, sp, tmp, state, rows, bodies, shapes):
                    code = -1  # a pitched die's velocity changed: not screened (view.patch_rows)
                specials += 1
        if (
            steps >= max_extra
            or limit
            or (stop_at_rest and code >= 0 and code & step_kernels.ALL_RESTING)
            or (n_cand != 0 and not handled)
            or (n_cand == 0 and kicked < 0)
        ):
            res[R_CODE] = code
            res[R_KE_AFTER] = ke_after
            res[R_KICKED] = kicked
            res[R_KE_KICKED] = ke_kicked
            res[R_N_NEXT] = n_next
            res[R_LEAD_NEXT] = lead_next
            res[R_N_CAND] = 0 if handled else n_cand
            res[R_SPECIALS] = specials
            return DONE
        # the next step, as evolve.step begins it
        if kicked >= 0:  # with the kick pending
            if used:
                wbuf, spare = spare, wbuf
                wdata, sdata = sdata, wdata
                wnum, snum = snum, wnum
                swaps += 1
            n_sub, lead, ke_before = n_next, lead_next, ke_kicked
        else:  # a pitched die's velocity changed: count and kick from the state now
            n_sub, lead = step_kernels.swept_substeps(state, rows, groups, walls, sprm)
            kicked, ke_before = step_kernels.kick(state, rows, flags, wbuf, prm, points)
        if kicked > 0:
            _push(addr, wdata, wnum)
        steps += 1
        used = 0
        k = 0
