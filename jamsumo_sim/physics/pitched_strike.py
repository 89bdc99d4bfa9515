"""A die standing on its edge that meets a die (physics.md s8.5; docs/physics.md "Hops and flight"):
the tilted impact at its front face lifts it, from its state at the contact (its pitch step's work
until then: pitch.until_contact), and it hops (flight.launch) or stays on its edge.  Apart from
flight and pitch, which it uses both of (pitch launches through flight)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import fastbody, view
from .datatypes import DieRecord, Pitch
from .flight import (
    FLAT_PITCH,
    QUARTER,
    base_height,
    launch,
    lift,
    pre_contact,
    tilted_impact,
)
from .pitch import until_contact

if TYPE_CHECKING:
    from .state import WorldState


def pitched_strike(
    w: WorldState,
    s: DieRecord,
    t: DieRecord,
    elapsed: float,
    impulse: float,
    jvec: tuple[float, float] | None = None,
) -> bool:
    """``s``, pitched forward (on the board or in the air, physics.md s8.5 "pitched strikers"),
    met ``t`` standing in front of it ``elapsed`` s into the step: the impact along s's tilted
    front face (:func:`tilted_impact`, at its pitch then, from the velocities just before the
    contact: now less its impulse, :func:`pre_contact`) replaces the
    solver's flat one along the line of centres; s rises (a hop if it was on the board).  True if
    it applied.  (From the step's start, at the default step a die pushed on within the step lost
    that push: in a centred break a pitched die struck the next one at 1.1 m/s where refine 8 has
    2.4, and the pitch read at the step's start missed a pitch begun within it.)"""
    pt = s.pitch
    if pt is None or t.airborne or t.pitch is not None:
        return False
    # its pitch when it met t, ``elapsed`` into the step (the step's pitch or flight step turns it
    # only at the step's end): a die tumbling at 66 rad/s turns 0.13 rad in 2 ms, and one struck
    # within the step starts below flat (contacts._started_at)
    phi, rate = pt.phi + pt.rate * elapsed, pt.rate
    # on its edge since the step's start, its pitch step's work until the contact (its edge's
    # friction, the dish, the swing: pitch.until_contact), as its own step does it at the step's
    # end; a die that leaves at the contact takes no pitch step in this step
    before = not s.airborne and pt.phi > 0.0 and elapsed > 0.0
    if s.airborne:
        phi %= QUARTER
    if phi <= FLAT_PITCH:
        return False
    if s.level != t.level or s.fall_time is not None or t.fall_time is not None:
        return False
    (sx, sy), (tx, ty) = fastbody.position(s.body), fastbody.position(t.body)
    dist = math.hypot(tx - sx, ty - sy)
    if dist == 0.0:
        return False
    nx, ny = (tx - sx) / dist, (ty - sy) / dist
    if nx * math.cos(pt.heading) + ny * math.sin(pt.heading) <= 0.0:
        return False  # t is not in front of the tipped face
    if w._dirty:
        view.read(w)
    # the pair just before this contact: now, less the contact's impulse (the step's earlier
    # contacts, another die's push within the step, stay in it); the spins the step's start's
    # (view.pre_vc's rows): the contact's friction may have spun them up, and the energy held
    # below must be no more than the pair had
    (sx0, sy0), (tx0, ty0) = pre_contact(s, t, nx, ny, impulse, jvec, w.params.die_mass)
    # found at the end of a collision step, they met up to a swept depth before it: the contact's
    # time (its pitch, the launch's time and height) is that, not the collision step's end (at the
    # default step the high break's striker left 0.06 ms late, 0.15 mm on)
    tau = _met_before(s, t, complex(sx0, sy0), complex(tx0, ty0), elapsed)
    met = elapsed - tau
    rub = (0.0, 0.0)  # the pitch step's change of its slide before the contact
    if before and met > 0.0:
        phi, rate, sx1, sy1 = until_contact(w, s, pt, sx0, sy0, met)
        rub = (sx1 - sx0, sy1 - sy0)
        sx0, sy0 = sx1, sy1
    else:
        phi = pt.phi + pt.rate * met
        if s.airborne:
            phi %= QUARTER
    if phi <= FLAT_PITCH:
        return False
    ps, pt_ = complex(sx0, sy0), complex(tx0, ty0)
    pair = w._wbuf[w._rows[[w._index[s.id], w._index[t.id]]]]
    vz_s = 0.0
    if s.airborne:  # (its rise then)
        vz_s = s.vz - w.params.gravity * met
    out = tilted_impact(phi, ps.real * nx + ps.imag * ny, vz_s, pt_.real * nx + pt_.imag * ny,
                        w.params.restitution)  # fmt: skip
    if out is None:
        return False
    u_s, vz_s1, u_t = out
    m, inertia = w.params.die_mass, w._inertia
    spins = pair[:, 2]
    e0 = 0.5 * m * (abs(ps) ** 2 + abs(pt_) ** 2 + vz_s * vz_s)
    e0 += 0.5 * inertia * float(spins[0] ** 2 + spins[1] ** 2)
    # the same pair struck again within the step: no more than it held after the last strike.  The
    # tilted impact turns much of the blow upward, the planar solver finds the pair still closing
    # and meets it again, and "now less the impulse" counted that solver's push as motion the pair
    # had (a die falling onto a die's edge: 10 mJ to 33 mJ in three contacts of one step)
    pair_key = (s.id, t.id) if s.id <= t.id else (t.id, s.id)
    if w._struck[0] != w.steps:
        w._struck = (w.steps, {})
    held = w._struck[1].get(pair_key)
    if held is not None:
        e0 = min(e0, held)
    if rub != (0.0, 0.0):
        vx, vy = s.body.velocity
        s.body.velocity = (vx + rub[0], vy + rub[1])
    for d, u in ((s, u_s), (t, u_t)):  # the solver's part across the normal stays
        vx, vy = d.body.velocity
        along = vx * nx + vy * ny
        d.body.velocity = (vx + (u - along) * nx, vy + (u - along) * ny)
    vz_s1 = _no_energy_made(s, t, vz_s1, e0, m, inertia)
    w._struck[1][pair_key] = _pair_energy(s, t, m, inertia) + 0.5 * m * vz_s1 * vz_s1
    _met_earlier(s, t, ps, pt_, spins, tau)
    w._current = False
    if s.airborne:
        # the new rise from the contact on (``elapsed`` into the step): the coming flight step
        # integrates the whole step from the step's start at the speed that has vz_s1 then
        vz0 = vz_s1 + w.params.gravity * met
        s.z -= (vz0 - s.vz) * met
        s.vz = vz0
    elif vz_s1 > w.params.hop_min_speed:
        # it leaves at the contact, ``elapsed`` into the step (from the step's start, at the
        # default step a striker met late in a step rose up to a step early: the high breaks'
        # displacement +1.2 % against refine 8, KS p 0.005), from its pitch and height then, and
        # turning at its rate then: the flight step turns it over the whole step, so its pitch is
        # put at the step's start on that line (as launch puts its height)
        if before:
            s.pitch = Pitch(phi - rate * met, rate, pt.side, pt.heading, pt.cause)
        z = base_height(w, s) + lift(phi, w.params)
        launch(w, s, vz_s1, z=z, elapsed=met, at=w.time - w.params.step + met)
    elif rub != (0.0, 0.0):
        # it stays on its edge: its pitch step takes the whole step, that friction with it
        vx, vy = s.body.velocity
        s.body.velocity = (vx - rub[0], vy - rub[1])
    return True


def _met_before(s: DieRecord, t: DieRecord, vs: complex, vt: complex, most: float) -> float:
    """How long (s, at most ``most``) before the end of the collision step that found it the
    pair's contact began: it was found up to a swept distance deep (0.25 mm at the default step, a
    32nd of that at refine 8), depth / closing speed (``vs``, ``vt``: their velocities before it)."""
    found = s.shape.shapes_collide(t.shape)
    if not found.points:
        return 0.0
    depth = max(-p.distance for p in found.points)
    nx, ny = found.normal
    closing = (vs.real - vt.real) * nx + (vs.imag - vt.imag) * ny
    if depth <= 0.0 or closing <= 0.0:
        return 0.0
    return min(depth / closing, most)


def _met_earlier(s: DieRecord, t: DieRecord, vs: complex, vt: complex, spins, tau: float) -> None:
    """The pair met ``tau`` s before the end of the collision step that found its contact
    (:func:`_met_before`), and has moved since at its new velocities, not the old ones.  Chipmunk
    pushes such an overlap out only slowly, so without this a striker kept up to a sweep's depth
    closer to the die it met (at the default step it met that die again as it rose over it)."""
    if tau <= 0.0:
        return
    for d, v0, w0 in ((s, vs, spins[0]), (t, vt, spins[1])):
        b = d.body
        (x, y), (vx, vy) = b.position, b.velocity
        b.position = (x + (vx - v0.real) * tau, y + (vy - v0.imag) * tau)
        b.angle = b.angle + (b.angular_velocity - float(w0)) * tau


def _pair_energy(s: DieRecord, t: DieRecord, m: float, inertia: float) -> float:
    """The pair's slide and spin energy (J)."""
    e = 0.0
    for d in (s, t):
        (vx, vy), om = d.body.velocity, d.body.angular_velocity
        e += 0.5 * m * (vx * vx + vy * vy) + 0.5 * inertia * om * om
    return e


def _no_energy_made(
    s: DieRecord, t: DieRecord, vz: float, e0: float, m: float, inertia: float
) -> float:
    """The tilted impact's rise with the solver's spin and friction changes could show more
    energy than the pair had before the step's contacts (``e0``): the pair's motion about its
    mean velocity and the spins are scaled down (momentum kept, as
    contacts.limit_contact_energy does), the rise kept; only if the rise alone is more than the
    pair had over its mean motion does it give up the rest.  Returns the rise kept.

    The rise is the impact law's (tilted_impact, checked against the 3D reference), the flat
    motion's excess the planar solver's: its flat contact meets the block die's corner a few mm
    off the line of centres and spins both dice up (~110 rad/s each in the high break's strike),
    by an amount that moves with the collision step.  Paid out of the rise, that made the
    striker's hop converge at first order (1.3409 / 1.3328 / 1.3287 / 1.3267 m/s at refine
    1 / 2 / 4 / 8, 60 high breaks); paid out of the flat motion, it is 1.4326-1.4327 at every
    refine.  Paid out of the spins alone, the struck die spun at the same rate at every refine
    but the block around it moved at first order (a neighbour pushed 12 mm at the default step,
    2.5 mm at refine 8, in half the breaks)."""
    flat = _pair_energy(s, t, m, inertia)
    if flat + 0.5 * m * vz * vz <= e0:
        return vz
    (ax, ay), (bx, by) = s.body.velocity, t.body.velocity
    cx, cy = 0.5 * (ax + bx), 0.5 * (ay + by)
    ke_cm = m * (cx * cx + cy * cy)
    room = e0 - 0.5 * m * vz * vz - ke_cm  # what the motion about the mean may keep
    if room < 0.0:  # not even with none of it: the rise takes what is left
        vz = math.sqrt(max(0.0, 2.0 * (e0 - ke_cm) / m))
        room = 0.0
    f = math.sqrt(room / (flat - ke_cm)) if flat > ke_cm else 0.0
    for d, (vx, vy) in ((s, (ax, ay)), (t, (bx, by))):
        d.body.velocity = (cx + f * (vx - cx), cy + f * (vy - cy))
        d.body.angular_velocity = f * d.body.angular_velocity
    return vz
