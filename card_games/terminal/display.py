"""What a person sees at each prompt: the game's table plus the events since they last looked.

The CLI feeds every move's log lines to :meth:`TableDisplay.record` (instead of printing them as
they happen, which showed each event twice: once streamed, once in the table's recent log) and
gives :meth:`TableDisplay.show` to the person's agent as its way to draw the table.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from rich.console import Group

from card_games.terminal.changes import bare_lines, marked
from card_games.terminal.table import (
    COMPACT_MIN_MENU_ROWS,
    COMPACT_RESERVE,
    MAX_EVENTS,
    RECENT_EVENTS,
    Look,
    events,
    to_text,
    view,
)
from jamsumo_sim.turnloop.state import Game, LogEntry, State


def builder(game: Game) -> Any:
    """The game's ``render`` module (``card_games.<game>.render``): ``build`` and ``report``."""
    return importlib.import_module(f"card_games.{game.name}.render")


def table_parts(game: Game, observation: Mapping[str, Any], seat: int | None, look: Look) -> list:
    """The table's parts for ``look``: a compact look takes the game's ``compact`` module where it
    has one (an 80x24 terminal: the same facts in fewer rows), else its ``render`` module; each
    builds on render's pieces, render never on compact's."""
    name = f"card_games.{game.name}.compact"
    if look.compact and importlib.util.find_spec(name) is not None:
        return importlib.import_module(name).build(game, observation, seat, look)
    return builder(game).build(game, observation, seat, look)


# Set while `full` is answered: the compact layout draws the full table once (it may scroll).
FULL_LAYOUT: ContextVar[bool] = ContextVar("FULL_LAYOUT", default=False)


class TableDisplay:
    """Draws one game's table for any seat; remembers which events each seat has seen."""

    def __init__(self, game: Game, look: Look) -> None:
        self.game = game
        self.look = look
        self.entries: list[LogEntry] = []
        self.seen: dict[int | None, int] = {}  # seat -> how many recorded entries it has seen
        self.live: set[int] = set()  # public entries already printed as they happened (--pace)
        # seat -> (the table it saw before the last one, the last one): what to mark as changed
        self.looks: dict[int | None, tuple[list[str] | None, list[str] | None]] = {}
        self.rows_shown = 0  # rows of the last compact screen drawn (the menu gets the rest)

    def record(self, entries: Iterable[LogEntry], shown_live: bool = False) -> None:
        """Keep ``entries`` for the next prompts; ``shown_live``: their public lines were just
        printed to everyone at the table (a bot's move at a human pace), so not listed again."""
        start = len(self.entries)
        self.entries.extend(entries)
        if shown_live:
            self.live.update(
                i for i in range(start, len(self.entries)) if self.entries[i].visible_to(None)
            )

    def new_events(self, seat: int | None) -> tuple[list[str], int] | None:
        """Lines ``seat`` may read recorded since it last looked (the newest ``MAX_EVENTS``)
        and how many older new ones are left out; None if nothing is new."""
        start = self.seen.get(seat, 0)
        self.seen[seat] = len(self.entries)
        lines = [
            e.text
            for i, e in enumerate(self.entries[start:], start)
            if e.visible_to(seat) and i not in self.live
        ]
        if not lines:
            return None
        return lines[-MAX_EVENTS:], max(0, len(lines) - MAX_EVENTS)

    def show(self, observation: Mapping[str, Any], seat: int | None) -> str:
        """The table as text, for the agent to print before listing the moves: what changed
        since ``seat`` last looked marked; compact, the table and events fit the rows left
        above the menu."""
        fresh = self.new_events(seat)
        if fresh is None:  # nothing new (e.g. just resumed): the last few, marked as not new
            lines, earlier, new = list(observation.get("log") or [])[-RECENT_EVENTS:], 0, False
        else:
            (lines, earlier), new = fresh, True
        table = self.table(observation, seat)
        if not self.look.compact:
            return table + "\n" + to_text(events(lines, self.look, earlier, new), self.look)
        if FULL_LAYOUT.get():  # `full`: the whole table, every fact written out
            return table
        table = self.cut(table)
        screen = table + "\n" + self.fitted_events(table, lines, earlier, new)
        self.rows_shown = screen.count("\n") + 1
        return screen

    def menu_rows(self) -> int:
        """The rows the compact screen just drawn leaves for the move menu (the prompt below)."""
        return max(COMPACT_MIN_MENU_ROWS, self.look.height - 1 - self.rows_shown)

    def cut(self, table: str) -> str:
        """The compact table in the rows above the menu and one line of events; what does not
        fit is left to `board` (each game's compact table puts what matters most first)."""
        room = self.look.height - COMPACT_MIN_MENU_ROWS - 2  # the prompt and one line of events
        rows = table.split("\n")
        if len(rows) <= room:
            return table
        kept = rows[: room - 1]
        return "\n".join([*kept, f" … {len(rows) - len(kept)} more rows: 'full' shows them"])

    def table(self, observation: Mapping[str, Any], seat: int | None) -> str:
        """The game's table with the changes since this seat's previous look marked."""
        look = self.look
        # plain: a one-column gutter for the change marks
        drawn = replace(look, width=look.width - 1) if look.plain else look
        parts = table_parts(self.game, observation, seat, drawn)
        text = to_text(Group(*parts), drawn)
        now = bare_lines(text)
        before, shown = self.looks.get(seat, (None, None))
        if now != shown:  # a redraw of the same table (`board`) keeps the same marks
            before = shown
            self.looks[seat] = (before, now)
        if FULL_LAYOUT.get() and look.compact:  # `full`: every fact written out
            full = replace(drawn, compact=False)
            return to_text(Group(*table_parts(self.game, observation, seat, full)), full)
        return marked(text, before, look)

    def fitted_events(self, table: str, lines: list[str], earlier: int, new: bool) -> str:
        """The newest events that fit under ``table`` above the menu (at least their title)."""
        room = self.look.height - COMPACT_RESERVE - table.count("\n") - 1
        for keep in range(len(lines), 0, -1):
            left_out = earlier + len(lines) - keep
            text = to_text(events(lines[-keep:], self.look, left_out, new), self.look)
            if text.count("\n") + 1 <= room:
                return text
        title = "New since your last look" if new else "Recent events"
        return f"{title}: {len(lines) + earlier} ('log' lists them)"

    def end(self, state: State) -> str:
        """The final table for everyone, every hidden card that counts revealed, and the score
        breakdown per player."""
        from card_games.terminal.report import report_renderable

        module = builder(self.game)
        # the public events since the people at the table last looked (the earliest of them)
        start = min((n for seat, n in self.seen.items() if seat is not None), default=0)
        public = [
            e.text
            for i, e in enumerate(self.entries[start:], start)
            if e.visible_to(None) and i not in self.live
        ]
        lines, earlier = public[-MAX_EVENTS:], max(0, len(public) - MAX_EVENTS)
        table = view(
            table_parts, self.game, state.observation(None), None, self.look, lines, earlier, True
        )
        return to_text(report_renderable(table, module.report(state), self.look), self.look)
