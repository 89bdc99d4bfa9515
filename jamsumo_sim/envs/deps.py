"""The optional AI-ecosystem dependencies (``pip install 'jamsumo[rl]'``), imported on first use.

The core install has none of them: ``jamsumo_sim`` and ``card_games`` import without them, and
only building an environment or an OpenSpiel game asks for them, failing in one line.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from jamsumo_sim.errors import UserError

RL_EXTRA_HINT = "pip install 'jamsumo[rl]'"


def require(module: str) -> ModuleType:
    """Import ``module`` (pettingzoo, gymnasium, pyspiel, shimmy) or raise a one-line UserError."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        top = module.split(".")[0]
        raise UserError(f"{top} is not installed (needed here): run {RL_EXTRA_HINT}") from exc
