"""How the card-games commands say a finished game's result in one line (play and replay alike)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def winners_phrase(seats: Sequence[int]) -> str:
    """``Winner: seat 2``, or ``Winners: seat 0, seat 2 and seat 3`` for a shared win."""
    names = [f"seat {s}" for s in seats]
    if len(names) <= 1:
        return f"Winner: {''.join(names) or 'none'}"
    return f"Winners: {', '.join(names[:-1])} and {names[-1]}"


def result_line(title: str, summary: Mapping[str, Any], seat_names: Sequence[str]) -> str:
    """``Jumble Jam: seat 0 (smart): 11, seat 1 (random): 4. Winner: seat 0 after 74 turns.``"""
    scores = ", ".join(
        f"seat {s} ({seat_names[s]}): {v:g}" for s, v in enumerate(summary["scores"])
    )
    winners = winners_phrase(summary["winner"])
    return f"{title}: {scores}. {winners} after {summary['turns']} turns."
