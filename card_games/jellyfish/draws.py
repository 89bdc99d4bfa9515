"""The chance node of a draw: which card of the unknown pile is on top (uniform)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from jamsumo_sim.turnloop import Action, Chance


@dataclass(frozen=True)
class CardDraw(Chance):
    """Uniform over the cards of the unknown part of the pile (a fast :class:`Finite`).

    Drawing the top card of a pile nobody has seen is the same as drawing a uniformly random card
    of it, so the deck needs no up-front shuffle whose order could leak.
    """

    cards: tuple[Action, ...]  # one outcome per card: Action(name=card, args card=card)
    names: frozenset[str] = field(default=frozenset(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.cards:
            raise ValueError("a draw needs at least one card in the pile")
        # card names hash fast (strings cache their hash): a quick is_possible
        object.__setattr__(self, "names", frozenset(a.name for a in self.cards))

    def sample(self, rng: np.random.Generator) -> Action:
        return self.cards[int(rng.integers(len(self.cards)))]

    def outcomes(self) -> list[tuple[Action, float]]:
        p = 1.0 / len(self.cards)
        return [(a, p) for a in self.cards]

    def is_possible(self, action: Action) -> bool:
        return action.name in self.names and action.args == (("card", action.name),)
