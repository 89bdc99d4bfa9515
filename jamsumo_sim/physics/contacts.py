"""What the collision steps produced: first contacts as ``collision`` events in an order fixed by the
dice ids, platform climbs and impact tumbles they trigger, and the energy limiter for groups of
touching dice."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import fastbody, flight, pitch, pitched_strike, platforms, step_kernels, view
from .datatypes import DieRecord, Pitch
from .edges import strike_pitch_rate
from .events import COLLISION, Event

if TYPE_CHECKING:
    from .params import PhysicsParams
    from .state import WorldState


def grow_pairs(w: WorldState, num: int, used: int) -> tuple[int, int]:
    """``w._pairs`` was too short for this collision step's arbiters: double it and note them."""
    size = max(2 * len(w._pairs), used + 2 * num)
    pairs = np.zeros(size, dtype=np.uintp)
    pairs[:used] = w._pairs[:used]
    w._pairs = pairs
    return step_kernels.note_contacts(w._arb_ints, num, pairs, used)


def collect_collisions(w: WorldState, t: float) -> None:
    """First contacts of the collision step just taken (the cached arbiters in ``w._abuf``) as
    collision events (tumbles, platform climbs)."""
    num = w._abuf._int_arr.num
    # only the first contacts (a few of the cached arbiters: one compiled pass finds them), as
    # plain numbers read before a re-indexing read could re-size the buffers
    m = step_kernels.first_contacts(w._arb_ints, w._arb_floats, num, w._first, w._first_imp)
    ids = w._first[: 2 * m].tolist()
    imp = w._first_imp[: 2 * m].tolist()
    if w._dirty:
        view.read(w)
    by_body = w._by_body
    # Chipmunk lists cached arbiters in hash order (pointer-based, differs between processes):
    # handle first contacts in an order fixed by the dice ids, so the event log is reproducible
    todo = []
    for k in range(0, 2 * m, 2):
        a = by_body.get(ids[k])
        b = by_body.get(ids[k + 1])
        if a is None:
            a, b = b, None
        if a is None:
            continue
        if b is None:
            key: tuple[str, ...] = (a.id,)
        elif a.id <= b.id:
            key = (a.id, b.id)
        else:
            key = (b.id, a.id)
        todo.append((key, math.hypot(imp[k], imp[k + 1]), a, b, (imp[k], imp[k + 1])))
    if len(todo) > 1:
        todo.sort(key=_by_key_and_impulse)
    for key, j, a, b, jvec in todo:
        if b is not None:
            w.events.append(Event(t, COLLISION, key, {"impulse": j, "kind": "die"}))
            if a.level != b.level or a.fall_time is not None or b.fall_time is not None:
                impact_tumbles(w, a, b, j, _elapsed(w, t))
            on_collision(w, a, b, j, t, jvec)  # hops, and hits between dice off the surface
        else:
            plat = platforms.nearest_platform(w, a)
            w.events.append(
                Event(
                    t,
                    COLLISION,
                    key,
                    {"impulse": j, "kind": "wall", "platform": plat.name if plat else None},
                )
            )
            if plat is not None and a.level is None and a.fall_time is None:
                platforms.maybe_climb(w, a, plat)


def _elapsed(w: WorldState, t: float) -> float:
    """How far (s) into the model step a contact reported at ``t`` happened (the World's time
    is the step's end while its collision steps run)."""
    return max(0.0, w.params.step - (w.time - t))


def log_deferred(w: WorldState, rows: list[list[float]]) -> None:
    """Collision events for first contacts the compiled steps noted (physics/compiled_steps
    ``_defer_plain``: two dice in no special state, slower than a hop's chance; (time, die a,
    die b, impulse) rows in time order), as collect_collisions logs them: per collision step in
    the order of the dice ids, then the impulse."""
    order = w._order
    k = 0
    n = len(rows)
    while k < n:
        t = rows[k][0]
        todo = []
        while k < n and rows[k][0] == t:
            _, ia, ib, j = rows[k]
            a, b = order[int(ia)], order[int(ib)]
            key = (a.id, b.id) if a.id <= b.id else (b.id, a.id)
            todo.append((key, j))
            k += 1
        if len(todo) > 1:
            todo.sort(key=_by_key_and_impulse)
        for key, j in todo:
            w.events.append(Event(t, COLLISION, key, {"impulse": j, "kind": "die"}))


def _by_key_and_impulse(item: tuple) -> tuple:
    return item[0], item[1]


def base_height(w: WorldState, d: DieRecord, elapsed: float = 0.0) -> float:
    """Height of a die's base above the board ``elapsed`` s into the step: platform top, or below
    it while falling; a die in flight where its flight is then (its z and vz are the step's
    start's until the step's flight step: a die launched ``elapsed`` into the step starts below
    its launch point, flight.launch)."""
    if d.airborne:
        # (a pitched die's tilt is left out, as on the board)
        return d.z + (d.vz - 0.5 * w.params.gravity * elapsed) * elapsed
    if d.on_die is not None:
        return d.z  # physics/flight.py
    if d.level:
        return w.board.platform(d.level).height
    if d.fall_time is not None:
        return -0.5 * w.params.gravity * d.fall_time**2
    return 0.0


def impact_tumbles(
    w: WorldState, a: DieRecord, b: DieRecord, impulse: float, elapsed: float = 0.0
) -> None:
    """Dice on different levels meet off their mid-heights (``elapsed`` s into the step): the one
    struck above its mid-height pitches forward like a high flick: it tumbles if the pitch has the
    energy (physics/pitch.py).  At the contact's time: the step's start put a die hopped within
    the step below the board, struck "above its mid-height" by the die it hopped beside (at the
    default step, not at refine 8: a tenth of the hard-spin breaks ended with a die on a die).
    The contact's exchange (Chipmunk's, in the plane) already holds the blow's energy, so the pitch
    it starts is paid out of the struck die's slide (at most all of it): no energy made (a 2754483511
    and a 72413 seed of test_energy_steps gained 27 uJ and 0.47 mJ when the pitch came on top)."""
    p = w.params
    size = p.die_size
    ha, hb = base_height(w, a, elapsed), base_height(w, b, elapsed)
    lo, hi = max(ha, hb), min(ha, hb) + size
    if hi <= lo:
        return
    centre = 0.5 * (lo + hi)
    dv = impulse / p.die_mass
    for d, h, other in ((a, ha, b), (b, hb, a)):
        rate = strike_pitch_rate(dv, centre - h, p.mu_die, p)
        if rate > 0.0:  # struck above its mid-height: it pitches (physics/pitch.py)
            (x, y), (ox, oy) = fastbody.position(d.body), fastbody.position(other.body)
            _pitch_paid(w, d, math.atan2(y - oy, x - ox) - fastbody.angle(d.body), rate, elapsed)


def _pitch_paid(
    w: WorldState, d: DieRecord, body_dir: float, rate: float, elapsed: float = 0.0
) -> None:
    """Start (or add to) ``d``'s pitch from an impact ``elapsed`` s into the step, the pitch's
    added energy taken from its slide; a slide too slow to pay for it all gives the pitch only
    what it can."""
    p = w.params
    before = d.pitch
    e0 = pitch.pitch_energy(before.phi, before.rate, p) if before is not None else 0.0
    pitch.start(w, d, body_dir, rate, "impact")
    after = d.pitch
    if after is None:
        return
    if after is not before and not d.airborne:
        if after.phi == 0.0:
            d.pitch = after = _started_at(after, elapsed, p)
        elif before is not None and after.side == before.side and elapsed > 0.0:
            # a pitch gaining rate within the step: the step's pitch step turns it at the new
            # rate over the whole step, so the gain's turn before the contact comes off its angle
            d.pitch = after = after._replace(phi=after.phi - (after.rate - before.rate) * elapsed)
    added = pitch.pitch_energy(after.phi, after.rate, p) - e0
    if added <= 0.0:
        return
    vx, vy = fastbody.velocity(d.body)
    slide = 0.5 * p.die_mass * (vx * vx + vy * vy)
    if added <= slide:
        keep = math.sqrt((slide - added) / slide)
        d.body.velocity = (vx * keep, vy * keep)
    else:
        # the pitch gets what the slide holds: its rate brought down to that energy
        d.body.velocity = (0.0, 0.0)
        lift = pitch.pitch_energy(after.phi, 0.0, p)
        room = max(0.0, e0 + slide - lift)
        d.pitch = after._replace(rate=math.sqrt(2.0 * room / pitch.edge_inertia(p)))
    w._current = False
    view.mark(w, d)


def _started_at(pt: Pitch, elapsed: float, p: PhysicsParams) -> Pitch:
    """A pitch that starts flat ``elapsed`` s into the step, as the step's start holds it: the
    step's pitch step turns it over the whole step, so it starts where the swing, run back that
    long, puts it (a little below flat, a little faster: the same energy), and is flat at the
    contact's time; at the default step a die struck late in a step otherwise led refine 8's by
    up to a step's turn (0.03 rad at 15 rad/s) for the rest of its pitch.  A rate that lifts it
    off the board leaves at once, as before (flight.lifts_off)."""
    if elapsed <= 0.0 or flight.lifts_off(0.0, pt.rate, p):
        return pt
    k = pitch.swing_k(p)  # (the swing's gravity term near flat)
    phi0 = -pt.rate * elapsed - 0.5 * k * elapsed * elapsed
    room = pt.rate * pt.rate - 2.0 * p.die_mass * p.gravity * pitch.lift(
        phi0, p
    ) / pitch.edge_inertia(p)
    rate0 = math.sqrt(max(room, 0.0))
    if flight.lifts_off(phi0, rate0, p):
        return pt
    return pt._replace(phi=phi0, rate=rate0)


def on_collision(
    w: WorldState,
    a: DieRecord,
    b: DieRecord,
    impulse: float,
    t: float | None = None,
    jvec: tuple[float, float] | None = None,
) -> None:
    """Two dice met (first contact, ``impulse`` N s): faster than ``hop_speed`` they meet
    edge-on-edge with chance ``hop_edge_chance`` (the World's seeded generator), and the struck
    die (drawn) turns a uniform fraction up to ``hop_edge_lift`` of its speed upward, its energy
    kept (physics.md s8.5).  ``t``: the end of the collision step that reported the contact (the
    model step's end if None): a rise starts there, not at the model step's start.  ``jvec``:
    the contact's impulse (N s, its sign either way), when known."""
    p = w.params
    elapsed = 0.0 if t is None else _elapsed(w, t)
    if pitched_strike.pitched_strike(
        w, a, b, elapsed, impulse, jvec
    ) or pitched_strike.pitched_strike(w, b, a, elapsed, impulse, jvec):
        return
    if a.airborne or b.airborne or a.on_die is not None or b.on_die is not None:
        if a.level == b.level and a.fall_time is None and b.fall_time is None:
            impact_tumbles(w, a, b, impulse, elapsed)  # met off their mid-heights
        return
    # how hard they meet: the whole exchange's impulse, from their closing speed before the
    # contact (the collision step that reported it may have begun it only: the first step's
    # impulse shrinks with the collision step, and with it the hops, physics.md s9.2)
    if flight.exchange_speed(a, b, impulse, p.die_mass, p.restitution) < p.hop_speed:
        return
    if p.hop_edge_chance <= 0.0:
        return
    if a.fall_time is not None or b.fall_time is not None:
        return
    # one chance per pair and model step: within a step's collision steps Chipmunk makes a new
    # first contact whenever two dice touch again after parting for a few of them (in a packed
    # cluster a pair meets two or three times within a millisecond); whether they meet edge on
    # edge is a matter of their relative pose, the same for the whole exchange
    pair = (a.id, b.id) if a.id <= b.id else (b.id, a.id)
    # (a window of refine model steps: the same chances at any resolution)
    window = w.steps // p.refine
    if w._edge_draws[0] != window:
        w._edge_draws = (window, set())
    if pair in w._edge_draws[1]:
        return
    w._edge_draws[1].add(pair)
    rng = w.rng
    if rng.random() >= p.hop_edge_chance:
        return
    d = (a, b)[int(rng.integers(2))]
    frac = float(rng.uniform(0.0, p.hop_edge_lift))
    # the lift comes from the whole exchange, which Chipmunk may have only begun in the collision
    # step that reported the first contact (how far, depends on the step): complete it first
    completed = flight.completed_exchange(a, b, impulse, p.die_mass, p.restitution)
    completed, spins = _no_energy_made(w, a, b, impulse, completed, jvec)
    vx, vy = completed[0] if d is a else completed[1]
    v = math.hypot(vx, vy)
    vz = frac * v
    if d.level is None:
        # a flight's height is measured from the board's plane, and the die stands in the dish
        # below it: the rise to the plane is paid from the hop (else a hop made m g |dish|)
        x, y = fastbody.position(d.body)
        climb = -float(w._surface.height(x, y))
        if climb > 0.0:
            vz = math.sqrt(max(0.0, vz * vz - 2.0 * p.gravity * climb))
    if vz <= p.hop_min_speed:
        return
    a.body.velocity, b.body.velocity = completed
    if spins is not None:
        a.body.angular_velocity, b.body.angular_velocity = spins
    keep = math.sqrt(max(0.0, 1.0 - frac * frac))
    d.body.velocity = (vx * keep, vy * keep)
    d.pitch = None
    # (its event at the contact's time, as the collision's: the step's later collision steps log
    # later contacts, and the log stays in time order)
    flight.launch(w, d, vz, elapsed=elapsed, at=t)


def _no_energy_made(
    w: WorldState,
    a: DieRecord,
    b: DieRecord,
    impulse: float,
    completed: tuple[flight.Velocity, flight.Velocity],
    jvec: tuple[float, float] | None = None,
) -> tuple[tuple[flight.Velocity, flight.Velocity], tuple[float, float] | None]:
    """``completed`` (flight.completed_exchange) and the pair's spins (None: as they are), the
    pair's energy held to what it had before the contact.  The completion rebuilds the motion
    along the line of centres only: spin the solver's partial exchange gave (an off-centre hit
    turns closing speed into spin) stays and would come on top, energy made (1.1 mJ in one
    break's step, which the hop's rise then hid from the energy limiter).  Before the contact:
    the completion's rebuilt velocities, and each die's spin now or at the step's start
    (``w._wbuf``, the velocities the step's contacts started from), whichever is slower.  Over
    that, the pair's motion relative to its centre of mass and the spins are scaled down
    (momentum kept), as limit_contact_energy does for a group.  The velocities before the contact
    are now less the contact's impulse ``jvec`` where known (:func:`flight.pre_contact`); the
    impulse's size along the line of centres (the completion's reading) overstated them for a
    spinning die met off that line: 40.0 mJ where the pair had 29.5, and a hop made 0.47 mJ."""
    p = w.params
    m, inertia = p.die_mass, w._inertia
    (ax, ay), (bx, by) = a.body.position, b.body.position
    dist = math.hypot(bx - ax, by - ay)
    if dist == 0.0:
        return completed, None
    nx, ny = (bx - ax) / dist, (by - ay) / dist
    (ua, va), (ub, vb) = flight.pre_contact(a, b, nx, ny, impulse, jvec, m)
    before = 0.5 * m * (ua * ua + va * va + ub * ub + vb * vb)
    wa, wb = a.body.angular_velocity, b.body.angular_velocity
    for d, om in ((a, wa), (b, wb)):
        i = w._index.get(d.id)
        if i is not None and i < len(w._order) and w._order[i] is d:
            w0 = float(w._wbuf[w._rows[i], 2])
            before += 0.5 * inertia * min(om * om, w0 * w0)
    (a1x, a1y), (b1x, b1y) = completed
    after = 0.5 * m * (a1x * a1x + a1y * a1y + b1x * b1x + b1y * b1y)
    after += 0.5 * inertia * (wa * wa + wb * wb)
    if after <= before:
        return completed, None
    cx, cy = 0.5 * (a1x + b1x), 0.5 * (a1y + b1y)
    e_cm = m * (cx * cx + cy * cy)
    s = math.sqrt(max(before - e_cm, 0.0) / (after - e_cm)) if after > e_cm else 0.0
    scaled = (
        (cx + s * (a1x - cx), cy + s * (a1y - cy)),
        (cx + s * (b1x - cx), cy + s * (b1y - cy)),
    )
    return scaled, (s * wa, s * wb)


def limit_contact_energy(w: WorldState, pre: np.ndarray) -> None:
    """Contacts must not create kinetic energy.  Chipmunk's sequential impulses with restitution at
    a box's two contact points (plus friction) can overshoot by a few per cent for e >~ 0.8; where
    a group of touching dice gained energy in this step, scale its motion relative to the group's
    centre-of-mass velocity back to the energy it had (momentum is kept; with a wall in the group
    the whole motion is scaled).  Only called when the total energy grew; ``pre`` holds each
    die's (vx, vy, w) before the step's contacts."""
    p = w.params
    m, inertia = p.die_mass, w._inertia
    v0, w0, v1, w1 = pre[:, 0] + 1j * pre[:, 1], pre[:, 2], view.vc(w), view.omega(w)
    ke0 = 0.5 * m * (v0.real**2 + v0.imag**2) + 0.5 * inertia * w0**2
    ke1 = 0.5 * m * (v1.real**2 + v1.imag**2) + 0.5 * inertia * w1**2
    n = len(w._order)
    ids = np.fromiter((d.body_id for d in w._order), dtype=np.uintp, count=n)
    label = step_kernels.contact_groups(w._pairs, w._pairs_used, ids)  # n: the walls' group
    groups: dict[int, list[int]] = {}
    for i, root in enumerate(label.tolist()):
        groups.setdefault(root, []).append(i)
    vc, om = v1.copy(), w1.copy()
    changed = False
    wall = n
    for root, members in groups.items():
        if len(members) < 2 and root != wall:
            continue  # a lone die touched nothing: no contact gave it energy (most dice, cheaply)
        idx = np.array(members)
        # exact sums (math.fsum): the same in any order of the members, which is the Space's
        # body order and differs in a World.copy()
        before, after = math.fsum(ke0[idx].tolist()), math.fsum(ke1[idx].tolist())
        if after <= before:
            continue
        if root == wall:  # touches a wall: no momentum to keep
            s = math.sqrt(before / after)
            vc[idx] *= s
            om[idx] *= s
        else:
            k = len(members)
            vcm = complex(
                math.fsum(vc[idx].real.tolist()) / k, math.fsum(vc[idx].imag.tolist()) / k
            )
            ke_cm = 0.5 * m * len(members) * abs(vcm) ** 2
            s = math.sqrt(max(before - ke_cm, 0.0) / (after - ke_cm)) if after > ke_cm else 0.0
            vc[idx] = vcm + s * (vc[idx] - vcm)
            om[idx] *= s
        changed = True
    if changed:
        view.write(w, vc, om)
        # the read state must show the scaled velocities (positions are unchanged)
        rb, rows = w._rbase, w._rows
        rb[rows, 3] = vc.real
        rb[rows, 4] = vc.imag
        rb[rows, 5] = om
        w._screened = -1
        w._pending = None
