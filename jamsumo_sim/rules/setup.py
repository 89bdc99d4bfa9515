"""The Sumo opening: each player chooses a corner and places their six dice in its SUMO area.

A set-up is ONE action of the seat (rules notes): ``Action.make(name, corner=AREA, x1=…, y1=…,
a1=…, …, x6, y6, a6)``. Positions are *seat-relative*: metres from the chosen area's centre in the
seat's own view (x to the player's right, y away from the player) and angles in that view, so the
same layout means the same thing from every side of the table. Geometry comes from the board file
(``[[sumo_areas]]``); the die size from the physics parameters.

Pure functions: the match state asks :func:`setup_problem` whether a set-up is legal, and
:func:`to_world` where each die goes. :func:`suggest_layouts` gives the canonical layouts (the
finite menu, the bots' choices, the window's starting arrangement).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import BoardSpec, SumoArea
from jamsumo_sim.rules.scoring import DICE_PER_PLAYER
from jamsumo_sim.rules.seats import colour, die_ids, from_view, to_view
from jamsumo_sim.turnloop import Action

SETUP_KEY = "corner"  # the argument that marks a set-up action (flicks never have it)
_EPS = 1e-9  # m: rounding slack of the containment and overlap tests
# the suggested layouts keep each die this far (a share of the die's size) inside the area's edge:
# legal flush too, but a die on the engraved line looks as if it stood outside the area
SUGGESTED_INSET = 0.15
# a die's turn at set-up (rad, in the seat's view): any turn of a square is within a quarter turn,
# but records written so far carry the seat's own quarter turns on top (up to 2.5 pi), so the rules
# refuse only turns beyond two full turns either way (nonsense, or precision lost in the world)
MAX_TURN = 4 * math.pi


@dataclass(frozen=True)
class DiePose:
    """Where one die goes: x, y (m) and angle (rad), in whatever frame the caller says."""

    x: float
    y: float
    angle: float = 0.0


@dataclass(frozen=True)
class SetupSpec:
    """A set-up action read back: the chosen area and each die's seat-relative pose (die 1..6)."""

    corner: str
    dice: tuple[DiePose, ...]


def is_setup(action: Action | dict[str, Any]) -> bool:
    """True for a set-up action (or its JSON form), False for flicks and passes."""
    if isinstance(action, Action):
        return action.get(SETUP_KEY) is not None
    args = action.get("args") if isinstance(action, dict) else None
    return isinstance(args, dict) and SETUP_KEY in args


def setup_action(seat: int, corner: str, dice: Sequence[DiePose], label: str = "") -> Action:
    """The set-up action of ``seat``: ``dice`` are seat-relative poses (see the module doc)."""
    if len(dice) != DICE_PER_PLAYER:
        raise ValueError(f"a set-up places {DICE_PER_PLAYER} dice, not {len(dice)}")
    args: dict[str, Any] = {SETUP_KEY: corner}
    for k, pose in enumerate(dice, 1):
        args[f"x{k}"] = float(pose.x)
        args[f"y{k}"] = float(pose.y)
        args[f"a{k}"] = float(pose.angle)
    tail = f" ({label})" if label else ""
    return Action.make(f"set up {colour(seat)} in {corner}{tail}", **args)


def read_setup(action: Action) -> SetupSpec:
    """The corner and poses of a set-up action; a one-line UserError if malformed."""
    corner = action.get(SETUP_KEY)
    if not isinstance(corner, str) or not corner:
        raise UserError("a set-up names its corner (a SUMO area of the board)")
    known = {SETUP_KEY} | {f"{c}{k}" for c in "xya" for k in range(1, DICE_PER_PLAYER + 1)}
    extra = sorted({k for k, _ in action.args} - known)
    if extra:
        raise UserError(f"set-up has unknown argument {extra[0][:30]!r}")
    dice = []
    for k in range(1, DICE_PER_PLAYER + 1):
        vals = []
        for c in "xya":
            # a1..a6 are optional: records from before turned set-ups placed every die square
            v = action.get(f"{c}{k}", 0.0 if c == "a" else None)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise UserError(f"set-up {c}{k} must be a finite number, got {str(v)[:30]}")
            vals.append(float(v))
        dice.append(DiePose(*vals))
    return SetupSpec(corner, tuple(dice))


def to_world(board: BoardSpec, seat: int, players: int, spec: SetupSpec) -> list[DiePose]:
    """World poses of the dice of ``spec`` (the area must exist: check with setup_problem)."""
    area = board.sumo_area(spec.corner)
    out = []
    for p in spec.dice:
        wx, wy, wa = from_view(seat, players, p.x, p.y, p.angle)
        out.append(DiePose(area.x + wx, area.y + wy, wa))
    return out


def to_seat_relative(
    area: SumoArea, seat: int, players: int, poses: Iterable[DiePose]
) -> list[DiePose]:
    """World poses → seat-relative ones (offsets from ``area``'s centre in the seat's view)."""
    out = []
    for p in poses:
        vx, vy, va = to_view(seat, players, p.x - area.x, p.y - area.y, p.angle)
        out.append(DiePose(vx, vy, va))
    return out


def square_corners(pose: DiePose, size: float) -> list[tuple[float, float]]:
    """The four corners of a die's square footprint."""
    c, s = math.cos(pose.angle), math.sin(pose.angle)
    h = size / 2
    return [
        (pose.x + c * dx - s * dy, pose.y + s * dx + c * dy)
        for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))
    ]


def inside(area: SumoArea, pose: DiePose, size: float) -> bool:
    """The whole footprint lies in the area (a square is inside a rectangle iff its corners are)."""
    return all(
        abs(x - area.x) <= area.width / 2 + _EPS and abs(y - area.y) <= area.depth / 2 + _EPS
        for x, y in square_corners(pose, size)
    )


def overlap(a: DiePose, b: DiePose, size: float) -> bool:
    """Two square footprints overlap (separating axis test; touching is allowed)."""
    if math.hypot(a.x - b.x, a.y - b.y) >= size * math.sqrt(2):
        return False
    ca, cb = square_corners(a, size), square_corners(b, size)
    for angle in (a.angle, a.angle + math.pi / 2, b.angle, b.angle + math.pi / 2):
        ux, uy = math.cos(angle), math.sin(angle)
        pa = [x * ux + y * uy for x, y in ca]
        pb = [x * ux + y * uy for x, y in cb]
        if max(pa) <= min(pb) + _EPS or max(pb) <= min(pa) + _EPS:
            return False
    return True


def setup_problem(
    board: BoardSpec,
    size: float,
    seat: int,
    players: int,
    spec: SetupSpec,
    taken: dict[str, int],
    others: Sequence[tuple[str, DiePose]] = (),
) -> str | None:
    """Why the set-up is not allowed (None: it is). ``taken``: corner name → seat that has it;
    ``others``: dice already on the board (id, world pose)."""
    names = [a.name for a in board.sumo_areas]
    if spec.corner not in names:
        return f"there is no SUMO area {spec.corner[:30]!r} (choose from {', '.join(names)})"
    if spec.corner in taken:
        return f"the {spec.corner} corner is taken by {colour(taken[spec.corner]).capitalize()}"
    area = board.sumo_area(spec.corner)
    ids = die_ids(seat)
    for die, pose in zip(ids, spec.dice, strict=True):
        if abs(pose.angle) > MAX_TURN + _EPS:
            limit = math.degrees(MAX_TURN)
            return f"{die} is turned {math.degrees(pose.angle):.0f}°: turn it within ±{limit:.0f}°"
    poses = to_world(board, seat, players, spec)
    for die, pose in zip(ids, poses, strict=True):
        if not inside(area, pose, size):
            return f"{die} must lie inside the {spec.corner} SUMO area"
    for i in range(len(poses)):
        for j in range(i + 1, len(poses)):
            if overlap(poses[i], poses[j], size):
                return f"{ids[i]} would overlap {ids[j]}"
    for die, pose in zip(ids, poses, strict=True):
        for other, opose in others:
            if overlap(pose, opose, size):
                return f"{die} would overlap {other}"
    return None


# --- canonical layouts ----------------------------------------------------------------------------


def _grid(area: SumoArea, size: float) -> list[DiePose]:
    """The old fixed opening: a tight 3×2 grid of axis-aligned dice (BoardSpec.sumo_start_positions)."""
    # recomputed here rather than read from the board so the menu needs no UserError handling
    cols, rows = 3, 2
    if area.depth > area.width:
        cols, rows = rows, cols
    cw, ch = area.width / cols, area.depth / rows
    return [
        DiePose(
            area.x - area.width / 2 + (k % cols + 0.5) * cw,
            area.y - area.depth / 2 + (k // cols + 0.5) * ch,
        )
        for k in range(DICE_PER_PLAYER)
    ]


def _facing(area: SumoArea, size: float, toward: tuple[float, float]) -> list[DiePose]:
    """Dice turned to face ``toward`` in two staggered rows, the front row spread so that a finger
    fits behind each front die (fair flicks forward) and the back row sits in the gaps."""
    ux, uy = toward[0] - area.x, toward[1] - area.y
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    vx, vy = -uy, ux
    angle = math.atan2(uy, ux)
    # trial spacings from wide to compact: the first that fits the area wins
    for gap in (2.2, 2.0, 1.8, 1.6, 1.45, 1.3, 1.15, 1.05):
        s = gap * size
        front = [(0.55 * size, -s), (0.55 * size, 0.0), (0.55 * size, s)]
        back = [(-0.75 * size, -s / 2), (-0.75 * size, s / 2), (-1.9 * size, 0.0)]
        poses = [
            DiePose(area.x + u * ux + v * vx, area.y + u * uy + v * vy, angle)
            for u, v in front + back
        ]
        if all(inside(area, p, size) for p in poses) and not any(
            overlap(poses[i], poses[j], size) for i in range(6) for j in range(i + 1, 6)
        ):
            return poses
    return _grid(area, size)


def _spread(area: SumoArea, size: float) -> list[DiePose]:
    """Axis-aligned dice in a 3×2 grid pushed out towards the area's corners, a little inside its
    edge (gaps for the finger: every die has a fair flick towards the board's centre)."""
    cols, rows = (3, 2) if area.width >= area.depth else (2, 3)
    inset = min(SUGGESTED_INSET * size, max(0.0, (area.width - cols * size) / (2 * cols)))
    inset = min(inset, max(0.0, (area.depth - rows * size) / (2 * rows)))
    span_x, span_y = area.width - size - 2 * inset, area.depth - size - 2 * inset
    xs = [area.x - span_x / 2 + k * span_x / (cols - 1) for k in range(cols)]
    ys = [area.y - span_y / 2 + k * span_y / (rows - 1) for k in range(rows)]
    return [DiePose(x, y) for y in ys for x in xs]


def suggest_layouts(
    board: BoardSpec, size: float, area: SumoArea, targets: Sequence[tuple[float, float]]
) -> list[tuple[str, list[DiePose]]]:
    """Canonical layouts (world poses) for ``area``: named, legal by construction or checked by the
    caller. ``targets``: where the opponents are (or will be), the first the main one."""
    centre = (0.0, 0.0)
    # spread first: the window's suggestion and the bots' tie-break.  Its gaps give every die a
    # fair flick towards the opponents; the staggered "facing" rows are tighter (a finger behind
    # a front die may touch the back row) and stay on the menu for those who want them
    out = [("spread", _spread(area, size)), ("facing the centre", _facing(area, size, centre))]
    if targets:
        out.append(("facing the nearest corner", _facing(area, size, targets[0])))
    out.append(("grid", _grid(area, size)))
    return out


def preferred_corner(board: BoardSpec, seat: int, players: int, taken: Iterable[str]) -> str:
    """The corner a seat takes by default: the front-left of its side if free, else the free one
    nearest to the seat's side (then by name)."""
    from jamsumo_sim.rules.seats import sumo_corner

    busy = set(taken)
    first = board.sumo_areas[sumo_corner(board, seat, players)]
    if first.name not in busy:
        return first.name
    free = [a for a in board.sumo_areas if a.name not in busy]
    if not free:
        raise UserError("no free SUMO area is left")
    # in the seat's view its side is at -y: the lowest y is the nearest
    return min(free, key=lambda a: (to_view(seat, players, a.x, a.y, 0.0)[1], a.name)).name
