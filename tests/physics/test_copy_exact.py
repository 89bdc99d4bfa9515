"""A copy of a world at rest is exact: its future equals the original's, bit for bit, even when
resting dice touch (a resting overlap leaves Chipmunk bias velocities on reused bodies)."""

from __future__ import annotations

import pytest

from jamsumo_sim.board import load_board
from jamsumo_sim.flick import Flick
from jamsumo_sim.world import World


@pytest.mark.parametrize("gap", [-0.0008, -0.0003, 0.0, 0.0002])
def test_copy_of_a_resting_world_with_touching_dice_steps_identically(params, gap) -> None:
    w = World(load_board("standard"), params)
    a = params.die_size
    # a packed row (touching or overlapping by up to 0.8 mm) and a striker
    for k in range(4):
        w.add_die(f"d{k}", 0.10 + k * (a + gap), 0.12, angle=0.0, face=3)
    w.add_die("s", -0.10, 0.12, face=3)
    w.run_until_rest(5.0)
    twin = w.copy()
    assert twin.checksum() == w.checksum()
    f = Flick("s", 0.0, 2.0 * params.die_mass)
    w.apply_flick(f)
    twin.apply_flick(f)
    for _ in range(400):
        w.step()
        twin.step()
        assert twin.checksum() == w.checksum()
