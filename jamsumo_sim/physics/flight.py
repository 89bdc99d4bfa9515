"""Hops and flight: a die off the surface (physics.md s8.5; docs/physics.md "Hops and flight").

An airborne die carries its height ``z`` (its centre's height less a/2 above the board plane, so a
die lying flat on the board has z = 0) and vertical speed ``vz``; its pitch (physics/pitch.py), if
any, keeps turning freely in the air (rate about the centre of mass, no torque), one ``tumble``
event per quarter turn, the face changing in the air.  While airborne it feels no board friction
(the kernels' GROUNDED flag is off: view.die_entry), its height is ballistic (exact for
constant g, so the flight's energy is kept), and it collides only with shapes whose height range
overlaps its own (space.band_filter).

Launches (:func:`launch`):
- a pitched die whose edge the board would have to pull down (normal force < 0, :func:`lifts_off`)
  leaves it: a high hard flick, a hard trip at a step or the hole's far rim, a hit on a pitched
  die (pitch.step_die);
- two dice meeting hard edge-on-edge (contacts.on_collision, a chance drawn from the World's
  seeded generator): the struck die turns part of its speed upward, its energy kept.

Landing (:func:`step_die`): when its lowest edge reaches the surface under its centre (the board,
a platform's top, the top of a die; over the hole it falls in as any unsupported die), an impact
at that edge with normal restitution ``restitution_landing`` and Coulomb friction ``mu_landing``
(:func:`edge_landing`); a rebound faster than ``hop_min_speed`` flies on, otherwise the die
stands on that edge with the pitch the impact left (it may tumble on, or rock back flat).
Beside a die whose footprint its own overlaps it leans against it (:func:`after_landing`;
physics/stacking.py keeps the lean).

Once per model step per airborne die, after the step's collisions (support.after_step); a step
with surely nothing to come down on (step_kernels.flight_clear, a conservative compiled bound of
:func:`_surface_under`: most steps) skips the Python search.  Fixed-step arithmetic: deterministic
and bit-reproducible.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import _chipmunk, fastbody, step_kernels, view
from .datatypes import ON_BOARD, DieRecord, Pitch
from .events import HOP, LAND, PLATFORM, Event
from .params import PhysicsParams
from .space import air_base, band_filter, die_filter
from .tumbles import tumble

_get_filter = _chipmunk._lib.cpShapeGetFilter
_tuple_new = tuple.__new__  # Pitch(...) minus the named tuple's constructor frame

if TYPE_CHECKING:
    from .state import WorldState

QUARTER = 0.5 * math.pi
# At most this many quarter turns in the air per model step (a flight's highest rates turn
# ~0.3 rad per 2 ms step; the bound only keeps a pathological state from looping long).
MAX_AIR_TURNS = 8
# A die whose pitch is below this (rad) and rate below this (rad/s) lands flat on its face.
FLAT_PITCH = 1e-9


# --- the mechanics (pure functions) ------------------------------------------------------------


def lift(phi: float, p: PhysicsParams) -> float:
    """Height (m) of the centre above its flat height when tipped by ``phi`` on an edge."""
    return 0.5 * p.die_size * (math.cos(phi) + math.sin(phi) - 1.0)


def rise_rate(phi: float, rate: float, p: PhysicsParams) -> float:
    """Vertical speed (m/s) of the centre of a die turning at ``rate`` about its edge at ``phi``."""
    return 0.5 * p.die_size * (math.cos(phi) - math.sin(phi)) * rate


def edge_normal_force(phi: float, rate: float, p: PhysicsParams) -> float:
    """The leave test of a die turning at ``rate`` about its edge at ``phi`` (m/s^2): g - r_z rate^2,
    r_z = (a/2)(cos + sin) the centre's height over the edge; below zero the edge leaves the board
    of itself.  It is the free die's test: with no board under it the edge's height goes as
    z'' = -g + r_z rate^2 at that instant (no torque from gravity about the centre).  The
    pivoting die's own normal force, g (1 - 3/8 (cos - sin)^2) - r_z rate^2 (gravity's torque
    about a held edge), is weaker: between the two a die left its edge, the edge sank back within
    the step and it landed again, every step, more often the finer the step (7.1 / 9.3 / 23.6
    landings per high break at refine 1 / 2 / 8; with this test 3.1 at every refine; model 0.15,
    docs/physics.md "Hops and flight")."""
    c, s = math.cos(phi), math.sin(phi)
    return p.gravity - 0.5 * p.die_size * (c + s) * rate * rate


def pivot_load(phi: float, rate: float, p: PhysicsParams) -> float:
    """The normal force per unit mass (m/s^2, >= 0) on the edge of a die turning at ``rate`` about
    it at ``phi``: m (g + z''), z the centre's height (a/2)(cos + sin - 1), the pendulum's
    phi'' = (3 g / 4 a)(sin - cos), so g (1 - 3/8 (cos - sin)^2) - r_z rate^2.  The edge's
    friction in the pitch step is mu_pitch times this, not mu_pitch g: a rocking die's centre is
    thrown up and falls back, so over a rock and its slap the board carries m g T - m v_z0, and the
    3D die's slide loses mu v_z0 less than the weight's (model 0.17; docs/physics.md "Rocking on
    the edge").  step_kernels.pivot_load is the compiled paths' form, the same operations."""
    c, s = math.cos(phi), math.sin(phi)
    load = (
        p.gravity * (1.0 - 0.375 * ((c - s) * (c - s))) - 0.5 * p.die_size * (c + s) * rate * rate
    )
    return max(0.0, load)


def lifts_off(phi: float, rate: float, p: PhysicsParams) -> bool:
    """True if a die turning forward at ``rate`` about its edge at ``phi`` leaves the board there:
    its centre is rising and :func:`edge_normal_force` is negative (from flat: rate >
    sqrt(2 g / a), 35.0 rad/s for 16 mm)."""
    return rate > 0.0 and phi < 0.25 * math.pi and edge_normal_force(phi, rate, p) < 0.0


def lifts_at_once(phi: float, rate: float, p: PhysicsParams) -> float:
    """The rise (m/s) of a die tipped up at ``phi`` turning at ``rate`` that leaves the board at
    once, else 0: pitch.step_die's test at a substep's start (flight.lifts_off and the rise it needs),
    for a die struck at a rate that lifts it (:func:`leave_if_lifting`)."""
    half_a = 0.5 * p.die_size
    c0, s0 = math.cos(phi), math.sin(phi)
    if (
        rate > 0.0
        and phi < 0.25 * math.pi
        and p.gravity - half_a * (c0 + s0) * rate * rate < 0.0
        and p.hop_lift * (half_a * (c0 - s0) * rate) > p.hop_min_speed
    ):
        return p.hop_lift * (half_a * (c0 - s0) * rate)
    return 0.0


def leave_if_lifting(w: WorldState, d: DieRecord, ahead: float = 0.0) -> bool:
    """A die just struck or landed at a pitch rate that lifts it leaves the surface at once, as
    pitch.step_die would at its next substep's start, instead of sliding on for the rest of the
    step first (at the default step the striker of a high break met the block a step late, and a
    die hopping across the board lost a step at every landing: physics.md s9.2)."""
    pt = d.pitch
    if pt is None or d.airborne:
        return False
    vz = lifts_at_once(pt.phi, pt.rate, w.params)
    if vz <= 0.0:
        return False
    d.pitch = Pitch(pt.phi, w.params.hop_lift * pt.rate, pt.side, pt.heading, pt.cause)
    launch(w, d, vz, ahead=ahead)
    return True


def edge_landing(
    phi: float, rate: float, u: float, vz: float, e: float, mu: float, p: PhysicsParams
) -> tuple[float, float, float, float]:
    """(rate', u', vz', the edge's vertical speed after) of a die landing on its lowest edge: the
    edge at the origin, the centre at (-(a/2)(cos - sin), (a/2)(cos + sin)) of pitch ``phi``, the
    centre moving at (u forward, vz up), turning forward at ``rate``.  A rigid impact (I_cm = m
    a^2/6) with normal restitution ``e`` and Coulomb friction ``mu``: the edge sticks if it can
    (|f| <= mu n), else slips.  Never more energy (1/2 u^2 + 1/2 vz^2 + 1/2 a^2/6 rate^2 per unit
    mass) than before: a result that would show more is scaled back.

    The law is :func:`step_kernels.edge_landing` (one compiled definition, shared with the sweeps'
    lone-die model)."""
    return step_kernels.edge_landing(phi, rate, u, vz, e, mu, p.die_size)


# --- the World's side ------------------------------------------------------------------------


def base_height(w: WorldState, d: DieRecord) -> float:
    """Height (m) of the surface a die not in flight stands on, above the board plane."""
    if d.on_die is not None:
        return d.z
    if d.level:
        return w.board.platform(d.level).height
    return 0.0


def launch(
    w: WorldState,
    d: DieRecord,
    vz: float,
    z: float | None = None,
    ahead: float = 0.0,
    elapsed: float = 0.0,
    at: float | None = None,
) -> None:
    """``d`` leaves the surface rising at ``vz`` (m/s); its pitch, if any, turns on in the air.
    ``z``: the height (m, centre - a/2 above the board plane) it starts from; by default where it
    stands (its surface, plus its pitch's lift).  It left ``ahead`` seconds before the end of a
    step whose flight step is over: it flies that long now (its height at the step's end is the
    one it reaches from when it left, not from the step's end).  ``at``: the ``hop`` event's time
    (the step's end if None)."""
    if d.level:
        w.events.append(Event(w.time, PLATFORM, (d.id,), {"platform": d.level, "action": "left"}))
    if z is None:
        z = base_height(w, d) + (lift(d.pitch.phi, w.params) if d.pitch is not None else 0.0)
    v_launch = vz  # (the event's: the rise it left with)
    if ahead > 0.0:
        z, vz = step_kernels.flown(z, vz, ahead, w.params.gravity)
        pt = d.pitch
        if pt is not None:
            # and has turned on in the air since, as a rebound's pitch does (_land)
            phi_on = step_kernels.turned_in_air(pt.phi, pt.rate, ahead)
            if phi_on != pt.phi:
                d.pitch = _tuple_new(Pitch, (phi_on, pt.rate, pt.side, pt.heading, pt.cause))
    if elapsed > 0.0:
        # it left ``elapsed`` into a step whose flight step (the whole step) is still to come:
        # that step then ends where the flight from the contact does (z - vz t - g t^2/2 rising
        # at vz + g t ends at z + vz (dt - t) - g (dt - t)^2/2)
        g = w.params.gravity
        z = z - vz * elapsed - 0.5 * g * elapsed * elapsed
        vz = vz + g * elapsed
    d.z = z
    d.vz = vz
    d.airborne = True
    d.level = d.straddle = d.on_die = d.lean = None
    d.riding = False
    d.fall_time = None
    d.shape.filter = die_filter(w, d)
    w.events.append(Event(w.time if at is None else at, HOP, (d.id,), {"vz": v_launch}))
    w._special = True
    view.mark(w, d)
    w._current = False


Velocity = tuple[float, float]


def pre_contact(
    a: DieRecord,
    b: DieRecord,
    nx: float,
    ny: float,
    impulse: float,
    jvec: tuple[float, float] | None,
    m: float,
) -> tuple[Velocity, Velocity]:
    """The velocities of ``a`` and ``b`` just before their contact: now, less its impulse (N s):
    ``jvec`` as Chipmunk's arbiter gave it (its sign taken so that it pushes b away from a along
    the line of centres ``n``, from a to b: a contact's impulse always has that part), else
    ``impulse`` along ``n``."""
    (avx, avy), (bvx, bvy) = a.body.velocity, b.body.velocity
    if jvec is None:
        jx, jy = impulse * nx, impulse * ny
    else:
        jx, jy = jvec
        if jx * nx + jy * ny < 0.0:
            jx, jy = -jx, -jy
    return (avx + jx / m, avy + jy / m), (bvx - jx / m, bvy - jy / m)


def exchange_speed(a: DieRecord, b: DieRecord, impulse: float, m: float, e: float) -> float:
    """The speed (m/s) the whole central exchange of ``a`` and ``b`` gives each: (1 + e)/2 times
    their closing speed along the line of centres before the contact (now, less the ``impulse``
    the solver gave so far); 0 if they were not closing (step_kernels.exchange_speed, which the
    compiled loop's deferral shares)."""
    (ax, ay), (bx, by) = a.body.position, b.body.position
    (avx, avy), (bvx, bvy) = a.body.velocity, b.body.velocity
    return step_kernels.exchange_speed(ax, ay, bx, by, avx, avy, bvx, bvy, impulse, m, e)


def completed_exchange(
    a: DieRecord, b: DieRecord, impulse: float, m: float, e: float
) -> tuple[Velocity, Velocity]:
    """The velocities of ``a`` and ``b`` once their contact's exchange is over: before the contact
    (now, less the ``impulse`` the solver gave along the line of centres so far), then a central
    impact of equal masses with restitution ``e`` along it; the parts across it stay as they are.
    No more energy than before the contact (e <= 1); an exchange already over is left alone."""
    (ax, ay), (bx, by) = a.body.position, b.body.position
    (avx, avy), (bvx, bvy) = a.body.velocity, b.body.velocity
    dist = math.hypot(bx - ax, by - ay)
    if dist == 0.0:
        return (avx, avy), (bvx, bvy)
    nx, ny = (bx - ax) / dist, (by - ay) / dist
    ua, ub = avx * nx + avy * ny, bvx * nx + bvy * ny
    # before the contact: the impulse pushed a back along n and b forward
    ua0, ub0 = ua + impulse / m, ub - impulse / m
    closing = ua0 - ub0
    if closing <= 0.0:
        return (avx, avy), (bvx, bvy)
    if ub - ua >= e * closing:  # already separating as fast as the impact leaves them: over
        return (avx, avy), (bvx, bvy)
    mean = 0.5 * (ua0 + ub0)
    ua1, ub1 = mean - 0.5 * e * closing, mean + 0.5 * e * closing
    return (
        (avx + (ua1 - ua) * nx, avy + (ua1 - ua) * ny),
        (bvx + (ub1 - ub) * nx, bvy + (ub1 - ub) * ny),
    )


def tilted_impact(
    phi: float, u_s: float, vz_s: float, u_t: float, e: float
) -> tuple[float, float, float] | None:
    """(u_s', vz_s', u_t') after a striker s tipped forward by ``phi`` meets a standing die t with
    its front face: the contact normal is that face's, (cos phi, -sin phi) from s to t, so t is
    pressed into the board (which holds it: no vertical give) and s is pushed back and up.  A
    frictionless impact with restitution ``e``, equal masses: J/m = (1 + e) v_n / (2 cos^2 +
    sin^2), energy lost (1 - e^2)/2 m_eff v_n^2 >= 0; None if they are not closing.  At phi = 0
    it is the flat central impact."""
    c, s = math.cos(phi), math.sin(phi)
    vn = (u_s - u_t) * c - vz_s * s
    if vn <= 0.0:
        return None
    j = (1.0 + e) * vn / (2.0 * c * c + s * s)
    return u_s - j * c, vz_s + j * s, u_t + j * c


def step_die(w: WorldState, d: DieRecord, x: float, y: float, i: int = -1) -> tuple[bool, float]:
    """One model step of flight for ``d`` at (x, y) (after the step's collisions: its body's
    position, as the step's batch read saw it): (True if the kernels' flags must be rebuilt (it
    landed), the seconds of the step left after a landing that leaves it on its edge, else 0:
    its pitch's, support.after_step).  ``i``: its index in the step's batch read (World order),
    or -1."""
    p = w.params
    dt, g = p.step, p.gravity
    z0 = d.z
    z1 = z0 + dt * d.vz - 0.5 * g * dt * dt  # exact for constant g: the flight keeps its energy
    vz1 = d.vz - g * dt
    pt = d.pitch
    phi = 0.0
    low0 = z0 - (lift(pt.phi, p) if pt is not None else 0.0)
    if pt is not None:
        phi, side = pt.phi + pt.rate * dt, pt.side
        turns = 0
        while phi >= QUARTER and turns < MAX_AIR_TURNS:
            phi -= QUARTER
            tumble(w, d, side * QUARTER, pt.cause)
            turns += 1
        while phi < 0.0 and turns < MAX_AIR_TURNS:
            phi += QUARTER  # a backward quarter turn, then tipped forward by the rest
            tumble(w, d, (side + 2) * QUARTER, pt.cause)
            turns += 1
        phi = min(max(phi, 0.0), QUARTER)
        pt = d.pitch = _tuple_new(Pitch, (phi, pt.rate, side, pt.heading, pt.cause))
    low1 = z1 - lift(phi, p) if pt is not None else z1  # lift(0) is +0.0: z1 - 0.0 is z1
    dice = low1 <= w._max_top
    # the usual step, nothing under it: one compiled test instead of _surface_under's search,
    # judged only while every die's flags and row are as the step's read left them (nothing
    # marked or moved by a jump since)
    if (
        i >= 0
        and not w._dirty
        and not w._moved
        and step_kernels.flight_clear(
            w._rbase,
            w._rows,
            i,
            x,
            y,
            low0,
            low1,
            dice,
            w._land_tops,
            w._groups,
            w._plat_tops,
            w._hole_r,
            p.collision_slop,
            w._half_size,
        )  # fmt: skip
    ):
        d.z, d.vz = z1, vz1
        return _refilter(w, d), 0.0
    top, on, under, prop = _surface_under(w, d, x, y, low0, dice)
    if top is None:  # over the hole: it falls in as any die that loses its support
        if low1 > 0.0:
            d.z, d.vz = z1, vz1
            return _refilter(w, d), 0.0
        _to_fall(w, d, vz1)
        return True, 0.0
    if low1 > top:
        d.z, d.vz = z1, vz1
        return _refilter(w, d), 0.0
    # it reached the surface this far before the step's end (its lowest point's height is
    # nearly linear over a step): the landing is taken there, not at the step's end
    back = _back(top, low0, low1, dt)
    if back > 0.0:
        # what was under it then: it may have come down beside a die it is over at the step's
        # end (then it met that die's side, not its top) or over one it has passed since
        vx, vy = fastbody.velocity(d.body)
        xl, yl = x - vx * back, y - vy * back
        under_then = _surface_under(w, d, xl, yl, low0, dice)
        top_then = under_then[0]
        if top_then is not None:
            if low1 > top_then:  # beside what it is over now, still above what was under it
                d.z, d.vz = z1, vz1
                return _refilter(w, d), 0.0
            top, on, under, prop = under_then
            back = _back(top, low0, low1, dt)
    if pt is not None and turns == 0:
        phi = max(phi - pt.rate * back, 0.0)
    return True, _land(w, d, phi, top, on, under, prop, z1, vz1, back)


def _back(top: float, low0: float, low1: float, dt: float) -> float:
    """How long (s) before the step's end a lowest point going from ``low0`` to ``low1`` over the
    step ``dt`` crossed ``top`` (linear in between)."""
    if not low0 > low1:
        return 0.0
    return min(max(dt * (top - low1) / (low0 - low1), 0.0), dt)


def _refilter(w: WorldState, d: DieRecord) -> bool:
    p = w.params
    low, flat = air_base(d, p)
    f = band_filter(low, p.die_size, w._wall_top, flat)  # die_filter of an airborne die
    shape = d.shape
    g = _get_filter(shape._shape)  # fastbody.filter_is, inline (once per step per die in flight)
    if g.categories != f.categories or g.mask != f.mask or g.group != f.group:
        _chipmunk.set_filter(shape, f)
    return False


def _surface_under(
    w: WorldState, d: DieRecord, x: float, y: float, low0: float, dice: bool
) -> tuple[float | None, str, DieRecord | None, bool]:
    """(height of the surface under (x, y), what it is, the die it belongs to, whether that die
    only props it): the highest die top the die was above (its centre over it, or its footprint
    overlapping it; only with ``dice``), a platform's top, the board; None over the hole."""
    p = w.params
    half = 0.5 * p.die_size
    best: tuple[float | None, str, DieRecord | None, bool] = (0.0, "board", None, False)
    plat = w.board.platform_at(x, y)
    if plat is not None:
        best = (plat.height, plat.name, None, False)
    elif x * x + y * y < w._hole_r * w._hole_r:
        best = (None, "hole", None, False)
    tol = p.collision_slop
    if not dice:
        return best  # above every die's top
    # the dice whose centres were within two half-widths at this step's read (one compiled test),
    # posed as read unless a jump moved them since (view.read: ``_moved``)
    order, moved = w._order, w._moved
    m = step_kernels.dice_near(w._rbase, w._rows, x, y, 2.5 * half, w._near_idx, w._near_pose)
    for k, (ox, oy, o_angle) in zip(
        w._near_idx[:m].tolist(), w._near_pose[:m].tolist(), strict=True
    ):
        o = order[k]
        if o is d or not o.in_space or o.airborne or o.group != d.group:
            continue
        if o.status != ON_BOARD or o.fall_time is not None:
            continue
        if o in moved:
            (ox, oy), o_angle = o.body.position, o.body.angle
        dx, dy = x - ox, y - oy
        if abs(dx) > 2 * half or abs(dy) > 2 * half:
            continue
        o_top = base_height(w, o) + p.die_size
        if low0 < o_top - tol or (best[0] is not None and o_top <= best[0]):
            continue  # it was not above this top, or something higher is under it
        c, s = math.cos(o_angle), math.sin(o_angle)
        if abs(c * dx + s * dy) <= half and abs(-s * dx + c * dy) <= half:
            best = (o_top, o.id, o, False)  # the centre is over its top: it lands on it
        elif step_kernels.square_overlap(x, y, fastbody.angle(d.body), ox, oy, o_angle, half) > tol:
            # comes down on its edge: it props against it (its footprint at (x, y), where it
            # came down: at its body's, the step's end's, a die coming down at the default step
            # was judged up to a step's slide on, and propped 0.86 die sizes from the die
            # against 0.73 at refine 8 in the high breaks)
            best = (o_top, o.id, o, True)
    return best


def _to_fall(w: WorldState, d: DieRecord, vz: float) -> None:
    """Came down over the hole: an unsupported die falling at ``vz`` (support.hole_logic)."""
    d.airborne = False
    d.z = d.vz = 0.0
    d.pitch = None
    d.fall_time = max(w.params.step, -vz / w.params.gravity)
    d.shape.filter = die_filter(w, d)
    w._special = True
    after_landing(w, d)
    view.mark(w, d)


def _land(
    w: WorldState,
    d: DieRecord,
    phi: float,
    top: float,
    on: str,
    under: DieRecord | None,
    prop: bool,
    z1: float,
    vz1: float,
    back: float = 0.0,
) -> float:
    """The lowest edge (or face) reached the surface at ``top``, ``back`` seconds before the
    step's end (``phi``: its pitch then): the landing impact.  From the landing on it moves at its
    new velocity (the step's collisions moved it at the old one), and a rebound flies the rest
    of the step; a die left turning fast enough about its edge leaves again at once.  Returns
    ``back`` if it stays on its edge (its pitch takes the rest of the step), else 0."""
    p = w.params
    b = d.body
    pt = d.pitch
    vx, vy = b.velocity
    vx_in, vy_in = vx, vy
    # put the die on the surface with the speed the fall to there gives; standing on its edge
    # higher than its flight reaches, the turn (then the slide) pays for the rise, or the turn
    # stopped short (no energy made)
    phi, zc, vz, rate0, k = step_kernels.landing_rise(
        phi, z1, vz1, top, pt.rate if pt is not None else 0.0, vx * vx + vy * vy, p.die_size,
        p.gravity,
    )  # fmt: skip
    if k != 1.0:
        vx, vy = vx * k, vy * k
    if pt is not None and (rate0 != pt.rate or phi != pt.phi):
        pt = d.pitch = Pitch(phi, rate0, pt.side, pt.heading, pt.cause)
    e = p.restitution_landing
    w.events.append(Event(w.time, LAND, (d.id,), {"on": on}))
    if pt is None or (phi < FLAT_PITCH and pt.rate == 0.0):
        # flat on its face: the rebound, and friction over the impact's normal impulse
        if e * -vz < p.hop_min_speed:
            e = 0.0
        v = math.hypot(vx, vy)
        if v > 0.0:
            keep = max(0.0, v - p.mu_landing * (1.0 + e) * -vz) / v
            vx, vy = vx * keep, vy * keep
        vz_out, rate1 = -e * vz, 0.0
        flies = vz_out > 0.0
    else:
        hx, hy = math.cos(pt.heading), math.sin(pt.heading)
        u = vx * hx + vy * hy
        rate1, u1, vz_out, vcz = edge_landing(phi, pt.rate, u, vz, e, p.mu_landing, p)
        flies = vcz >= p.hop_min_speed and vz_out > 0.0  # it rebounds: flies on
        if not flies:
            rate1, u1, vz_out, vcz = edge_landing(phi, pt.rate, u, vz, 0.0, p.mu_landing, p)
            # left turning so fast about the edge that the board would have to pull it down,
            # it leaves at once, the edge at rest and rising: a tumbling die bounces on, turn
            # after turn, as the 3D reference's does (docs/physics.md "Hops and flight")
            flies = edge_normal_force(phi, rate1, p) < 0.0
            if not flies:
                vz_out = 0.0
        # the body's velocity is the centre's, in the air and on the edge alike (model 0.17: the
        # strike, the edge's friction, the lift-off, the slap and the face's landing all take it
        # so; models 0.15-0.16 took the edge's slide here, u1 - rate1 r_z, and a die that came
        # down on its edge lost its turn's r_z rate1 of slide: docs/physics.md "Rocking on the edge")
        slide = u1
        if not flies:
            # the pitch's bookkeeping (slide, turn about the edge) must not show more energy
            # than the flight had (a slipping edge's cross term): scale it back
            a2 = p.die_size * p.die_size
            e_in = 0.5 * (u * u + vz * vz) + a2 * pt.rate * pt.rate / 12.0
            e_out = 0.5 * slide * slide + a2 * rate1 * rate1 / 3.0
            if e_out > e_in:
                f = math.sqrt(e_in / e_out)
                slide, rate1 = slide * f, rate1 * f
        vx, vy = vx + (slide - u) * hx, vy + (slide - u) * hy
    b.velocity = (vx, vy)
    if back > 0.0 and (vx != vx_in or vy != vy_in):
        x, y = b.position
        b.position = (x + (vx - vx_in) * back, y + (vy - vy_in) * back)
        w.space.reindex_shapes_for_body(b)
        w._moved.add(d)  # its batch row is stale (view.read)
    w._current = False
    view.mark(w, d)
    if flies:  # rebounds: flies on, for the rest of the step
        d.z, d.vz = step_kernels.flown(zc, vz_out, back, p.gravity)
        if pt is not None:
            phi_on = step_kernels.turned_in_air(phi, rate1, back)
            d.pitch = Pitch(phi_on, rate1, pt.side, pt.heading, pt.cause)
        d.shape.filter = die_filter(w, d)
        w.events.append(Event(w.time, HOP, (d.id,), {"vz": vz_out}))
        return 0.0
    d.airborne = False
    d.vz = 0.0
    # on the surface with the step's end's velocity: its first friction kick is a half one (a
    # flat die's kicks are leapfrog-staggered, physics/evolve.py; one still on its edge gets no
    # kick, and is fresh again when its pitch ends)
    d.fresh = True
    if prop:
        # came down on another die's edge: it slides down it and rests propped against it
        # (the drop to the board and the slide's energy are lost on the way)
        d.z = 0.0
        d.lean = on
        d.pitch = None
        plat = w.board.platform_at(*b.position)
        d.level = plat.name if plat is not None else None
        d.shape.filter = die_filter(w, d)
        w._special = True
        return 0.0
    d.z = top if under is not None else 0.0
    d.on_die = under.id if under is not None else None
    if under is None and on != "board":
        d.level = on
        w.events.append(Event(w.time, PLATFORM, (d.id,), {"platform": on, "action": "landed"}))
    if pt is not None and (phi >= FLAT_PITCH or rate1 > 0.0):
        d.pitch = Pitch(phi, rate1, pt.side, pt.heading, pt.cause)
    else:
        d.pitch = None
    d.shape.filter = die_filter(w, d)
    w._special = True
    after_landing(w, d)
    if d.on_die is None:
        leave_if_lifting(w, d, back)
    return back if not d.airborne and d.pitch is not None else 0.0


# --- landing beside a die: leaning on it (physics/stacking.py keeps the lean) -----------------


def overlap_depth(a: DieRecord, b: DieRecord, half: float) -> float:
    """How deep (m) the two dice's square footprints overlap (< 0: apart), by separating axes."""
    (ax, ay), (bx, by) = fastbody.position(a.body), fastbody.position(b.body)
    return step_kernels.square_overlap(
        ax, ay, fastbody.angle(a.body), bx, by, fastbody.angle(b.body), half
    )


def standing(w: WorldState, o: DieRecord, d: DieRecord) -> bool:
    """``o`` stands where ``d`` could lean on it or rest on it: in play, on a surface, in the
    same contact group."""
    return (
        o is not d
        and o.in_space
        and o.status == ON_BOARD
        and not o.airborne
        and o.fall_time is None
        and o.group == d.group
    )


def after_landing(w: WorldState, d: DieRecord) -> None:
    """``d`` came down on the board or a platform: beside a die whose footprint its own overlaps
    (more than the collision slop), it leans against it."""
    if d.on_die is not None:
        return
    p = w.params
    half = 0.5 * p.die_size
    reach = 2.0 * w._half_diag
    x, y = fastbody.position(d.body)
    best, deepest = None, p.collision_slop
    for o in w._dice.values():  # insertion order: ties go to the first, reproducibly
        if not standing(w, o, d):
            continue
        ox, oy = fastbody.position(o.body)
        if abs(ox - x) > reach or abs(oy - y) > reach:
            continue
        depth = overlap_depth(d, o, half)
        if depth > deepest:
            best, deepest = o, depth
    if best is not None:
        d.lean = best.id
        w._special = True
        view.mark(w, d)
