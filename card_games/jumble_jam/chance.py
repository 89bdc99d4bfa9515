"""Jumble Jam's chance nodes: the shared Finite and Shuffle, made cheap to sample and check.

A game draws a die and a couple of shuffles every round, so the generic versions (which build
numpy arrays and freeze every item of a 60-card order on each call) cost as much as dozens of
ordinary moves. These subclasses give the very same outcome for the same generator: the die
takes the same single uniform draw against the same cumulative table ``Generator.choice``
builds, and a shuffle takes the same permutation; only the bookkeeping around it is cheaper.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from jamsumo_sim.turnloop import Action, Finite, Shuffle


@dataclass(frozen=True)
class Die(Finite):
    """A die: ``Finite`` with its cumulative table computed once instead of on every roll."""

    cdf: tuple[float, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def of(cls, faces: Sequence[Action]) -> Die:
        p = 1.0 / len(faces)
        choices = tuple((a, p) for a in faces)
        # exactly the table Finite.sample hands to Generator.choice(p=...), which computes
        # ``cdf = p.cumsum(); cdf /= cdf[-1]`` and picks ``cdf.searchsorted(random(), "right")``
        probs = np.array([q for _, q in choices], dtype=float)
        probs = probs / probs.sum()
        cdf = probs.cumsum()
        cdf /= cdf[-1]
        return cls(choices, tuple(float(x) for x in cdf))

    def sample(self, rng: np.random.Generator) -> Action:
        return self.choices[bisect_right(self.cdf, rng.random())][0]


@cache
def die_chance(faces: tuple[str, ...]) -> Die:
    return Die.of([Action(f"die shows {f}", (("face", f),)) for f in faces])


@dataclass(frozen=True)
class FastShuffle(Shuffle):
    """``Shuffle`` that builds its outcome action directly (its items are plain strings)."""

    def sample(self, rng: np.random.Generator) -> Action:
        items = self.items
        order = [items[i] for i in rng.permutation(len(items)).tolist()]
        if self.take is not None:
            order = order[: self.take]
        # what Action.make(label, order=order) builds, without freezing item by item
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
