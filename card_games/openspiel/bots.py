"""OpenSpiel's own ``ISMCTSBot`` made ready for ``evaluate_bots`` on the card games.

``evaluate_bots`` calls ``restart_at`` and ``inform_action`` on every bot; OpenSpiel's Python
``ISMCTSBot`` leaves them unimplemented (pyspiel then raises "RestartAt(state) not implemented").
It searches afresh from the state it is handed at each move (the game's
``resample_from_infostate`` deals the unseen cards), so it has nothing to restart or record.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jamsumo_sim.envs.deps import require

ismcts = require("open_spiel.python.algorithms.ismcts", "OpenSpiel's IS-MCTS bot")
mcts = require("open_spiel.python.algorithms.mcts", "OpenSpiel's IS-MCTS bot")


class SearchBot(ismcts.ISMCTSBot):  # type: ignore[misc,name-defined]
    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass


def ismcts_bot(game: Any, simulations: int, seed: int, uct_c: float = 1.4) -> SearchBot:
    """OpenSpiel's IS-MCTS with random rollouts; ``seed`` fixes its rollouts and choices."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return SearchBot(
        game, evaluator, uct_c, simulations, random_state=np.random.RandomState(seed + 1)
    )
