"""Jam: the dice in a player's hand wait in a tray beside their side of the board.

Tray slots are board coordinates just outside the player's edge (so the view's transform puts the tray at
that player's side whichever way the board is turned).  Dragging a die from the tray onto a JAM zone makes
a :class:`~jamsumo_sim.ui.session.Placement`; the flick that follows makes ONE action with it.
"""

from __future__ import annotations

from dataclasses import dataclass

from jamsumo_sim.physics.board import BoardSpec, from_seat
from jamsumo_sim.ui.gesture import DieSpot, pick_die

SLOT_PITCH = 1.9  # die sizes between slot centres
TRAY_GAP = 2.2  # die sizes from the board's edge to the slots' centres


@dataclass(frozen=True)
class TraySlot:
    die: str
    x: float
    y: float


def tray_slots(board: BoardSpec, side: int, dice: list[str], die_size: float) -> list[TraySlot]:
    """Where the dice of the player at board side ``side`` lie in their tray (board metres)."""
    n = len(dice)
    pitch = SLOT_PITCH * die_size
    y = -(board.side / 2 + TRAY_GAP * die_size)
    out = []
    for i, die in enumerate(dice):
        x = (i - (n - 1) / 2) * pitch
        wx, wy = from_seat(side % 4, x, y)
        out.append(TraySlot(die, wx, wy))
    return out


def tray_extent(
    board: BoardSpec, side: int, count: int, die_size: float
) -> tuple[tuple[float, float], ...]:
    """Corners of the tray's rectangle (board metres), for drawing; six slots wide at least."""
    n = max(count, 6)
    half_w = (n / 2) * SLOT_PITCH * die_size
    y0 = -(board.side / 2 + (TRAY_GAP - 0.95) * die_size)
    y1 = -(board.side / 2 + (TRAY_GAP + 0.95) * die_size)
    corners = ((-half_w, y0), (half_w, y0), (half_w, y1), (-half_w, y1))
    return tuple(from_seat(side % 4, x, y) for x, y in corners)


def pick_from_tray(
    slots: list[TraySlot], x: float, y: float, die_size: float, slack: float = 0.25
) -> str | None:
    """The die in the tray under board point (x, y), or None."""
    spots = [DieSpot(s.die, s.x, s.y, 0.0, die_size) for s in slots]
    return pick_die(spots, x, y, slack)


def zone_at(board: BoardSpec, x: float, y: float) -> str | None:
    """The JAM zone (platform) whose top contains (x, y), or None."""
    p = board.platform_at(x, y)
    return None if p is None else p.name
