"""The board as an RGB array, drawn headless with the window's own drawing code (no window).

The table, board and dice are drawn exactly as the window draws them (``ui.draw_board`` and
``ui.draw_dice``), seen from above the board with seat 0 at the bottom; no side panel.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

# Pixels of the square picture.
PICTURE_SIZE = 480


def board_picture(state: Any, size: int = PICTURE_SIZE) -> np.ndarray:
    """An (size, size, 3) uint8 picture of ``state``'s board (a JamSumo match state)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # drawing needs no display
    import pygame

    from jamsumo_sim.rules.seats import colour
    from jamsumo_sim.ui.draw_board import render_background
    from jamsumo_sim.ui.draw_dice import DieLook, draw_dice
    from jamsumo_sim.ui.palette import mark_of
    from jamsumo_sim.ui.theme import load_theme
    from jamsumo_sim.ui.view import View

    if not pygame.get_init():
        pygame.init()
    theme = load_theme()
    margin = size // 16
    view = View(state.board.side, (margin, margin, size - 2 * margin, size - 2 * margin), 0)
    surface = render_background(state.board, view, theme, (size, size))
    looks = []
    for row in state.dice_table(None):
        if "x" not in row:
            continue
        name = colour(int(row["owner"]))
        looks.append(
            DieLook(
                row["id"],
                row["x"],
                row["y"],
                row["angle"],
                int(row["face"]),
                theme.dice_colour(name),
                bool(row["flat"]),
                mark=mark_of(name),
            )
        )
    draw_dice(surface, view, looks, state.physics.die_size)
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))
