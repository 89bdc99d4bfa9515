"""Independent re-simulation of recorded shots for the export tests (not the exporter's code)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from jamsumo_sim.cli import main
from jamsumo_sim.replay import load_replay


def export(*args: str) -> int:
    """``jamsumo export ...`` in this process (fast: no interpreter start)."""
    return main(["export", *[str(a) for a in args], "--quiet"])


def recorded_shot(replay: Path, number: int) -> Any:
    """The ReplayShot ``number`` (its state before the shot, action and execution error)."""
    for shot in load_replay(replay).iter_shots():
        if shot.number == number:
            return shot
    raise AssertionError(f"no shot {number}")


def executed_world(shot: Any) -> Any:
    """The shot as executed, by the rules' own route: the flick with its recorded error applied."""
    return shot.state.preview(shot.action, shot.execution)


def steps_to_rest(world: Any, shot_time: float) -> int:
    w = world.copy()
    dt = w.params.dt
    budget = math.ceil(shot_time / dt - 1e-9)
    for k in range(1, budget + 1):
        w.step()
        if w.at_rest():
            return k
    return budget


def positions_after(world: Any, steps: int) -> dict[str, tuple[float, float]]:
    w = world.copy()
    for _ in range(steps):
        w.step()
    return {s.id: (s.x, s.y) for s in w.states() if s.status == "on_board"}


def blob_centre(
    picture: np.ndarray,
    near: tuple[float, float],
    rgb: tuple[int, int, int],
    radius: float,
    tol: int = 14,
) -> tuple[float, float] | None:
    """Centre of the connected patch of colour ``rgb`` (±tol) that reaches within 3 px of ``near``."""
    h, w, _ = picture.shape
    x0, y0 = round(near[0]), round(near[1])
    r = math.ceil(radius)
    xs, ys = slice(max(0, x0 - r), min(w, x0 + r + 1)), slice(max(0, y0 - r), min(h, y0 + r + 1))
    window = picture[ys, xs].astype(int)
    match = np.all(np.abs(window - np.array(rgb)) <= tol, axis=2)
    from scipy import ndimage

    labels, count = ndimage.label(match)
    if count == 0:
        return None
    cy, cx = y0 - ys.start, x0 - xs.start
    best, best_d = 0, 9.0
    for lab in range(1, count + 1):
        yy, xx = np.nonzero(labels == lab)
        d = np.min(np.hypot(yy - cy, xx - cx))
        if d <= 3 and (best == 0 or d < best_d):
            best, best_d = lab, d
    if best == 0:
        return None
    yy, xx = np.nonzero(labels == best)
    return (xs.start + float(xx.mean()) + 0.5, ys.start + float(yy.mean()) + 0.5)
