"""The play driver: asks agents for moves, samples chance from the match seed, reports events."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop.actions import CHANCE, TERMINAL, Action
from jamsumo_sim.turnloop.agents import Agent, QuitRequest, SaveRequest, SeatView
from jamsumo_sim.turnloop.keys import CHANCE_STREAM, rng_for
from jamsumo_sim.turnloop.state import Game, LogEntry, State


def chance_rng(state: State) -> np.random.Generator:
    """The generator of the chance node ``state`` is at: keyed by the seed and the node's position."""
    return rng_for(state.seed, CHANCE_STREAM, len(state.history))


def seeded_outcome(state: State) -> Action:
    """The outcome the match seed gives at this chance node: what :func:`step` applies, and what
    ``replay --verify`` and the conformance kit expect every recorded outcome to be."""
    return state.chance_outcomes().sample(chance_rng(state))


@dataclass(frozen=True)
class SaveOrder:
    """What the driver asks of ``on_save``: where to save and what happens if it cannot."""

    path: str | None  # a file the person named (``save FILE``); None: the match's own save file
    quitting: bool  # the match stops after this save (``quit``, end of input, Ctrl-C)
    can_go_on: bool  # a failed save may return to the game: a person is there to try again


# on_save(state, order) saves the match; it returns False if it could not (the match then goes on
# when ``order.can_go_on``) and raises a UserError when it cannot save and the match cannot go on.
SaveCallback = Callable[[State, SaveOrder], bool | None]


@dataclass
class MatchEvent:
    """Something that happened, for a progress printer or a window: a move and its new log lines."""

    state: State
    entry: dict[str, Any]
    log: list[LogEntry] = field(default_factory=list)


@dataclass
class MatchResult:
    state: State
    returns: list[float]
    winners: list[int]
    turns: int
    stopped: bool = False  # a person quit before the end (the match was saved)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()


def seat_view(state: State, seat: int) -> SeatView:
    """What the agent at ``seat`` gets to see now."""
    return SeatView(state, seat)


def _ask(agent: Agent, state: State, seat: int) -> tuple[Action, list[Action]]:
    view = SeatView(state, seat)
    return agent.act(view), view.legal_actions


def step(state: State, agents: Sequence[Agent]) -> dict[str, Any]:
    """Make one move (a chance outcome, one seat's move or a joint move); return its history entry."""
    player = state.current_player()
    if player == TERMINAL:
        raise ValueError("the game is over")
    return _step(state, agents, player)


def _step(state: State, agents: Sequence[Agent], player: int) -> dict[str, Any]:
    """``step`` once ``player`` (not TERMINAL) is known: the move loop asks only once a move."""
    if player >= 0:
        _seat_move(state, agents[player], player)
    elif player == CHANCE:
        outcome = seeded_outcome(state)
        state.apply_action(outcome, known_legal=[outcome])  # drawn from the node: possible
    else:  # SIMULTANEOUS
        joint = {seat: _ask(agents[seat], state, seat)[0] for seat in state.simultaneous_seats()}
        state.apply_actions(joint)  # checks every seat's move
    return state.history[-1]


def _seat_move(state: State, agent: Agent, player: int) -> None:
    """One seat's move (``_ask``, written out): the legal list is worked out once and handed to
    the view (the random agent needs only it) and to ``apply_action``, which then need not
    check the move again when it is one of the listed objects. ``player`` is the seat to move
    (the caller just asked), so the list comes straight from the rules' hook: what
    ``legal_actions`` returns for that seat, without asking again who is to move."""
    legal = state._legal_actions(player)
    action = agent.act(SeatView(state, player, legal))
    state.apply_action(action, known_legal=legal)  # raises IllegalAction with the reason


def play(
    game: Game,
    agents: Sequence[Agent],
    seed: int,
    params: Mapping[str, Any] | None = None,
    state: State | None = None,
    on_event: Callable[[MatchEvent], None] | None = None,
    on_save: SaveCallback | None = None,
    max_steps: int | None = None,
) -> MatchResult:
    """Play a match to the end (or until a person quits) and return the result.

    Pass ``state`` to resume a saved match; otherwise a new one starts from ``params``.
    ``on_save(state, order)`` is called when a person asks to save or quits (see :class:`SaveOrder`):
    no request to save or stop ever loses the match.
    """
    if state is None:
        full = game.validate_params(params or game.default_params(len(agents)))
        state = game.new_initial_state(full, seed=seed)
    if len(agents) != state.num_players:
        raise UserError(
            f"{state.num_players} seats need {state.num_players} agents, got {len(agents)}"
        )
    limit = max_steps if max_steps is not None else game.max_game_length(state.params)
    with _fewer_collections():
        stopped = _play_moves(game, state, agents, limit, on_event, on_save)
    finished = state.is_terminal()
    return MatchResult(
        state=state,
        returns=state.returns() if finished else [],
        winners=state.winners() if finished else [],
        turns=state.turns_played(),
        stopped=stopped,
    )


def _play_moves(
    game: Game,
    state: State,
    agents: Sequence[Agent],
    limit: int,
    on_event: Callable[[MatchEvent], None] | None,
    on_save: SaveCallback | None,
) -> bool:
    """The move loop of ``play``; True if a person stopped the match before its end."""
    while (player := state.current_player()) != TERMINAL:
        if len(state.history) >= limit:
            raise RuntimeError(f"{game.name}: no end after {limit} moves (bound exceeded)")
        seen = len(state.log) if on_event is not None else 0
        try:
            if player >= 0:  # the commonest case, without the detour through _step
                _seat_move(state, agents[player], player)
            else:
                _step(state, agents, player)
        except SaveRequest as request:
            if on_save is not None:  # saved or not, the game goes on
                on_save(state, SaveOrder(request.path, quitting=False, can_go_on=True))
            continue
        except (QuitRequest, KeyboardInterrupt) as request:
            # a person stopping (or Ctrl-C) never loses the match: save it to resume later
            typed = isinstance(request, QuitRequest) and request.typed
            if on_save is not None:
                saved = on_save(state, SaveOrder(None, quitting=True, can_go_on=typed))
                if saved is False and typed:
                    continue  # not saved: the person is asked again and may `save FILE` elsewhere
            return True
        if on_event is not None:
            on_event(MatchEvent(state, state.history[-1], state.log[seen:]))
    return False


# Young-generation threshold of the garbage collector during a match (Python's default is 700).
_MATCH_GC_THRESHOLD = 20_000


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often during a match.

    A match allocates many small containers that live to its end (history entries, log lines):
    at the default thresholds young collections run every few moves and pass them on, and a full
    collection follows every few card games, each rescanning everything the program built before
    (numpy, card tables, move memos). A young threshold of 20 000 (a few MB of young objects at
    most) makes all of them rarer; garbage is still found, in bigger batches, and once more when
    the caller's thresholds come back after the match (unless someone changed them meanwhile: a
    match on another thread).
    """
    old = gc.get_threshold()
    if old[0] >= _MATCH_GC_THRESHOLD:  # already raised (a match inside a match) or set higher
        yield
        return
    gc.set_threshold(_MATCH_GC_THRESHOLD, *old[1:])
    try:
        yield
    finally:
        if gc.get_threshold()[0] == _MATCH_GC_THRESHOLD:
            gc.set_threshold(*old)
