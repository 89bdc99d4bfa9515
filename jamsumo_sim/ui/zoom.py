"""Zoom and pan of the board: a board rectangle larger than the layout's, moved so a chosen point of the
board stays under the centre of the board area.  Dice of 16-22 px can be looked at closely."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pygame

from jamsumo_sim.ui.view import View

ZOOMS = (1.0, 1.25, 1.5, 2.0, 2.5, 3.0)


@dataclass(frozen=True)
class Zoom:
    """``level`` indexes :data:`ZOOMS`; ``pan`` is the world point (m) at the centre of the view."""

    level: int = 0
    pan: tuple[float, float] = (0.0, 0.0)

    @property
    def factor(self) -> float:
        return ZOOMS[self.level]

    def zoomed(self, steps: int, board_half: float) -> Zoom:
        level = max(0, min(len(ZOOMS) - 1, self.level + steps))
        return replace(self, level=level, pan=_clamp(self.pan, board_half, ZOOMS[level]))

    def panned(self, dx: float, dy: float, board_half: float) -> Zoom:
        """Move the view centre by (dx, dy) m (world frame)."""
        pan = (self.pan[0] + dx, self.pan[1] + dy)
        return replace(self, pan=_clamp(pan, board_half, self.factor))

    def apply(self, view: View) -> View:
        """``view`` with its board rectangle scaled about the pan point."""
        if self.level == 0:
            return view
        x, y, w, h = view.rect
        side = round(w * self.factor)
        cx, cy = x + w / 2, y + h / 2
        big = View(view.board_side, (0, 0, side, side), view.seat)
        px, py = big.to_screen(*self.pan)
        return View(view.board_side, (round(cx - px), round(cy - py), side, side), view.seat)


def _clamp(pan: tuple[float, float], half: float, factor: float) -> tuple[float, float]:
    # keep the board's edge no further in than the unzoomed edge
    room = half * (1 - 1 / factor)
    return (max(-room, min(room, pan[0])), max(-room, min(room, pan[1])))


def zoomed_picture(
    base: pygame.Surface, base_view: View, view: View, area: pygame.Rect
) -> pygame.Surface:
    """The part of ``base`` (drawn with ``base_view``) that ``view`` shows in ``area``, scaled up.

    The still board is rendered once unzoomed; zooming and panning only cut and scale it (a few ms),
    never re-render the wood at three times the size.
    """
    corners = [view.to_world(area.left, area.top), view.to_world(area.right, area.bottom)]
    pts = [base_view.to_screen(x, y) for x, y in corners]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    src = pygame.Rect(
        math.floor(min(xs)),
        math.floor(min(ys)),
        math.ceil(max(xs) - min(xs)),
        math.ceil(max(ys) - min(ys)),
    )
    src = src.clip(base.get_rect())
    out = base.copy()
    if src.w > 0 and src.h > 0:
        out.blit(pygame.transform.smoothscale(base.subsurface(src), area.size), area.topleft)
    return out
