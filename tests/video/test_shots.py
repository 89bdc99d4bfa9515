"""Shot segmentation and the calibrator's rows, on hand-made trackings (no video needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim.calibration.data import COLLISION, REST, TRAJECTORY, load_data, write_csv
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.video.shots import cut_shots, rows
from jamsumo_sim.video.track import DieTrack, Tracking

FPS = 100.0
NAN = (math.nan, math.nan, math.nan)


def _slide(x0, y0, vx, vy, decel=2.9, still=10):
    """Rest `still` frames, slide with uniform deceleration to rest, rest `still` frames."""
    v = math.hypot(vx, vy)
    n = int(v / decel * FPS) + 1
    t = np.arange(1, n + 1) / FPS
    s = v * t - decel * t**2 / 2
    path = [(x0 + vx / v * d, y0 + vy / v * d, 0.3) for d in s]
    return [(x0, y0, 0.3)] * still + path + [path[-1]] * still


def _tracking(**dice) -> Tracking:
    n = max(len(v) for v in dice.values())
    tr = Tracking(FPS, markers_seen=[4] * n, marker_rms=[0.3] * n)
    for colour, poses in dice.items():
        poses = poses + [NAN] * (n - len(poses))
        tr.dice[colour] = DieTrack(colour, poses, [1e-4] * n, [3] * n)
    return tr


def test_one_slide_is_one_rest_shot_and_one_trajectory_the_calibrator_reads(tmp_path):
    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    tr = _tracking(red=_slide(-0.1, 0.05, 0.8, 0.1))
    warnings: list[str] = []
    shots = cut_shots(tr, warnings)
    assert [s.kind for s in shots] == ["single"] and warnings == []
    table = rows(tr, shots, board, params, warnings)
    (rest,) = table[REST]
    # the launch row is the first moving frame: one frame of deceleration after the flick
    assert math.hypot(rest[4], rest[5]) == pytest.approx(math.hypot(0.8, 0.1) - 2.9 / FPS, rel=0.02)
    assert len(table[TRAJECTORY]) >= 3 and table[COLLISION] == []
    for kind in (REST, TRAJECTORY):  # the calibrator takes them as written
        path = write_csv(tmp_path / f"{kind}.csv", kind, table[kind])
        assert len({getattr(i, "shot", None) for i in load_data(path, board, params).items}) == 1


def test_a_die_that_vanishes_while_moving_gives_a_warning_not_a_shot():
    poses = _slide(-0.1, 0.05, 0.8, 0.0)
    cut = poses[:15] + [NAN] * 30 + poses[-10:]
    warnings: list[str] = []
    assert cut_shots(_tracking(red=cut), warnings) == []
    assert len(warnings) == 1 and "not seen" in warnings[0] and "shot dropped" in warnings[0]


def test_a_video_that_ends_mid_slide_warns():
    warnings: list[str] = []
    assert cut_shots(_tracking(red=_slide(-0.1, 0.05, 0.8, 0.0)[:20]), warnings) == []
    assert "ends while it moves" in warnings[0]


def test_two_dice_moving_together_are_a_collision():
    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    striker = _slide(-0.15, 0.1, 0.9, 0.0, still=10)
    target = [(0.0, 0.1 + 0.0, 0.1)] * 18 + _slide(0.0, 0.1, 0.5, 0.05, still=0)
    target = [(p[0], p[1], 0.1) for p in target] + [target[-1]] * 30
    warnings: list[str] = []
    tr = _tracking(red=striker + [striker[-1]] * 40, blue=target)
    shots = cut_shots(tr, warnings)
    assert [s.kind for s in shots] == ["collision"], warnings
    table = rows(tr, shots, board, params, warnings)
    (row,) = table[COLLISION]
    assert row[7:10] == [0.0, 0.1, 0.1]  # the target's start pose
