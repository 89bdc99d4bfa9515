"""A short recorded Sumo match at the ``table`` noise level (every flick executed with an error),
shared by the export tests."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture(scope="session")
def table_replay(tmp_path_factory):
    from jamsumo_sim.replay import save_replay
    from jamsumo_sim.rules.match_cli import make_agents
    from jamsumo_sim.turnloop import get_game, play

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 1, "noise": "table"})
    seats = ["random", "random"]
    result = play(game, make_agents(game, seats), seed=3, params=params)
    path = tmp_path_factory.mktemp("export") / "sumo-table.json"
    save_replay(path, result.state, seats)
    return path
