"""Gesture maths: a drag back from a die → the flick it means (no window needed)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jamsumo_sim.ui.gesture import (
    DieSpot,
    die_contains,
    flick_from_drag,
    height_after_wheel,
    pick_die,
    power_from_pull,
    struck_face_normal,
)
from jamsumo_sim.ui.theme import GestureSettings

S = GestureSettings(pull_full=0.10, pull_min=0.004, power_curve=1.5, height_step=0.05)
A = 0.016
MASS = 0.0045
VMAX = 5.0


def die(x=0.0, y=0.0, angle=0.0, id="red1"):
    return DieSpot(id, x, y, angle, A)


def test_push_goes_opposite_to_the_pull():
    f = flick_from_drag(die(), (0.0, 0.0), (0.0, -0.05), 0.5, S, VMAX, MASS)
    assert f is not None
    assert f.direction == pytest.approx(math.pi / 2)
    f = flick_from_drag(die(), (0.0, 0.0), (0.03, 0.03), 0.5, S, VMAX, MASS)
    assert f.direction == pytest.approx(-3 * math.pi / 4)


def test_a_click_is_not_a_flick():
    assert flick_from_drag(die(), (0.0, 0.0), (0.001, 0.0), 0.5, S, VMAX, MASS) is None


def test_power_is_capped_and_grows_with_the_pull():
    assert power_from_pull(0.0, S) == 0.0
    assert power_from_pull(0.05, S) == pytest.approx(0.5**1.5)
    assert power_from_pull(0.10, S) == 1.0
    assert power_from_pull(1.0, S) == 1.0
    f = flick_from_drag(die(), (0.0, 0.0), (0.0, -0.5), 0.5, S, VMAX, MASS)
    assert f.speed == pytest.approx(VMAX)
    assert f.impulse == pytest.approx(VMAX * MASS)


@given(st.floats(0.0, 0.3), st.floats(0.0, 0.3))
def test_power_is_monotonic(a, b):
    lo, hi = sorted((a, b))
    assert power_from_pull(lo, S) <= power_from_pull(hi, S) <= 1.0


def test_offset_from_the_press_point_along_the_struck_face():
    # push along +y: the struck face is the south one; left of the push is -x
    left = flick_from_drag(die(), (-0.004, 0.0), (-0.004, -0.05), 0.5, S, VMAX, MASS)
    right = flick_from_drag(die(), (0.004, 0.0), (0.004, -0.05), 0.5, S, VMAX, MASS)
    centre = flick_from_drag(die(), (0.0, 0.0), (0.0, -0.05), 0.5, S, VMAX, MASS)
    assert left.offset == pytest.approx(0.25)
    assert right.offset == pytest.approx(-0.25)
    assert centre.offset == pytest.approx(0.0)
    # pressing outside the die (grab slack) still clamps to the face
    far = flick_from_drag(die(), (-0.02, 0.0), (-0.02, -0.05), 0.5, S, VMAX, MASS)
    assert far.offset == 0.5


def test_offset_sign_matches_the_physics_contact_point():
    from jamsumo_sim.physics.flick import Flick, contact_point

    f = flick_from_drag(die(angle=0.3), (0.002, 0.003), (-0.04, -0.02), 0.5, S, VMAX, MASS)
    cx, cy = contact_point(Flick("red1", f.direction, f.impulse, f.offset), 0.0, 0.0, 0.3, A)
    # the finger lands on the struck face at the press point's position along it
    n = f.face_normal
    tx, ty = math.cos(n - math.pi / 2), math.sin(n - math.pi / 2)
    assert cx * tx + cy * ty == pytest.approx(0.002 * tx + 0.003 * ty, abs=1e-9)


def test_struck_face_is_the_rear_face():
    assert struck_face_normal(0.0, 0.0) == pytest.approx(math.pi)
    assert struck_face_normal(0.0, math.pi / 2) == pytest.approx(-math.pi / 2)
    # a die turned 30°: pushing along +x strikes its face whose normal is at 30° + 180°
    n = struck_face_normal(math.radians(30), 0.0)
    assert math.cos(n - math.radians(210)) == pytest.approx(1.0)


def test_struck_face_agrees_with_physics():
    from jamsumo_sim.physics.flick import struck_side

    for ang in (0.0, 0.4, 1.2, -2.0):
        for d in (0.1, 1.7, 3.0, -1.0):
            k = struck_side(d, ang)
            assert math.cos(struck_face_normal(ang, d) - (ang + k * math.pi / 2)) == pytest.approx(
                1.0
            )


def test_wheel_sets_the_strike_height_within_limits():
    assert height_after_wheel(0.5, 1, S) == pytest.approx(0.55)
    assert height_after_wheel(0.5, -3, S) == pytest.approx(0.35)
    assert height_after_wheel(0.98, 5, S) == 1.0
    assert height_after_wheel(0.02, -5, S) == 0.0


def test_pick_die_follows_rotation_and_prefers_the_nearest():
    d = die(angle=math.pi / 4)
    corner = (0.0079, 0.0079)  # inside the axis-aligned square, outside the turned one
    assert not die_contains(d, *corner)
    assert die_contains(d, 0.0, 0.011)  # along the diagonal of the turned die
    dice = [die(0.0, 0.0, id="a"), die(0.017, 0.0, id="b")]
    assert pick_die(dice, 0.0095, 0.0, slack=0.25) == "b"
    assert pick_die(dice, 0.001, 0.0) == "a"
    assert pick_die(dice, 0.1, 0.1, slack=0.25) is None
