"""Jumble Jam's chance nodes: Grandma's die, built once per set of faces."""

from __future__ import annotations

from functools import cache

from jamsumo_sim.turnloop import Action, Finite


@cache
def die_chance(faces: tuple[str, ...]) -> Finite:
    """Grandma's die as a chance node (cached: the same faces give the same node)."""
    return Finite.uniform([Action(f"die shows {f}", (("face", f),)) for f in faces])
