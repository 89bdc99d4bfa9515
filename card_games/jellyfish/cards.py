"""Load and validate the card contents (``cards.toml``) of Jelly Fish Toast & Jam.

Cards are strings ``"<character>.<colour>.<n>"``; a card's *kind* is ``"<character>.<colour>"``
(cards of one kind are interchangeable: a set is four — or three — cards of one kind).
The rulebook does not say how its 80 cards split into characters x colours x copies: the file
lists candidate splits, one :class:`Deck` (and game variant) each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from card_games.data import read_card_toml
from jamsumo_sim.errors import UserError

DATA_VERSION = 2
# What the rulebook itself states; the data file must agree with it.
RULEBOOK_TOTAL = 80
RULEBOOK_SETS_TO_WIN = 3
RULEBOOK_SET_SIZES = {2: 4, 3: 4, 4: 4, 5: 3, 6: 3}
_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_VARIANT = re.compile(r"^[a-z0-9][a-z0-9_-]{0,29}$")
MAX_SPLITS = 32  # candidate splits in one file (a bound on what a data file may ask to build)


@dataclass(frozen=True)
class Character:
    key: str
    name: str
    assumed: bool


@dataclass(frozen=True)
class Deck:
    """The validated card data and quick lookups derived from it."""

    characters: tuple[Character, ...]
    colours: tuple[str, ...]
    copies: int
    to_win: int
    size_small: int
    size_large: int
    large_from_players: int
    assumed: bool
    source: str
    variant: str = "standard"
    cards: tuple[str, ...] = field(default=())
    kinds: tuple[str, ...] = field(default=())
    # card -> kind, kind -> character key, kind -> display label, kind -> index (for stable order)
    kind_of: Mapping[str, str] = field(default_factory=dict)
    character_of: Mapping[str, str] = field(default_factory=dict)
    label_of: Mapping[str, str] = field(default_factory=dict)
    kind_index: Mapping[str, int] = field(default_factory=dict)
    card_index: Mapping[str, int] = field(default_factory=dict)  # card -> position in ``cards``

    def __deepcopy__(self, memo: dict[int, Any]) -> Deck:
        return self  # immutable: cloned states share it

    def set_size(self, players: int) -> int:
        return self.size_large if players >= self.large_from_players else self.size_small

    def label(self, card_or_kind: str) -> str:
        """``"Toast (blue)"`` for a card or a kind."""
        kind = self.kind_of.get(card_or_kind, card_or_kind)
        return self.label_of[kind]

    def character_name(self, key: str) -> str:
        return next(c.name for c in self.characters if c.key == key)


def _fail(source: str, message: str) -> UserError:
    return UserError(f"{source}: {message}")


def _int(table: Mapping[str, Any], key: str, where: str, source: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise _fail(source, f"{where}.{key} must be a positive whole number, not {value!r}")
    return value


def _characters(data: Mapping[str, Any], source: str) -> list[Character]:
    chars = data.get("character")
    if not isinstance(chars, list) or not chars:
        raise _fail(source, "needs at least one [[character]] entry")
    characters: list[Character] = []
    for i, entry in enumerate(chars, 1):
        if not isinstance(entry, Mapping):
            raise _fail(source, f"character {i} must be a table")
        key, name = entry.get("key"), entry.get("name")
        if not isinstance(key, str) or not _KEY.match(key):
            raise _fail(
                source, f"character {i}: key must be lower-case letters/digits/_, not {key!r}"
            )
        if not isinstance(name, str) or not name.strip():
            raise _fail(source, f"character {i} ({key}): name must be a non-empty string")
        characters.append(Character(key, name.strip(), bool(entry.get("assumed", False))))
    keys = [c.key for c in characters]
    if len(set(keys)) != len(keys):
        raise _fail(source, "two characters share a key")
    if len({c.name for c in characters}) != len(characters):
        raise _fail(source, "two characters share a name")
    return characters


def _split_count(split: Mapping[str, Any], key: str, where: str, most: int, source: str) -> int:
    value = _int(split, key, where, source)
    if value > most:
        raise _fail(source, f"{where}.{key} is {value} but only {most} are listed")
    return value


def parse_decks(data: Mapping[str, Any], source: str) -> dict[str, Deck]:
    """Check the data against the rulebook and build one :class:`Deck` per ``[[split]]``
    (by variant name, the first being the default); one-line errors."""
    if data.get("version") != DATA_VERSION:
        raise _fail(source, f"version must be {DATA_VERSION}, not {data.get('version')!r}")
    deck = data.get("deck")
    sets = data.get("sets")
    if not isinstance(deck, Mapping) or not isinstance(sets, Mapping):
        raise _fail(source, "needs a [deck] table and a [sets] table")
    characters = _characters(data, source)
    colours = deck.get("colours")
    if (
        not isinstance(colours, list)
        or not colours
        or not all(isinstance(c, str) and _KEY.match(c) for c in colours)
        or len(set(colours)) != len(colours)
    ):
        raise _fail(source, f"deck.colours must be distinct lower-case names, not {colours!r}")
    total = _int(deck, "total", "deck", source)
    if total != RULEBOOK_TOTAL:
        raise _fail(source, f"deck.total is {total} but the rulebook has {RULEBOOK_TOTAL} cards")
    to_win = _int(sets, "to_win", "sets", source)
    size_small = _int(sets, "size_small", "sets", source)
    size_large = _int(sets, "size_large", "sets", source)
    large_from = _int(sets, "large_from_players", "sets", source)
    if to_win != RULEBOOK_SETS_TO_WIN:
        raise _fail(source, f"sets.to_win is {to_win} but the rulebook says {RULEBOOK_SETS_TO_WIN}")
    for players, size in RULEBOOK_SET_SIZES.items():
        got = size_large if players >= large_from else size_small
        if got != size:
            raise _fail(
                source, f"sets give {got}-card sets for {players} players; the rulebook says {size}"
            )
    splits = data.get("split")
    if not isinstance(splits, list) or not splits or len(splits) > MAX_SPLITS:
        raise _fail(source, f"needs 1 to {MAX_SPLITS} [[split]] entries")
    decks: dict[str, Deck] = {}
    for i, split in enumerate(splits, 1):
        if not isinstance(split, Mapping):
            raise _fail(source, f"split {i} must be a table")
        variant = split.get("variant")
        if not isinstance(variant, str) or not _VARIANT.match(variant):
            raise _fail(
                source, f"split {i}: variant must be a short lower-case name, not {variant!r}"
            )
        if variant in decks:
            raise _fail(source, f"two splits are called {variant!r}")
        where = f"split {variant!r}"
        n_chars = _split_count(split, "characters", where, len(characters), source)
        n_colours = _split_count(split, "colours", where, len(colours), source)
        copies = _int(split, "copies", where, source)
        counted = n_chars * n_colours * copies
        if counted != total:
            raise _fail(
                source,
                f"{where}: {n_chars} characters x {n_colours} colours x {copies} copies = "
                f"{counted} cards, not the {total} of deck.total",
            )
        if copies < max(size_small, size_large):
            raise _fail(source, f"{where}: {copies} copies are too few for a {size_small}-card set")
        if n_chars < to_win:
            raise _fail(
                source, f"{where}: {n_chars} characters cannot make {to_win} different sets"
            )
        decks[variant] = _build(
            characters[:n_chars],
            tuple(colours[:n_colours]),
            copies,
            (to_win, size_small, size_large, large_from),
            bool(deck.get("assumed", False)),
            source,
            variant,
        )
    return decks


def _build(
    characters: list[Character],
    colours: tuple[str, ...],
    copies: int,
    sets: tuple[int, int, int, int],
    assumed: bool,
    source: str,
    variant: str,
) -> Deck:
    kinds = tuple(f"{c.key}.{colour}" for c in characters for colour in colours)
    cards = tuple(f"{kind}.{n}" for kind in kinds for n in range(1, copies + 1))
    names = {c.key: c.name for c in characters}
    label_of = {
        f"{c.key}.{colour}": f"{names[c.key]} ({colour})" for c in characters for colour in colours
    }
    to_win, size_small, size_large, large_from = sets
    return Deck(
        characters=tuple(characters),
        colours=colours,
        copies=copies,
        to_win=to_win,
        size_small=size_small,
        size_large=size_large,
        large_from_players=large_from,
        assumed=assumed,
        source=source,
        variant=variant,
        cards=cards,
        kinds=kinds,
        kind_of={card: card.rsplit(".", 1)[0] for card in cards},
        character_of={kind: kind.split(".", 1)[0] for kind in kinds},
        label_of=label_of,
        kind_index={kind: i for i, kind in enumerate(kinds)},
        card_index={card: i for i, card in enumerate(cards)},
    )


def parse_cards(data: Mapping[str, Any], source: str, variant: str | None = None) -> Deck:
    """The :class:`Deck` of one split (default: the first) of checked card data."""
    decks = parse_decks(data, source)
    if variant is None:
        return next(iter(decks.values()))
    if variant not in decks:
        raise _fail(source, f"no split called {variant!r} (choose from {', '.join(decks)})")
    return decks[variant]


def load_decks(path: str | Path | None = None) -> dict[str, Deck]:
    """Every split of ``cards.toml`` (the packaged one unless ``path`` is given), by variant."""
    data, source = read_card_toml("card_games.jellyfish", path)
    return parse_decks(data, source)


def load_cards(path: str | Path | None = None, variant: str | None = None) -> Deck:
    """One split's deck (default: the first, "standard") of ``cards.toml`` (the packaged one
    unless ``path`` is given)."""
    data, source = read_card_toml("card_games.jellyfish", path)
    return parse_cards(data, source, variant)
