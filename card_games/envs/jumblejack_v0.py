"""PettingZoo AEC environment ``jumblejack_v0`` (see :mod:`card_games.envs.card_env`)."""

from __future__ import annotations

from typing import Any

GAME = "jumblejack"


def raw_env(**kwargs: Any) -> Any:
    """The unwrapped environment: ``players``, ``variant``, ``render_mode``, ``max_cycles``."""
    from card_games.envs.card_env import CardGameEnv

    return CardGameEnv(GAME, **kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order and bounds checks."""
    from card_games.envs.card_env import make_env

    return make_env(GAME, **kwargs)
