"""JumbleJack components: loaded from ``cards.toml`` and checked against the rulebook totals.

Outfits (a Pirate card, or how the Doll is dressed) are bit masks over the accessories in the
order the data file lists them: bit ``i`` set means "wears accessory ``i``". Masks keep the
rules and the bot's deduction cheap; names are only for people.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from card_games.data import read_card_toml
from jamsumo_sim.errors import UserError

DATA_FILE = "cards.toml"
DATA_VERSION = 1

# Totals printed in the rulebook (components list and set-up); the data file must agree.
RULEBOOK_ACCESSORIES = 4
RULEBOOK_PIRATES = 16
RULEBOOK_ACCESSORY_CARDS = 36
RULEBOOK_RINGS = 20
RULEBOOK_CENTRE_RINGS = 12
RULEBOOK_TOKENS = 8
MIN_PLAYERS = 4
MAX_PLAYERS = 8


@dataclass(frozen=True)
class Token:
    """A Piece of Eight. ``kind`` is ``"mirror"`` or ``"disguise"`` (the First Player is a mirror)."""

    id: str
    name: str
    kind: str
    accessory: str | None
    first_player: bool
    min_players: int


@dataclass(frozen=True)
class Components:
    accessories: tuple[str, ...]
    pirates: tuple[tuple[str, int], ...]  # (id, outfit mask) in file order
    accessory_cards: tuple[int, ...]  # cards per accessory, same order as ``accessories``
    cards_assumed: bool
    rings_total: int
    centre_rings: int
    tokens: tuple[Token, ...]

    @property
    def full_mask(self) -> int:
        return (1 << len(self.accessories)) - 1

    def pirate_mask(self, pirate_id: str) -> int:
        return self.pirate_masks[pirate_id]

    @property
    def pirate_masks(self) -> dict[str, int]:
        cached = self.__dict__.get("_masks")
        if cached is None:
            cached = dict(self.pirates)
            object.__setattr__(self, "_masks", cached)  # a cache, not state: frozen is kept
        return cached

    def token(self, token_id: str) -> Token:
        for token in self.tokens:
            if token.id == token_id:
                return token
        raise KeyError(token_id)

    def first_player_token(self) -> Token:
        return next(t for t in self.tokens if t.first_player)

    def fixed_tokens(self, players: int) -> list[Token]:
        """Tokens always used with this many players: the First Player and the Mirrors."""
        return [t for t in self.tokens if t.kind == "mirror" and t.min_players <= players]

    def disguises(self) -> list[Token]:
        return [t for t in self.tokens if t.kind == "disguise"]

    def disguise_count(self, players: int) -> int:
        """How many Disguises join the game: they fill the places the Mirrors leave."""
        return players - len(self.fixed_tokens(players))

    def outfit_text(self, mask: int) -> str:
        """A person's description of an outfit, e.g. ``"hat, hook"``."""
        worn = [a for i, a in enumerate(self.accessories) if mask >> i & 1]
        return ", ".join(worn) if worn else "no accessories"

    def outfit_list(self, mask: int) -> list[str]:
        return [a for i, a in enumerate(self.accessories) if mask >> i & 1]

    def mask_of(self, worn: list[str] | tuple[str, ...]) -> int:
        return sum(1 << self.accessories.index(a) for a in worn)


def _fail(where: str, message: str) -> UserError:
    return UserError(f"{where}: {message}")


def _table(data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise _fail(where, f"missing table [{key}]")
    return value


def _int(table: Mapping[str, Any], key: str, where: str, section: str) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(where, f"[{section}] {key} must be an integer, not {value!r}")
    return value


def parse_components(data: Mapping[str, Any], where: str) -> Components:
    """Build and validate the components; any error is one line naming ``where`` and the problem."""
    if data.get("version") != DATA_VERSION:
        raise _fail(where, f"version must be {DATA_VERSION}, not {data.get('version')!r}")
    accessories = data.get("accessories")
    if (
        not isinstance(accessories, list)
        or not all(isinstance(a, str) and a for a in accessories)
        or len(set(accessories)) != len(accessories)
    ):
        raise _fail(where, "accessories must be a list of distinct names")
    if len(accessories) != RULEBOOK_ACCESSORIES:
        raise _fail(
            where, f"{len(accessories)} accessories listed; the rulebook has {RULEBOOK_ACCESSORIES}"
        )

    pirates_raw = data.get("pirates")
    if not isinstance(pirates_raw, list):
        raise _fail(where, "missing [[pirates]] entries")
    pirates: list[tuple[str, int]] = []
    for entry in pirates_raw:
        pid, wears = entry.get("id"), entry.get("wears")
        if not isinstance(pid, str) or not isinstance(wears, list):
            raise _fail(where, f"pirate {pid!r} needs an id string and a wears list")
        unknown = [w for w in wears if w not in accessories]
        if unknown or len(set(wears)) != len(wears):
            raise _fail(where, f"pirate {pid} wears unknown or repeated accessories {wears}")
        pirates.append((pid, sum(1 << accessories.index(w) for w in wears)))
    if len(pirates) != RULEBOOK_PIRATES:
        raise _fail(where, f"{len(pirates)} pirates listed; the rulebook has {RULEBOOK_PIRATES}")
    if len({p for p, _ in pirates}) != len(pirates):
        raise _fail(where, "pirate ids must be distinct")
    if len({m for _, m in pirates}) != len(pirates):
        raise _fail(where, "two pirates wear the same accessories; each combination appears once")

    cards = _table(data, "accessory_cards", where)
    counts = tuple(_int(cards, a, where, "accessory_cards") for a in accessories)
    if any(c < 1 for c in counts):
        raise _fail(where, "[accessory_cards] every accessory needs at least one card")
    if sum(counts) != RULEBOOK_ACCESSORY_CARDS:
        raise _fail(
            where,
            f"[accessory_cards] add up to {sum(counts)}; the rulebook has {RULEBOOK_ACCESSORY_CARDS}",
        )

    rings = _table(data, "rings", where)
    total, centre = _int(rings, "total", where, "rings"), _int(rings, "centre", where, "rings")
    if total != RULEBOOK_RINGS or centre != RULEBOOK_CENTRE_RINGS:
        raise _fail(
            where,
            f"[rings] total {total} / centre {centre}; the rulebook has "
            f"{RULEBOOK_RINGS} / {RULEBOOK_CENTRE_RINGS}",
        )

    tokens = _parse_tokens(data.get("tokens"), accessories, where)
    components = Components(
        accessories=tuple(accessories),
        pirates=tuple(pirates),
        accessory_cards=counts,
        cards_assumed=bool(cards.get("assumed", False)),
        rings_total=total,
        centre_rings=centre,
        tokens=tokens,
    )
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        k = components.disguise_count(n)
        if not 0 <= k <= len(components.disguises()) or n + centre > total:
            raise _fail(
                where, f"the tokens do not give exactly {n} Pieces of Eight for {n} players"
            )
    return components


def _parse_tokens(raw: Any, accessories: list[str], where: str) -> tuple[Token, ...]:
    if not isinstance(raw, list):
        raise _fail(where, "missing [[tokens]] entries")
    tokens: list[Token] = []
    for entry in raw:
        tid, kind = entry.get("id"), entry.get("kind")
        if not isinstance(tid, str) or kind not in ("mirror", "disguise"):
            raise _fail(where, f"token {tid!r} needs an id and a kind of mirror or disguise")
        accessory = entry.get("accessory")
        if (kind == "disguise") != (accessory is not None) or (
            accessory is not None and accessory not in accessories
        ):
            raise _fail(where, f"token {tid}: a disguise names one known accessory, a mirror none")
        min_players = entry.get("min_players", MIN_PLAYERS)
        if not isinstance(min_players, int):
            raise _fail(where, f"token {tid}: min_players must be an integer")
        tokens.append(
            Token(
                id=tid,
                name=str(entry.get("name", tid)),
                kind=kind,
                accessory=accessory,
                first_player=bool(entry.get("first_player", False)),
                min_players=min_players,
            )
        )
    if len(tokens) != RULEBOOK_TOKENS:
        raise _fail(
            where, f"{len(tokens)} Pieces of Eight listed; the rulebook has {RULEBOOK_TOKENS}"
        )
    if len({t.id for t in tokens}) != len(tokens):
        raise _fail(where, "token ids must be distinct")
    first = [t for t in tokens if t.first_player]
    if len(first) != 1 or first[0].kind != "mirror" or first[0].min_players > MIN_PLAYERS:
        raise _fail(where, "exactly one token must be the First Player (a mirror, always used)")
    disguised = sorted(t.accessory for t in tokens if t.kind == "disguise")
    if disguised != sorted(accessories):
        raise _fail(where, "there must be exactly one Disguise per accessory")
    return tuple(tokens)


def load_components(path: str | Path | None = None) -> Components:
    """Read the data file (default: the packaged ``cards.toml``)."""
    data, where = read_card_toml("card_games.jumblejack", path, DATA_FILE)
    return parse_components(data, where)


@lru_cache(maxsize=1)
def default_components() -> Components:
    return load_components()
