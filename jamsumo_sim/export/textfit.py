"""Text laid out to a width in pixels: cut with an ellipsis, wrapped at spaces, and the score table's
head in the longest of the rules' own wordings that fits (wrapped, never cut mid-word)."""

from __future__ import annotations

from typing import Protocol

from jamsumo_sim.rules.scoring import ScoreWords

MAX_HEAD_LINES = 3  # the score table's head never takes more lines than this


class Measure(Protocol):
    """What a pygame font offers for measuring (tests can pass anything with ``size``)."""

    def size(self, text: str) -> tuple[int, int]: ...


def cut(text: str, font: Measure, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "…")[0] > width:
        text = text[:-1]
    return text + "…"


def _tokens(text: str) -> list[str]:
    """Words, with a bracketed group ("(highest wins)") kept as one token."""
    out: list[str] = []
    for word in text.split():
        if out and out[-1].startswith("(") and not out[-1].endswith(")"):
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return out


def wrap(text: str, font: Measure, width: int) -> list[str] | None:
    """``text`` in lines of at most ``width`` pixels, broken at spaces (not inside a bracket unless
    the bracket alone is too wide); None if a single word is wider."""
    lines: list[str] = []
    for token in _tokens(text):
        pieces = [token] if font.size(token)[0] <= width else token.split()
        for word in pieces:
            if font.size(word)[0] > width:
                return None
            if lines and font.size(f"{lines[-1]} {word}")[0] <= width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
    return lines


def head_wordings(words: ScoreWords) -> list[tuple[str, ...]]:
    """The head's wordings, longest first; each part starts a line of its own."""
    better = f"({words.better})"
    return [
        (words.headline,),  # "score = Sumo points − Jam penalties (highest wins)"
        (words.meaning, better),  # the bracket on a line of its own
        (f"{words.total} {better}",),  # "score (highest wins)"
        (words.total,),  # "score"
    ]


def head_lines(words: ScoreWords, font: Measure, width: int, max_lines: int) -> list[str]:
    """The score table's head: the first wording whose wrapped lines fit ``width`` and
    ``max_lines`` (at least one line: the total's own word, cut only if even that is too wide)."""
    budget = max(1, min(max_lines, MAX_HEAD_LINES))
    for parts in head_wordings(words):
        lines: list[str] = []
        for part in parts:
            wrapped = wrap(part, font, width)
            if wrapped is None:
                break
            lines += wrapped
        else:
            if len(lines) <= budget:
                return lines
    return [cut(words.total, font, width)]
