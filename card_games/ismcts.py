"""The ``ismcts`` seat: OpenSpiel's Information Set Monte Carlo Tree Search playing a card game.

At each decision the bot searches from worlds re-dealt from its seat's information only: the
resampler is the game's ``perturb_hidden`` (everything the seat cannot see pooled in a fixed
order, then re-dealt by the search's generator, so the world drawn is a function of the seat's
information and the seed alone; the conformance kit checks that the seat's view is unchanged by
it, and tests/card_games/test_ismcts_hidden.py that the decision is unchanged when the hidden
information is), and other seats' hidden simultaneous choices are re-drawn. Leaves are valued by one random play-out on the turn loop
itself (much faster than through OpenSpiel's Python bindings), chance drawn from the search's
own generator. Needs ``jamsumo[rl]``; without it the seat is listed but refuses in one line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jamsumo_sim.envs.deps import require
from jamsumo_sim.turnloop import Action, Agent, Game, SeatView, State

# Search budget per decision (simulations) and exploration constant: what bench_ismcts.py
# measured with; more simulations play better and cost linearly more time.
SIMULATIONS = 16
UCT_C = 1.4
NEEDED_BY = "the ismcts seat"


def rollout_shares(state: State, rng: np.random.Generator) -> list[float]:
    """Win shares (1/k per winner) at the end of one uniformly random play-out of ``state``."""
    from card_games.envs.card_env import win_shares

    work = state.clone()
    while not work.is_terminal():
        if work.is_chance_node():
            work.apply_action(work.chance_outcomes().sample(rng))
        elif work.is_simultaneous_node():
            joint = {}
            for seat in work.simultaneous_seats():
                legal = work.legal_actions(seat)
                joint[seat] = legal[int(rng.integers(len(legal)))]
            work.apply_actions(joint)
        else:
            legal = work.legal_actions()
            work.apply_action(legal[int(rng.integers(len(legal)))], known_legal=legal)
    return win_shares(work)


def _evaluator(rng: np.random.Generator) -> Any:
    mcts = require("open_spiel.python.algorithms.mcts", NEEDED_BY)

    class TurnLoopRollout(mcts.Evaluator):  # type: ignore[misc,name-defined]
        """One random play-out on the turn loop (a pending simultaneous choice is kept)."""

        def evaluate(self, state: Any) -> np.ndarray:
            if state.pending:  # finish the joint move through OpenSpiel first
                state = state.clone()
                while state.pending and not state.is_terminal():
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rng.integers(len(legal)))])
            # a shuffle half dealt item by item is dealt afresh, whole, by the turn loop
            return np.array(rollout_shares(state.inner, rng))

        def prior(self, state: Any) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            return [(a, 1.0 / len(legal)) for a in legal]

    return TurnLoopRollout()


def root_state(view: SeatView, rng: np.random.Generator) -> Any:
    """An OpenSpiel state at ``view``'s decision built from the seat's information only."""
    from card_games.openspiel.game import CardSpielState, short_name

    pyspiel = require("pyspiel", NEEDED_BY)
    # Only perturb_hidden of the real state is used: it keeps what the seat knows and re-deals the
    # rest from a fixed-order pool, so nothing about where hidden things really lie gets through.
    # (None means nothing is left to re-deal: what is hidden is then known by counting.)
    source = view._source
    world = source.perturb_hidden(view.seat, rng) or source.clone()
    game = pyspiel.load_game(
        short_name(view.game.name),
        {"players": world.num_players, "variant": str(world.params["variant"])},
    )
    root = CardSpielState(game, world)
    if world.is_simultaneous_node():  # seats asked before this one: hidden, any legal choice
        for seat in world.simultaneous_seats():
            if seat == view.seat:
                break
            legal = world.legal_actions(seat)
            root.pending[seat] = legal[int(rng.integers(len(legal)))]
    return root


class ISMCTSAgent(Agent):
    kind = "ismcts"

    def __init__(self, seat: int, game: Game, simulations: int = SIMULATIONS, **options: Any):
        super().__init__(seat, game, **options)
        self.simulations = simulations
        require("pyspiel", NEEDED_BY)  # refuse at once (one line), not at the first move
        import card_games.openspiel  # noqa: F401 - registers the games

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        ismcts = require("open_spiel.python.algorithms.ismcts", NEEDED_BY)
        rng = view.rng
        root = root_state(view, rng)
        bot = ismcts.ISMCTSBot(
            game=root.get_game(),
            evaluator=_evaluator(rng),
            uct_c=UCT_C,
            max_simulations=self.simulations,
            random_state=np.random.RandomState(int(rng.integers(2**31))),
            use_observation_string=False,
            allow_inconsistent_action_sets=False,
        )
        bot.set_resampler(lambda state, player: state.resample_for(player, rng))
        index = int(bot.step(root))
        name = root.spiel_game.catalog.names[index]
        return next(a for a in legal if a.name == name)


def with_ismcts(bots: dict[str, type]) -> dict[str, type]:
    """A game's seat table with the ``ismcts`` seat added (every card game has one)."""
    return {**bots, "ismcts": ISMCTSAgent}
