"""Low strikes (model 0.14, issue 33; docs/physics.md "Low strikes"): a horizontal blow below a
die's centre turns it back, its front lifting, and as the board can only push up the die rises.
The oracle is the blow's impulse balance with its contact states (the pusher's grip on the face
holding or slipping, the rear edge on the board or clear of it), solved here as linear systems;
exactly one state is consistent at every depth the law covers."""

from __future__ import annotations

import math

import numpy as np
import pytest
from physics_helpers import FLAT

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.edges import low_strike
from jamsumo_sim.physics.events import HOP, TUMBLE
from jamsumo_sim.physics.flick import Flick, finger_for_launch, pitch_rate, strike
from jamsumo_sim.world import World


def _states(dv: float, depth: float, mu: float, p) -> list[tuple[float, float]]:
    """(Omega back, v_z) of each consistent contact state of a push J = m dv ``depth`` below the
    centre: unknowns (v_x, v_z, Omega, N, T), N the board's push up at the rear edge's rounding
    (-c, -a/2), mu_board N back there, T the pusher's friction up the face at (-a/2, -depth):
    m v_x = J - mu_b N; m v_z = N + T; I Omega = depth J - (a/2) T - N (c + mu_b a/2).  The rear
    edge rises at v_z - c Omega, the struck point of the face at v_z - (a/2) Omega."""
    a, m, r, mu_b = p.die_size, p.die_mass, p.die_edge_radius, p.mu_board
    inertia, c, j = m * a * a / 6, a / 2 - r, m * dv
    rows = [
        [m, 0.0, 0.0, mu_b, 0.0],
        [0.0, m, 0.0, -1.0, -1.0],
        [0.0, 0.0, inertia, c + mu_b * a / 2, a / 2],
    ]
    rhs = [j, 0.0, depth * j]
    found = []
    # (the face grips, the rear edge on the board)
    for grips, leans in ((True, False), (False, False), (False, True)):
        extra = [[0.0, 1.0, -c, 0.0, 0.0] if leans else [0.0, 0.0, 0.0, 1.0, 0.0]]
        extra.append([0.0, 1.0, -a / 2, 0.0, 0.0] if grips else [0.0, 0.0, 0.0, 0.0, 1.0])
        rhs2 = [0.0, 0.0 if grips else mu * j]
        _, vz, omega, n, t = np.linalg.solve(np.array(rows + extra), np.array(rhs + rhs2))
        tol = 1e-12
        ok = n >= -tol * j and vz - c * omega >= -1e-12
        ok = ok and (abs(t) <= mu * j * (1 + 1e-12) if grips else vz - a / 2 * omega <= 1e-12)
        # (at a regime's bound two states hold and agree)
        if ok and not any(abs(omega - o) <= 1e-9 * abs(o) for o, _ in found):
            found.append((float(omega), float(vz)))
    return found


@pytest.mark.parametrize("mu", [0.1, 0.3, 0.6])
@pytest.mark.parametrize("height", [0.0, 0.1, 0.2, 0.236, 0.25, 0.3, 0.4, 0.45])
def test_the_turn_and_the_rise_are_the_blows_impulse_balance(params, mu, height):
    a = params.die_size
    states = _states(2.0, (0.5 - height) * a, mu, params)
    assert len(states) == 1, states
    rate, rise = low_strike(2.0, height * a, mu, params)
    assert (rate, rise) == pytest.approx(states[0], rel=1e-9, abs=1e-9)
    assert rate > 0.0 and rise > 0.0


def test_the_nails_three_regimes_and_their_bounds(params):
    """The nail (mu 0.3) grips a 16 mm face down to 4.0 mm below the centre (0.25 of the face),
    slips clear of the board to 4.23 mm, and leans on the rear edge below; continuous at both."""
    a, mu = params.die_size, params.mu_finger
    stick = 5 * mu * a / 6
    lean = mu * (a * a / (6 * (a / 2 - params.die_edge_radius)) + a / 2)
    assert stick == pytest.approx(0.004)
    assert lean == pytest.approx(0.0042286, rel=1e-4)
    for depth in (stick, lean):
        below = low_strike(3.0, a / 2 - depth * (1 - 1e-9), mu, params)
        above = low_strike(3.0, a / 2 - depth * (1 + 1e-9), mu, params)
        assert below == pytest.approx(above, rel=1e-6)
    # gripping, the struck point stays on the nail: the centre rises at (a/2) Omega
    rate, rise = low_strike(3.0, 0.4 * a, mu, params)
    assert rise == pytest.approx(0.5 * a * rate, rel=1e-12)
    assert rate == pytest.approx(12 * 0.1 * a * 3.0 / (5 * a * a), rel=1e-12)


def test_at_or_above_mid_height_nothing(params):
    a = params.die_size
    for b in (0.5 * a, 0.7 * a, a):
        assert low_strike(3.0, b, params.mu_finger, params) == (0.0, 0.0)


def test_a_flick_below_the_centre_turns_the_die_back_and_lifts_it(params):
    """Struck at 0.3 of the face at 3 m/s the die rises (3D reference: 0.63 m/s) and its first
    quarter turn in the air brings the face it was pushed towards to the top."""
    flick = Flick("a", 0.0, finger_speed=finger_for_launch(3.0, params), height=0.3)
    s = strike(flick, params)
    assert s.pitch < 0.0 and s.rise > 0.5
    assert pitch_rate(flick, params) == s.pitch
    w = World(load_board(FLAT), params)
    w.add_die("a", 0.0, 0.0, face=1)
    ahead = w._dice["a"].orientation.face_towards(0.0)
    w.apply_flick(flick)
    assert w._dice["a"].airborne
    assert [e.data["vz"] for e in w.events if e.type == HOP] == [pytest.approx(s.rise)]
    while w.time < 0.2 and not any(e.type == TUMBLE for e in w.events):
        w.step()
    assert w.state("a").face == ahead
    assert max(0.0, w.state("a").z) < 0.05


def test_the_struck_point_leaves_no_faster_than_the_finger_allows(params):
    """The finger's impact: a low strike's struck point (slide plus the turn back, Omega depth)
    leaves at (1 + e_f) V_f, and the die holds no more energy than 1/2 m_eff ((1 + e_f) V_f)^2."""
    vf = finger_for_launch(3.0, params)
    for height in (0.05, 0.2, 0.3, 0.45):
        flick = Flick("a", 0.0, finger_speed=vf, height=height)
        s = strike(flick, params)
        j = s.j * s.scale
        depth = (0.5 - height) * params.die_size
        point = j / params.die_mass + (-s.pitch) * depth
        assert point == pytest.approx((1 + params.finger_restitution) * vf, rel=1e-9)
        energy = 0.5 * j * j / params.die_mass + 0.5 * params.die_mass * s.rise**2
        energy += 0.5 * params.die_inertia * s.pitch**2
        assert energy <= 0.5 * j * (1 + params.finger_restitution) * vf * (1 + 1e-9)
        assert math.isfinite(energy)


def test_a_pad_turns_the_die_back_from_its_upper_edge(params):
    """A pad 8 mm tall pushes a face whose foot leaves it from the pad's upper edge: struck at 0.2
    of the face it turns the die back as a nail would 4 mm higher; centred at mid-height it spans
    the centre and turns it neither way (nor, from its lower edge, forward)."""
    pad = params.with_overrides({"finger_pad_height": 0.008, "mu_finger": 0.6})
    a, m = pad.die_size, pad.die_mass
    low = strike(Flick("a", 0.0, 2.0 * m, height=0.2), pad)
    rate, rise = low_strike(2.0, 0.2 * a + 0.004, pad.mu_finger, pad)
    assert (-low.pitch, low.rise) == pytest.approx((rate, rise), rel=1e-12)
    mid = strike(Flick("a", 0.0, 2.0 * m, height=0.5), pad)
    assert mid.pitch == 0.0 and mid.rise == 0.0


def test_a_die_turning_back_lands_its_rising_edge_without_a_blow(params):
    """0.9 m/s at 0.2 of the face: the die leaves turning back at 32.6 rad/s, too slowly for its
    rear edge to rise (35.0), so the edge touches the board again while the centre still climbs.
    That touch is no blow that turns the die round (model 0.13's landing took the centre as falling
    there: 34 to -24 rad/s, and a quarter turn the other way within two steps): it goes on turning
    back.  (At 1 m/s it now leaves turning at 36.2 rad/s, its edge rising: test below.)"""
    w = World(load_board(FLAT), params)
    w.add_die("a", 0.0, 0.0, face=1)
    w.apply_flick(Flick("a", 0.0, finger_speed=finger_for_launch(0.9, params), height=0.2))
    d = w._dice["a"]
    assert d.airborne and 30.0 < d.pitch.rate < 34.0
    for _ in range(4):
        w.step()
        assert d.pitch is not None and d.pitch.rate > 20.0
    assert not any(e.type == TUMBLE for e in w.events)


def test_struck_low_at_1_m_s_the_die_leaves_the_board(params):
    """1 m/s at 0.2 of the face: the blow turns the die back at 39.2 rad/s with its centre rising at
    0.274 m/s; its rounded rear edge is where the board held it, and its sharp edge, a/2 behind,
    would meet the board at 39.2 x 0.008 - 0.274 = 0.040 m/s.  That edge's plastic impact (P/m =
    0.040 / 2.5) leaves it turning at 36.2 rad/s, rising at 0.290 m/s: above the 35.0 rad/s that
    lifts an edge (g - (a/2) Omega^2 < 0), so it flies, as the 3D reference's die does (turning at
    37.4 rad/s, its centre 3.9 mm up, 0.151 m on).  Models 0.14-0.15 cut the turn to 2 vz / a =
    34.3 rad/s, and the die rocked back on its edge and went 0.062 m."""
    a = params.die_size
    flick = Flick("a", 0.0, finger_speed=finger_for_launch(1.0, params), height=0.2)
    s = strike(flick, params)
    omega, vz = -s.pitch, s.rise
    assert omega == pytest.approx(39.19, abs=0.01) and vz == pytest.approx(0.2743, abs=1e-4)
    dip = omega * a / 2 - vz
    w = World(load_board(FLAT), params)
    w.add_die("a", 0.0, 0.0, face=1)
    w.apply_flick(flick)
    d = w._dice["a"]
    assert d.airborne
    assert d.pitch.rate == pytest.approx(omega - 3 * (dip / 2.5) / a, rel=1e-12)
    assert [e.data["vz"] for e in w.events if e.type == HOP] == [pytest.approx(vz + dip / 2.5)]
    assert d.pitch.rate > math.sqrt(2 * params.gravity / a)
    top = 0.0
    while w.time < 0.5:
        w.step()
        top = max(top, w.state("a").z)
    assert top > 0.003  # its centre's climb (3D: 3.9 mm)
    assert w.state("a").x == pytest.approx(0.151, rel=0.1)  # (3D: 0.151 m)
