"""Tumbling and rolling: the pseudo-3D pitch of a die about its leading edge (physics.md s8.4;
docs/physics.md "Tumbling and rolling").

A pitched die carries (phi, rate, side): the angle it is tipped up about the leading edge of body
side ``side`` (outward normal at side * pi/2 in the die's frame), and its rate (forward > 0).  The
axis is fixed in the body for one quarter turn; the pitch's angular momentum keeps its direction
in the world (``heading``), so a die that yaws while it tumbles tips over the side then nearest
the heading at the next turn.
While pitched it is an inverted pendulum about that edge (I_e = 2/3 m a^2 for a cube): it tips over
only if its pitch energy exceeds the tip energy m g a (sqrt2 - 1)/2; its slide and spin feel only
friction at the edge (``mu_pitch``, no patch, no spin coupling; the compiled kick skips it).  At
phi = pi/2 the face changes (one ``tumble`` event), the centre advances one width and the new face
lands: a plastic impact at the new edge with Coulomb friction ``mu_landing`` (:func:`landing`),
which without slip leaves rate/4 (a cube's angular momentum about the new edge).  Below the tip
energy the die rocks back; at phi = 0 it lies flat again and what pitch energy is left is lost.

Once per model step per pitched die, after the step's collisions: a step that neither lands a face
nor lifts off (most of them) runs in one compiled call (step_kernels.pitch_step, the same operations
in the same order as the Python loop here, which takes the other steps from their start);
everything is fixed-step arithmetic, hence deterministic and bit-reproducible
(tests/physics/test_special_kernels.py).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import fastbody, flight, step_kernels, view
from .datatypes import Pitch
from .edges import pitch_tumble_rate
from .params import PhysicsParams
from .tumbles import Hit, impact, sweep, tumble

if TYPE_CHECKING:
    from .datatypes import DieRecord
    from .state import WorldState

QUARTER = 0.5 * math.pi
# Largest pitch angle (rad) one integration substep may sweep: RK4 on the pendulum is then far
# more accurate than the tip threshold tests need (each substep's energy is projected anyway),
# and a landing is found at most this far past pi/2 (under a tenth of a step's time at the rates
# that land).
MAX_SUBSTEP_ANGLE = 0.15
# At most this many quarter turns in one model step (the launch cap's highest flick turns ~0.9 rad
# per 2 ms step; the bound only keeps a pathological state from looping long).
MAX_TURNS_PER_STEP = 8
_tuple_new = tuple.__new__


# --- the mechanics (pure functions, the oracles' formulas) ---------------------------------------


def edge_inertia(p: PhysicsParams) -> float:
    """Moment of inertia of a cube about one edge, m a^2/6 + m a^2/2 = 2/3 m a^2 [derived]."""
    return 2.0 / 3.0 * p.die_mass * p.die_size**2


def tip_energy(p: PhysicsParams) -> float:
    """Energy (J) that lifts the centre of mass from a/2 over the edge to a/sqrt2 [derived]."""
    return p.die_mass * p.gravity * p.die_size * (math.sqrt(2.0) - 1.0) / 2.0


def tip_rate(p: PhysicsParams) -> float:
    """Pitch rate (rad/s) at phi = 0 whose energy is exactly the tip energy (19.5 rad/s, 16 mm):
    sqrt(2 E_tip / I_e), edges.pitch_tumble_rate."""
    return pitch_tumble_rate(p)


def lift(phi: float, p: PhysicsParams) -> float:
    """Height (m) of the centre of mass above its flat height at pitch ``phi``."""
    return 0.5 * p.die_size * (math.cos(phi) + math.sin(phi) - 1.0)


def pitch_energy(phi: float, rate: float, p: PhysicsParams) -> float:
    """Energy (J) of the pitch: rotation about the edge plus the lift of the centre of mass."""
    return 0.5 * edge_inertia(p) * rate * rate + p.die_mass * p.gravity * lift(phi, p)


def _accel(phi: float, k: float) -> float:
    # gravity's torque about the edge over I_e: (3 g / 4 a)(sin phi - cos phi) = k (...)
    return k * (math.sin(phi) - math.cos(phi))


def swing_k(p: PhysicsParams) -> float:
    """Gravity's torque about the edge over the edge inertia, per (sin phi - cos phi): 3 g / 4a
    (1/s^2; :func:`_accel`)."""
    return 0.75 * p.gravity / p.die_size


def swing(phi: float, rate: float, h: float, p: PhysicsParams) -> tuple[float, float]:
    """The pendulum about the edge over ``h`` seconds (one RK4 step), its energy projected back
    onto the start's (the rate's size follows from the energy; never more energy than before)."""
    k = swing_k(p)
    k1p, k1v = rate, _accel(phi, k)
    k2p, k2v = rate + 0.5 * h * k1v, _accel(phi + 0.5 * h * k1p, k)
    k3p, k3v = rate + 0.5 * h * k2v, _accel(phi + 0.5 * h * k2p, k)
    k4p, k4v = rate + h * k3v, _accel(phi + h * k3p, k)
    phi1 = phi + h * (k1p + 2 * k2p + 2 * k3p + k4p) / 6
    rate1 = rate + h * (k1v + 2 * k2v + 2 * k3v + k4v) / 6
    left = pitch_energy(phi, rate, p) - p.die_mass * p.gravity * lift(phi1, p)
    if left <= 0.0:
        return phi, 0.0  # past the turning point: stop there (gravity turns it next substep)
    return phi1, math.copysign(math.sqrt(2.0 * left / edge_inertia(p)), rate1)


def landing(rate: float, u: float, p: PhysicsParams) -> tuple[float, float]:
    """(rate', u') after the new face lands: ``rate`` the pitch rate at phi = pi/2, ``u`` the
    leading edge's slide (m/s, along the tip direction).  A plastic impact at the new edge with
    Coulomb friction mu_landing (rigid cube, I_cm = m a^2/6; impulses per unit mass n normal,
    f along): it sticks if |f| <= mu n, then rate' = rate/4 + 3u/(4a) and u' = 0, else it slips
    with f = -mu n sign(slip).  Never more of the model's energy (1/2 u^2 + 1/2 I_e/m rate^2) than
    before: a slipping landing that would show more is scaled back (docs/physics.md)."""
    return step_kernels.face_landing(rate, u, p.mu_landing, p.die_size)


def centre_landing(rate: float, v: float, p: PhysicsParams) -> tuple[float, float]:
    """(rate', v') after the new face lands, ``v`` the centre's slide along the tip direction (the
    body's velocity, as the strike, the edge's friction, the slap and flight all take it): the
    edge slides at v - rate a/2 at the quarter turn, :func:`landing` acts on that, and the centre
    then moves at the new edge's slide plus rate' a/2 (model 0.17; models 0.15-0.16 gave the
    landing the centre's slide as the edge's, and a die tumbling on the board gained the pitch's
    rate a/2 of slide at each landing: docs/physics.md "Rocking on the edge")."""
    return step_kernels.centre_landing(rate, v, p.mu_landing, p.die_size)


def trip_rate(v: float, step: float, p: PhysicsParams) -> float:
    """Pitch rate (rad/s) a die keeps after tumbling over an edge ``step`` above its base at
    ``v``: the rotation left at the landing (edges.speed_after_trip's energy ``left``, about the
    trip edge, k^2 as there) landing without slip, rate/4, and at most the (1 -
    tumble_energy_retained) share of ``left`` the translation rule does not keep."""
    a = p.die_size
    h = a / 2 - step
    if h <= 0:
        return 0.0
    k2 = a * a / 6 + (a / 2) ** 2 + h * h
    left = 0.5 * v * v * h * h / k2 - p.gravity * step  # per unit mass
    if left <= 0.0:
        return 0.0
    rate = 0.25 * math.sqrt(2.0 * left / k2)
    return min(rate, math.sqrt(3.0 * (1.0 - p.tumble_energy_retained) * left) / a)


# --- the World's side ------------------------------------------------------------------------


def start(w: WorldState, d: DieRecord, body_dir: float, rate: float, cause: str) -> None:
    """Tip ``d`` up towards ``body_dir`` (radians in its frame, snapped to a side) at ``rate``;
    a die already pitched that way gains the rate, one pitched another way is replaced."""
    if rate <= 0.0 or d.fall_time is not None:
        return
    side = round(body_dir / QUARTER) % 4
    heading = math.remainder(d.body.angle + side * QUARTER, 2 * math.pi)
    old = d.pitch
    if old is None and not d.airborne:
        d.kicked_step = w.steps  # (a flick comes before its step: steps is the last one's)
    if old is not None and old.side == side:
        d.pitch = Pitch(old.phi, old.rate + rate, side, old.heading, old.cause)
    else:
        d.pitch = Pitch(0.0, rate, side, heading, cause)
    view.mark(w, d)  # the kernels' flags: a pitched die gets no patch friction


def _consts(w: WorldState) -> tuple[float, ...]:
    """step_die's per-parameter constants, each computed exactly as the functions above compute
    it inline (so the fused loop's arithmetic is bit for bit theirs); kept on the World beside
    the parameters they came from."""
    p = w.params
    cached = w.__dict__.get("_pitch_consts")
    if cached is not None and cached[0] is p:
        return cached[1]
    consts = (
        edge_inertia(p),
        0.5 * edge_inertia(p),  # pitch_energy's first factor
        p.die_mass * p.gravity,  # pitch_energy's second factor
        0.5 * p.die_size,  # lift's and rise_rate's factor
        swing_k(p),
        tip_rate(p),
        0.25 * math.pi,  # flight.lifts_off's bound
    )
    q = step_kernels.pitch_params(
        dt=p.step, a=p.die_size, g=p.gravity, mu_pitch=p.mu_pitch, hop_lift=p.hop_lift,
        hop_min_speed=p.hop_min_speed, max_angle=MAX_SUBSTEP_ANGLE / p.refine, consts=consts,
        prm=w._prm, i_edge_per_mass=edge_inertia(p) / p.die_mass,
    )  # fmt: skip
    w._pitch_consts = (p, consts, q, np.zeros(step_kernels.N_PITCH_STATE))
    return consts


def _consts_array(w: WorldState) -> np.ndarray:
    """step_kernels.pitch_step's parameter vector for ``w`` (:func:`_consts`'s)."""
    _consts(w)
    return w._pitch_consts[2]


def _kernel_step(w: WorldState, d: DieRecord, pt: Pitch) -> bool | None:
    """The step in one compiled call (step_kernels.pitch_step) unless it lands a face or lifts
    off: then None, and step_die's Python loop takes the step from the start."""
    _, _, q, st = w._pitch_consts
    b = d.body
    vx, vy, spin = fastbody.motion(b)
    st[0], st[1], st[2], st[3], st[4] = pt.phi, pt.rate, vx, vy, spin
    st[5], st[6] = b.position
    st[7] = 1.0 if _on_dish(w, d) else 0.0
    code = step_kernels.pitch_step(st, q)
    if code == step_kernels.PITCH_PYTHON:
        return None
    phi, rate, vx, vy, spin = st.tolist()[:5]
    fastbody.set_motion(b, vx, vy, spin)
    if code == step_kernels.PITCH_ON:
        # a Pitch built as its named-tuple constructor does, minus that call's frame
        d.pitch = _tuple_new(Pitch, (phi, rate, pt.side, pt.heading, pt.cause))
        # only this body's velocity changed: its row is patched after the bookkeeping instead of
        # a read of every body (view.patch_rows)
        w._row_patch.append((d, vx, vy, spin))
        return False
    w._current = False
    d.pitch = None
    d.fresh = True  # (step_die's end)
    view.mark(w, d)
    return True


def step_die(w: WorldState, d: DieRecord, span: float = 0.0) -> bool:
    """Advance ``d``'s pitch over one model step (after the step's collisions), or over the
    last ``span`` seconds of it (a die that landed on its edge within the step); True if the
    kernels' flags must be rebuilt (the pitch ended).  The velocity, the jumps and the face are
    written to the body; the step's pending kick is dropped (``_current``) so the next step
    reads them.  A die that ends the step flat again gets a half friction kick first
    (``fresh``): its velocity is the step's end's, and the flat die's kicks are leapfrog-staggered
    half a step (physics/evolve.py); a whole kick there lost half a step's spin for the rest of
    the slide, 4-9 deg of rest angle at the default step after a long spin.

    The substeps are :func:`swing`, :func:`pitch_energy` and :func:`flight.lifts_off` fused by
    hand (the same operations in the same order, each phi's sine and cosine taken once), first
    in one compiled call (:func:`_kernel_step`); tests/physics/test_special_kernels.py holds the
    kernel to the unfused functions bit for bit."""
    p = w.params
    pt = d.pitch
    if pt is None:
        return False
    b = d.body
    if d.fall_time is not None or b is None:
        d.pitch = None  # over the hole: the fall takes over
        view.mark(w, d)
        return True
    i_e, half_i, mg, half_a, k, tip, eighth = _consts(w)
    done = _kernel_step(w, d, pt) if span == 0.0 else None
    if done is not None:
        return done
    if _on_dish(w, d):
        pt = _slope_paid(w, d, pt, span if span > 0.0 else p.step)
    g = p.gravity
    phi, rate, side = pt.phi, pt.rate, pt.side
    vx, vy = fastbody.velocity(b)
    spin = b.angular_velocity
    h_all = span if span > 0.0 else p.step
    n = max(1, math.ceil(h_all * (abs(rate) + tip) / (MAX_SUBSTEP_ANGLE / p.refine)))
    h = h_all / n
    hh = 0.5 * h
    # the edge's friction per substep, per unit of its load (m/s^2): speed lost, and spin (a line
    # contact a long, evenly loaded: friction torque mu N a/4 on I = m a^2/6)
    mu_h = p.mu_pitch * h
    spin_mu_h = 1.5 * p.mu_pitch / p.die_size * h
    turns = 0
    pitched = True
    sin, cos, sqrt, copysign = math.sin, math.cos, math.sqrt, math.copysign
    s0, c0 = sin(phi), cos(phi)
    for i in range(n):
        # flight.lifts_off(phi, rate, p) and hop_lift * flight.rise_rate(phi, rate, p) > ...,
        # at each substep's start: a die struck or landed at a rate that lifts it leaves at once
        # (phi 0), not a substep later (a substep's angle shrinks with refine: physics.md s9.2)
        if (
            rate > 0.0
            and phi < eighth
            and g - half_a * (c0 + s0) * rate * rate < 0.0
            and p.hop_lift * (half_a * (c0 - s0) * rate) > p.hop_min_speed
        ):
            # the board would have to pull the edge down: the die leaves it (physics/flight.py),
            # keeping hop_lift of its turn about the edge (the rounded edge rolls, the lacquer
            # gives: docs/physics.md "Hops and flight")
            d.pitch = Pitch(phi, p.hop_lift * rate, side, pt.heading, pt.cause)
            b.velocity = (vx, vy)
            b.angular_velocity = spin
            # it left at this substep's start, h_all - i h before the step's end: it has flown
            # since (at the default step a die lifting off its edge mid-step flew up to a step
            # late, 1.8 ms in the high break's striker)
            flight.launch(w, d, p.hop_lift * (half_a * (c0 - s0) * rate), ahead=h_all - i * h)
            return True
        # the edge carries the pivot's own normal force, not the weight (flight.pivot_load)
        load = g * (1.0 - 0.375 * ((c0 - s0) * (c0 - s0))) - half_a * (c0 + s0) * rate * rate
        load = max(0.0, load)
        vx, vy, spin = _rub(vx, vy, spin, mu_h * load, spin_mu_h * load)
        # swing(phi, rate, h, p)
        k1p, k1v = rate, k * (s0 - c0)
        q = phi + hh * k1p
        k2p, k2v = rate + hh * k1v, k * (sin(q) - cos(q))
        q = phi + hh * k2p
        k3p, k3v = rate + hh * k2v, k * (sin(q) - cos(q))
        q = phi + h * k3p
        k4p, k4v = rate + h * k3v, k * (sin(q) - cos(q))
        phi1 = phi + h * (k1p + 2 * k2p + 2 * k3p + k4p) / 6
        rate1 = rate + h * (k1v + 2 * k2v + 2 * k3v + k4v) / 6
        s1, c1 = sin(phi1), cos(phi1)
        left = (
            half_i * rate * rate + mg * (half_a * (c0 + s0 - 1.0)) - mg * (half_a * (c1 + s1 - 1.0))
        )
        phi_before = phi
        if left <= 0.0:
            rate = 0.0  # past the turning point: stop there (gravity turns it next substep)
        else:
            phi, rate, s0, c0 = phi1, copysign(sqrt(2.0 * left / i_e), rate1), s1, c1
        if phi <= 0.0 and rate <= 0.0:
            # rocked back: flat again, the pitch energy lost on the slap, whose impulse (the
            # centre's fall) brings the edge's friction (flight.slap_friction)
            pitched = False
            fall = half_a * (c0 - s0) * -rate
            vx, vy, spin = _rub(
                vx, vy, spin, p.mu_pitch * fall, 1.5 * p.mu_pitch / p.die_size * fall
            )
            break
        if phi >= QUARTER:
            # landed (a substep sweeps at most MAX_SUBSTEP_ANGLE): at the rate the pitch's
            # energy gives at exactly pi/2 (no lift there), the overshoot dropped
            turns += 1
            energy = half_i * rate * rate + mg * (half_a * (c0 + s0 - 1.0))
            land_rate = sqrt(2.0 * energy / i_e)
            # when in the step it landed (the body's pose is the step's end): pi/2 reached
            # that far into the substep
            f = (QUARTER - phi_before) / (phi - phi_before) if phi > phi_before else 1.0
            back = h_all - (i + min(f, 1.0)) * h
            vx, vy, rate, blocked, at = _land(w, d, side, vx, vy, land_rate, pt.cause, spin, back)
            phi = 0.0
            s0, c0 = sin(phi), cos(phi)
            side = round((pt.heading - at) / QUARTER) % 4  # the next edge under the heading
            if blocked or rate <= 0.0 or turns >= MAX_TURNS_PER_STEP:
                pitched = False  # lies flat on the new face (or fell back, blocked)
                break
    d.pitch = Pitch(phi, rate, side, pt.heading, pt.cause) if pitched else None
    b.velocity = (vx, vy)
    b.angular_velocity = spin
    w._current = False
    if d.pitch is None:
        d.fresh = True
        view.mark(w, d)
        return True
    return False


def until_contact(
    w: WorldState, d: DieRecord, pt: Pitch, vx: float, vy: float, elapsed: float
) -> tuple[float, float, float, float]:
    """(phi, rate, vx, vy) of ``d``, pitched ``pt`` on the board at the step's start and sliding
    at (vx, vy) then, ``elapsed`` s into the step, where it meets a die (pitched_strike.pitched_strike):
    the pitch step's work over that part of the step, which its own run at the step's end would do
    (its slide pays the dish's rise, the edge's friction at the pivot's load, the pendulum's swing).
    A die that leaves the board at the contact takes no pitch step in this step; at the default
    step the high break's striker left its edge up to a step's friction and swing early (its hop
    0.12 % faster and its turn 0.07 rad/s slower than refine 8's, and a tumbling die's landings go
    far apart after 0.3 s of flight: model 0.17)."""
    p = w.params
    rate = pt.rate
    if _on_dish(w, d):
        x, y = d.body.position  # (where the collision step left it: the contact)
        vx, vy, rate = step_kernels.climb_paid(
            x - vx * elapsed, y - vy * elapsed, x, y, vx, vy, rate, w._prm,
            edge_inertia(p) / p.die_mass,
        )  # fmt: skip
    load = flight.pivot_load(pt.phi, rate, p)
    vx, vy, _ = _rub(vx, vy, 0.0, p.mu_pitch * elapsed * load, 0.0)
    phi, rate = swing(pt.phi, rate, elapsed, p)
    return phi, rate, vx, vy


def _on_dish(w: WorldState, d: DieRecord) -> bool:
    """Whether the pitch step pays the dish's rise under ``d``: on the board, not on or stepping
    off a platform's top (the lone-die kernel's where[0] and where[1] both < 0), nor on a die, and
    not tipped up in this step after its kick gave it the slope's force for the step."""
    return d.level is None and d.straddle is None and d.on_die is None and d.kicked_step != w.steps


def _slope_paid(w: WorldState, d: DieRecord, pt: Pitch, h_all: float) -> Pitch:
    """The pitch after the die's slide has paid the dish's rise over the ``h_all`` seconds it
    moved on the board in this step (from its position less its velocity times ``h_all``; or been
    paid by its fall): step_kernels.climb_paid, as the compiled step_kernels.pitch_step pays it
    first (the lone-die kernel the same).
    The kick, which gives a flat die the slope's force, skips a pitched die; the weight's friction
    hid that until the edge carried its own normal force (model 0.17), and a die turning fast on
    its edge then climbed the dish for nothing (2-3 uJ a step in test_energy_steps' seed 5991)."""
    b = d.body
    x, y = b.position
    vx, vy = fastbody.velocity(b)
    p = w.params
    x0, y0 = x - vx * h_all, y - vy * h_all
    vx1, vy1, rate = step_kernels.climb_paid(
        x0, y0, x, y, vx, vy, pt.rate, w._prm, edge_inertia(p) / p.die_mass
    )
    if vx1 != vx or vy1 != vy:
        b.velocity = (vx1, vy1)
    if rate != pt.rate:
        pt = Pitch(pt.phi, rate, pt.side, pt.heading, pt.cause)
        d.pitch = pt
    return pt


def _rub(vx: float, vy: float, spin: float, dv: float, dspin: float) -> tuple[float, float, float]:
    """The edge's friction: ``dv`` of slide and ``dspin`` of spin taken, neither past zero
    (step_kernels.rub, the same operations)."""
    v = math.hypot(vx, vy)
    scale = max(0.0, v - dv) / v if v > 0.0 else 0.0
    return vx * scale, vy * scale, math.copysign(max(0.0, abs(spin) - dspin), spin)


def _land(
    w: WorldState,
    d: DieRecord,
    side: int,
    vx: float,
    vy: float,
    rate: float,
    cause: str,
    spin: float,
    back: float,
) -> tuple[float, float, float, bool, float]:
    """A completed quarter turn ``back`` seconds before the step's end: the face changes, the
    centre jumps one width (up to the first die or platform wall in the way, physics.md s8.2)
    and the new face lands.  Blocked before half the jump, the die cannot turn over: it falls
    back flat (rate 0) and strikes what it met.  Also returns the body's angle at the landing.

    The jump goes along the body's side as it was at the landing, not at the step's end: a die
    spinning at 200 rad/s turns 0.4 rad in a 2 ms step, and the jump's direction with it (the
    first-order error in dt of landing at step resolution, physics.md s9.2).  Landed, it moves
    on at its new velocity for the rest of the step."""
    p = w.params
    b = d.body
    at = b.angle - spin * back
    ang = at + side * QUARTER
    cx, cy = math.cos(ang), math.sin(ang)
    move = (p.die_size * cx, p.die_size * cy)
    hit = sweep(w, d, move, walls=True)
    s = 1.0 if hit is None else hit.s
    if hit is not None and s < 0.5:
        vx, vy = _strike(w, d, hit, vx, vy)
        return vx, vy, 0.0, True, at
    tumble(w, d, side * QUARTER, cause)
    u = vx * cx + vy * cy
    rate1, u1 = centre_landing(rate, u, p)
    vx1, vy1 = vx + (u1 - u) * cx, vy + (u1 - u) * cy
    if hit is not None:
        vx1, vy1 = _strike(w, d, hit, vx1, vy1)
    # from the landing on, at the new velocity (the step's collisions moved it at the old one)
    x, y = b.position
    x1, y1 = x + s * move[0] + (vx1 - vx) * back, y + s * move[1] + (vy1 - vy) * back
    if d.level is None:
        vx1, vy1, rate1 = _climb_paid(w, x, y, x1, y1, vx1, vy1, rate1)
        x1, y1 = x + s * move[0] + (vx1 - vx) * back, y + s * move[1] + (vy1 - vy) * back
    b.position = (x1, y1)
    w.space.reindex_shapes_for_body(b)
    w._moved.add(d)  # its batch row is stale (view.read)
    return vx1, vy1, rate1, False, at


def _climb_paid(
    w: WorldState, x: float, y: float, x1: float, y1: float, vx: float, vy: float, rate: float
) -> tuple[float, float, float]:
    """(vx, vy, rate) once a quarter turn's jump from (x, y) to (x1, y1) has paid the dish's
    rise between them (m g dh: out of the slide, then the pitch), or been paid by its fall (into
    the slide, along it): step_kernels.climb_paid, which the lone-die kernel shares.  The jump is
    the turn's whole roll at once: a die tumbling outward climbs up to 0.4 mm of dish per turn,
    17 uJ, which the landing otherwise made (0.75 uJ over the landing's loss in one step of
    test_energy_steps' seed 2001, at mu_landing 0.25)."""
    p = w.params
    return step_kernels.climb_paid(x, y, x1, y1, vx, vy, rate, w._prm, edge_inertia(p) / p.die_mass)


def _strike(w: WorldState, d: DieRecord, hit: Hit, vx: float, vy: float) -> tuple[float, float]:
    """The die, stopped by a jump against a die or a platform wall, strikes it: a die impact
    (tumbles.impact), or the motion into the wall stops."""
    nx, ny = hit.normal
    if hit.other is not None:
        d.body.velocity = (vx, vy)
        impact(w, d, hit.other, hit.normal)
        vx, vy = d.body.velocity
        return vx, vy
    vn = vx * nx + vy * ny
    if vn > 0.0:
        vx, vy = vx - vn * nx, vy - vn * ny
    return vx, vy
