"""Tripod statics: leg reactions of the three-legged board, tipping, and the board's tilt.

Three legs make a statically determinate support: the vertical leg reactions R_i follow from force
balance and the two moment balances about the x and y axes (a 3 x 3 linear system).  A negative
reaction means the board lifts off that leg and tips about the line through the other two.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .board import BoardSpec, Leg


@dataclass(frozen=True)
class PointLoad:
    """A downward force ``force`` (N) at (x, y) on the board."""

    x: float
    y: float
    force: float


@dataclass(frozen=True)
class TripodResult:
    """Leg reactions (N, in leg order), their sum, and which leg lifts (tipping) if any."""

    reactions: tuple[float, ...]
    total_load: float
    tips: bool
    lifting_leg: str | None  # the leg whose reaction is negative (most negative if several)
    tip_line: tuple[str, str] | None  # the two legs the board pivots about


def leg_reactions(legs: Sequence[Leg], loads: Iterable[PointLoad]) -> np.ndarray:
    """Vertical reactions of the three legs under point loads (force and moment balance)."""
    if len(legs) != 3:
        raise ValueError("a tripod has exactly three legs")
    a = np.array([[1.0, 1.0, 1.0], [leg.x for leg in legs], [leg.y for leg in legs]])
    f = np.zeros(3)
    for load in loads:
        f += (load.force, load.force * load.x, load.force * load.y)
    return np.linalg.solve(a, f)


def analyse(
    board: BoardSpec,
    gravity: float,
    dice: Iterable[tuple[float, float]] = (),
    die_mass: float = 0.0,
    external: PointLoad | None = None,
) -> TripodResult:
    """Reactions for the board's own weight (at its centre), dice at (x, y), and an optional push."""
    loads = [PointLoad(0.0, 0.0, board.mass * gravity)]
    loads += [PointLoad(x, y, die_mass * gravity) for x, y in dice]
    if external is not None:
        loads.append(external)
    r = leg_reactions(board.legs, loads)
    total = sum(load.force for load in loads)
    tips = bool((r < 0).any())
    lifting = None
    line = None
    if tips:
        i = int(np.argmin(r))
        lifting = board.legs[i].name
        line = tuple(leg.name for j, leg in enumerate(board.legs) if j != i)
    return TripodResult(tuple(float(x) for x in r), total, tips, lifting, line)


def tips(board: BoardSpec, gravity: float, external: PointLoad, **kw) -> tuple[str, str] | None:
    """The line (pair of legs) the board tips about under ``external``, or None if it stays put."""
    return analyse(board, gravity, external=external, **kw).tip_line


def tipping_force(board: BoardSpec, gravity: float, x: float, y: float) -> float:
    """The smallest downward force at (x, y) that lifts a leg (inf if a push there can never tip it)."""
    base = leg_reactions(board.legs, [PointLoad(0.0, 0.0, board.mass * gravity)])
    unit = leg_reactions(board.legs, [PointLoad(x, y, 1.0)])
    best = math.inf
    for r0, r1 in zip(base, unit, strict=True):
        if r1 < 0:
            best = min(best, -r0 / r1)
    return best


def plane_gradient(legs: Sequence[Leg]) -> tuple[float, float]:
    """Gradient (dz/dx, dz/dy) of the board plane through the three leg tops (0, 0 when level)."""
    a = np.array([[1.0, leg.x, leg.y] for leg in legs])
    z = np.array([leg.height for leg in legs])
    _, gx, gy = np.linalg.solve(a, z)
    return (float(gx), float(gy))


def tilt_angle(legs: Sequence[Leg]) -> float:
    """The board's tilt from horizontal (rad)."""
    gx, gy = plane_gradient(legs)
    return math.atan(math.hypot(gx, gy))
