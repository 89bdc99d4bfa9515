"""A shot in the game's World (its public API), measured as the reference measures it."""

from __future__ import annotations

import math

import numpy as np

from ..physics.board import BoardSpec
from ..physics.events import TUMBLE
from ..physics.flick import Flick
from ..physics.params import PhysicsParams
from ..reference.run import Track
from ..world import World


def run_game(
    board: BoardSpec,
    params: PhysicsParams,
    dice: list[tuple[str, float, float]],
    flick: Flick,
    max_time: float,
    seed: int,
) -> dict[str, Track]:
    """Dice ``(id, x, y)`` at rest, face 1 up, angle 0; ``flick``; step to rest."""
    w = World(board, params, np.random.default_rng(seed))
    for die_id, x, y in dice:
        w.add_die(die_id, x, y, face=1)
    tracks = {d: Track(d) for d, _, _ in dice}
    start = {d: (x, y) for d, x, y in dice}
    w.apply_flick(flick)
    while w.time < max_time:
        w.step()
        for s in w.states():
            tr = tracks[s.id]
            tr.rise = max(tr.rise, s.z)
            hs = math.hypot(s.vx, s.vy)
            if hs > tr.peak_speed:
                tr.peak_speed = hs
                tr.peak_direction = math.atan2(s.vy, s.vx)
            if hs > params.rest_speed or abs(s.omega) > params.rest_spin or not s.flat:
                tr.stop_time = w.time
        if w.at_rest():
            break
    for s in w.states():
        tr = tracks[s.id]
        tr.x, tr.y, tr.face, tr.status = s.x, s.y, s.face, s.status
        tr.distance = math.hypot(s.x - start[s.id][0], s.y - start[s.id][1])
        tr.rested = w.at_rest()
    for e in w.events:
        if e.type == TUMBLE:
            for d in e.dice:
                tracks[d].quarter_turns += 1
    return tracks
