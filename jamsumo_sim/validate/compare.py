"""The agreement figures: per cell, per speed x height group (medians), the ensemble's face
distributions (total-variation distance), the hits' direction and speed."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

import numpy as np

from ..reference.run import Track
from .runner import Results

PERMUTATIONS = 2000  # draws of the ensemble's permutation test (its p to about +-0.01)


def _ratio(a: float, b: float) -> float | None:
    return a / b if b > 1e-9 else None


def _side(t: Track) -> dict[str, Any]:
    return {
        "distance": t.distance,
        "stop_time": t.stop_time,
        "quarter_turns": t.quarter_turns,
        "rise": t.rise,
        "face": t.face,
        "status": t.status,
        "launch": t.peak_speed,
    }


def _shares(faces: np.ndarray) -> np.ndarray:
    """Share of each face 1..6 in a sample."""
    return np.bincount(faces, minlength=7)[1:7] / len(faces)


def tv_distance(a: list[int], b: list[int]) -> float:
    """Total-variation distance between two samples' face distributions."""
    return float(0.5 * np.abs(_shares(np.asarray(a)) - _shares(np.asarray(b))).sum())


def tv_noise(a: list[int], b: list[int], seed: int, draws: int) -> tuple[float, float]:
    """(mean TV, p): how far apart two samples of these sizes drawn from one distribution (the two
    pooled) come on average, and the share of such draws at least as far apart as ``a`` and ``b``
    (a permutation test).  At 50 flicks each the mean is ~0.18 for six faces: a bar of 0.15 is
    below the noise (docs/physics.md "The 3D reference resolved"); at 200, the full set's default,
    0.089."""
    pooled = np.asarray(a + b)
    observed = tv_distance(a, b)
    rng = np.random.default_rng(seed)
    tvs = np.empty(draws)
    for k in range(draws):
        perm = rng.permutation(pooled)
        tvs[k] = 0.5 * np.abs(_shares(perm[: len(a)]) - _shares(perm[len(a) :])).sum()
    return float(tvs.mean()), float(np.mean(tvs >= observed - 1e-12))


def _median(xs: list[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return float(np.median(xs)) if xs else None


def summarise(res: Results) -> dict[str, Any]:
    cells = []
    groups: dict[tuple[float, float], list[dict[str, Any]]] = defaultdict(list)
    for cell, g, r in res.cells:
        row = {
            "speed": cell.speed,
            "height": cell.height,
            "offset": cell.offset,
            "game": _side(g),
            "ref": _side(r),
            "distance_ratio": _ratio(g.distance, r.distance),
            "same_face": g.face == r.face,
            "tumbles": g.quarter_turns > 0 or r.quarter_turns > 0,
        }
        cells.append(row)
        groups[(cell.speed, cell.height)].append(row)
    group_rows = []
    for (speed, height), rows in sorted(groups.items()):
        group_rows.append(
            {
                "speed": speed,
                "height": height,
                "distance_ratio": _median([r["distance_ratio"] for r in rows]),
                "quarter_turns": [
                    _median([r["game"]["quarter_turns"] for r in rows]),
                    _median([r["ref"]["quarter_turns"] for r in rows]),
                ],
                "rise": [
                    _median([r["game"]["rise"] for r in rows]),
                    _median([r["ref"]["rise"] for r in rows]),
                ],
                "same_face": sum(r["same_face"] for r in rows),
                "cells": len(rows),
            }
        )
    ens_g = [g.face for g, _ in res.ensemble]
    ens_r = [r.face for _, r in res.ensemble]
    noise, p = tv_noise(ens_g, ens_r, 0, PERMUTATIONS) if res.ensemble else (None, None)
    ensemble = {
        "n": len(res.ensemble),
        "faces_game": dict(sorted(Counter(ens_g).items())),
        "faces_ref": dict(sorted(Counter(ens_r).items())),
        "tv_distance": tv_distance(ens_g, ens_r) if res.ensemble else None,
        "tv_noise": noise,  # the mean TV of two samples of one distribution at these sizes
        "tv_p": p,  # permutation test: the share of such samples at least this far apart
        "quarter_turns_median": [
            _median([float(g.quarter_turns) for g, _ in res.ensemble]),
            _median([float(r.quarter_turns) for _, r in res.ensemble]),
        ],
        "distance_median": [
            _median([g.distance for g, _ in res.ensemble]),
            _median([r.distance for _, r in res.ensemble]),
        ],
    }
    hits = []
    for hit, g, r in res.hits:
        hits.append(
            {
                "name": hit.name,
                "striker_speed": hit.speed,
                "direction_deg": [math.degrees(g.peak_direction), math.degrees(r.peak_direction)],
                "speed": [g.peak_speed, r.peak_speed],
                "speed_ratio": _ratio(g.peak_speed, r.peak_speed),
            }
        )
    return {"cells": cells, "groups": group_rows, "ensemble": ensemble, "hits": hits}
