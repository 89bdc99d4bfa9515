"""A flick: a fingertip pad pushing one side face of one die (physics.md s8.3, docs/physics.md).

``direction`` is the finger's travel (world radians, counter-clockwise from +x).  The strength is
exactly one of ``impulse`` (N s: the finger's impulse, launch speed J/m, ~4.5 mN s per m/s for a
4.5 g die; older data and scripted tests) or ``finger_speed`` (m/s: what a person controls; the
impulse is J = (1 + e_f) m_eff V_f with m_eff the die's mass felt at the struck point along the push:
its spin about the centre and its pitch about the leading edge take part, so off-centre, oblique or
high the same finger speed launches the die slower; :func:`inverse_mass`).  ``offset`` in -0.5..0.5 of the face width along the struck face,
positive to the left of the push direction, is where the pad's centre meets the face; the pad
(``finger_pad_width`` wide) pushes at the point of its contact nearest the face's centre, at most
``max_lever`` off-centre (a strike whose pad does not cover the centre spins the die: left of
centre, clockwise), and its grip holds the face from sliding under it (:func:`grip_parts`).  ``height`` in 0..1 of the face height (0.5 =
mid-height; higher strikes pitch the die forward and, hard enough, tumble it: physics.md s4; lower
ones turn it back and lift it: edges.low_strike).
The finger's impulse has a normal part J_n and a tangential part J_t; friction holds
|J_t| <= mu_finger J_n, so a push further off the face normal than atan(mu_finger) slips.
What the die gets (:func:`strike`) never holds more energy than the finger's impact allows, nor
than the launch cap's 1/2 m v_cap^2: a flick beyond either is scaled down.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ...errors import UserError
from ...limits import as_finite
from ..edges import low_strike, pitch_tumble_rate, strike_pitch_rate
from ..params import PhysicsParams

STRENGTHS = ("impulse", "finger_speed")  # a flick gives exactly one of these


@dataclass(frozen=True)
class Flick:
    die: str
    direction: float
    impulse: float | None = None
    offset: float = 0.0
    height: float = 0.5
    finger_speed: float | None = None

    def to_json(self) -> dict[str, Any]:
        # only the strength given: old impulse flicks read and write exactly as before
        return {k: v for k, v in asdict(self).items() if v is not None or k not in STRENGTHS}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Flick:
        if not isinstance(d, dict):
            raise UserError(f"a flick must be an object, got {repr(d)[:30]}")
        unknown = set(d) - {"die", "direction", "offset", "height", *STRENGTHS}
        if unknown:
            raise UserError(f"flick has unknown field {sorted(unknown)[0]!r}")
        for k in ("die", "direction"):
            if k not in d:
                raise UserError(f"flick lacks {k!r}")
        given = [k for k in STRENGTHS if k in d]
        if len(given) != 1:
            which = "gives both" if given else "lacks"
            raise UserError(f"flick {which} 'impulse' and 'finger_speed' (give exactly one)")
        vals = {}
        for k in ("direction", "offset", "height", *STRENGTHS):
            if k in d:
                v = as_finite(d[k])
                if v is None:
                    raise UserError(f"flick {k} must be a finite number, got {repr(d[k])[:30]}")
                vals[k] = v
        return cls(die=str(d["die"]), **vals)


def max_lever(params: PhysicsParams) -> float:
    """Furthest off-centre (fraction of the face) the pad can push: with its centre at the face's
    edge, the half of the pad on the face reaches to w/2 of the centre, a/2 - w/2."""
    return max(0.0, 0.5 - params.finger_pad_width / (2 * params.die_size))


def lever(flick: Flick, params: PhysicsParams, off_normal: float = 0.0) -> float:
    """Where (fraction of the face, from its centre) the finger's push acts: the point of the pad's
    contact where the delivered push turns the die least.  A flat pad pushing a flat face turns the
    die only as far as its contact cannot reach the push's moment-free point (:func:`balance_point`;
    the face's centre for a push along the normal): were the push elsewhere, the die would turn its
    far side into the pad, which pushes back there (the 3D reference's pad does not turn a die struck
    0.3 off-centre, nor one pushed 20 deg off the normal).  A point (width 0) pushes at the offset."""
    o = max(-0.5, min(0.5, flick.offset))
    half = params.finger_pad_width / (2 * params.die_size)
    lo, hi = max(-0.5, o - half), min(0.5, o + half)
    return max(lo, min(hi, balance_point(off_normal, params)))


def balance_point(off_normal: float, params: PhysicsParams) -> float:
    """Where (fraction of the face, left of its centre) a push ``off_normal`` radians from the
    face's inward normal turns the die not at all: its delivered impulse (:func:`cone_parts`,
    J_t / J_n) has no moment about the centre there, -(a/2) J_t - y a J_n = 0."""
    if off_normal == 0.0:
        return 0.0
    jn, jt, _ = cone_parts(1.0, off_normal, params)
    return -0.5 * jt / jn


def push_height(height: float, params: PhysicsParams) -> float:
    """Height (m above the die's base) the push pitches the die forward from, for a strike centred
    at ``height`` (fraction of the face): a pad ``finger_pad_height`` tall pushes from its lower
    edge once the face leans back from it (the 3D reference's pad does); a nail (0) where it
    strikes."""
    return max(0.0, height * params.die_size - params.finger_pad_height / 2)


def low_push_height(height: float, params: PhysicsParams) -> float:
    """Height (m above the die's base) the push turns the die back from, for a strike centred at
    ``height``: a pad pushes from its upper edge once the face's foot leaves it (the face leans
    into the pad's top); a nail where it strikes.  A pad across the centre turns it neither way."""
    return min(params.die_size, height * params.die_size + params.finger_pad_height / 2)


def _blow(height: float, params: PhysicsParams) -> tuple[float, float, float]:
    """(signed pitch rate, rise speed, the push's height above the centre) per m/s of slide a
    strike at ``height`` gives: forward (> 0) above the grip's height over mid-height
    (edges.strike_pitch_rate), back (< 0, the die rising: edges.low_strike) below the centre,
    else none."""
    a = params.die_size
    low = low_push_height(height, params)
    if low < a / 2:
        rate, rise = low_strike(1.0, low, params.mu_finger, params)
        return -rate, rise, low - a / 2
    b = push_height(height, params)
    return strike_pitch_rate(1.0, b, params.mu_finger, params), 0.0, b - a / 2


def pitch_per_impulse(height: float, params: PhysicsParams) -> float:
    """Pitch rate (rad/s, forward > 0, back < 0) one N s of push at ``height`` (fraction of the
    face) gives a die: forward :func:`strike_pitch_rate` of the jump 1/m with the finger's grip
    ``mu_finger``, 0 up to the grip's height (0.744 of the face for the nail, edges.grip_height);
    back (edges.low_strike) below mid-height."""
    return _blow(height, params)[0] / params.die_mass


def rise_per_impulse(height: float, params: PhysicsParams) -> float:
    """Speed (m/s) one N s of push at ``height`` lifts the die's centre with: a strike below the
    centre turns it back and the board can only push up (edges.low_strike); 0 from mid-height."""
    return _blow(height, params)[1] / params.die_mass


def inverse_mass(
    lever_: float, params: PhysicsParams, height: float = 0.5, off_normal: float = 0.0
) -> float:
    """1/m_eff: how fast the struck point moves along the face's inward normal per N s of the
    push's normal part (m/s per N s): the finger's restitution acts along the normal, so its impulse
    along its travel is J = (1 + e_f) m_eff V_f and J_n = J cos(``off_normal``) (:func:`cone_parts`).

    The push acts ``lever_`` (fraction of the face) left of the face's centre, ``off_normal``
    radians from the face's inward normal (counter-clockwise), ``height`` up the face:
    1/m (the slide) + (lever a)^2/I and the tangential part's moment (the spin about the centre),
    less what the pad's grip on the face holds back (:func:`grip_parts`: a straight push at
    mid-height 1/m (1 + 2.4 lever^2), not (1 + 6 lever^2)) + z Omega_1 (the pitch: Omega_1 =
    :func:`pitch_per_impulse`; the struck point, z above the centre (:func:`push_height` - a/2),
    moves at the centre's speed plus Omega z: the blow's impulse balance, edges.strike_pitch_rate;
    model 0.7-0.12 counted b Omega, b above the pivot edge, and launched a strike at 0.9 of the face
    0.63-0.86 as fast as the 3D reference).  The pitch is driven by the push's whole size
    (:func:`strike`).  A push off the normal whose pad balances its moment (:func:`lever`) feels
    the die's whole mass, as one along it does (the 3D reference's die pushed 20 deg off the normal
    at mid-height leaves 0.972 as fast as one pushed along it; cos 20 deg (1 + e_f) and sin 20 deg
    give 0.973)."""
    jn, jt, slipped = cone_parts(1.0, off_normal, params)
    # within the cone the pad grips what its lever leaves unbalanced (beyond, it slips)
    if not slipped:
        jt = grip_parts(jn, jt, lever_ - balance_point(off_normal, params), params)[0]
    push = math.hypot(jn, jt) if slipped else 1.0  # what drives the pitch (as strike's)
    return _struck_point_speed(1.0, jt / jn, lever_, height, 0.0, params, push=push / jn)


def _over_centre(height: float, params: PhysicsParams) -> float:
    """The push's height (m) above the die's centre (where it pitches the die from; < 0 below)."""
    return _blow(height, params)[2]


def effective_mass(
    lever_: float, params: PhysicsParams, height: float = 0.5, off_normal: float = 0.0
) -> float:
    """Mass of the die felt at the struck point along the push: 1 / :func:`inverse_mass` (a straight
    push at mid-height: 1/m + (lever a)^2 / I, inverted, m / (1 + 6 lever^2))."""
    return 1.0 / inverse_mass(lever_, params, height, off_normal)


def finger_impulse(flick: Flick, params: PhysicsParams, off_normal: float = 0.0) -> float:
    """The finger's impulse (N s) along its travel: the given impulse, or (1 + e_f) m_eff V_f
    (``off_normal``: the push's angle from the struck face's inward normal; 0 without a die)."""
    if flick.finger_speed is None:
        return float(flick.impulse)  # type: ignore[arg-type]  # exactly one is set
    m_eff = effective_mass(lever(flick, params, off_normal), params, flick.height, off_normal)
    return (1 + params.finger_restitution) * m_eff * flick.finger_speed


def finger_for_launch(speed: float, params: PhysicsParams) -> float:
    """The finger speed (m/s) that launches a die at ``speed`` with a centred straight strike at
    mid-height (the inverse of :func:`finger_impulse` there, where m_eff = m)."""
    return speed / (1 + params.finger_restitution)


def cone_parts(j: float, off_normal: float, params: PhysicsParams) -> tuple[float, float, bool]:
    """(J_n, J_t, slipped) of an impulse ``j`` whose direction is ``off_normal`` radians from the
    face's inward normal.  The finger's restitution is its give along the normal: along the face the
    pad grips and carries the face at its own speed, without a rebound, so the tangential part is
    j sin / (1 + e_f) (the 3D reference's die pushed 10 deg off the normal leaves 7.3 deg off it,
    atan(tan 10 deg / 1.4) = 7.2).  Friction gives at most mu_finger J_n along the face; beyond,
    the pad slips."""
    jn = j * math.cos(off_normal)
    jt = j * math.sin(off_normal) / (1.0 + params.finger_restitution)
    limit = params.mu_finger * jn
    if abs(jt) <= limit:
        return jn, jt, False
    return jn, math.copysign(limit, jt), True


def grip_share(lever_: float, params: PhysicsParams) -> float:
    """J_t per N s of J_n that keeps the struck point from sliding along the pad: a push ``lever_``
    off-centre spins the die, and the face under the pad would slide sideways at
    J_n lever a (a/2) / I; the pad's grip takes J_t against it, J_t (1/m + (a/2)^2 / I) undoing it
    (-1.2 lever for a cube: the spin 0.4 of a frictionless push's, the die leaving aside at its
    face's speed, as the 3D reference's die does: 56.6 rad/s and -0.45 m/s at 3 m/s and offset 0.5,
    the game 53.9 and -0.43)."""
    a, inertia = params.die_size, params.die_inertia
    return -(lever_ * a * a / (2 * inertia)) / (1.0 / params.die_mass + a * a / (4 * inertia))


def grip_parts(jn: float, jt: float, lever_: float, params: PhysicsParams) -> tuple[float, bool]:
    """(J_t, slipped): a push within the cone, (J_n, J_t) at ``lever_``, plus the pad's grip
    (:func:`grip_share`), within the cone; beyond it the pad slips on the cone's edge."""
    if lever_ == 0.0:
        return jt, False
    want = jt + grip_share(lever_, params) * jn
    limit = params.mu_finger * jn
    if abs(want) <= limit:
        return want, False
    return math.copysign(limit, want), True


def launch_speed(flick: Flick, params: PhysicsParams, off_normal: float = 0.0) -> float:
    """Launch speed (m/s) if the finger's whole impulse is delivered: J / m (the cone and the
    energy caps only lower what the die gets; the cap ``max_launch_speed`` refuses above this)."""
    return finger_impulse(flick, params, off_normal) / params.die_mass


@dataclass(frozen=True)
class Strike:
    """What a flick delivers to a die at rest (:func:`strike`), in the struck face's frame."""

    j: float  # N s: the finger's impulse along its travel, before the cone
    jn: float  # N s: the part along the face's inward normal the cone lets through
    jt: float  # N s: the part along the face (to the left of the normal)
    slipped: bool  # the pad slipped: (jn, jt) is on the cone's edge, not along the travel
    scale: float  # <= 1: the share of (jn, jt) delivered (the energy caps); 1 almost always
    pitch: float  # rad/s: the pitch it starts: forward > 0 struck high, back < 0 struck low
    rise: float = 0.0  # m/s: the centre's rise (struck below its centre: edges.low_strike)
    gripped: bool = False  # the pad's grip moved jt off the travel (grip_parts), within the cone


def strike_energy(
    jn: float, jt: float, lever_: float, height: float, p: PhysicsParams, push: float | None = None
) -> float:
    """Energy (J) of a die at rest given the impulse (jn, jt) at ``lever_`` and ``height``: the slide
    |J|^2/(2m), the spin (r x J)^2/(2I) about the centre (r = (-a/2, lever a) in the face's frame)
    and the pitch: 1/2 I_e Omega^2 about the leading edge (I_e = 2/3 m a^2, physics/pitch.py), or
    struck low, the rise 1/2 m vz^2 and the turn back 1/2 I Omega^2 (its I is the spin's, a cube's
    inertia being the same about every axis through its centre).  ``push``: the push's size that
    drives the pitch (default |J|; the pad's grip is not a push)."""
    a, m = p.die_size, p.die_mass
    jj = jn * jn + jt * jt
    moment = -0.5 * a * jt - lever_ * a * jn
    size = math.sqrt(jj) if push is None else push
    rate = pitch_per_impulse(height, p) * size
    if rate >= 0.0:  # about the leading edge
        turn = m * a * a * rate * rate / 3.0
    else:  # turning back about the centre, rising
        rise = rise_per_impulse(height, p) * size
        turn = 0.5 * m * rise * rise + 0.5 * p.die_inertia * rate * rate
    return 0.5 * jj / m + 0.5 * moment * moment / p.die_inertia + turn


def _struck_point_speed(
    jn: float,
    jt: float,
    lever_: float,
    height: float,
    off_normal: float,
    p: PhysicsParams,
    push: float | None = None,
) -> float:
    """Speed (m/s) along the push of the struck point of a die at rest given (jn, jt): the slide's
    part, the spin's (its moment times the push's arm over I) and the pitch's Omega z (along the
    push, as :func:`inverse_mass` counts it; driven by ``push``, default |J|)."""
    a = p.die_size
    c, s = math.cos(off_normal), math.sin(off_normal)
    moment = -0.5 * a * jt - lever_ * a * jn
    arm = -(lever_ * a * c + 0.5 * a * s)  # r x d, d the push's direction
    rate = pitch_per_impulse(height, p) * (math.hypot(jn, jt) if push is None else push)
    return (
        (jn * c + jt * s) / p.die_mass
        + moment * arm / p.die_inertia
        + rate * _over_centre(height, p)
    )


# rounding slack of the caps: a flick exactly at a bound is not scaled by its last bit
_CAP_SLACK = 1e-12


def strike(flick: Flick, params: PhysicsParams, off_normal: float = 0.0) -> Strike:
    """What ``flick`` delivers to a die at rest when its push is ``off_normal`` radians from the
    struck face's inward normal: the finger's impulse (:func:`finger_impulse`) within the friction
    cone (:func:`cone_parts`), off-centre with the pad's grip on the face (:func:`grip_parts`), then
    scaled down if the die would hold more energy than the launch
    cap's 1/2 m v_cap^2 or, for a finger speed, than the impact allows, 1/2 m_eff ((1 + e_f) V_f)^2,
    or its struck point would leave faster than (1 + e_f) V_f along the push.  The pitch is driven by
    the delivered push's size at the strike's height (:func:`strike_pitch_rate`, or struck below the
    centre edges.low_strike: it turns back and rises)."""
    p = params
    lev = lever(flick, p, off_normal)
    j = finger_impulse(flick, p, off_normal)
    jn, jt, slipped = cone_parts(j, off_normal, p)
    push = math.hypot(jn, jt) if slipped else j  # what drives the pitch: the push, not the grip
    gripped = False
    unbalanced = lev - balance_point(off_normal, p)
    if not slipped and unbalanced != 0.0:
        # the pad's grip holds the face the lever's unbalanced part would slide under it
        aimed = jt
        jt, slipped = grip_parts(jn, jt, unbalanced, p)
        gripped = jt != aimed
    energy = strike_energy(jn, jt, lev, flick.height, p, push)
    most = 0.5 * p.die_mass * p.max_launch_speed**2
    top_speed = math.inf
    if flick.finger_speed is not None:
        top_speed = (1 + p.finger_restitution) * flick.finger_speed
        # 1/2 m_eff (1 + e_f)^2 V_f^2 = 1/2 j top_speed
        most = min(most, 0.5 * j * top_speed)
    scale = 1.0
    if energy > most * (1 + _CAP_SLACK):
        scale = math.sqrt(most / energy)
    speed = scale * _struck_point_speed(jn, jt, lev, flick.height, off_normal, p, push)
    if speed > top_speed * (1 + _CAP_SLACK):
        scale *= top_speed / speed
    size = push * scale
    rate, rise, _ = _blow(flick.height, p)
    return Strike(
        j, jn, jt, slipped, scale, rate * size / p.die_mass, rise * size / p.die_mass, gripped
    )


def struck_side(direction: float, die_angle: float) -> int:
    """Index k (0..3) of the struck side in the die's body frame: outward normal at angle k*pi/2.

    The struck face is the one whose outward normal is most nearly opposite the push direction.
    """
    back = direction - die_angle + math.pi
    return round(back / (math.pi / 2)) % 4


def contact_point(
    flick: Flick, x: float, y: float, angle: float, size: float
) -> tuple[float, float]:
    """World point where the finger meets the struck face (mid-height projection)."""
    k = struck_side(flick.direction, angle)
    na = angle + k * math.pi / 2
    nx, ny = math.cos(na), math.sin(na)
    # to the left of the push direction, along the face: normal turned -90 degrees
    lx, ly = ny, -nx
    half = size / 2
    return (
        x + half * nx + flick.offset * size * lx,
        y + half * ny + flick.offset * size * ly,
    )


def pitch_rate(flick: Flick, params: PhysicsParams, off_normal: float = 0.0) -> float:
    """Pitch rate (rad/s) a strike starts: forward (> 0) above the finger's grip over mid-height
    (edges.strike_pitch_rate), back (< 0) below mid-height (edges.low_strike), of the impulse
    delivered (:func:`strike`)."""
    return strike(flick, params, off_normal).pitch


def flick_tumbles(flick: Flick, params: PhysicsParams) -> bool:
    """True if the strike is high and hard enough to tumble the die forward at least once."""
    return pitch_rate(flick, params) >= pitch_tumble_rate(params)
