"""What the smart bot learns from its refused trade offers (issue 35: "31 offers in one game,
30 of a person's 70 inputs were refusals").

Three rules, all from public information (the refusals are announced):

- **a cap per turn**: once an offer is refused, no further offer that turn (the rules allow
  ``MAX_PROPOSALS``; a person asked twice in a row mostly refuses twice);
- **no equivalent offer**: an offer that gives the partner no more, for no less, than one they
  refused (same partner; our side a sub-multiset, theirs a super-multiset) is never made again
  in the game;
- **learn**: each refusal by a partner raises the margin the partner must be expected to gain
  (they value their recipes more than the public estimate says) and makes the bot wait longer
  before asking them again (1, 2, 4, then 8 of its own turns).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

OFFERS_AFTER_A_REFUSAL = 0  # further offers in the turn of a refusal
MARGIN_PER_REFUSAL = 1.5  # points the partner must be expected to gain, per refusal of theirs
MAX_WAIT_TURNS = 8  # own turns waited after the 4th and later refusals by one partner

Offer = tuple[int, tuple[str, ...], tuple[str, ...]]  # (partner, our labels, their labels)


def _within(small: Sequence[str], big: Sequence[str]) -> bool:
    """``small`` is a sub-multiset of ``big``."""
    return not Counter(small) - Counter(big)


@dataclass
class RefusalMemory:
    """One seat's refused offers in one game, with when (the game's turn number) each came."""

    seat: int
    players: int = 2
    offers: set[Offer] = field(default_factory=set)
    turns: dict[int, list[int]] = field(default_factory=dict)  # partner -> turns of refusals
    _last_turn: int = -1

    def update(self, obs: Mapping[str, Any]) -> None:
        """Read this turn's refusals (the state lists the active seat's, for this turn only)."""
        turn = int(obs["turn"])
        if turn < self._last_turn:  # a new game with the same bot
            self.offers, self.turns = set(), {}
        self._last_turn = turn
        self.players = int(obs.get("players") or len(obs["made"]))
        if obs["active"] != self.seat:
            return
        for r in obs["refused"]:
            offer = (int(r["partner"]), tuple(sorted(r["mine"])), tuple(sorted(r["theirs"])))
            if offer not in self.offers:
                self.offers.add(offer)
                self.turns.setdefault(offer[0], []).append(turn)

    def refused_this_turn(self, obs: Mapping[str, Any]) -> bool:
        return obs["active"] == self.seat and len(obs["refused"]) > OFFERS_AFTER_A_REFUSAL

    def margin(self, partner: int) -> float:
        """How much the partner must be expected to gain for an offer to be worth making."""
        return MARGIN_PER_REFUSAL * len(self.turns.get(partner, ()))

    def waiting(self, partner: int, turn: int) -> bool:
        """Whether the partner refused too recently to be asked again this turn."""
        refusals = self.turns.get(partner, [])
        if not refusals:
            return False
        own_turns = min(2 ** (len(refusals) - 1), MAX_WAIT_TURNS)
        return turn - refusals[-1] < own_turns * self.players

    def equivalent(self, offer: Offer) -> bool:
        """A refused offer the partner would like at least as much as this one."""
        partner, mine, theirs = offer
        return any(
            p == partner and _within(mine, m) and _within(t, theirs) for p, m, t in self.offers
        )

    def key(self, turn: int) -> tuple[Any, ...]:
        """Everything the bot's choice of offer depends on here (for its memo)."""
        waits = tuple(sorted(p for p in self.turns if self.waiting(p, turn)))
        return (
            frozenset(self.offers),
            tuple(sorted((p, len(t)) for p, t in self.turns.items())),
            waits,
        )
