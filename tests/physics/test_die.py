"""Cube orientation: 24 rotations, right-handed standard die, tumbles."""

from __future__ import annotations

import math

import pytest

from jamsumo_sim.physics.die import ALL_ORIENTATIONS, Orientation, face_up, tumble


def test_24_orientations_opposites_sum_to_7():
    assert len(ALL_ORIENTATIONS) == 24 == len(set(ALL_ORIENTATIONS))
    for o in ALL_ORIENTATIONS:
        faces = {o.top, o.bottom, o.east, o.west, o.north, o.south}
        assert faces == {1, 2, 3, 4, 5, 6}
        assert o.top + o.bottom == o.east + o.west == o.north + o.south == 7
    assert sorted({o.top for o in ALL_ORIENTATIONS}) == [1, 2, 3, 4, 5, 6]


def test_right_handed():
    """With 1 on top and 2 facing the viewer (south), 3 is on the right (east)."""
    o = Orientation(top=1, east=3, north=5)
    assert o.south == 2
    with pytest.raises(ValueError, match="left-handed"):
        Orientation(top=1, east=4, north=5)


def test_tumble_changes_top_to_a_side_face():
    o = Orientation.with_top(4)
    for k in range(4):
        t = tumble(o, k * math.pi / 2)
        assert face_up(t) not in (o.top, o.bottom)
    # rolling east: the west face comes up; the old top faces east
    t = tumble(o, 0.0)
    assert (t.top, t.east, t.north) == (o.west, o.top, o.north)


@pytest.mark.parametrize("o", ALL_ORIENTATIONS)
def test_four_tumbles_return_and_back_undoes(o):
    for k in range(4):
        d = k * math.pi / 2 + 0.3  # snaps to the nearest axis
        t = o
        for _ in range(4):
            t = tumble(t, d)
        assert t == o
        assert tumble(tumble(o, d), d + math.pi) == o


def test_face_towards():
    o = Orientation(top=1, east=3, north=5)
    assert o.face_towards(0.0) == 3
    assert o.face_towards(math.pi / 2) == 5
    assert o.face_towards(math.pi) == 4
    assert o.face_towards(-math.pi / 2 + 0.2) == 2
