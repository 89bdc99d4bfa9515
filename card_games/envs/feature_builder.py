"""The builder of one numeric observation vector: named fields of fixed size, relative seats
(:mod:`card_games.envs.features` documents the layout; each game's encoder is in
:mod:`card_games.envs.features_games`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

HIGH = float(2**16)  # upper bound of every value (counts and turn numbers stay far below)


@dataclass(frozen=True)
class Field:
    name: str
    offset: int
    size: int
    doc: str


class Builder:
    """Appends named fields to one observation vector (relative seats of ``viewer``)."""

    def __init__(self, viewer: int | None, players: int, max_players: int) -> None:
        self.viewer = viewer or 0
        self.players = players
        self.max_players = max_players
        self.parts: list[np.ndarray] = []
        self.fields: list[Field] = []
        self.size = 0

    def rel(self, seat: int) -> int:
        return (int(seat) - self.viewer) % self.players

    def add(self, name: str, values: np.ndarray, doc: str) -> None:
        self.fields.append(Field(name, self.size, len(values), doc))
        self.size += len(values)
        self.parts.append(values)

    def vector(self) -> np.ndarray:
        return np.concatenate(self.parts).astype(np.float32, copy=False)

    # -- kinds of field ------------------------------------------------------------------------
    def num(self, name: str, value: Any, doc: str) -> None:
        self.add(name, np.array([float(value or 0)]), doc)

    def onehot(self, name: str, value: Any, vocab: Sequence[Any], doc: str) -> None:
        out = np.zeros(len(vocab))
        if value is not None:
            out[_index(vocab)[value]] = 1.0
        self.add(name, out, doc + f" (one-hot over {len(vocab)}; none: all 0)")

    def counts(
        self,
        name: str,
        items: Iterable[Any] | None,
        vocab: Sequence[Any],
        doc: str,
        key: Callable[[Any], Any] = lambda x: x,
    ) -> None:
        self.add(name, _counts(items, vocab, key), doc + f" (count per one of {len(vocab)})")

    def seat(self, name: str, seat: Any, doc: str) -> None:
        out = np.zeros(self.max_players)
        if isinstance(seat, int) and seat >= 0:
            out[self.rel(seat)] = 1.0
        self.add(name, out, doc + " (one-hot over relative seats)")

    def seats(self, name: str, seats: Iterable[Any], doc: str) -> None:
        out = np.zeros(self.max_players)
        for s in seats:
            out[self.rel(int(s))] = 1.0
        self.add(name, out, doc + " (a flag per relative seat)")

    def per_seat(self, name: str, values: Sequence[Any], doc: str) -> None:
        out = np.zeros(self.max_players)
        for s, v in enumerate(values):
            out[self.rel(s)] = float(v or 0)
        self.add(name, out, doc + " (a number per relative seat)")

    def per_seat_rows(self, name: str, rows: Sequence[np.ndarray], width: int, doc: str) -> None:
        """One row of ``width`` numbers per seat (``rows[s]`` for absolute seat s)."""
        out = np.zeros((self.max_players, width))
        for s, row in enumerate(rows):
            out[self.rel(s)] = row
        self.add(name, out.ravel(), doc + f" ({width} per relative seat)")


@cache
def _index(vocab: Sequence[Any]) -> dict[Any, int]:
    return {v: i for i, v in enumerate(vocab)}


def _counts(items: Iterable[Any] | None, vocab: Sequence[Any], key: Callable[[Any], Any]) -> Any:
    out = np.zeros(len(vocab))
    index = _index(vocab)
    for item in items or ():
        out[index[key(item)]] += 1.0
    return out


Encoder = Callable[[Builder, Mapping[str, Any], Any], None]
