"""Seats, tokens, phases and rounds as data.

Seats are numbered in clockwise order around the table, so the player on your *left* (the
next to play when "play goes left") is ``seat + 1``. A game describes its round as a tuple of
:class:`PhaseSpec` values and lets a :class:`TurnTracker` say whose turn it is; no game needs
its own nest of ifs for turn order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Direction(StrEnum):
    """Which way turns go round the table."""

    CLOCKWISE = "clockwise"  # to the left: seat + 1
    COUNTER_CLOCKWISE = "counter_clockwise"  # to the right: seat - 1


class Repeat(StrEnum):
    """How long a phase lasts."""

    ONCE = "once"  # every participant acts once, in order
    TIMES = "times"  # every participant acts ``times`` times, one at a time round the table
    UNTIL_ALL_PASS = "until_all_pass"  # round and round until every participant passed in a row
    UNTIL_ENDED = "until_ended"  # round and round until the game ends the phase
    SIMULTANEOUS = "simultaneous"  # all participants at once (one joint move)


@dataclass(frozen=True)
class Seating:
    """``n`` seats in clockwise order."""

    n: int

    def __post_init__(self) -> None:
        if self.n < 1:
            raise ValueError("a table needs at least one seat")

    def left_of(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places to the left (clockwise)."""
        return (seat + steps) % self.n

    def right_of(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places to the right (counter-clockwise)."""
        return (seat - steps) % self.n

    def next(self, seat: int, direction: Direction) -> int:
        return self.left_of(seat) if direction is Direction.CLOCKWISE else self.right_of(seat)

    def order_from(self, start: int, direction: Direction = Direction.CLOCKWISE) -> list[int]:
        """All seats, starting with ``start`` and going round in ``direction``."""
        sign = 1 if direction is Direction.CLOCKWISE else -1
        return [(start + sign * k) % self.n for k in range(self.n)]

    def clockwise(self, start: int) -> list[int]:
        return self.order_from(start, Direction.CLOCKWISE)

    def counter_clockwise(self, start: int) -> list[int]:
        return self.order_from(start, Direction.COUNTER_CLOCKWISE)


@dataclass(frozen=True)
class PhaseSpec:
    """One phase of a round.

    ``start`` names the token whose holder acts first (e.g. ``"first_player"``, or Jumble Jam's
    ``"efficient"``); ``start_offset`` shifts it (``-1`` = the holder's right-hand neighbour).
    ``skip_token`` leaves the holder of that token out (JumbleJack's Doll holder never points).
    """

    name: str
    direction: Direction = Direction.CLOCKWISE
    repeat: Repeat = Repeat.ONCE
    start: str = "first_player"
    start_offset: int = 0
    times: int = 1
    skip_token: str | None = None


@dataclass(frozen=True)
class RoundSpec:
    """The phases of one round, how many rounds, and which tokens pass at the end of a round."""

    phases: tuple[PhaseSpec, ...]
    rounds: int | None = None  # None: the game's end condition decides
    tokens_pass: tuple[tuple[str, Direction], ...] = (("first_player", Direction.CLOCKWISE),)


@dataclass
class TurnTracker:
    """Mutable turn bookkeeping inside a game state: round, phase, whose turn, tokens, passes.

    It is plain data (``to_dict``/``from_dict``), so a state that holds one clones and
    serialises it exactly.
    """

    seating: Seating
    spec: RoundSpec
    tokens: dict[str, int]
    round: int = 1
    phase_index: int = 0
    order: list[int] = field(
        default_factory=list
    )  # participants of the current phase, in turn order
    position: int = 0  # index into ``order`` of the seat to act
    acted: int = 0  # moves made in this phase (for ONCE/TIMES)
    passes_in_row: int = 0
    round_over: bool = False
    game_over: bool = False

    @classmethod
    def start(cls, seating: Seating, spec: RoundSpec, tokens: dict[str, int]) -> TurnTracker:
        tracker = cls(seating=seating, spec=spec, tokens=dict(tokens))
        tracker._enter_phase(0)
        return tracker

    # -- queries -----------------------------------------------------------------------------
    @property
    def phase(self) -> PhaseSpec:
        return self.spec.phases[self.phase_index]

    @property
    def seat(self) -> int:
        """The seat to act (for a simultaneous phase: the first participant)."""
        return self.order[self.position]

    def participants(self) -> list[int]:
        """The seats taking part in the current phase, in turn order."""
        return list(self.order)

    def holder(self, token: str) -> int:
        return self.tokens[token]

    def is_simultaneous(self) -> bool:
        return self.phase.repeat is Repeat.SIMULTANEOUS

    # -- changes -------------------------------------------------------------------------------
    def give_token(self, token: str, seat: int) -> None:
        self.tokens[token] = seat % self.seating.n

    def advance(self, passed: bool = False) -> str:
        """The current seat has moved; return ``"turn"``, ``"phase"`` or ``"round"`` for what ended."""
        phase = self.spec.phases[self.phase_index]
        acted = self.acted = self.acted + 1
        passes = self.passes_in_row = self.passes_in_row + 1 if passed else 0
        n = len(self.order)
        repeat = phase.repeat
        if repeat is Repeat.TIMES:  # the commonest first: this runs on every move
            over = acted >= n * phase.times
        elif repeat is Repeat.UNTIL_ALL_PASS:
            over = passes >= n
        elif repeat is Repeat.ONCE:
            over = acted >= n
        else:
            over = repeat is Repeat.SIMULTANEOUS  # UNTIL_ENDED: only the game ends it
        if over:
            return self._end_phase()
        self.position = (self.position + 1) % n
        return "turn"

    def end_phase(self) -> str:
        """End the current phase now (a game's own end condition); return what ended."""
        return self._end_phase()

    def end_round(self) -> str:
        """End the round now (e.g. JamSumo's 'the round ends as soon as …')."""
        self.phase_index = len(self.spec.phases) - 1
        return self._end_phase()

    def skip_to(self, seat: int) -> None:
        """Make ``seat`` the one to act next within the current phase (it must take part)."""
        self.position = self.order.index(seat)

    def _end_phase(self) -> str:
        if self.phase_index + 1 < len(self.spec.phases):
            self._enter_phase(self.phase_index + 1)
            return "phase"
        return self._end_round()

    def _end_round(self) -> str:
        for token, direction in self.spec.tokens_pass:
            if token in self.tokens:
                self.tokens[token] = self.seating.next(self.tokens[token], direction)
        if self.spec.rounds is not None and self.round >= self.spec.rounds:
            self.game_over = True
            self.round_over = True
            return "game"
        self.round += 1
        self._enter_phase(0)
        return "round"

    def _enter_phase(self, index: int) -> None:
        self.phase_index = index
        phase = self.spec.phases[index]
        start = self.seating.left_of(self.tokens[phase.start], phase.start_offset)
        order = self.seating.order_from(start, phase.direction)
        if phase.skip_token is not None:
            order = [s for s in order if s != self.tokens[phase.skip_token]]
        self.order = order
        self.position = 0
        self.acted = 0
        self.passes_in_row = 0
        self.round_over = False

    def refresh_order(self) -> None:
        """Recompute the participants (after a token moved mid-phase), keeping the phase."""
        self._enter_phase(self.phase_index)

    # -- plain data -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase.name,
            "seat": self.seat if self.order else None,
            "order": list(self.order),
            "position": self.position,
            "acted": self.acted,
            "passes_in_row": self.passes_in_row,
            "tokens": dict(sorted(self.tokens.items())),
            "game_over": self.game_over,
        }
