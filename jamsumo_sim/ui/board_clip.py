"""Paths drawn over the board (the aim's spread, the collision preview, the trails) stay on it.

A die flicked off the side has a predicted path that runs on past the board's edge; drawn unclipped
it crossed the margin and the side panel.  The clip is the board square as drawn (zoom included),
never beyond the board area left of the panel.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pygame

from jamsumo_sim.ui.view import View


def board_clip(app: Any, view: View) -> pygame.Rect:
    """The board's square on screen, inside the area left of the panel."""
    lay = app.layout()
    area = pygame.Rect(0, 0, lay.panel_x, lay.height)
    return pygame.Rect(*(round(v) for v in view.rect)).clip(area)


@contextmanager
def clipped(screen: pygame.Surface, rect: pygame.Rect) -> Iterator[None]:
    """Draw inside ``rect`` only (within whatever clip the screen already had)."""
    old = screen.get_clip()
    screen.set_clip(rect.clip(old))
    try:
        yield
    finally:
        screen.set_clip(old)
