"""World ↔ screen transform: SI metres inside the model, pixels only here.

The world frame has its origin at the hole, x to the right of seat 0 and y away from seat 0.  On screen
y grows downwards, and the board may be turned a quarter turn at a time so that the seat whose turn it
is sits at the bottom (the rulebook allows turning the board).  Quarter turns keep the transform exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from jamsumo_sim.physics.board import from_seat, to_seat


@dataclass(frozen=True)
class Layout:
    """Where things go in a window of ``width`` × ``height`` pixels."""

    width: int
    height: int
    panel_x: int  # the side panel occupies [panel_x, width)
    board_rect: tuple[int, int, int, int]  # x, y, w, h of the square board, in pixels


def make_layout(
    width: int,
    height: int,
    panel_fraction: float = 0.28,
    panel_min: int = 300,
    margin_fraction: float = 0.11,
) -> Layout:
    """Split the window into the board area (left) and the side panel (right)."""
    panel_w = max(panel_min, int(width * panel_fraction))
    panel_w = min(panel_w, max(0, width - 200))
    area_w = width - panel_w
    short = min(area_w, height)
    margin = int(short * margin_fraction)
    side = max(50, short - 2 * margin)
    x = (area_w - side) // 2
    y = (height - side) // 2
    return Layout(width, height, area_w, (x, y, side, side))


@dataclass(frozen=True)
class View:
    """Maps board metres to screen pixels for a square board drawn in ``rect`` seen from ``seat``."""

    board_side: float  # m
    rect: tuple[int, int, int, int]  # x, y, w, h (pixels), square
    seat: int = 0  # whose side of the board is at the bottom of the screen

    @property
    def scale(self) -> float:
        """Pixels per metre."""
        return self.rect[2] / self.board_side

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.rect
        return (x + w / 2, y + h / 2)

    @property
    def rotation(self) -> float:
        """Angle (rad) added to a world direction to get its direction in the seat frame."""
        return (self.seat % 4) * math.pi / 2

    def to_screen(self, x: float, y: float) -> tuple[float, float]:
        xs, ys = to_seat(self.seat % 4, x, y)
        cx, cy = self.centre
        s = self.scale
        return (cx + s * xs, cy - s * ys)

    def to_world(self, px: float, py: float) -> tuple[float, float]:
        cx, cy = self.centre
        s = self.scale
        return from_seat(self.seat % 4, (px - cx) / s, (cy - py) / s)

    def length(self, metres: float) -> float:
        return metres * self.scale

    def screen_angle(self, world_angle: float) -> float:
        """The on-screen angle (rad, counter-clockwise as seen, i.e. with y up) of a world direction."""
        return world_angle + self.rotation

    def turned(self, seat: int) -> View:
        return View(self.board_side, self.rect, seat % 4)

    def resized(self, rect: tuple[int, int, int, int]) -> View:
        return View(self.board_side, rect, self.seat)
