"""The World's public names, kept where callers import them (``from jamsumo_sim.world import
World``); the physics lives in :mod:`jamsumo_sim.physics`, one module per concern."""

from __future__ import annotations

from .physics.datatypes import (
    IN_HOLE,
    OFF,
    ON_BOARD,
    STATUSES,
    DieRecord,
    DieState,
    IllegalAction,
    ShotResult,
)
from .physics.snapshot import SNAPSHOT_VERSION
from .physics.space import die_body
from .physics.world import World, warm_up

_Die = DieRecord  # the record's old private name

__all__ = [
    "IN_HOLE",
    "OFF",
    "ON_BOARD",
    "SNAPSHOT_VERSION",
    "STATUSES",
    "DieState",
    "IllegalAction",
    "ShotResult",
    "World",
    "die_body",
    "warm_up",
]
