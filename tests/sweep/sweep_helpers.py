"""What the sweep path tests share: the standard board, random flicks and a shot in a World of its
own (the reference every faster path is held against)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.datatypes import IllegalAction
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.sweep.batch import Shot
from jamsumo_sim.sweep.spec import SHOOTER_ID
from jamsumo_sim.world import World

BOARD = load_board("standard")
PARAMS = PhysicsParams.from_board(BOARD)
ZONES = [(p.x, p.y) for p in BOARD.platforms]  # the JAM zones


def random_shots(rng: np.random.Generator, n: int, top: float = 5.0) -> list[Shot]:
    """Flicks at 0.5-``top`` m/s, any direction, offset and height."""
    return [
        Shot(
            float(rng.uniform(-math.pi, math.pi)),
            float(rng.uniform(0.5, top)),
            float(rng.uniform(-0.5, 0.5)),
            float(rng.uniform(0.0, 1.0)),
        )
        for _ in range(n)
    ]


def run_alone(shooter, shot: Shot, max_time: float = 20.0) -> tuple[World, Any] | None:  # noqa: ANN001
    """The shot in a fresh World of its own, run to rest: (the World, its rest result), None if
    the flick is illegal."""
    x, y, angle, face = shooter
    w = World(BOARD, PARAMS)
    w.add_die(SHOOTER_ID, x, y, angle, face=face)
    try:
        w.apply_flick(shot.flick())
    except IllegalAction:
        return None
    return w, w.run_until_rest(max_time)
