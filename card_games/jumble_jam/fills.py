"""Filling an order: can these pieces still complete it, and which ways are there to do it?

A *piece* is a pastry card (its type and pastry count), a jam card (wild: it covers one pastry
type of the order, never two) or a Kickstarter pastry token (one pastry of its type). Pieces are
added one at a time and only to a type the order still lacks, so a complete fill gives every
type at least its requirement, and more than that only through the last piece added to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

# The feasibility searches below are pure functions of small canonical keys (sorted values), and
# the same few hands and orders recur all game long: remember this many answers of each.
_MEMO_SIZE = 1 << 16


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
    return Pieces.of(own, jams).can_cover(remaining.items(), exact)


class Pieces:
    """A hand's pieces for filling orders, in the canonical form the searches remember.

    ``own`` maps a pastry type to the sorted values of its pieces (cards and tokens), ``totals``
    to their sum; ``jams`` are the sorted jam card values. Treat it as immutable. (A plain
    class: one is made for nearly every order decision, and a frozen dataclass is slow to make.)
    """

    __slots__ = ("jam_total", "jams", "own", "totals")

    def __init__(
        self,
        own: Mapping[str, tuple[int, ...]],
        totals: Mapping[str, int],
        jams: tuple[int, ...],
        jam_total: int,
    ) -> None:
        self.own = own
        self.totals = totals
        self.jams = jams
        self.jam_total = jam_total

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pieces):
            return NotImplemented
        return (self.own, self.jams) == (other.own, other.jams)

    def __repr__(self) -> str:
        return f"Pieces(own={self.own!r}, jams={self.jams!r})"

    @classmethod
    def of(cls, own: Mapping[str, Sequence[int]], jams: Sequence[int]) -> Pieces:
        values: dict[str, tuple[int, ...]] = {}
        totals: dict[str, int] = {}
        for pastry_type, pieces in own.items():  # a loop: one is made per order decision
            values[pastry_type] = tuple(sorted(pieces))
            totals[pastry_type] = sum(pieces)
        ordered = tuple(sorted(jams))
        return cls(values, totals, ordered, sum(ordered))

    def without(self, pastry_type: str, value: int, is_jam: bool) -> Pieces:
        """These pieces less one piece of ``value`` (a jam card, or one of ``pastry_type``)."""
        if is_jam:
            jams = list(self.jams)
            jams.remove(value)
            return Pieces(self.own, self.totals, tuple(jams), self.jam_total - value)
        kept = list(self.own[pastry_type])
        kept.remove(value)  # still sorted
        own = {**self.own, pastry_type: tuple(kept)}
        totals = {**self.totals, pastry_type: self.totals[pastry_type] - value}
        return Pieces(own, totals, self.jams, self.jam_total)

    def can_cover(self, remaining: Iterable[tuple[str, int]], exact: bool) -> bool:
        """Whether these pieces can cover the ``(type, still needed)`` pairs (see can_complete)."""
        if not exact:
            # Own pieces of a type all go to it; jam covers what is left (saturating at the need).
            totals = self.totals
            deficit = []
            for t, n in remaining:  # a loop, not a comprehension: asked for every order shown
                if n > totals.get(t, 0):
                    deficit.append(n - totals.get(t, 0))
            return not deficit or _jam_fills(deficit, self.jams, self.jam_total)
        needs = [(t, n) for t, n in remaining if n > 0]
        if not needs:
            return True
        own = self.own
        return _exact_cover(tuple(sorted((n, own.get(t, ())) for t, n in needs)), self.jams)

    def can_cover_after(
        self, remaining: Mapping[str, int], as_type: str, value: int, is_jam: bool, exact: bool
    ) -> bool:
        """``can_cover`` once one of these pieces, of ``value`` (a jam card, or a piece of
        ``as_type``), has gone to ``as_type``: the question asked for every candidate move.

        Without waste allowed it is answered from the totals, without copying the pieces.
        """
        rest = [(t, max(0, n - value) if t == as_type else n) for t, n in remaining.items()]
        if exact:
            return self.without(as_type, value, is_jam).can_cover(rest, exact)
        totals = self.totals
        given = 0 if is_jam else value  # that piece no longer counts among its type's own
        deficit = [
            d
            for t, n in rest
            if n > 0 and (d := n - totals.get(t, 0) + (given if t == as_type else 0)) > 0
        ]
        if not is_jam:
            return _jam_fills(deficit, self.jams, self.jam_total)
        jams = list(self.jams)
        jams.remove(value)
        return _jam_fills(deficit, tuple(jams), self.jam_total - value)


def _jam_fills(deficit: list[int], jams: tuple[int, ...], jam_total: int) -> bool:
    """Whether the (sorted) jam cards can make up the positive per-type ``deficit``."""
    if not deficit:
        return True
    if sum(deficit) > jam_total:
        return False
    return _jam_covers(tuple(sorted(deficit)), jams)


@lru_cache(maxsize=_MEMO_SIZE)
def _jam_covers(deficit: tuple[int, ...], jams: tuple[int, ...]) -> bool:
    """Whether jam cards (each on one type, saturating at its deficit) cover every deficit."""
    reach = {tuple(0 for _ in deficit)}
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


@lru_cache(maxsize=_MEMO_SIZE)
def _exact_cover(needs: tuple[tuple[int, tuple[int, ...]], ...], jams: tuple[int, ...]) -> bool:
    """Whether some own pieces and jam cards give every type exactly its need.

    ``needs`` pairs each type's need with its own piece values (the type names do not matter).
    """
    need = tuple(n for n, _ in needs)
    own_sums = [_subset_sums(values, n) for n, values in needs]
    reach = {tuple(0 for _ in need)}
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
