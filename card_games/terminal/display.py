"""What a person sees at each prompt: the game's table plus the events since they last looked.

The CLI feeds every move's log lines to :meth:`TableDisplay.record` (instead of printing them as
they happen, which showed each event twice: once streamed, once in the table's recent log) and
gives :meth:`TableDisplay.show` to the person's agent as its way to draw the table.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from card_games.terminal.table import MAX_EVENTS, RECENT_EVENTS, Look, to_text, view
from jamsumo_sim.turnloop.state import Game, LogEntry, State


def builder(game: Game) -> Any:
    """The game's ``render`` module (``card_games.<game>.render``): ``build`` and ``report``."""
    return importlib.import_module(f"card_games.{game.name}.render")


class TableDisplay:
    """Draws one game's table for any seat; remembers which events each seat has seen."""

    def __init__(self, game: Game, look: Look) -> None:
        self.game = game
        self.look = look
        self.entries: list[LogEntry] = []
        self.seen: dict[int | None, int] = {}  # seat -> how many recorded entries it has seen

    def record(self, entries: Iterable[LogEntry]) -> None:
        self.entries.extend(entries)

    def new_events(self, seat: int | None) -> tuple[list[str], int] | None:
        """Lines ``seat`` may read recorded since it last looked (the newest ``MAX_EVENTS``)
        and how many older new ones are left out; None if nothing is new."""
        start = self.seen.get(seat, 0)
        self.seen[seat] = len(self.entries)
        lines = [e.text for e in self.entries[start:] if e.visible_to(seat)]
        if not lines:
            return None
        return lines[-MAX_EVENTS:], max(0, len(lines) - MAX_EVENTS)

    def show(self, observation: Mapping[str, Any], seat: int | None) -> str:
        """The table as text, for the agent to print before listing the moves."""
        fresh = self.new_events(seat)
        if fresh is None:  # nothing new (e.g. just resumed): the last few, marked as not new
            lines, earlier, new = list(observation.get("log") or [])[-RECENT_EVENTS:], 0, False
        else:
            (lines, earlier), new = fresh, True
        build = builder(self.game).build
        renderable = view(build, self.game, observation, seat, self.look, lines, earlier, new)
        return to_text(renderable, self.look)

    def end(self, state: State) -> str:
        """The final table for everyone, every hidden card that counts revealed, and the score
        breakdown per player."""
        from card_games.terminal.report import report_renderable

        module = builder(self.game)
        # the public events since the people at the table last looked (the earliest of them)
        start = min((n for seat, n in self.seen.items() if seat is not None), default=0)
        public = [e.text for e in self.entries[start:] if e.visible_to(None)]
        lines, earlier = public[-MAX_EVENTS:], max(0, len(public) - MAX_EVENTS)
        table = view(
            module.build, self.game, state.observation(None), None, self.look, lines, earlier, True
        )
        return to_text(report_renderable(table, module.report(state), self.look), self.look)
