"""The batch path equals a fresh World per shot, shot for shot (rest pose, face, status)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim.scenario import build_world
from jamsumo_sim.sweep import batch
from jamsumo_sim.sweep.batch import Shot, ShotRunner
from jamsumo_sim.sweep.spec import SHOOTER_ID
from tests.sweep.sweep_helpers import ZONES, random_shots, run_alone


def alone(shooter, shot: Shot) -> tuple | None:
    """The shot in a fresh World of its own: (x, y, angle, face, status), None if illegal."""
    ran = run_alone(shooter, shot)
    if ran is None:
        return None
    s = ran[0].state(SHOOTER_ID)
    return (s.x, s.y, s.angle, s.face, s.status)


def batched(runner: ShotRunner, shots: list[Shot]) -> list[tuple | None]:
    out = runner.run_many(shots)
    names = {v: k for k, v in batch.STATUS_CODES.items()}
    rows = []
    for i in range(len(shots)):
        if out["status"][i] == batch.ILLEGAL_CODE:
            rows.append(None)
            continue
        face = int(out["face"][i])
        rows.append((out["x"][i], out["y"][i], out["angle"][i], face, names[out["status"][i]]))
    return rows


def check_equal(shooter, shots, got) -> None:
    mismatches = []
    for shot, b in zip(shots, got, strict=True):
        a = alone(shooter, shot)
        if (a is None) != (b is None):
            mismatches.append((shot, a, b))
            continue
        if a is None:
            continue
        face_a = a[3] if a[4] == "on_board" else 0
        close = math.hypot(a[0] - b[0], a[1] - b[1]) <= 1e-4 and abs(
            math.remainder(a[2] - b[2], 2 * math.pi)
        ) <= math.radians(0.1)
        same = close and face_a == b[3] and a[4] == b[4]
        exact = (a[0], a[1], a[2]) == (b[0], b[1], b[2])  # stronger than the bar: bit for bit
        if not (same and exact):
            mismatches.append((shot, a, b))
    assert not mismatches, f"{len(mismatches)} of {len(shots)} differ, e.g. {mismatches[:2]}"


@pytest.mark.parametrize("zone", [0, 1])
def test_lone_shots_equal_a_fresh_world_each(zone: int) -> None:
    shooter = (*ZONES[zone], 0.3 * zone, 4)
    shots = random_shots(np.random.default_rng(100 + zone), 300)
    # the World-only path, bit for bit (the compiled lone-die path: test_batch_lone.py)
    runner = ShotRunner("standard", shooter, fast=False)
    check_equal(shooter, shots, batched(runner, shots))


@pytest.mark.slow
def test_thousands_of_shots_from_every_zone() -> None:
    rng = np.random.default_rng(7)
    for zone in range(4):
        shooter = (*ZONES[zone], float(rng.uniform(0, 1.5)), int(rng.integers(1, 7)))
        shots = random_shots(rng, 600)
        runner = ShotRunner("standard", shooter, fast=False)
        check_equal(shooter, shots, batched(runner, shots))


def test_shots_among_other_dice_equal_a_fresh_world() -> None:
    others = [
        {"id": "a", "x": 0.0, "y": -0.1, "face": 2},
        {"id": "b", "x": 0.03, "y": -0.12, "angle": 0.4, "face": 6},
        {"id": "c", "x": -0.05, "y": 0.0, "face": 1},
    ]
    shooter = (0.0, -0.18, 0.0, 4)
    runner = ShotRunner("standard", shooter, others)
    rng = np.random.default_rng(3)
    shots = [Shot(float(rng.uniform(1.3, 1.85)), float(rng.uniform(0.5, 2.5))) for _ in range(25)]
    struck = 0
    for shot in shots:
        got = runner.run(shot)
        w, _, _ = build_world(batch.scenario_for("standard", shooter, others))
        w.apply_flick(shot.flick())
        res = w.run_until_rest(20.0)
        s = w.state(SHOOTER_ID)
        assert (got["x"], got["y"], got["angle"]) == (s.x, s.y, s.angle)
        struck += got["struck"]
        hits = [e for e in res.events if e.type == "collision" and e.data["kind"] == "die"]
        assert got["struck"] == any(SHOOTER_ID in e.dice for e in hits)
    assert struck > 0  # the position is one where shots do hit the other dice


def test_scores_follow_the_rules() -> None:
    assert batch.score("jam", batch.HOLE_CODE, 0, True, False) == 0
    assert batch.score("jam", batch.OFF_CODE, 0, True, False) == 4
    assert batch.score("jam", batch.ON_BOARD_CODE, 2, True, False) == 2
    assert batch.score("jam", batch.ON_BOARD_CODE, 2, False, False) == 4
    assert batch.score("sumo", batch.ON_BOARD_CODE, 5, True, False) == 5
    assert batch.score("sumo", batch.ON_BOARD_CODE, 5, True, True) == 0  # on a JAM platform
    assert batch.score("sumo", batch.OFF_CODE, 0, True, False) == 0


def test_an_unfair_flick_is_counted_not_raised() -> None:
    runner = ShotRunner("standard", (0.0, -0.18, 0.0, 4))
    out = runner.run(Shot(1.57, 19.0))  # far above the launch cap
    assert out["status"] == batch.ILLEGAL_CODE
    assert out["score"] == 4  # still in hand
