"""Runs a :class:`~.grid.Plan` in both models: the game's World and the 3D reference."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from ..physics.board import BoardSpec
from ..physics.flick import Flick, finger_for_launch
from ..physics.params import PhysicsParams
from ..reference.config import ReferenceConfig
from ..reference.run import DieStart, Shot, Track
from .game import run_game
from .grid import START, Cell, Hit, Plan, jittered


@dataclass
class Results:
    cells: list[tuple[Cell, Track, Track]] = field(default_factory=list)  # (cell, game, 3D)
    ensemble: list[tuple[Track, Track]] = field(default_factory=list)
    hits: list[tuple[Hit, Track, Track]] = field(default_factory=list)  # the struck die's tracks


def _both(
    board: BoardSpec,
    params: PhysicsParams,
    cfg: ReferenceConfig,
    dice: list[tuple[str, float, float]],
    flick: Flick,
    seed: int,
) -> tuple[dict[str, Track], dict[str, Track]]:
    game = run_game(board, params, dice, flick, cfg.step.max_time, seed)
    starts = [DieStart(d, x, y) for d, x, y in dice]
    ref = Shot(board, params, cfg, starts, flick).run()
    return game, ref


def run_plan(
    plan: Plan,
    board: BoardSpec,
    params: PhysicsParams,
    cfg: ReferenceConfig,
    seed: int,
    tick: Callable[[], None] = lambda: None,
) -> Results:
    out = Results()
    x0, y0 = START
    one = [("a", x0, y0)]
    for cell in plan.cells:
        g, r = _both(board, params, cfg, one, cell.flick(params), seed)
        out.cells.append((cell, g["a"], r["a"]))
        tick()
    for flick in jittered(plan.ensemble_cell, params, plan.ensemble, seed):
        g, r = _both(board, params, cfg, one, flick, seed)
        out.ensemble.append((g["a"], r["a"]))
        tick()
    a = params.die_size
    for hit in plan.hits:
        dice = [("a", x0, y0), ("b", x0 + 3 * a, y0 + hit.lateral * a)]
        fs = finger_for_launch(hit.speed, params)
        g, r = _both(board, params, cfg, dice, Flick("a", 0.0, finger_speed=fs), seed)
        out.hits.append((hit, g["b"], r["b"]))
        tick()
    return out


def units(plan: Plan) -> int:
    return len(plan.cells) + plan.ensemble + len(plan.hits)


def degrees(rad: float) -> float:
    return math.degrees(rad)
