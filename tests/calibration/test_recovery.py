"""The fit on the physics engine recovers the true parameters of the shipped SYNTHETIC samples.

The samples (calibration/samples/, made by calibration/generate_synthetic.py) come from a stated true
parameter set plus measurement noise.  If the physics model changes, regenerate them:
``python calibration/generate_synthetic.py``.
"""

from __future__ import annotations

import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim.calibrate import calibrate
from jamsumo_sim.calibration.data import load_all
from jamsumo_sim.calibration.model import Shots, with_fitted
from jamsumo_sim.calibration.world_sim import WorldSimulator
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.physics.params_file import load_params
from jamsumo_sim.world import World

SAMPLES = Path(__file__).resolve().parents[2] / "calibration" / "samples"
REGENERATE = (
    "samples out of date with the physics model? run: python calibration/generate_synthetic.py"
)


@pytest.fixture(scope="module")
def plank():
    return load_board(SAMPLES / "plank.toml")


@pytest.fixture(scope="module")
def truth(plank):
    return load_params(SAMPLES / "truth.toml", PhysicsParams.from_board(plank))


@pytest.fixture(scope="module")
def sim(plank):
    return WorldSimulator(plank)


def _within(est, true, rel):
    """Within ``rel`` of the truth and within 3.5 standard errors (plus a float floor)."""
    assert abs(est.value - true) <= rel * true, f"{est} vs truth {true}; {REGENERATE}"
    assert abs(est.value - true) <= 3.5 * est.stderr + 1e-5, f"{est} vs truth {true}; {REGENERATE}"


def test_samples_are_labelled_synthetic():
    for name in ("rest_poses.csv", "trajectories.csv", "collisions.csv", "tilt.csv"):
        assert (SAMPLES / name).read_text().startswith("# SYNTHETIC")
    stamp = tomllib.loads((SAMPLES / "truth.toml").read_text())["stamp"]
    assert "SYNTHETIC" in stamp["note"]


def test_batched_shots_equal_single_worlds(plank, truth, sim):
    """Many shots in one World (contacts between shots dropped) = each shot alone."""
    L = np.array(
        [
            [0.0, 0.0, 0.1, 1.2, 0.3, 40.0],
            [0.01, 0.0, 0.7, -0.8, 0.5, -60.0],
            [0.0, 0.01, 0.0, 0.6, -0.6, 0.0],
        ]
    )
    batch = sim.rest(truth, L)  # the three dice start overlapping: they must not interact
    for row, got in zip(L, batch, strict=True):
        w = World(plank, truth)
        w.add_die("a", *row[:3], face=1, vx=row[3], vy=row[4], omega=row[5])
        w.run_until_rest(20.0)
        s = w.state("a")
        assert np.allclose(got, [s.x, s.y, s.angle], rtol=0, atol=1e-9)
    S = np.array([[-0.1, 0.0, 0.0, 1.0, 0.05, 0.0], [-0.1, 0.0, 0.0, 1.1, -0.04, 5.0]])
    T = np.array([[0.0, 0.005, 0.0], [0.0, -0.004, 0.3]])
    both = sim.collide(truth, S, T)
    for k in range(2):
        w = World(plank, truth)
        w.add_die("s", *S[k, :3], face=1, vx=S[k, 3], vy=S[k, 4], omega=S[k, 5])
        w.add_die("t", *T[k], face=1)
        w.run_until_rest(20.0)
        want = [
            w.state("s").x,
            w.state("s").y,
            w.state("s").angle,
            w.state("t").x,
            w.state("t").y,
            w.state("t").angle,
        ]
        assert np.allclose(both[k], want, rtol=0, atol=1e-9)


def test_40_shot_set_recovers_mu_board_within_2_percent(plank, truth, sim):
    files = load_all([SAMPLES / "rest_poses.csv"], plank)
    assert Shots.from_files(files).count == 40
    cal = calibrate(
        files, PhysicsParams.from_board(plank), sim, fit_names=["mu_board"], starts=1, angles=False
    )
    _within(cal.estimates["mu_board"], truth.mu_board, 0.02)
    assert cal.rms_mm == pytest.approx(1.0, rel=0.25)  # the 1 mm rest noise the samples carry


def test_collisions_recover_mu_die_and_restitution_within_5_percent(plank, truth, sim):
    files = load_all([SAMPLES / "collisions.csv"], plank)
    base = with_fitted(
        PhysicsParams.from_board(plank), ["mu_board"], [truth.mu_board]
    )  # as fitted from rest poses
    cal = calibrate(files, base, sim, fit_names=["mu_die", "restitution"], starts=1)
    _within(cal.estimates["mu_die"], truth.mu_die, 0.05)
    _within(cal.estimates["restitution"], truth.restitution, 0.05)
    assert not any("cannot tell them apart" in w for w in cal.warnings)


def test_tracks_recover_mu_board(plank, truth, sim):
    """Two tracked shots at 30 frames/s (every 4th sample): launch velocities fitted per shot."""
    files = load_all([SAMPLES / "trajectories.csv"], plank)
    few = tuple(
        replace(s, t=s.t[::4], x=s.x[::4], y=s.y[::4], angle=s.angle[::4])
        for s in files[0].items[:2]
    )
    cal = calibrate(
        [replace(files[0], items=few)],
        PhysicsParams.from_board(plank),
        sim,
        fit_names=["mu_board"],
        starts=1,
    )
    _within(cal.estimates["mu_board"], truth.mu_board, 0.02)


def test_tilt_recovers_mu_static(plank, truth):
    files = load_all([SAMPLES / "tilt.csv"], plank)
    cal = calibrate(files, PhysicsParams.from_board(plank), None, fit_names=["mu_static"])
    _within(cal.estimates["mu_static"], truth.mu_static, 0.05)
