"""The optional AI-ecosystem dependencies (the rl extra, ``pip install 'jamsumo[rl]'``), imported
on first use.

The core install has none of them: ``jamsumo_sim`` and ``card_games`` import without them, and
only building an environment, an OpenSpiel game or an ``ismcts`` seat asks for them, failing in
one line (:func:`jamsumo_sim.extras.require`).
"""

from __future__ import annotations

from types import ModuleType

from jamsumo_sim.extras import require as require_extra


def require(
    module: str, needed_by: str = "the PettingZoo and Gymnasium environments"
) -> ModuleType:
    """Import ``module`` (pettingzoo, gymnasium, pyspiel, open_spiel, shimmy) or raise a one-line
    UserError naming the rl extra."""
    return require_extra(module, "rl", needed_by)
