"""Scoring rules of Jam and Sumo, and the round-marker roll-off, as pure functions.

Nothing here touches the physics: the match state hands in what each die is doing (where it
is, its top face, whether it lies flat) and gets numbers back, so every rule has a unit test.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

DICE_PER_PLAYER = 6
HAND_FACE = 4  # Jam: dice start in hand and re-enter play showing four
NOT_FLAT_JAM = 4  # Jam: a die not lying flat counts as four
SUMO_FACE = 3  # Sumo: dice start in the SUMO area showing three
NOT_FLAT_SUMO = 3  # Sumo: a die not lying flat counts as three

# Where a die is, from the rules' point of view.
HAND = "hand"  # Jam: in front of its owner (before play, or back after going off the side)
BOARD = "board"  # in play on the board
HOLED = "holed"  # Jam: went through the hole (out of play, penalty 0)
OUT = "out"  # Sumo: out of the round (off the side, through the hole, on a JAM platform, missed)


@dataclass(frozen=True)
class DieView:
    """What scoring needs to know about one die."""

    owner: int
    where: str
    face: int = HAND_FACE
    flat: bool = True


def jam_die_penalty(die: DieView) -> int:
    """Penalty of one Jam die at the end of a round."""
    if die.where == HOLED:
        return 0
    if die.where == HAND:
        return HAND_FACE
    if die.where == BOARD:
        return die.face if die.flat else NOT_FLAT_JAM
    raise ValueError(f"a Jam die cannot be {die.where!r}")


def sumo_die_points(die: DieView) -> int:
    """Points of one Sumo die at the end of a round (only dice still on the board score)."""
    if die.where != BOARD:
        return 0
    return die.face if die.flat else NOT_FLAT_SUMO


def jam_penalties(dice: Iterable[DieView], players: int) -> list[int]:
    """Each seat's Jam penalty for the round."""
    out = [0] * players
    for die in dice:
        out[die.owner] += jam_die_penalty(die)
    return out


def sumo_points(dice: Iterable[DieView], players: int) -> list[int]:
    """Each seat's Sumo points for the round."""
    out = [0] * players
    for die in dice:
        out[die.owner] += sumo_die_points(die)
    return out


def round_scores(mode: str, dice: Iterable[DieView], players: int) -> list[int]:
    """The round's score table entry: Jam penalties or Sumo points."""
    if mode == "jam":
        return jam_penalties(dice, players)
    if mode == "sumo":
        return sumo_points(dice, players)
    raise ValueError(f"unknown round mode {mode!r}")


def jam_round_over(where: Mapping[str, str], owner: Mapping[str, int], players: int) -> bool:
    """A Jam round ends as soon as one player has every die through the hole."""
    holed = [0] * players
    total = [0] * players
    for die, w in where.items():
        total[owner[die]] += 1
        holed[owner[die]] += w == HOLED
    return any(t > 0 and h == t for h, t in zip(holed, total, strict=True))


def sumo_round_over(where: Mapping[str, str], owner: Mapping[str, int], players: int) -> bool:
    """A Sumo round ends as soon as one player has no dice left on the board."""
    on_board = [0] * players
    for die, w in where.items():
        on_board[owner[die]] += w == BOARD
    return any(c == 0 for c in on_board)


def contribution(game_mode: str, round_mode: str, score: int) -> int:
    """What a round's score adds to the game's running total: itself, except that JamSumo
    subtracts Jam penalties (rules notes: the aggregate is Sumo points minus Jam penalties)."""
    return -score if (game_mode == "jamsumo" and round_mode == "jam") else score


def totals(game_mode: str, rounds: Sequence[Mapping[str, object]], players: int) -> list[int]:
    """Running total per seat in the game's own sense.

    Jam: total penalty (lower is better). Sumo: total points. JamSumo: the aggregate, Sumo
    points minus Jam penalties (higher is better) — see the rules notes.
    """
    out = [0] * players
    for r in rounds:
        scores = r["scores"]
        for seat in range(players):
            out[seat] += contribution(game_mode, str(r["mode"]), int(scores[seat]))  # type: ignore[index]
    return out


# --- the words every score display uses (panel, round and end tables, `jamsumo match`) ----------


@dataclass(frozen=True)
class ScoreWords:
    """How a game's running total is named, so every display says the same thing."""

    total: str  # the total's column head: "penalties", "points" or "score"
    better: str  # "lowest wins" or "highest wins"
    meaning: str  # one line: what the total is

    @property
    def headline(self) -> str:
        return f"{self.meaning} ({self.better})"


def score_words(game_mode: str) -> ScoreWords:
    """The words for ``game_mode``'s total (``jam``, ``sumo`` or ``jamsumo``)."""
    if game_mode == "jam":
        return ScoreWords("penalties", "lowest wins", "total penalties")
    if game_mode == "sumo":
        return ScoreWords("points", "highest wins", "total points")
    if game_mode == "jamsumo":
        return ScoreWords("score", "highest wins", "score = Sumo points − Jam penalties")
    raise ValueError(f"unknown game mode {game_mode!r}")


def round_word(round_mode: str) -> str:
    """What a round's own score is: Jam penalties or Sumo points."""
    return "penalties" if round_mode == "jam" else "points"


def signed_text(game_mode: str, round_mode: str, score: int) -> str:
    """A round's score as it counts toward the total: signed in JamSumo (−12 for 12 Jam
    penalties, +9 for 9 Sumo points), plain elsewhere (the total is of the same kind)."""
    value = contribution(game_mode, round_mode, score)
    if game_mode == "jamsumo":
        return f"{value:+d}".replace("-", "−")
    return str(value)


def number_text(value: int) -> str:
    """A whole number with a true minus sign (reads as a negative score, not a dash)."""
    return str(value).replace("-", "−")


def live_score_text(
    game_mode: str, round_mode: str, total: int, current: int, finished: bool
) -> str:
    """A player's score cell while playing: the total so far, then what the round in play would
    add to it (in the total's own sense: ``−4 (−24)`` in a JamSumo Jam round)."""
    if finished:
        return number_text(total)
    change = contribution(game_mode, round_mode, current)
    return f"{number_text(total)} ({f'{change:+d}'.replace('-', '−')})"


def returns_from_totals(game_mode: str, tot: Sequence[int]) -> list[float]:
    """Higher-is-better returns: Jam penalties are negated."""
    if game_mode == "jam":
        return [-float(t) for t in tot]
    return [float(t) for t in tot]


def marker_rolloff(rolls: Mapping[int, int], lowest_wins: bool) -> list[int]:
    """The seats tied for the winning roll (one seat: the marker is decided; more: they re-roll)."""
    if not rolls:
        raise ValueError("nobody rolled")
    best = min(rolls.values()) if lowest_wins else max(rolls.values())
    return sorted(s for s, v in rolls.items() if v == best)
