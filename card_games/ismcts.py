"""The ``ismcts`` seat: OpenSpiel's Information Set Monte Carlo Tree Search playing a card game.

At each decision the bot searches from worlds re-dealt from its seat's information only: the
resampler is the game's ``perturb_hidden`` (everything the seat cannot see, The Jam's face-down
ingredients included, pooled in a fixed order, then re-dealt by the search's generator, so the
world drawn is a function of the seat's information and the seed alone; the conformance kit checks
that the seat's view is unchanged by it, and tests/card_games/test_ismcts_hidden.py that the
decision is unchanged when the hidden information is), and other seats' hidden simultaneous
choices are re-drawn. Each node's prior puts half its weight on the move the game's ``smart`` bot
would make from the mover's own view of that world, and children are chosen by PUCT: without
that guide the random play-outs of these long games ranked moves too poorly to beat ``smart`` at
any budget measured (docs/ai.md). Leaves are valued by one random play-out on the turn loop
itself (much faster than through OpenSpiel's Python bindings), chance drawn from the search's
own generator. Needs ``jamsumo[rl]``; without it the seat is listed but refuses in one line.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jamsumo_sim.envs.deps import require
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import Action, Agent, Game, SeatView, State

# Search budget per decision (simulations) and exploration constant (PUCT's c when guided):
# 50 won 0.575-0.675 against `smart` in Jelly Fish, Jumble Jam and The Jam at 0.1-0.3 s of CPU a
# decision (docs/ai.md); more cost linearly more time and did not always play better.
SIMULATIONS = 50
UCT_C = 1.4
ROLLOUT = "random"  # leaf play-outs: "random", or a bot of the game (see bench_ismcts.py)
# A guide bot (None: none) puts GUIDE_WEIGHT of each node's prior on its own move, and children
# are then chosen by PUCT (OpenSpiel's AlphaZero-style rule) instead of UCT. Unguided, random
# play-outs rank the moves of long games so poorly that IS-MCTS lost to `smart` at any budget
# measured (docs/ai.md, benchmarks/bench_ismcts.py); guided by `smart` it searches its moves first.
GUIDE: str | None = "smart"
GUIDE_WEIGHT = 0.5
MAX_SIMULATIONS = 100_000  # `ismcts:N` bound: beyond it one decision takes minutes
NEEDED_BY = "the ismcts seat"


def rollout_shares(state: State, rng: np.random.Generator, policy: str = "random") -> list[float]:
    """Win shares (1/k per winner) at the end of one play-out of ``state``: uniformly random
    moves, or every seat played by the game's ``policy`` bot (e.g. ``smart``) from its own view of
    the searched world. Chance is drawn from ``rng`` either way."""
    from card_games.envs.card_env import win_shares

    work = state.clone()
    if policy != "random":
        game = work.game
        bot = game.bots()[policy]
        agents = [bot(s, game) for s in range(work.num_players)]
    while not work.is_terminal():
        if work.is_chance_node():
            work.apply_action(work.chance_outcomes().sample(rng))
        elif work.is_simultaneous_node():
            joint = {}
            for seat in work.simultaneous_seats():
                legal = work.legal_actions(seat)
                if policy == "random":
                    joint[seat] = legal[int(rng.integers(len(legal)))]
                else:
                    joint[seat] = agents[seat].act(SeatView(work, seat, legal))
            work.apply_actions(joint)
        else:
            legal = work.legal_actions()
            if policy == "random":
                move = legal[int(rng.integers(len(legal)))]
            else:
                move = agents[work.current_player()].act(
                    SeatView(work, work.current_player(), legal)
                )
            work.apply_action(move, known_legal=legal)
    return win_shares(work)


def _evaluator(rng: np.random.Generator, policy: str = "random", guide: str | None = None) -> Any:
    mcts = require("open_spiel.python.algorithms.mcts", NEEDED_BY)

    class TurnLoopRollout(mcts.Evaluator):  # type: ignore[misc,name-defined]
        """One play-out on the turn loop (a pending simultaneous choice is kept)."""

        def evaluate(self, state: Any) -> np.ndarray:
            if state.pending:  # finish the joint move through OpenSpiel first
                state = state.clone()
                while state.pending and not state.is_terminal():
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rng.integers(len(legal)))])
            # a shuffle half dealt item by item is dealt afresh, whole, by the turn loop
            return np.array(rollout_shares(state.inner, rng, policy))

        def prior(self, state: Any) -> list[tuple[int, float]]:
            legal = state.legal_actions()
            flat = [(a, 1.0 / len(legal)) for a in legal]
            if guide is None or len(legal) == 1:
                return flat
            # the guide bot's move from the mover's own view of this world gets GUIDE_WEIGHT
            seat = state.current_player()
            inner = state.inner
            bot = inner.game.bots()[guide](seat, inner.game)
            move = bot.act(SeatView(inner, seat))
            best = state.spiel_game.catalog.action_index(move)
            rest = (1.0 - GUIDE_WEIGHT) / len(legal)
            return [(a, rest + (GUIDE_WEIGHT if a == best else 0.0)) for a in legal]

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

    def __init__(
        self,
        seat: int,
        game: Game,
        simulations: int = SIMULATIONS,
        rollout: str = ROLLOUT,
        guide: str | None = GUIDE,
        **options: Any,
    ):
        super().__init__(seat, game, **options)
        level = options.get("level")  # `ismcts:N` in a tournament line-up: N simulations
        if level is not None:
            if not str(level).isdigit() or not 1 <= int(level) <= MAX_SIMULATIONS:
                raise UserError(
                    f"ismcts:{str(level)[:20]}: the level is the simulations per decision, "
                    f"1-{MAX_SIMULATIONS}"
                )
            simulations = int(level)
        if rollout != "random" and rollout not in game.bots():
            raise UserError(f"ismcts: no {rollout[:20]!r} bot to play the rollouts")
        self.simulations = simulations
        self.rollout = rollout
        if guide is not None and guide not in game.bots():
            raise UserError(f"ismcts: no {guide[:20]!r} bot to guide the search")
        self.guide = guide
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
            evaluator=_evaluator(rng, self.rollout, self.guide),
            uct_c=UCT_C,
            child_selection_policy=(
                ismcts.ChildSelectionPolicy.UCT
                if self.guide is None
                else ismcts.ChildSelectionPolicy.PUCT
            ),
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
