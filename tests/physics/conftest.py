"""Shared fixtures for the physics tests: a big flat board (no hole, dish or platforms) and the standard one."""

from __future__ import annotations

import pytest
from physics_helpers import FLAT

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import World


@pytest.fixture(scope="session")
def flat_board():
    return load_board(FLAT)


@pytest.fixture(scope="session")
def standard_board():
    return load_board("standard")


@pytest.fixture(scope="session")
def params(standard_board):
    return PhysicsParams.from_board(standard_board)


@pytest.fixture
def flat_world(flat_board, params):
    return World(flat_board, params)
