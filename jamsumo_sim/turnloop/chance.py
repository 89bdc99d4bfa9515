"""Chance nodes: what can happen (die rolls, shuffles, draws) and how the driver samples it.

The driver samples an outcome from the match's seeded generator and applies it as an ordinary
action, so the history holds every outcome and a replay needs no generator at all.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from jamsumo_sim.turnloop.actions import Action


class Chance:
    """A chance distribution; ``sample(rng)`` returns the outcome as an :class:`Action`."""

    def sample(self, rng: np.random.Generator) -> Action:  # pragma: no cover - interface
        raise NotImplementedError

    def outcomes(self) -> list[tuple[Action, float]] | None:
        """All outcomes with probabilities when the support is small enough to list, else None."""
        return None

    def is_possible(self, action: Action) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass(frozen=True)
class Finite(Chance):
    """A finite list of outcomes with probabilities (e.g. one die roll)."""

    choices: tuple[tuple[Action, float], ...]

    def __post_init__(self) -> None:
        if not self.choices:
            raise ValueError("a chance node needs at least one outcome")
        total = sum(p for _, p in self.choices)
        if abs(total - 1.0) > 1e-9:
            raise ValueError(f"chance probabilities sum to {total}, not 1")

    @classmethod
    def uniform(cls, actions: Sequence[Action]) -> Finite:
        p = 1.0 / len(actions)
        return cls(tuple((a, p) for a in actions))

    @cached_property
    def _cdf(self) -> tuple[float, ...]:
        # the table ``Generator.choice(p=...)`` builds (``cdf = p.cumsum(); cdf /= cdf[-1]``),
        # computed once per node instead of on every draw
        probs = np.array([p for _, p in self.choices], dtype=float)
        cdf = (probs / probs.sum()).cumsum()
        cdf /= cdf[-1]
        return tuple(float(x) for x in cdf)

    def sample(self, rng: np.random.Generator) -> Action:
        # one uniform draw against the cumulative table: the same pick as
        # ``rng.choice(len(choices), p=...)``, which does ``cdf.searchsorted(random(), "right")``
        return self.choices[bisect_right(self._cdf, rng.random())][0]

    def outcomes(self) -> list[tuple[Action, float]]:
        return list(self.choices)

    def is_possible(self, action: Action) -> bool:
        return any(a == action for a, p in self.choices if p > 0)


@dataclass(frozen=True)
class Shuffle(Chance):
    """A uniformly random order of ``items`` (a deck shuffle, a deal, a random subset).

    The outcome is ``Action("<label>", order=[...])``; ``take`` limits it to the first k items
    of the shuffled order (e.g. a random card drawn from a hand is ``take=1``).
    """

    label: str
    items: tuple[str, ...]
    take: int | None = None

    def sample(self, rng: np.random.Generator) -> Action:
        items = self.items
        order = [items[i] for i in rng.permutation(len(items)).tolist()]
        if self.take is not None:
            order = order[: self.take]
        # what Action.make(label, order=order) builds (the items are strings), without
        # freezing a whole deck item by item
        return Action(self.label, (("order", tuple(order)),))

    def is_possible(self, action: Action) -> bool:
        if action.name != self.label:
            return False
        order = action.get("order")
        if not isinstance(order, tuple):
            return False
        expected = len(self.items) if self.take is None else self.take
        if len(order) != expected:
            return False
        try:
            drawn = Counter(order)
        except TypeError:  # an unhashable item cannot be one of ours
            return False
        pool = Counter(self.items)
        return all(pool[item] >= k for item, k in drawn.items())
