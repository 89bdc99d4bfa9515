"""Move input for a person at a terminal: numbers that stay put, grouped and filtered lists,
typed names, and a per-game extension for moves built over several steps.

The input layer only turns text into legal actions; the rules stay in each game's modules.
A move's number is fixed while the same step is shown (a step: the seat's consecutive decisions
that share moves): moves that go away keep their number retired, new ones get the next numbers,
so typing the same number twice can never pick a different move (a retired number typed is
answered with the list numbered afresh, which the person then reads). Long lists are shown grouped
by kind (a move's first word: ``make``, ``put``, ``steal``…) with big groups folded; typing a
word lists the moves it matches (a card, a seat, a kind) with their numbers.

The first listed move always goes forward (a dialogue never lists first a choice it would
refuse), and after a dialogue's moves the next list starts at 1 again. Every line said fits the
width the tables use. ``save``/``quit`` typed inside a dialogue warn that its unsent moves go and
must be typed again.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol

from card_games.terminal.display import FULL_LAYOUT
from card_games.terminal.table import terminal_width
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.agents import QuitRequest, SaveRequest, SeatView

# Lists longer than this are shown grouped, each big group folded to its first few moves.
LONG_LIST = 14
FOLD_SHOWN = 2  # moves shown of a folded group
FOLD_FROM = 5  # groups of at least this many moves fold in a long list
COLUMN_ROWS = 6  # a long list of short moves is shown side by side when it fits in these rows
# The compact layout's menu rows (None: not compact); set while a compact seat decides.
MENU_ROWS: ContextVar[int | None] = ContextVar("MENU_ROWS", default=None)
HELP = (
    "Type a number or a move's name; a word (a card, 'seat 2', a kind such as 'put') lists the "
    "moves it matches; 'all' lists every move; 'board' draws the table again, 'full' all of "
    "it, 'log' the recent events; 'save [FILE]' or 'quit'."
)
LOG_LINES = 20  # events 'log' lists

Plan = list[Action]


class Console(Protocol):
    """What the menu needs from the agent: ``ConsoleAgent`` provides it."""

    def ask(self, prompt: str) -> str: ...

    def say(self, text: str = "") -> None: ...

    def show_view(self, view: SeatView) -> None: ...


MENU_LINE = re.compile(r"^(\s*\d+\.\s)")


def fit(text: str, width: int) -> str:
    """Lines wider than ``width`` wrapped at spaces: a menu line's rest goes under its name,
    any other line's under its own start, indented (a word wider than the line is broken)."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        numbered = MENU_LINE.match(line)
        lead = len(numbered.group(1)) if numbered else len(line) - len(line.lstrip()) + 4
        out += textwrap.wrap(line, width, subsequent_indent=" " * min(lead, width // 2))
    return "\n".join(out)


# Typed at any prompt: draw the table again (with the moves listed last), the full table (the
# compact layout leaves some out), or the recent events.
BOARD_WORDS = ("board", "table", "redraw")
FULL_WORDS = ("full",)
LOG_WORDS = ("log", "events")


class Fitted:
    """A console whose printed lines fit the width the tables are drawn at (the same
    ``terminal_width`` of the same stream), so a long move name wraps under itself; ``board``
    typed at any of its prompts draws the table again (then the moves last listed), ``log``
    lists the recent events."""

    def __init__(
        self, console: Console, width: int | None = None, view: SeatView | None = None
    ) -> None:
        self.inner = console
        self.width = width or terminal_width(getattr(console, "stdout", None))
        self.view = view
        self.said: list[str] = []  # said since the last answer (its last: the moves listed)

    def ask(self, prompt: str) -> str:
        while True:
            text = self.inner.ask(prompt)
            word = text.lower()
            if self.view is None or word not in (*BOARD_WORDS, *FULL_WORDS, *LOG_WORDS):
                self.said = []
                return text
            if word in LOG_WORDS:
                log = list(self.view.observation.get("log") or [])[-LOG_LINES:]
                self.inner.say(fit("\n".join(f" - {line}" for line in log), self.width))
                continue
            token = FULL_LAYOUT.set(word in FULL_WORDS)
            try:
                self.inner.show_view(self.view)
            finally:
                FULL_LAYOUT.reset(token)
            if self.said:  # the moves last listed again, under the table (a screen's room)
                self.inner.say(self.said[-1])

    def say(self, text: str = "") -> None:
        self.said.append(fit(text, self.width))
        self.inner.say(self.said[-1])

    def show_view(self, view: SeatView) -> None:
        self.inner.show_view(view)


class Guarded:
    """A dialogue's console: ``save`` or ``quit`` typed there would drop what the dialogue
    holds unsent (only sent moves are in the match), so it is said and must be typed again."""

    def __init__(self, console: Console, unsent: str) -> None:
        self.inner = console
        self.unsent = unsent  # e.g. "your unsent offer"

    def ask(self, prompt: str) -> str:
        pending = ""  # the word just warned about: typed straight again, it goes through
        while True:
            try:
                return self.inner.ask(prompt)
            except (SaveRequest, QuitRequest) as request:
                if isinstance(request, QuitRequest) and not request.typed:
                    raise  # end of input: nobody is left to ask
                word = "quit" if isinstance(request, QuitRequest) else "save"
                if word == pending:
                    raise
                pending = word
                self.inner.say(
                    f"'{word}' now drops {self.unsent}: only moves already sent are saved. "
                    f"Type '{word}' again to do it anyway, or go on (e.g. 'cancel', a number)."
                )

    def say(self, text: str = "") -> None:
        self.inner.say(text)

    def show_view(self, view: SeatView) -> None:
        self.inner.show_view(view)


def words(text: str) -> list[str]:
    """Lower-case words of letters and digits (``raspberry-jam`` → ``raspberry``, ``jam``)."""
    return re.findall(r"[a-z0-9]+", text.lower())


def normal(text: str) -> str:
    return " ".join(words(text))


def kind_of(name: str) -> str:
    """A move's kind, for grouping: its first word (``make``, ``put``, ``steal``, ``jar``)."""
    found = words(name)
    return found[0] if found else name


def word_match(query: list[str], name: str) -> bool:
    """Every query word starts some word of ``name`` (in any order)."""
    have = words(name)
    return all(any(w.startswith(q) for w in have) for q in query)


@dataclass(frozen=True)
class MenuLine:
    """One listed move: its stable number, the action and an optional note (a preview)."""

    number: int
    action: Action
    note: str = ""

    @property
    def kind(self) -> str:
        return kind_of(self.action.name)


# format_menu(lines, everything) -> text; ``everything`` asks for no folding
MenuFormat = Callable[[Sequence[MenuLine], bool], str]


def _line(entry: MenuLine, width: int) -> str:
    note = f"  — {entry.note}" if entry.note else ""
    return f"  {entry.number:>{width}}. {entry.action.name}{note}"


def in_columns(
    lines: Sequence[MenuLine], digits: int, width: int, most: int = 0
) -> list[str] | None:
    """Short moves without notes side by side, read down each column (``jar A1|B1``…);
    None when they would not fit in ``COLUMN_ROWS`` rows of ``width``."""
    if any(e.note for e in lines):
        return None
    cells = [_line(e, digits).rstrip() for e in lines]
    cell = max(len(c) for c in cells) + 1
    across = max(1, (width + 1) // cell)
    rows = -(-len(cells) // across)
    if rows > (most or COLUMN_ROWS):
        return None
    return [
        "".join(
            f"{cells[r + k * rows]:<{cell}}" for k in range(across) if r + k * rows < len(cells)
        ).rstrip()
        for r in range(rows)
    ]


def compact_menu(lines: Sequence[MenuLine], digits: int, rows: int) -> str:
    """At most ``rows`` rows: side by side if they fit, else the first moves and how many more
    (every number stays typeable; 'all' or a word lists the rest)."""
    width = terminal_width()
    wrapped = [fit(_line(e, digits), width) for e in lines]
    if sum(w.count("\n") + 1 for w in wrapped) <= rows:
        return "\n".join(wrapped)
    columns = in_columns(lines, digits, width, rows)
    if columns is not None:
        return "\n".join(columns)
    shown: list[str] = []
    listed = 0
    for text in wrapped:
        if len(shown) + text.count("\n") + 1 > rows - 1:
            break
        shown += text.split("\n")
        listed += 1
    kinds = list(dict.fromkeys(e.kind for e in lines))
    words = f"'{kinds[0]}', '{kinds[1]}'… or 'all'" if len(kinds) > 1 else "'all'"
    return "\n".join([*shown, f"      … {len(lines) - listed} more: {words} lists them"])


def format_menu(lines: Sequence[MenuLine], everything: bool = False) -> str:
    """The plain menu: one numbered line per move; a long list of short moves side by side
    (all of them: one kind is never folded), else grouped by kind, big groups folded to their
    first moves with how to see the rest (every number stays typeable). In the compact layout
    (``MENU_ROWS`` set) at most that many rows."""
    if not lines:
        return "  (no moves)"
    width = len(str(max(e.number for e in lines)))
    rows = MENU_ROWS.get()
    if rows is not None and not everything:
        return compact_menu(lines, width, rows)
    if everything or len(lines) <= LONG_LIST:
        return "\n".join(_line(e, width) for e in lines)
    columns = in_columns(lines, width, terminal_width())
    if columns is not None:
        return "\n".join(columns)
    groups: dict[str, list[MenuLine]] = {}
    for entry in lines:
        groups.setdefault(entry.kind, []).append(entry)
    out = [f"  {len(lines)} moves in {len(groups)} kinds; a word lists matching moves:"]
    for kind, members in groups.items():
        out.append(f"  {kind} ({len(members)}):")
        fold = len(members) >= FOLD_FROM
        out += ["  " + _line(e, width) for e in (members[:FOLD_SHOWN] if fold else members)]
        if fold:
            out.append(f"      … {len(members) - FOLD_SHOWN} more: type '{kind}' to list them")
    return "\n".join(out)


class MoveNumbers:
    """Numbers of moves by name, kept while the same step is shown."""

    def __init__(self, reserved: Mapping[str, int] | None = None) -> None:
        # moves with a number of their own whenever listed (The Jam's ``0. send the offer``)
        self.reserved = dict(reserved or {})
        self.by_name: dict[str, int] = {}
        self.next = 1

    def assign(self, actions: Sequence[Action], continuing: bool) -> list[int]:
        """Numbers for ``actions``: the old ones where the step goes on (a move shown before
        keeps its number, a new move gets the next free one), else numbered afresh from 1."""
        names = [a.name for a in actions]
        if not continuing or self.by_name.keys().isdisjoint(names):
            self.by_name, self.next = {}, 1
        out = []
        for name in names:
            number = self.by_name.get(name, self.reserved.get(name))
            if number is not None:
                self.by_name[name] = number
            else:
                number = self.by_name[name] = self.next
                self.next += 1
            out.append(number)
        return out

    def retired(self, number: int) -> str | None:
        """The name a number had earlier in this step, if it is no longer listed."""
        return next((n for n, k in self.by_name.items() if k == number), None)


Annotate = Callable[[Action], str]
Typed = Callable[[str], "Action | Plan | str | None"]


class Menu:
    """A numbered menu of actions whose numbers stay put over the decisions of one step."""

    def __init__(
        self, fmt: MenuFormat = format_menu, reserved: Mapping[str, int] | None = None
    ) -> None:
        self.reserved = dict(reserved or {})
        self.numbers = MoveNumbers(self.reserved)
        self.fmt = fmt
        self.lines: list[MenuLine] = []
        # moves not listed now, each with why (The Jam: an empty offer cannot be sent)
        self.held: dict[str, str] = {}

    def show(
        self, actions: Sequence[Action], continuing: bool, annotate: Annotate | None = None
    ) -> str:
        """Number ``actions`` (see :class:`MoveNumbers`) and return the menu text."""
        numbers = self.numbers.assign(actions, continuing)
        pairs = sorted(zip(numbers, actions, strict=True), key=lambda p: p[0])
        self.lines = [MenuLine(n, a, annotate(a) if annotate else "") for n, a in pairs]
        return self.fmt(self.lines, False)

    def renumber(self) -> str:
        """Number the moves shown afresh from 1 (in their order) and return the new menu."""
        self.numbers = MoveNumbers()  # reserved numbers too: the list reads 1, 2, 3…
        actions = [e.action for e in self.lines]
        numbers = self.numbers.assign(actions, continuing=False)
        self.lines = [
            MenuLine(n, e.action, e.note) for n, e in zip(numbers, self.lines, strict=True)
        ]
        return "The moves, numbered afresh:\n" + self.fmt(self.lines, False)

    def listing(self, lines: Sequence[MenuLine], everything: bool = True) -> str:
        return self.fmt(lines, everything)

    def resolve(
        self,
        text: str,
        typed: Typed | None = None,
        parse: Callable[[str], Action | str | None] | None = None,
    ) -> Action | Plan | str:
        """Typed text → a listed action, a plan from ``typed``, a move ``parse`` reads (one the
        list does not show), or the message to show."""
        lines = self.lines
        if not text:
            return HELP
        lowered = text.lower()
        if lowered in ("help", "?", "h", "all", "list", "moves"):
            return self.listing(lines) + "\n" + HELP
        if text.isdigit():
            number = int(text)
            hit = next((e.action for e in lines if e.number == number), None)
            if hit is not None:
                return hit
            gone = self.numbers.retired(number)
            if gone is None:
                gone = next((n for n, k in self.reserved.items() if k == number), None)
            if gone in self.held:
                return f"{self.held[gone]}\n" + self.fmt(lines, False)
            if gone is not None:
                # said, then numbered afresh: the next number typed is read against this list
                return f"Move {number} ({gone}) is no longer possible. {self.renumber()}"
            return f"There is no move {number}; type 'all' to list the moves."
        key = normal(text)
        exact = [e.action for e in lines if normal(e.action.name) == key]
        if exact:
            return exact[0]
        if typed is not None:
            answer = typed(text)
            if answer is not None:
                return answer
        prefixed = [e for e in lines if normal(e.action.name).startswith(key)] if key else []
        held = [why for name, why in self.held.items() if key and normal(name).startswith(key)]
        if held and not prefixed:  # said why, with the moves that do work
            return f"{held[0]}\n" + self.fmt(lines, False)
        if len(prefixed) == 1:
            return prefixed[0].action
        query = words(text)
        matched = prefixed or [e for e in lines if query and word_match(query, e.action.name)]
        if len(matched) == 1 and len(query) >= 2:  # a name given in words, in any order
            return matched[0].action
        if matched:
            return (
                f"{len(matched)} move{'s' if len(matched) > 1 else ''} match {text!r}:\n"
                + self.listing(matched)
                + "\nType its number (or more of its name)."
            )
        parsed = parse(text) if parse is not None else None
        if parsed is not None:
            return parsed
        guess = did_you_mean(text, lines)
        return f"{text!r} is not a legal move{guess}; type 'all' to list them."


# Words a person may type at any prompt besides the moves (typos of these get a suggestion too).
COMMANDS = ("help", "all", "list", "moves", "quit", "save", "board", "full", "log")


def did_you_mean(text: str, lines: Sequence[MenuLine]) -> str:
    """`` (did you mean 'make'?)`` for a typo of a move's kind, a move or a command, else ''."""
    key = normal(text)
    if not key:
        return ""
    names = {normal(e.action.name): e.action.name for e in lines}
    kinds = {e.kind: e.kind for e in lines}
    # a whole move name if the typo is close to one, else the first word (a kind) or a command
    pool = {**{c: c for c in COMMANDS}, **kinds, **names}
    first = key.split()[0]
    close = difflib.get_close_matches(key, list(pool), n=1, cutoff=0.75)
    if not close and first != key:
        close = difflib.get_close_matches(first, [*kinds, *COMMANDS], n=1, cutoff=0.75)
    return f" (did you mean {pool.get(close[0], close[0])!r}?)" if close else ""


class Extension:
    """A game's additions to the menu: notes beside moves, typed lines of its own, and moves
    whose choice opens a dialogue of several steps. The base adds nothing."""

    def note(self, view: SeatView, action: Action) -> str:
        return ""

    def order(self, view: SeatView, actions: Sequence[Action]) -> list[Action]:
        """The moves in the order they are numbered (the rules' order by default)."""
        return list(actions)

    def typed(self, view: SeatView, text: str, console: Console) -> Action | Plan | str | None:
        """A typed line the game reads itself (The Jam: ``offer …``); None if not its own."""
        return None

    def expand(self, view: SeatView, action: Action, console: Console) -> Plan | None:
        """The moves to send for a chosen ``action``; None goes back to the menu."""
        return [action]


class CardInput:
    """The card games' :class:`~jamsumo_sim.turnloop.agents.InputHelper`: one per person."""

    def __init__(
        self,
        extension: Extension | None = None,
        fmt: MenuFormat = format_menu,
        menu_rows: Callable[[], int] | None = None,
    ) -> None:
        self.extension = extension or Extension()
        self.menu = Menu(fmt)
        self.expect = -1  # the history length at which this seat's next decision is the same step
        # the compact layout: the rows the table just drawn leaves for each menu
        self.menu_rows = menu_rows

    def decide(self, view: SeatView, console: Console) -> Plan:
        rows = self.menu_rows() if self.menu_rows is not None else None
        token = MENU_ROWS.set(rows)  # the dialogues' menus too
        try:
            return self._decide(view, console)
        finally:
            MENU_ROWS.reset(token)

    def _decide(self, view: SeatView, console: Console) -> Plan:
        ext = self.extension
        console = Fitted(console, view=view)  # every line said fits the tables' width
        continuing = view.history_length == self.expect
        actions = ext.order(view, view.legal_actions)

        def show() -> None:
            if self.menu_rows is None:  # compact: the prompt names the seat (one row less)
                console.say(f"Seat {view.seat}, your move:")
            console.say(self.menu.show(actions, continuing, lambda a: ext.note(view, a)))

        if len(actions) == 1 and not is_pseudo(actions[0]):
            # a forced move (a steal with one legal choice…) is played, not asked: said instead
            console.say(f"Seat {view.seat}: your only move, played: {actions[0].name}.")
            plan = ext.expand(view, actions[0], console)
            if plan:
                self.expect = -1
                return plan
        show()
        while True:
            answer = self.menu.resolve(
                console.ask(f"seat {view.seat}> "),
                lambda t: ext.typed(view, t, console),
                lambda t: fallback_parse(view, t),
            )
            if isinstance(answer, str):
                console.say(answer)
                continue
            plan = answer if isinstance(answer, list) else ext.expand(view, answer, console)
            if plan:
                # after a dialogue's moves the person last read the dialogue's numbers: the
                # next list is numbered afresh (so its first move is 1 again), not continued
                self.expect = view.history_length + 1 if len(plan) == 1 else -1
                return plan
            continuing = True  # back from a dialogue: the same step, the same numbers
            show()


def run_dialogue(
    console: Console,
    menu: Menu,
    prompt: str,
    actions: Sequence[Action],
    continuing: bool,
    annotate: Annotate | None = None,
    typed: Typed | None = None,
) -> Action | Plan:
    """Show a (sub-)menu and read until the person picks one of ``actions`` or ``typed``
    returns a plan."""
    console.say(menu.show(actions, continuing, annotate))
    while True:
        answer = menu.resolve(console.ask(prompt), typed)
        if not isinstance(answer, str):
            return answer
        console.say(answer)


def pseudo(name: str) -> Action:
    """A menu entry of a dialogue that is not a game move (``send``, ``undo``…)."""
    return Action.make(name, local=True)


def is_pseudo(action: Action) -> bool:
    return action.get("local") is True


def fallback_parse(view: SeatView, text: str) -> Action | str | None:
    """A typed move the game parses itself (e.g. The Jam's unlisted ``no trade``)."""
    parsed = view.parse(text)
    if parsed is None:
        return None
    reason = view.check(parsed)
    return parsed if reason is None else f"Not allowed: {reason}"
