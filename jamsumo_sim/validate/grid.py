"""The shots `jamsumo validate` runs in both models: a grid of flicks, jittered ensembles of hard high
flicks and two-die hits, on a flat board made from the board file (big enough that no slide reaches
its edge: the grid measures the die, not the board)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.board import BoardSpec, load_board
from ..physics.flick import Flick, finger_for_launch
from ..physics.params import PhysicsParams

FLAT_SIDE = 10.0  # m: a 5 m/s slide goes ~4.4 m
START = (-4.5, 1.0)  # m: the flicked die's start, the shot along +x
HEIGHTS = (0.2, 0.5, 0.7, 0.9)
OFFSETS = (0.0, 0.3, 0.5)


@dataclass(frozen=True)
class Cell:
    speed: float  # m/s, the launch speed of a centred mid-height strike with this finger speed
    height: float
    offset: float

    def flick(self, params: PhysicsParams, direction: float = 0.0) -> Flick:
        fs = finger_for_launch(self.speed, params)
        return Flick("a", direction, offset=self.offset, height=self.height, finger_speed=fs)


@dataclass(frozen=True)
class Hit:
    name: str
    speed: float  # m/s launch speed of the striker
    lateral: float  # fraction of a die: the struck die's centre off the striker's line


@dataclass(frozen=True)
class Plan:
    cells: tuple[Cell, ...]
    ensemble: int  # jittered hard high flicks
    ensemble_cell: Cell
    hits: tuple[Hit, ...]


def flat_board(board: BoardSpec) -> BoardSpec:
    """The board file's die and parameters on a flat board with no hole, dish or platforms."""
    del board  # the geometry is replaced; the params come from the caller's PhysicsParams
    return load_board({"side": FLAT_SIDE, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []})


HITS = (Hit("head-on", 1.5, 0.0), Hit("glancing", 1.5, 0.6))


# Jittered hard high flicks in the full set.  Issue 33 asked for 50, but two samples of 50 from one
# face distribution lie a total-variation distance of ~0.15 apart on average, the bar itself
# (validate.compare.tv_noise); at 200, 0.075-0.09 (model 0.16: TV 0.18 at 50, p 0.37; 0.14 at 200,
# p 0.026).
ENSEMBLE = 200


def plan(quick: bool, ensemble: int = ENSEMBLE) -> Plan:
    """The quick set (4 cells, 6 jittered flicks) or the full one (72 cells, ``ensemble`` flicks)."""
    if quick:
        cells = tuple(Cell(s, h, 0.0) for s in (1.0, 3.0) for h in (0.5, 0.9))
        return Plan(cells, 6, Cell(4.0, 0.9, 0.0), HITS)
    speeds = (0.5, 1.0, 2.0, 3.0, 4.0, 5.0)
    cells = tuple(Cell(s, h, o) for s in speeds for h in HEIGHTS for o in OFFSETS)
    return Plan(cells, ensemble, Cell(4.0, 0.9, 0.0), HITS)


def jittered(cell: Cell, params: PhysicsParams, n: int, seed: int) -> list[Flick]:
    """``n`` flicks around ``cell`` at a hand's scale (aim 1 deg, speed 3 %, height and offset 0.03
    of the face), from one seeded generator."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        c = Cell(
            cell.speed * (1 + 0.03 * rng.standard_normal()),
            float(np.clip(cell.height + 0.03 * rng.standard_normal(), 0.0, 1.0)),
            float(np.clip(cell.offset + 0.03 * rng.standard_normal(), -0.5, 0.5)),
        )
        out.append(c.flick(params, math.radians(1.0) * rng.standard_normal()))
    return out
