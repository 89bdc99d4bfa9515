"""One log line per shot saying what was hit, built from the shot's physics events.

"red3 knocked blue2 off the board", "red3 hit blue2 and blue5", "red3 hit nothing".  The rules' log says
what that means for the score; this says what happened on the table.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FATES = {"off_board": "off the board", "hole": "into the hole"}


def describe(flicked: str, events: Iterable[Any]) -> str:
    """The story of one shot of ``flicked`` from its events (in time order)."""
    hit: list[str] = []  # dice the flicked die touched, in order
    touched: set[str] = {flicked}  # dice set moving by the shot (directly or in a chain)
    chained: list[str] = []  # dice set moving by a die the shot set moving, in order
    fate: dict[str, str] = {}
    for e in events:
        if e.type == "collision" and e.data.get("kind") == "die":
            if flicked in e.dice:
                hit += [d for d in e.dice if d != flicked and d not in hit]
            elif touched & set(e.dice):
                chained += [d for d in e.dice if d not in touched and d not in chained]
            if touched & set(e.dice):
                touched |= set(e.dice)
        elif e.type in FATES:
            for d in e.dice:
                fate.setdefault(d, FATES[e.type])
    parts: list[str] = []
    knocked = [d for d in hit if d in fate]
    for place in ("off the board", "into the hole"):
        who = [d for d in knocked if fate[d] == place]
        if who:
            parts.append(f"knocked {_join(who)} {place}")
    plain = [d for d in hit if d not in fate]
    if plain:
        parts.append(f"hit {_join(plain)}")
    chain = sorted(d for d in touched - set(hit) - {flicked} if d in fate)
    for place in ("off the board", "into the hole"):
        who = [d for d in chain if fate[d] == place]
        if who:
            parts.append(f"sent {_join(who)} {place} in a chain")
    moved = [d for d in chained if d not in fate and d not in hit]
    if moved:
        parts.append(f"hit {_join(moved)} in a chain")
    if flicked in fate:
        parts.append(f"went {fate[flicked]} itself")
    return f"{flicked} " + ("; ".join(parts) if parts else "hit nothing")


def _join(ids: list[str]) -> str:
    return ids[0] if len(ids) == 1 else ", ".join(ids[:-1]) + " and " + ids[-1]


def with_stories(
    log: tuple[str, ...], full: list[str], stories: list[tuple[int, str]]
) -> tuple[str, ...]:
    """``log`` (the tail of ``full``) with each story line after the lines of its own shot.

    ``stories`` are (length of ``full`` when told, line), in order.
    """
    if not stories:
        return log
    out: list[str] = []
    told = iter(stories)
    nxt = next(told, None)
    for i, line in enumerate(full):
        while nxt is not None and nxt[0] <= i:
            out.append(nxt[1])
            nxt = next(told, None)
        out.append(line)
    while nxt is not None:
        out.append(nxt[1])
        nxt = next(told, None)
    return tuple(out[-max(len(log), 1) - len(stories) :])


def still_told(stories: list[tuple[int, str]], log_length: int) -> list[tuple[int, str]]:
    """The stories whose shots are still in a log of ``log_length`` lines (an undo shortens the
    log: a story told after a longer log belongs to a shot taken back)."""
    return [s for s in stories if s[0] <= log_length]
