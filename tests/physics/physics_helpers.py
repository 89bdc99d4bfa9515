"""Helpers shared by the physics tests (a module with a unique name: tests/ has no packages)."""

from __future__ import annotations

from jamsumo_sim.world import World

FLAT = {"side": 6.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []}


def run_steps(world: World, n: int) -> None:
    for _ in range(n):
        world.step()
