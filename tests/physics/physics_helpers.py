"""Helpers shared by the physics tests (a module with a unique name: tests/ has no packages)."""

from __future__ import annotations

import math

import numpy as np

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World

FLAT = {"side": 6.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []}


def run_steps(world: World, n: int) -> None:
    for _ in range(n):
        world.step()


def block_break(
    board, params, seed: int, offset: float, chance_seed: int, height: float = 0.5
) -> World:
    """A 4 m/s striker (struck at ``height`` of its face) into a jittered 3 x 5 block of 15 dice
    north of the hole (pitches, hops, landings, dice on and against dice, falls): ``seed`` picks
    the jitter, ``chance_seed`` seeds the World's chance draws (a break is chaotic: each seed
    ends differently)."""
    rng = np.random.default_rng(seed)
    w = World(board, params, rng=np.random.default_rng(chance_seed))
    gap = 1.2 * params.die_size
    for k in range(15):
        i, j = divmod(k, 5)
        x = (j - 2) * gap + rng.uniform(-3e-4, 3e-4)
        y = 0.07 + (i - 1) * gap + rng.uniform(-3e-4, 3e-4)
        w.add_die(f"d{k}", x, y, angle=float(rng.uniform(-0.2, 0.2)), face=3)
    w.add_die("s", -0.15, 0.07, face=3)
    w.apply_flick(Flick("s", 0.03, 4.0 * params.die_mass, offset, height))
    return w


def packed_block(board, params, speed: float, heading: float) -> World:
    """A striker at ``speed`` m/s (``heading`` rad) into a touching 3 x 3 block: many contacts at
    once (the energy limiter's case)."""
    w = World(board, params)
    a = params.die_size + 1e-4
    for i in range(3):
        for j in range(3):
            w.add_die(f"b{i}{j}", i * a, (j - 1) * a, face=1)
    vx, vy = speed * math.cos(heading), speed * math.sin(heading)
    w.add_die("s", -0.04, 0.002, face=1, vx=vx, vy=vy)
    return w


def rest_record(w: World) -> tuple:
    """Run ``w`` to rest: (checksum, events as plain tuples, steps), for bit-for-bit comparisons."""
    res = w.run_until_rest(10.0)
    events = [(e.t, e.type, e.dice, sorted(e.data.items())) for e in res.events]
    return w.checksum(), events, res.steps
