"""Show what changed since a seat last looked (as Board Game Arena does): the table's text is
compared with the one the seat saw before, and what differs is marked.

In colour the changed words are drawn in reverse video; without colour a ``*`` in a one-column
gutter marks each changed line (so the marks survive ``--plain``, a pipe and ``NO_COLOR``).
Only the table is compared, not the list of events under it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from rich.text import Text

from card_games.terminal.table import Look, to_text

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TOKEN = re.compile(r"\S+")
BORDER = re.compile(r"^[-+|=_:.]+$")  # table rules and separators are never "changed"
MARK = "*"
STYLE = "reverse"

Span = tuple[int, int]


def bare_lines(text: str) -> list[str]:
    return [ANSI.sub("", line) for line in text.split("\n")]


def _tokens(line: str) -> list[re.Match[str]]:
    return [m for m in TOKEN.finditer(line) if not BORDER.match(m.group())]


def changed_spans(old: str | None, new: str) -> list[Span]:
    """Where ``new`` differs from ``old`` word by word (every word when there was no line)."""
    new_tokens = _tokens(new)
    if old is None:
        return [m.span() for m in new_tokens]
    old_words = [m.group() for m in _tokens(old)]
    matcher = difflib.SequenceMatcher(None, old_words, [m.group() for m in new_tokens], False)
    spans: list[Span] = []
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "insert"):
            spans += [m.span() for m in new_tokens[j1:j2]]
    return spans


def changes(before: Sequence[str], after: Sequence[str]) -> dict[int, list[Span]]:
    """Line index in ``after`` -> its changed spans (lines aligned as a diff aligns them)."""
    out: dict[int, list[Span]] = {}
    matcher = difflib.SequenceMatcher(None, list(before), list(after), False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for k, j in enumerate(range(j1, j2)):
            old = before[i1 + k] if tag == "replace" and i1 + k < i2 else None
            spans = changed_spans(old, after[j])
            if spans:
                out[j] = spans
    return out


def marked(text: str, before: Sequence[str] | None, look: Look) -> str:
    """``text`` with what changed since ``before`` marked (nothing the first time). Plain text
    gets a one-column gutter on every line, so the table must be drawn one column narrower."""
    lines = text.split("\n")
    found = changes(before, bare_lines(text)) if before is not None else {}
    if look.plain:
        return "\n".join(
            (MARK if i in found else " ") + line if line else line for i, line in enumerate(lines)
        )
    out = []
    for i, line in enumerate(lines):
        if i not in found:
            out.append(line)
            continue
        styled = Text.from_ansi(line)
        for start, end in found[i]:
            styled.stylize(STYLE, start, end)
        out.append(to_text(styled, look))
    return "\n".join(out)
