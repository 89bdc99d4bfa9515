"""Numeric observations of the card games: a fixed-size float32 vector per seat, field by field.

Each game's encoder (:mod:`card_games.envs.features_games`) reads only the seat's own view
(``State.observation(seat)``, the same dict the bots and the terminal see, hidden information
already left out), so the vector can never hold more than the seat may know. Every field has a
fixed size per game (vocabularies come from the card data; per-seat fields have one slot per seat
up to the game's most players), so the shape is the same at every player count and variant.

Per-seat fields are *relative*: slot 0 is the observing seat, slot 1 the next seat in seat
order, and so on; a seat-valued field is a one-hot over those slots (all zero for "nobody").
Counts are raw (cards, tokens, turns), never normalised. :func:`layout` lists the fields (name,
offset, size, meaning) and :func:`describe` prints them, for people and docs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from jamsumo_sim.turnloop import get_game

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


def _encoders() -> dict[str, Encoder]:
    from card_games.envs.features_games import ENCODERS

    return ENCODERS


def encode(game: str, view: Mapping[str, Any], seat: int | None) -> np.ndarray:
    """The observation vector of ``seat`` from its view (``State.observation(seat)``)."""
    return _build(game, view, seat).vector()


def _build(game: str, view: Mapping[str, Any], seat: int | None) -> Builder:
    g = get_game(game)
    b = Builder(seat, int(view["players"]), g.max_players)
    _encoders()[game](b, view, g)
    return b


@cache
def layout(game: str) -> tuple[Field, ...]:
    """The fields of ``game``'s observation vector, in order (the same for every position)."""
    g = get_game(game)
    state = g.new_initial_state(g.validate_params({"players": g.min_players}), seed=0)
    return tuple(_build(game, state.observation(0), 0).fields)


def size(game: str) -> int:
    last = layout(game)[-1]
    return last.offset + last.size


def describe(game: str) -> str:
    """The layout as a table: offset, size, name, meaning."""
    rows = [f"{f.offset:>6} {f.size:>5}  {f.name}: {f.doc}" for f in layout(game)]
    return f"{game}: {size(game)} float32\n" + "\n".join(rows)
