"""World ↔ screen transform."""

from __future__ import annotations

import pytest

from jamsumo_sim.ui.view import View, make_layout


def test_round_trip_and_orientation():
    v = View(0.45, (100, 50, 450, 450), 0)
    assert v.scale == pytest.approx(1000.0)
    assert v.to_screen(0.0, 0.0) == pytest.approx((325, 275))
    # seat 0 sits at -y: the south edge is at the bottom of the screen
    assert v.to_screen(0.0, -0.2)[1] > v.to_screen(0.0, 0.2)[1]
    for seat in range(4):
        vs = v.turned(seat)
        for x, y in ((0.1, -0.05), (-0.2, 0.13)):
            assert vs.to_world(*vs.to_screen(x, y)) == pytest.approx((x, y))


def test_turned_view_puts_that_side_at_the_bottom():
    v = View(0.45, (0, 0, 450, 450), 2)
    # seat side 2 sits at +y: now +y is at the bottom
    assert v.to_screen(0.0, 0.2)[1] > v.to_screen(0.0, -0.2)[1]
    v1 = View(0.45, (0, 0, 450, 450), 1)
    assert v1.to_screen(-0.2, 0.0)[1] > v1.to_screen(0.2, 0.0)[1]


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800), (1920, 1080), (2560, 1440)])
def test_layout_fits_the_window(size):
    lay = make_layout(*size)
    x, y, w, h = lay.board_rect
    assert w == h > 300
    assert x >= 0 and y >= 0 and x + w <= lay.panel_x and y + h <= size[1]
    assert size[0] - lay.panel_x >= 300
