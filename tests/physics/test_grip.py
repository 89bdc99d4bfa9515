"""The grip law (model 0.13, issue 33; docs/physics.md "The finger's grip"): a blow high on a face
grips it with the pusher's friction, which pulls the face down as a pitch would lift it, so a die
pitches only above grip_height over mid-height, and then slower than a frictionless blow.  The
oracle is the impulse balance of the blow itself, solved here as a linear system."""

from __future__ import annotations

import math

import numpy as np
import pytest
from physics_helpers import FLAT

from jamsumo_sim.physics import contacts, flight
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.edges import grip_height, strike_pitch_rate
from jamsumo_sim.physics.flick import Flick, flick_tumbles, pitch_rate
from jamsumo_sim.world import World


def _blow(dv: float, z: float, mu_grip: float, p) -> float:
    """The pitch rate from the impulse balance of a push J = m dv at z above the centre of a die
    turning on its rounded leading edge (pivot (c, -a/2), c = a/2 - r), the pusher's friction
    mu_grip J down the face as it slides up, the board's normal N and friction mu_board N back at
    the pivot, the pivot staying on the board: unknowns (v_x, v_z, Omega, N)."""
    a, m, r, mu_b = p.die_size, p.die_mass, p.die_edge_radius, p.mu_board
    inertia = m * a * a / 6
    c = a / 2 - r
    j = m * dv
    f = mu_grip * j
    # m v_x = J - mu_b N;  m v_z = N - f;  I Omega = z J - (a/2) f + N (mu_b a/2 - c);  v_z = Omega c
    lhs = np.array(
        [
            [m, 0.0, 0.0, mu_b],
            [0.0, m, 0.0, -1.0],
            [0.0, 0.0, inertia, c - mu_b * a / 2],
            [0.0, 1.0, -c, 0.0],
        ]
    )
    rhs = np.array([j, -f, z * j - 0.5 * a * f, 0.0])
    _, _, omega, _ = np.linalg.solve(lhs, rhs)
    return max(0.0, float(omega))


def test_the_nail_grips_the_face_to_0_744(params):
    """mu_finger 0.3 on the 16 mm die with 1 mm edges on a mu 0.25 board: z* = 0.3 x 13 mm =
    3.9 mm over mid-height, 0.744 of the face; a fingertip (mu 0.6) grips to 0.9875 of it."""
    assert params.mu_finger == 0.3
    assert grip_height(params.mu_finger, params) == pytest.approx(0.0039, rel=1e-12)
    assert 0.5 + grip_height(0.6, params) / params.die_size == pytest.approx(0.9875)
    assert grip_height(0.0, params) == 0.0


@pytest.mark.parametrize("mu_grip", [0.0, 0.1, 0.3, 0.5])
@pytest.mark.parametrize("height", [0.55, 0.7, 0.8, 0.9, 1.0])
def test_the_pitch_is_the_blows_impulse_balance(params, mu_grip, height):
    a = params.die_size
    want = _blow(2.0, (height - 0.5) * a, mu_grip, params)
    got = strike_pitch_rate(2.0, height * a, mu_grip, params)
    assert got == pytest.approx(want, rel=1e-9, abs=1e-9)
    if height * a - a / 2 <= grip_height(mu_grip, params):
        assert got == 0.0


def test_without_grip_and_with_a_sharp_edge_it_is_model_0_12s_law(params):
    """dv z / (a^2 (1/6 + (1 - mu_board)/4)): the law before the grip."""
    sharp = params.with_overrides({"die_edge_radius": 0.0})
    a = params.die_size
    for height in (0.6, 0.8, 1.0):
        z = (height - 0.5) * a
        old = 3.0 * z / (a * a * (1 / 6 + (1 - params.mu_board) / 4))
        assert strike_pitch_rate(3.0, height * a, 0.0, sharp) == pytest.approx(old, rel=1e-12)


def test_a_flick_tumbles_a_die_only_above_the_nails_grip(params):
    """Below 0.744 of the face no flick pitches a die (5 m/s, the cap); above it a hard one
    tumbles it; a fingertip's pad (mu 0.6) tumbles none."""
    m = params.die_mass
    assert pitch_rate(Flick("a", 0.0, 5 * m, height=0.74), params) == 0.0
    assert flick_tumbles(Flick("a", 0.0, 3 * m, height=0.85), params)
    pad = params.with_overrides({"mu_finger": 0.6, "finger_pad_height": 0.008})
    assert not any(
        flick_tumbles(Flick("a", 0.0, 5 * m, height=h), pad) for h in np.linspace(0.5, 1.0, 11)
    )


def test_a_pad_pitches_the_die_from_its_lower_edge(params):
    """A pad 6 mm tall centred at the top of the face pushes like a nail at a - 3 mm."""
    m = params.die_mass
    pad = params.with_overrides({"finger_pad_height": 0.006})
    nail_at = (params.die_size - 0.003) / params.die_size
    got = pitch_rate(Flick("a", 0.0, 2 * m, height=1.0), pad)
    assert got > 0.0
    assert got == pytest.approx(
        pitch_rate(Flick("a", 0.0, 2 * m, height=nail_at), params), rel=1e-9
    )


@pytest.mark.parametrize("lift,pitches", [(0.0005, False), (0.0075, False), (0.0085, True)])
def test_dice_on_different_levels_grip_each_other(params, lift, pitches):
    """A die standing ``lift`` above its neighbour's level meets it at the middle of their overlap,
    lift/2 above the lower one's mid-height: that die pitches only above mu_die's grip, 0.3 x 13 mm
    = 3.9 mm (model 0.12 pitched it for any lift: a hop's edge-on-edge contacts tumbled dice at the
    default step and not at refine 8, the scattered breaks' -5.5 % time to rest), at the law's rate
    with the slide paying for it."""
    w = World(load_board(FLAT), params)
    a = params.die_size
    w.add_die("upper", 0.0, 0.0, face=1)
    w.add_die("lower", a, 0.0, face=1, vx=1.5)
    upper, lower = w._dice["upper"], w._dice["lower"]
    flight.launch(w, upper, 0.0, z=lift)
    contacts.impact_tumbles(w, upper, lower, 0.003, elapsed=0.0)
    assert upper.pitch is None
    assert (lower.pitch is not None) is pitches
    if pitches:
        centre = 0.5 * (lift + a)
        want = strike_pitch_rate(0.003 / params.die_mass, centre, params.mu_die, params)
        assert lower.pitch.rate == pytest.approx(want, rel=1e-9)
        assert math.hypot(*lower.body.velocity) < 1.5
