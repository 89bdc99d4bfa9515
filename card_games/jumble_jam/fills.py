"""Filling an order: can these pieces still complete it, and which ways are there to do it?

A *piece* is a pastry card (its type and pastry count), a jam card (wild: it covers one pastry
type of the order, never two) or a Kickstarter pastry token (one pastry of its type). Pieces are
added one at a time and only to a type the order still lacks, so a complete fill gives every
type at least its requirement, and more than that only through the last piece added to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product


def _subset_sums(values: Sequence[int], cap: int) -> set[int]:
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums if s + v <= cap}
    return sums


def can_complete(
    remaining: Mapping[str, int],
    own: Mapping[str, Sequence[int]],
    jams: Sequence[int],
    exact: bool,
) -> bool:
    """Whether the pieces can cover every ``remaining`` need (exactly, when ``exact``).

    ``remaining`` holds only the types still lacking pastries; ``own`` the values of the pieces
    of each type (cards and tokens); ``jams`` the values of the jam cards.
    """
    types = [t for t, n in remaining.items() if n > 0]
    if not types:
        return True
    if not exact:
        # Own pieces of a type all go to it; jam covers what is left (saturating at the need).
        deficit = tuple(max(0, remaining[t] - sum(own.get(t, ()))) for t in types)
        short = sum(deficit)
        if short == 0:
            return True
        if short > sum(jams):
            return False
        reach = {tuple(0 for _ in types)}
        for j in jams:
            nxt = set(reach)
            for vec in reach:
                for i, d in enumerate(deficit):
                    if vec[i] < d:
                        nxt.add(vec[:i] + (min(d, vec[i] + j),) + vec[i + 1 :])
            reach = nxt
            if deficit in reach:
                return True
        return deficit in reach
    need = tuple(remaining[t] for t in types)
    own_sums = [_subset_sums(own.get(t, ()), remaining[t]) for t in types]
    reach = {tuple(0 for _ in types)}
    for j in jams:
        nxt = set(reach)
        for vec in reach:
            for i, n in enumerate(need):
                if vec[i] + j <= n:
                    nxt.add(vec[:i] + (vec[i] + j,) + vec[i + 1 :])
        reach = nxt
    return any(
        all(n - v in s for n, v, s in zip(need, vec, own_sums, strict=True)) for vec in reach
    )


@dataclass(frozen=True)
class TypeFill:
    """The pieces one order type gets: own card values, jam card values, tokens."""

    own: tuple[int, ...]
    jam: tuple[int, ...]
    tokens: int

    @property
    def total(self) -> int:
        return sum(self.own) + sum(self.jam) + self.tokens


@dataclass(frozen=True)
class Fill:
    """A complete way to cover the remaining needs: one :class:`TypeFill` per type."""

    parts: tuple[tuple[str, TypeFill], ...]
    exact: bool  # every type gets exactly its need

    @property
    def cards_used(self) -> int:
        return sum(len(f.own) + len(f.jam) for _, f in self.parts)

    @property
    def jam_used(self) -> int:
        return sum(sum(f.jam) for _, f in self.parts)

    @property
    def jam_cards(self) -> int:
        return sum(len(f.jam) for _, f in self.parts)

    @property
    def tokens_used(self) -> int:
        return sum(f.tokens for _, f in self.parts)


def _multisets(counts: Mapping[int, int]) -> Iterator[tuple[int, ...]]:
    values = sorted(counts)
    for picks in product(*(range(counts[v] + 1) for v in values)):
        yield tuple(v for v, k in zip(values, picks, strict=True) for _ in range(k))


def _type_options(
    need: int, own: Counter[int], jam: Counter[int], tokens: int, exact: bool
) -> list[TypeFill]:
    out = []
    for own_pick in _multisets(own):
        for jam_pick in _multisets(jam):
            for tok in range(tokens + 1):
                pieces = [*own_pick, *jam_pick] + [1] * tok
                if not pieces:
                    continue
                total = sum(pieces)
                if total < need or total - max(pieces) >= need:
                    continue
                if exact and total != need:
                    continue
                out.append(TypeFill(own_pick, jam_pick, tok))
    return out


def enumerate_fills(
    remaining: Mapping[str, int],
    own: Mapping[str, Counter[int]],
    jam: Counter[int],
    tokens: Mapping[str, int],
    exact_only: bool,
) -> list[Fill]:
    """Every minimal way to cover ``remaining`` (for bots; small hands keep this cheap)."""
    types = [t for t, n in remaining.items() if n > 0]
    options = [
        _type_options(remaining[t], own.get(t, Counter()), jam, tokens.get(t, 0), exact_only)
        for t in types
    ]
    fills = []
    for combo in product(*options):
        used: Counter[int] = Counter()
        for part in combo:
            used.update(part.jam)
        if any(used[v] > jam[v] for v in used):
            continue
        exact = all(part.total == remaining[t] for t, part in zip(types, combo, strict=True))
        fills.append(Fill(tuple(zip(types, combo, strict=True)), exact))
    return fills
