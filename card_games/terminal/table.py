"""Rich tables for the terminal: one look (plain or coloured, a width) and small builders.

Every game's ``render`` module builds rich renderables with these helpers; :func:`to_text` turns
them into a string the prompt prints. Plain output (``--plain``, or stdout not a terminal) has no
ANSI codes and ASCII borders. Colour only ever repeats what the text already says ("you",
"to move", "NEW"), so nothing is lost without it.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

# Width used when no terminal says otherwise (piped output, tests); the bounds keep a table
# readable in a very narrow pane and stop lines from becoming too long to read in a wide one.
DEFAULT_WIDTH = 100
MIN_WIDTH = 40
MAX_WIDTH = 160
# How many events to show at a prompt when none are new (e.g. right after resuming).
RECENT_EVENTS = 6
# At most this many new events are listed (a whole round of bot moves fits); older ones are
# counted ("… 12 earlier events not shown").
MAX_EVENTS = 40
# Terminals with fewer rows than this get the compact layout (an 80×24 terminal among them).
COMPACT_BELOW_ROWS = 40
DEFAULT_HEIGHT = 24
MIN_HEIGHT = 16  # a compact screen needs this many rows; fewer are drawn as if there were
# Compact: the events leave this many rows for the move menu, the prompt one below it; a tall
# table may take all but COMPACT_MIN_MENU_ROWS of them (the menu then folds to the rows left).
COMPACT_MENU_ROWS = 5
COMPACT_MIN_MENU_ROWS = 3
COMPACT_RESERVE = COMPACT_MENU_ROWS + 1


@dataclass(frozen=True)
class Look:
    """How to draw: ``plain`` (no colour, ASCII borders), the width in columns, ``aid``
    (JumbleJack's memory aid: every earlier statement instead of the top cards only), and
    ``compact``: each prompt's screen fits ``height`` rows (tables without borders, no legends)."""

    plain: bool = True
    width: int = DEFAULT_WIDTH
    aid: bool = False
    compact: bool = False
    height: int = DEFAULT_HEIGHT


def terminal_width(stream: TextIO | None = None) -> int:
    """The terminal's width in columns (``COLUMNS`` first, as rich does), within bounds."""
    stream = stream or sys.stdout
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit():
        width = int(columns)
    elif stream.isatty():
        width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    else:
        width = DEFAULT_WIDTH
    return max(MIN_WIDTH, min(MAX_WIDTH, width))


def terminal_height(stream: TextIO | None = None) -> int | None:
    """The terminal's rows (``LINES`` first), or None when the output is no terminal."""
    stream = stream or sys.stdout
    lines = os.environ.get("LINES", "")
    if lines.isdigit():
        return int(lines)
    if bool(getattr(stream, "isatty", lambda: False)()):
        return shutil.get_terminal_size((DEFAULT_WIDTH, DEFAULT_HEIGHT)).lines
    return None


def look_for(
    stream: TextIO | None, plain: bool, aid: bool = False, compact: bool | None = None
) -> Look:
    """The look for output to ``stream``: plain when asked or when it is not a terminal;
    compact when asked, or (``compact`` None) on a terminal of fewer than 40 rows (output that is
    no terminal has no rows: a ``LINES`` inherited by a piped process, as pytest-xdist's workers
    set it to 24, does not make it compact)."""
    stream = stream or sys.stdout
    tty = bool(getattr(stream, "isatty", lambda: False)())
    rows = terminal_height(stream) if tty else None
    if compact is None:
        compact = rows is not None and rows < COMPACT_BELOW_ROWS
    return Look(
        plain=plain or not tty or "NO_COLOR" in os.environ,
        width=terminal_width(stream),
        aid=aid,
        compact=compact,
        height=max(MIN_HEIGHT, rows) if rows is not None else DEFAULT_HEIGHT,
    )


def _console(look: Look) -> Console:
    return Console(
        file=io.StringIO(),
        width=look.width,
        color_system=None if look.plain else "standard",
        force_terminal=not look.plain,
        no_color=look.plain,
        highlight=False,
        markup=False,  # card text such as "[covered by …]" is text, never a style tag
        emoji=False,
        legacy_windows=False,
    )


def to_text(renderable: RenderableType, look: Look) -> str:
    """The renderable as the terminal would show it, trailing spaces removed."""
    console = _console(look)
    with console.capture() as captured:
        console.print(renderable)
    return "\n".join(line.rstrip() for line in captured.get().rstrip("\n").split("\n"))


# A game's ``render.build(game, obs, seat, look)``: its table's parts, top to bottom.
Build = Callable[[Any, Mapping[str, Any], int | None, Look], Sequence[RenderableType]]


def view(build: Build, game: Any, obs: Mapping[str, Any], seat: int | None, look: Look,
         recent: Sequence[str], earlier: int = 0, new: bool = True) -> Group:  # fmt: skip
    """A game's table with the events under it (every game's table ends with them)."""
    return Group(*build(game, obs, seat, look), events(recent, look, earlier, new))


def snapshot(build: Build, game: Any, obs: Mapping[str, Any], seat: int | None, look: Look) -> str:
    """A game's table as text with the last few public events (each game's ``render``)."""
    recent = list(obs["log"])[-RECENT_EVENTS:]
    return to_text(view(build, game, obs, seat, look, recent, 0, False), look)


def fits(renderable: RenderableType, look: Look) -> bool:
    """Whether ``renderable`` fits the width without wrapping any cell (its widest layout)."""
    console = _console(look)
    roomy = console.options.update_width(10 * MAX_WIDTH)  # measured unclamped by the width
    return Measurement.get(console, roomy, renderable).maximum <= look.width


def table(look: Look, *columns: str, title: str | None = None) -> Table:
    """A table with a header row; long cells wrap inside their column, never past the width."""
    out = Table(
        *columns,
        title=None if look.compact else title,  # compact: the header row names it
        title_justify="left",
        # compact: no borders (a header row and the rows only)
        box=None if look.compact else box.ASCII if look.plain else box.SIMPLE_HEAD,
        show_edge=look.plain and not look.compact,
        header_style="" if look.plain else "bold",
        title_style="" if look.plain else "bold",
        pad_edge=False,
        expand=False,
    )
    return out


def heading(text: str, look: Look) -> Text:
    return Text(text, style="" if look.plain else "bold reverse")


def seat_name(seat: int, viewer: int | None, to_move: int | Collection[int] | None = None) -> Text:
    """``Seat 2 (you) > to move``: the words carry the meaning, the style only repeats it.
    ``to_move`` is a seat, or several at once (everyone choosing at the same time)."""
    text = Text(f"Seat {seat}")
    if seat == viewer:
        text.append(" (you)", style="bold")
    moving = seat in to_move if isinstance(to_move, Collection) else seat == to_move
    if moving:
        text.append(" > to move", style="bold yellow")
    return text


def events(lines: Sequence[str], look: Look, earlier: int = 0, new: bool = True) -> RenderableType:
    """The last events, each once; ``new`` marks them as happened since this seat last looked."""
    title = "New since your last look" if new else "Recent events"
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()  # a long event wraps under itself, not under the bullet
    if earlier:
        grid.add_row(" ", f"… {earlier} earlier event{'s' if earlier != 1 else ''} not shown")
    if not lines:
        grid.add_row(" ", "(nothing yet)")
    style = "" if look.plain else ("cyan" if new else "dim")
    for line in lines:
        grid.add_row(" -", Text(line, style=style))
    return Group(Text(title + ":", style="" if look.plain else "bold underline"), grid)


def lines_of(items: Iterable[str]) -> str:
    return "; ".join(items)


def flow(lead: str, items: Sequence[str], look: Look, sep: str = "; ") -> Text:
    """``lead`` then the items, lines broken only between items where they fit (a card's text
    is never split unless it alone is wider than the terminal); later lines are indented."""
    indent = "    "
    lines: list[str] = []
    line = lead
    for i, item in enumerate(items):
        piece = item + (sep.rstrip() if i + 1 < len(items) else "")
        candidate = f"{line} {piece}" if line.strip() else line + piece
        if len(candidate) <= look.width or not line.strip():
            line = candidate
        else:
            lines.append(line)
            line = indent + piece
    lines.append(line)
    return Text("\n".join(lines))


def flow_cut(lead: str, items: Sequence[str], look: Look, rows: int, sep: str = "; ") -> Text:
    """:func:`flow` in at most ``rows`` lines: the first items that fit, then how many more
    (the compact layout; the full table lists them all)."""
    whole = flow(lead, items, look, sep)
    if whole.plain.count("\n") < rows:
        return whole
    for keep in range(len(items) - 1, -1, -1):
        cut = flow(lead, [*items[:keep], f"… +{len(items) - keep} more"], look, sep)
        if cut.plain.count("\n") < rows:
            return cut
    return Text(f"{lead} {len(items)} (see 'full')")


def seat_label(seat: int, viewer: int | None, to_move: Any, look: Look) -> Text:
    """:func:`seat_name`, or in the compact layout (no borders) ``Seat 2 (you, to move)``: a
    bare ``Seat 2 > …`` at the start of a line would read like a prompt."""
    if not look.compact:
        return seat_name(seat, viewer, to_move)
    moving = seat in to_move if isinstance(to_move, Collection) else seat == to_move
    notes = [n for n, on in (("you", seat == viewer), ("to move", moving)) if on]
    text = Text(f"Seat {seat}")
    if notes:
        text.append(f" ({', '.join(notes)})", style="" if look.plain else "bold")
    return text
