"""Who sits where: seat colours and die ids, board sides, SUMO corners, seat-relative frames.

Seats are numbered clockwise (play goes left: seat + 1). Each seat sits at one side of the
square board: two players sit opposite each other, three or four go round the table. Board
side ``k`` is the one that :func:`jamsumo_sim.physics.board.to_seat` turns to the viewer's front.
"""

from __future__ import annotations

import math

from jamsumo_sim.physics.board import BoardSpec, from_seat, to_seat
from jamsumo_sim.rules.scoring import DICE_PER_PLAYER

COLOURS = ("red", "blue", "green", "yellow")

# Board side of each seat, by player count (two players face each other across the board).
_SIDES = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


def colour(seat: int) -> str:
    return COLOURS[seat]


def die_ids(seat: int) -> list[str]:
    """The ids of a seat's six dice: ``red1`` … ``red6``."""
    return [f"{COLOURS[seat]}{k}" for k in range(1, DICE_PER_PLAYER + 1)]


def board_side(seat: int, players: int) -> int:
    """The side of the board (0..3) at which ``seat`` sits."""
    return _SIDES[players][seat]


def sumo_corner(board: BoardSpec, seat: int, players: int) -> int:
    """Index of the SUMO area a seat takes: the corner at the front-left of its side.

    The rules let each player choose a corner; the simulation takes this one for everybody
    (see the rules notes), which keeps opponents in different corners.
    """
    side = board_side(seat, players)
    base = board.sumo_areas[0]
    # the first area as seen from side 0, turned to this seat's side
    bx, by = to_seat(0, base.x, base.y)
    tx, ty = from_seat(side, bx, by)
    return min(
        range(len(board.sumo_areas)),
        key=lambda i: math.hypot(board.sumo_areas[i].x - tx, board.sumo_areas[i].y - ty),
    )


def to_view(
    seat: int, players: int, x: float, y: float, angle: float
) -> tuple[float, float, float]:
    """World coordinates → the seat's view (its side at the bottom, -y). The physics is unchanged."""
    return to_seat(board_side(seat, players), x, y, angle)


def from_view(
    seat: int, players: int, x: float, y: float, angle: float
) -> tuple[float, float, float]:
    """The seat's view → world coordinates (for flicks entered in a turned view)."""
    return from_seat(board_side(seat, players), x, y, angle)


def up_the_board(seat: int, players: int) -> float:
    """World direction (rad) pointing away from the seat, across the board."""
    _, _, angle = from_seat(board_side(seat, players), 0.0, 0.0, math.pi / 2)
    return angle
