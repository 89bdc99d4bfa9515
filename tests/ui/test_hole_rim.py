"""The hole's rim reads clearly: the step from wood to hole happens within a few pixels all round
(a die at the rim visibly overhangs it), not over a blurred dark smudge."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.ui.draw_board import wood_pixels
from jamsumo_sim.ui.theme import load_theme
from jamsumo_sim.ui.view import View


@pytest.mark.parametrize("side_px", [500, 700])
def test_the_hole_rim_is_a_sharp_edge_all_round(side_px):
    board = load_board("standard")
    view = View(board.side, (0, 0, side_px, side_px), 0)
    lum = wood_pixels(board, view, load_theme()).astype(float).mean(axis=2)  # (x, y)
    c = side_px / 2
    hr = board.hole_radius * view.scale  # px
    assert hr > 8  # the board is big enough to see a rim at all

    def at(a: float, rr: float) -> float:
        return float(lum[int(c + rr * math.cos(a)), int(c - rr * math.sin(a))])

    for a in np.linspace(0, 2 * math.pi, 16, endpoint=False):
        contrast = at(a, 1.6 * hr) - at(a, 0.0)  # the wood beside the hole against its pit
        step = at(a, hr + 1.5) - at(a, hr - 1.5)  # across three pixels at the rim
        assert step > 0.45 * contrast, (round(math.degrees(a)), step, contrast)
