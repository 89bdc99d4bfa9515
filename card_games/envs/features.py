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

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from card_games.envs.feature_builder import HIGH, Builder, Encoder, Field
from card_games.envs.features_games import ENCODERS
from jamsumo_sim.turnloop import get_game

__all__ = ["HIGH", "Builder", "Encoder", "Field", "describe", "encode", "layout", "size"]


def _encoders() -> dict[str, Encoder]:
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
