"""Closed-form laws of a die on one of its edges (physics.md s4): the pitch a blow high on a face
starts (above the pusher's grip), the pitch rate that tumbles a die forward, and tripping over a
step (the speed that tips a die over an edge, the speed it keeps).  Plain functions of the
parameters: the flick's laws (:mod:`.flick.laws`) and the step modules (:mod:`.pitch`,
:mod:`.contacts`, :mod:`.platforms`, :mod:`.support`) share them."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .params import PhysicsParams


def grip_height(mu_grip: float, params: PhysicsParams) -> float:
    """Height (m, above the die's centre) up to which a blow gripping the struck face with friction
    ``mu_grip`` slides the die without pitching it: z* = mu_grip (a - r - mu_board a/2), r the edge
    radius.  The pusher's friction pulls the face down as the pitch would lift it, and the board's
    friction at the leading edge acts against the slide (the blow's impulses on a die turning on
    its rounded leading edge, docs/physics.md "The finger's grip"; the 3D reference's onset is
    0.03-0.05 of the face lower).  0 for a frictionless pusher."""
    a = params.die_size
    return mu_grip * (a - params.die_edge_radius - params.mu_board * a / 2)


def strike_pitch_rate(dv: float, b: float, mu_grip: float, params: PhysicsParams) -> float:
    """Forward pitch rate of a die whose speed jumps by ``dv`` from a blow ``b`` metres above its
    base (a finger, or another die standing on a different level) that grips the face with friction
    ``mu_grip``; 0 at or below :func:`grip_height` above mid-height.  The blow's impulses on a die
    turning on its rounded leading edge (pivot c = a/2 - r ahead of the centre), the pusher's
    friction at its full mu_grip J as the face slides up it:
    Omega = dv (z - z*) / (a^2/6 + c (c - mu_board a/2)), z = b - a/2.  With mu_grip = 0 and a
    sharp edge this is model 0.12's dv z / (a^2 (1/6 + (1 - mu_board)/4))."""
    a = params.die_size
    z = b - a / 2 - grip_height(mu_grip, params)
    if z <= 0:
        return 0.0
    c = a / 2 - params.die_edge_radius
    return dv * z / (a * a / 6 + c * (c - params.mu_board * a / 2))


def low_strike(dv: float, b: float, mu_grip: float, params: PhysicsParams) -> tuple[float, float]:
    """(backward pitch rate Omega, rise speed vz of the centre) of a die whose slide jumps by ``dv``
    from a blow ``b`` metres above its base, below its centre (d = a/2 - b deep), gripping the face
    with friction ``mu_grip``; (0, 0) at or above mid-height.  A horizontal blow below the centre
    turns the die back (its front lifting); the board can only push up, so the die rises.  The
    blow's impulses on a rigid die, three regimes (docs/physics.md "Low strikes"):

    - the pusher grips the face (d <= 5 mu a/6): the die turns about the struck point, clear of the
      board: Omega = 12 d dv / (5 a^2), vz = (a/2) Omega;
    - the face slips down the pusher (friction mu J up), still clear of the board:
      Omega = 6 dv (d - mu a/2) / a^2, vz = mu dv;
    - deeper than mu (a^2/(6c) + a/2) it also leans on its rounded rear edge (c = a/2 - r behind
      the centre, board friction mu_board back): Omega = dv (d - mu (r - mu_board a/2)) / K,
      K = a^2/6 + c (c + mu_board a/2), vz = c Omega.

    Continuous at both bounds; the 3D reference's rise at 3 m/s is within 5 % from 0.2 to 0.45
    of the face (tests/reference/test_low_strikes.py).  The pivot's friction takes mu_board (c
    Omega - mu dv) from the slide (1 % at 0.2 of the face): not counted."""
    a = params.die_size
    d = a / 2 - b
    if d <= 0.0 or dv <= 0.0:
        return 0.0, 0.0
    mu = mu_grip
    if d <= 5.0 * mu * a / 6.0:
        rate = 12.0 * d * dv / (5.0 * a * a)
        return rate, 0.5 * a * rate
    c = a / 2 - params.die_edge_radius
    if d <= mu * (a * a / (6.0 * c) + a / 2):
        return 6.0 * dv * (d - mu * a / 2) / (a * a), mu * dv
    mb = params.mu_board
    rate = (
        dv * (d - mu * (params.die_edge_radius - mb * a / 2)) / (a * a / 6 + c * (c + mb * a / 2))
    )
    return rate, c * rate


def low_strike_start(rate: float, rise: float, params: PhysicsParams) -> tuple[float, float]:
    """(pitch rate about the rear edge, rise it leaves the board with, or 0) of a die a blow turned
    back at ``rate`` with its centre rising at ``rise`` (:func:`low_strike`).  Rising faster than
    ``hop_min_speed`` it leaves at once.  The rounded rear edge is where the board held it (c Omega,
    c = a/2 - r); the flying die's sharp edge, a/2 behind, would meet the board at
    Omega a/2 - vz, so that edge takes a plastic impact: the board's push P raises the centre by
    P/m and slows the turn by (a/2) P / I until the edge leaves with no speed into it,
    P/m = (Omega a/2 - vz) / (1 + m (a/2)^2 / I) (the momentum of the landing law's e = 0 impact at
    an edge, flight._land; models 0.14-0.15 cut the turn to 2 vz / a and kept vz, which held a die
    struck at 0.2 of the face at 1 m/s to 34.3 rad/s, under the 35.0 that lifts it, where the 3D
    reference's die leaves turning at 37.4).  Slower, it stands on its rear edge with a pitch
    holding the blow's energy, 1/2 m (vz^2 + a^2 Omega^2 / 6) (the rear edge slides on under it: the
    full rate about a held edge would hold more), and rocks back unless that is the tip energy."""
    a = params.die_size
    if rise > params.hop_min_speed:
        dip = rate * a / 2 - rise  # the sharp rear edge's speed into the board
        if dip <= 0.0:
            return rate, rise
        lever = params.die_mass * (a / 2) ** 2 / params.die_inertia
        jump = dip / (1.0 + lever)  # P / m
        return rate - (a / 2) * jump * params.die_mass / params.die_inertia, rise + jump
    return math.sqrt((rise * rise + a * a * rate * rate / 6.0) / (2.0 * a * a / 3.0)), 0.0


def pitch_tumble_rate(params: PhysicsParams) -> float:
    """Pitch rate above which a struck die tumbles forward: its energy about the leading edge,
    1/2 (2/3 m a^2) w^2, exceeds the tip energy m g a (sqrt2 - 1)/2, so w^2 = 3 g (sqrt2 - 1) / (2 a)
    [derived] (physics/pitch.py; 19.5 rad/s for 16 mm; model 0.3 used the inertia about the
    base's centre, 24.7 rad/s)."""
    return math.sqrt(3 * params.gravity * (math.sqrt(2) - 1) / (2 * params.die_size))


def trip_speed(step: float, params: PhysicsParams) -> float:
    """Speed (m/s) above which a die sliding into an edge ``step`` metres above its base tumbles over it.

    Angular momentum about the edge is conserved at impact, w = v h / k^2 with h = a/2 - step the CoM's
    height above the edge and k^2 = a^2/6 + (a/2)^2 + h^2; the die tips over when that rotation lifts its
    CoM over the edge, (1/2) k^2 w^2 >= g (d - h), d = sqrt((a/2)^2 + h^2) (physics.md s4: 0.42 m/s at
    step 0, 0.56 at 2 mm, 0.86 at 4 mm for a 16 mm die).  Infinite for steps at or above mid-height.
    """
    a = params.die_size
    h = a / 2 - step
    if h <= 0:
        return math.inf
    k2 = a * a / 6 + (a / 2) ** 2 + h * h
    d = math.sqrt((a / 2) ** 2 + h * h)
    return math.sqrt(2 * params.gravity * (d - h) * k2) / h


def speed_after_trip(v: float, step: float, params: PhysicsParams) -> float:
    """Speed after tumbling over an edge ``step`` above the base (energy after the edge impact, minus the
    lift, times ``tumble_energy_retained`` for the landing on the next face); 0 if it cannot."""
    a = params.die_size
    h = a / 2 - step
    if h <= 0:
        return 0.0
    k2 = a * a / 6 + (a / 2) ** 2 + h * h
    e_rot = 0.5 * v * v * h * h / k2  # per unit mass, just after the impact
    left = e_rot - params.gravity * step
    if left <= 0:
        return 0.0
    return math.sqrt(2 * params.tumble_energy_retained * left)
