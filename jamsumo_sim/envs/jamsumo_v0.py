"""PettingZoo AEC environment ``jamsumo_v0`` (see :mod:`jamsumo_sim.envs.jamsumo_env`).

``env(mode="jam"|"sumo"|"jamsumo", players=2..4, render_mode=None|"human"|"ansi"|"rgb_array",
max_cycles=None, **match_params)``; the match parameters are the game's own (``rounds``,
``noise``, ``board``, …).
"""

from __future__ import annotations

from typing import Any


def raw_env(**kwargs: Any) -> Any:
    from jamsumo_sim.envs.jamsumo_env import JamSumoEnv

    return JamSumoEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    from jamsumo_sim.envs.deps import require

    wrappers = require("pettingzoo.utils.wrappers")
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
