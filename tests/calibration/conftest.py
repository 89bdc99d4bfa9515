"""Shared fixtures: a large flat test board and small measurement files written on the fly."""

from __future__ import annotations

import numpy as np
import pytest

from jamsumo_sim.calibration.data import COLLISION, REST, TILT, TRAJECTORY, write_csv
from jamsumo_sim.calibration.model import ToySimulator, with_fitted
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams

FLAT = {"side": 3.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []}


@pytest.fixture(scope="session")
def flat_board():
    return load_board(FLAT)


@pytest.fixture(scope="session")
def base_params(flat_board):
    return PhysicsParams.from_board(flat_board)


def toy_files(tmp_path, board, *, mu=0.3, e=0.6, n_rest=20, n_col=8, n_tr=3, seed=1, noise=0.001):
    """Rest, collision, trajectory and tilt files from the toy model with known truth."""
    base = PhysicsParams.from_board(board)
    truth = with_fitted(base, ["mu_board", "restitution"], [mu, e])
    rng = np.random.default_rng(seed)
    sim = ToySimulator()
    sp = rng.uniform(0.5, 2.5, n_rest)
    th = rng.uniform(0, 2 * np.pi, n_rest)
    L = np.stack(
        [
            rng.uniform(-0.1, 0.1, n_rest),
            rng.uniform(-0.1, 0.1, n_rest),
            rng.uniform(0, 1, n_rest),
            sp * np.cos(th),
            sp * np.sin(th),
            rng.uniform(-80, 80, n_rest),
        ],
        axis=1,
    )
    R = sim.rest(truth, L) + rng.normal(0, [noise, noise, 0.0], (n_rest, 3))
    rest = write_csv(
        tmp_path / "rest.csv",
        REST,
        [[f"s{i}", *L[i], *R[i]] for i in range(n_rest)],
        "SYNTHETIC test data",
    )
    S = np.stack(
        [
            np.full(n_col, -0.1),
            np.zeros(n_col),
            np.zeros(n_col),
            rng.uniform(0.8, 1.5, n_col),
            np.zeros(n_col),
            np.zeros(n_col),
        ],
        axis=1,
    )
    T = np.zeros((n_col, 3))
    C = sim.collide(truth, S, T) + rng.normal(0, noise, (n_col, 6)) * [1, 1, 0, 1, 1, 0]
    col = write_csv(
        tmp_path / "collisions.csv",
        COLLISION,
        [[f"c{i}", *S[i], *T[i], *C[i]] for i in range(n_col)],
    )
    rows = []
    for i in range(n_tr):
        v = 1.0 + 0.3 * i
        Lt = np.array([[0.0, 0.1 * i, 0.0, v, 0.0, 0.0]])
        t = np.arange(0, 0.35, 1 / 60)
        P = sim.track(truth, Lt, [t])[0] + rng.normal(0, noise, (t.size, 3)) * [1, 1, 0]
        P[0] = Lt[0, :3]
        rows += [[f"t{i}", tt, *pp] for tt, pp in zip(t, P, strict=True)]
    tr = write_csv(tmp_path / "tracks.csv", TRAJECTORY, rows)
    angles = np.repeat(np.arange(15.0, 25.0, 0.5), 3)
    slip = angles + rng.normal(0, 0.8, angles.size) > np.degrees(np.arctan(0.35))
    tilt = write_csv(
        tmp_path / "tilt.csv", TILT, [[a, bool(s)] for a, s in zip(angles, slip, strict=True)]
    )
    return {"rest": rest, "collision": col, "trajectory": tr, "tilt": tilt}


@pytest.fixture(scope="session")
def std_board():
    return load_board("standard")
