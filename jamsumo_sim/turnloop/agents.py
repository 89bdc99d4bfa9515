"""Agents choose moves from what their seat may see: random, console (a person) and heuristic bots."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Any, Protocol, TextIO

import numpy as np

from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.keys import agent_key, agent_rng
from jamsumo_sim.turnloop.state import Game, State

# Longest line a person may type at a prompt (a move's name, an offer); a longer one (a paste
# gone wrong, or no newline in a stream) is read in pieces, dropped and reported.
MAX_TYPED_LINE = 2000


class QuitRequest(Exception):
    """A person asked to stop (the driver saves the match so it can resume).

    ``typed`` is True when the person typed ``quit`` (they are still there: if the save fails
    they can be asked again), False at the end of input (nobody is left to ask).
    """

    def __init__(self, typed: bool = False) -> None:
        super().__init__("quit" if typed else "end of input")
        self.typed = typed


class SaveRequest(Exception):
    """A person asked to save the match now and go on playing."""

    def __init__(self, path: str | None = None) -> None:
        super().__init__(path or "")
        self.path = path


class SeatView:
    """Everything an agent may use to decide: its seat's observation and legal moves.

    ``state`` is a private copy of the full state for perfect-information games only (JamSumo's
    planner simulates shots on it); for hidden-information games it is None. Everything is
    computed on first use, so a bot that needs only the legal moves (the random agent) costs
    almost nothing per move. Agents must not reach into ``_source``.
    """

    __slots__ = ("seat", "_source", "_legal", "__dict__")

    def __init__(self, source: State, seat: int, legal_actions: list[Action] | None = None) -> None:
        self.seat = seat
        self._source = source
        self._legal = legal_actions

    @property
    def game(self) -> Game:
        return self._source.game

    @property
    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._source.legal_actions(self.seat)
        return self._legal

    @cached_property
    def observation(self) -> dict[str, Any]:
        return self._source.observation(self.seat)

    @cached_property
    def rng(self) -> np.random.Generator:
        return agent_rng(self._source, self.seat)

    @cached_property
    def state(self) -> State | None:
        return self._source.clone() if self._source.game.perfect_information else None

    def random_index(self, n: int) -> int:
        """A uniform index in ``range(n)`` for this decision, without building a generator.

        It comes from the same seed and decision as ``rng`` (a 64-bit hash, so the modulo bias
        is below 1e-17); the random agent uses it because it is called on every move.
        """
        return agent_key(self._source, self.seat) % n

    @property
    def history_length(self) -> int:
        """How many entries the match history holds: a person's menu tells from it whether a
        decision follows straight on from the seat's own previous one (the same step)."""
        return len(self._source.history)

    def preview(self, actions: Sequence[Action]) -> SeatView | None:
        """This seat's view after it made ``actions`` on a private copy, nothing sent.

        For a person building a move of several steps (a trade offer, an order's fill) that is
        sent only when complete. None if an action is not legal, or if the copy stops being
        this seat's decision (another seat, chance or the end would be next): a preview never
        shows what the seat could not see after making the moves itself.
        """
        copy = self._source.clone()
        for action in actions:
            if copy.current_player() != self.seat or not copy.is_legal(self.seat, action):
                return None
            copy.apply_action(action)
        if copy.current_player() != self.seat:
            return None
        return SeatView(copy, self.seat)

    def parse(self, text: str) -> Action | None:
        """A typed move that need not be in the listed legal actions (e.g. a flick)."""
        return self._source.parse_action(self.seat, text)

    def check(self, action: Action) -> str | None:
        """None if ``action`` is legal now, else the reason it is not."""
        if action in self.legal_actions or self._source.is_legal(self.seat, action):
            return None
        return self._source.why_illegal(self.seat, action)


class Agent:
    """Base class: ``act(view)`` returns one action."""

    kind = "agent"

    def __init__(self, seat: int, game: Game, **options: Any) -> None:
        self.seat = seat
        self.game = game
        self.options = options

    def act(self, view: SeatView) -> Action:  # pragma: no cover - interface
        raise NotImplementedError

    @property
    def is_human(self) -> bool:
        return False


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    kind = "random"

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        return legal[view.random_index(len(legal))]


class HeuristicAgent(Agent):
    """Base for heuristic bots: scores every legal action and plays the best (ties at random).

    Subclasses implement :meth:`score`; ``prepare`` may compute per-decision data once.
    """

    kind = "heuristic"

    def prepare(self, view: SeatView) -> Any:
        return None

    def score(self, view: SeatView, action: Action, context: Any) -> float:  # pragma: no cover
        raise NotImplementedError

    def act(self, view: SeatView) -> Action:
        context = self.prepare(view)
        scores = np.array([self.score(view, a, context) for a in view.legal_actions], dtype=float)
        best = np.flatnonzero(scores >= scores.max() - 1e-12)
        return view.legal_actions[int(best[int(view.rng.integers(len(best)))])]


class InputHelper(Protocol):
    """A game's help for a person typing moves (the card games' menus, ``Game.input_helper``):
    stable move numbers, grouped and filtered lists, typed names, and moves of several steps
    built and previewed before anything is sent.

    ``decide`` talks to the person through ``console`` (``ask``, ``say``, ``show_view``) and
    returns the moves to send: the first now, the rest as the same seat's next decisions (each
    checked again before it is sent).
    """

    def decide(self, view: SeatView, console: ConsoleAgent) -> list[Action]: ...


# show_table(observation, seat) -> the table as text, printed before the moves are listed
TableHook = Callable[[Mapping[str, Any], int | None], str]


class ConsoleAgent(Agent):
    """A person at a terminal: shows their view, lists legal moves by number and name, re-prompts.

    Typing a number, a move's name or an unambiguous start of it plays that move; ``help``
    lists the moves again, ``save [FILE]`` saves the match, ``quit`` saves and stops.

    ``show_table`` draws the table (default: ``game.render``); ``helper`` (default: the game's
    ``input_helper()``, if any) runs the move menu. Moves the helper returns beyond the first are
    sent, unasked, as this seat's next decisions while each is still legal.
    """

    kind = "human"

    # ANSI: clear the screen and scroll-back, cursor home (a terminal that ignores it shows blanks)
    CLEAR = "\033[3J\033[2J\033[H" + "\n" * 60

    def __init__(
        self,
        seat: int,
        game: Game,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        handover: bool = False,
        show_table: TableHook | None = None,
        helper: InputHelper | None = None,
        **options: Any,
    ) -> None:
        super().__init__(seat, game, **options)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        # several people share the terminal (hot-seat): hide each one's view from the others
        self.handover = handover
        self.show_table = show_table
        self.helper = helper if helper is not None else game.input_helper()
        # the rest of a move of several steps, and the history length at which the next is due
        self._queue: list[Action] = []
        self._queue_at = -1

    @property
    def is_human(self) -> bool:
        return True

    def _print(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def say(self, text: str = "") -> None:
        """Print a line for the person (the helper's way to talk)."""
        self._print(text)

    def ask(self, prompt: str) -> str:
        """Read one line (stripped); ``quit``, ``save [FILE]`` and the end of input are handled
        here, so they work at every question, also inside a helper's dialogue."""
        while True:
            self.stdout.write(prompt)
            self.stdout.flush()
            line = self.stdin.readline(MAX_TYPED_LINE + 1)
            if not line:  # end of input: stop safely rather than loop forever
                raise QuitRequest()
            if len(line) <= MAX_TYPED_LINE or line.endswith("\n"):
                break
            while line and not line.endswith("\n"):  # the rest of it, read and dropped
                line = self.stdin.readline(MAX_TYPED_LINE + 1)
            self._print(f"That line is over {MAX_TYPED_LINE} characters; it was ignored.")
        text = line.strip()
        lowered = text.lower()
        if lowered in ("quit", "exit"):
            raise QuitRequest(typed=True)
        if lowered == "save" or lowered.startswith("save "):
            raise SaveRequest(text[5:].strip() or None)
        return text

    def show_view(self, view: SeatView) -> None:
        """Print the table as ``view``'s seat sees it."""
        if self.show_table is not None:
            self._print(self.show_table(view.observation, view.seat))
        else:
            self._print(self.game.render(view.observation, view.seat))

    def _list(self, actions: list[Action]) -> None:
        width = len(str(len(actions)))
        for index, action in enumerate(actions, 1):
            self._print(f"  {index:>{width}}. {action.name}")

    @property
    def queued(self) -> int:
        """How many steps of a move already chosen are still to be sent."""
        return len(self._queue)

    def _queued(self, view: SeatView) -> Action | None:
        """The next step of a move the person already made, if it is still due and legal."""
        if not self._queue:
            return None
        action = self._queue[0]
        reason = view.check(action) if view.history_length == self._queue_at else "play moved on"
        if reason is not None:
            self._queue.clear()
            self._print(f"The rest of your move was not sent ({reason}); choose again.")
            return None
        self._queue.pop(0)
        self._queue_at += 1
        return action

    def act(self, view: SeatView) -> Action:
        queued = self._queued(view)
        if queued is not None:  # the same person is still at the terminal: no handover
            if self.handover and not self._queue:
                self._wipe(view.seat)
            return queued
        if self.handover:
            self.stdout.write(self.CLEAR)
            self._print(
                f"Seat {view.seat}'s move: pass the terminal to seat {view.seat}, then press Enter."
            )
            if not self.stdin.readline():
                raise QuitRequest()
        try:
            return self._choose(view)
        finally:
            if self.handover and not self._queue:
                self._wipe(view.seat)

    def _wipe(self, seat: int) -> None:
        """Clear this seat's private view before the next person looks (hot-seat)."""
        self.stdout.write(self.CLEAR)
        self._print(f"Seat {seat} has moved.")

    def _choose(self, view: SeatView) -> Action:
        self._print()
        self.show_view(view)
        if self.helper is not None:
            plan = self.helper.decide(view, self)
            self._queue = list(plan[1:])
            self._queue_at = view.history_length + 1
            return plan[0]
        self._print(f"Seat {view.seat}, your move:")
        self._list(view.legal_actions)
        while True:
            choice = self.resolve(self.ask(f"seat {view.seat}> "), view)
            if isinstance(choice, Action):
                return choice
            self._print(choice)

    def resolve(self, text: str, view: SeatView) -> Action | str:
        """Turn typed text into an action, or return the message to show before re-prompting."""
        actions = view.legal_actions
        if not text:
            return "Type a number, a move's name, 'help', 'save' or 'quit'."
        lowered = text.lower()
        if lowered in ("help", "?", "h"):
            self._list(actions)
            return "Moves listed above."
        if lowered == "quit" or lowered == "exit":
            raise QuitRequest(typed=True)
        if lowered == "save" or lowered.startswith("save "):
            raise SaveRequest(text[5:].strip() or None)
        if text.isdigit():
            index = int(text)
            if 1 <= index <= len(actions):
                return actions[index - 1]
            return f"There is no move {index}; choose 1–{len(actions)}."
        exact = [a for a in actions if a.name.lower() == lowered]
        if exact:
            return exact[0]
        prefixed = [a for a in actions if a.name.lower().startswith(lowered)]
        if len(prefixed) == 1:
            return prefixed[0]
        if len(prefixed) > 1:
            names = ", ".join(a.name for a in prefixed[:5])
            return f"{text!r} is ambiguous: {names}{' …' if len(prefixed) > 5 else ''}"
        parsed = view.parse(text)
        if parsed is not None:
            reason = view.check(parsed)
            return parsed if reason is None else f"Not allowed: {reason}"
        return f"{text!r} is not a legal move; type 'help' to list them."
