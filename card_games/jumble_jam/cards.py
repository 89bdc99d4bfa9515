"""Jumble Jam components: load ``cards.toml`` and check it against the rulebook's totals."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from card_games.data import read_card_toml
from jamsumo_sim.errors import UserError

KITTY = "kitty"

# Totals printed in the rulebook; a data file that disagrees is rejected with a one-line error.
RULEBOOK_PASTRY_CARDS = 60
RULEBOOK_CARDS_PER_TYPE = 10
RULEBOOK_KITTY_CARDS = 5
RULEBOOK_ORDERS = 20
RULEBOOK_DIE_FACES = 6
RULEBOOK_LAYOUTS = {2: (3, 3), 3: (3, 4), 4: (3, 5), 5: (4, 4)}
RULEBOOK_JARS = 4
RULEBOOK_HAND_LIMIT = 7


@dataclass(frozen=True)
class Card:
    """One physical card: a pastry card (``type`` and ``pastries``) or a Kitty (``pastries`` 0)."""

    id: str
    type: str
    pastries: int
    kind: str = (
        ""  # what a person calls it ("2 pie", "1 jam", "kitty"); equal kinds are interchangeable
    )

    @classmethod
    def make(cls, card_id: str, card_type: str, pastries: int) -> Card:
        kind = KITTY if card_type == KITTY else f"{pastries} {card_type}"
        return cls(card_id, card_type, pastries, kind)


@dataclass(frozen=True)
class Order:
    id: str
    needs: tuple[tuple[str, int], ...]  # (pastry type, how many), in card order
    exact: int
    waste: int

    def need(self, pastry_type: str) -> int:
        return dict(self.needs).get(pastry_type, 0)

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(t for t, _ in self.needs)

    @property
    def label(self) -> str:
        wants = " + ".join(f"{n} {t}" for t, n in self.needs)
        return f"{self.id} ({wants}; {self.exact}/{self.waste} coins)"


@dataclass(frozen=True)
class Layout:
    columns: int
    rows: int
    orders: int


@dataclass(frozen=True)
class Catalog:
    pastry_types: tuple[str, ...]
    wild: str
    cards: dict[str, Card]
    pastry_ids: tuple[str, ...]
    kitty_ids: tuple[str, ...]
    orders: dict[str, Order]
    order_ids: tuple[str, ...]
    die_faces: tuple[str, ...]
    grandma: str
    layouts: dict[int, Layout]
    jars_per_player: int
    hand_limit: int
    exact_orders_to_win: int
    pastry_tokens_per_type: int
    kitty_tokens_per_player: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Catalog:
        return self  # immutable after loading: states share it instead of copying it


def _fail(source: str, problem: str) -> UserError:
    return UserError(f"{source}: {problem}")


def _int(source: str, table: dict[str, Any], key: str, where: str, minimum: int = 0) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise _fail(source, f"{where}: '{key}' must be an integer ≥ {minimum}, not {value!r}")
    return value


def parse_catalog(data: dict[str, Any], source: str) -> Catalog:
    """Build and validate a catalog from parsed TOML; a one-line UserError names what is wrong."""
    if data.get("version") != 1:
        raise _fail(source, f"unsupported version {data.get('version')!r} (expected 1)")
    types = data.get("pastry_types")
    wild = data.get("wild")
    if not isinstance(types, list) or not all(isinstance(t, str) for t in types) or len(types) != 5:
        raise _fail(source, "'pastry_types' must list the 5 non-jam pastry types")
    if len(set(types)) != len(types) or not isinstance(wild, str) or wild in types or wild == KITTY:
        raise _fail(source, "'pastry_types' must be distinct and 'wild' a sixth, different type")
    all_types = [*types, wild]

    cards: dict[str, Card] = {}
    per_type: Counter[str] = Counter()
    seen_kinds: set[tuple[str, int]] = set()
    for index, entry in enumerate(data.get("pastry", [])):
        where = f"pastry entry {index + 1}"
        kind = entry.get("type")
        if kind not in all_types:
            raise _fail(source, f"{where}: unknown pastry type {kind!r}")
        pastries = _int(source, entry, "pastries", where, 1)
        count = _int(source, entry, "count", where, 1)
        if (kind, pastries) in seen_kinds:
            raise _fail(source, f"{where}: {pastries} {kind} is listed twice")
        seen_kinds.add((kind, pastries))
        for k in range(1, count + 1):
            card = Card.make(f"{kind}{pastries}-{k}", kind, pastries)
            cards[card.id] = card
        per_type[kind] += count
    if len(cards) != RULEBOOK_PASTRY_CARDS:
        raise _fail(
            source, f"{len(cards)} pastry cards, but the rulebook has {RULEBOOK_PASTRY_CARDS}"
        )
    for kind in all_types:
        if per_type[kind] != RULEBOOK_CARDS_PER_TYPE:
            raise _fail(
                source,
                f"{per_type[kind]} {kind} cards, but the rulebook has {RULEBOOK_CARDS_PER_TYPE} of each type",
            )
    pastry_ids = tuple(cards)

    kitty_count = _int(source, data.get("kitty", {}), "cards", "[kitty]")
    if kitty_count != RULEBOOK_KITTY_CARDS:
        raise _fail(
            source, f"{kitty_count} Kitty cards, but the rulebook has {RULEBOOK_KITTY_CARDS}"
        )
    kitty_ids = tuple(f"{KITTY}-{k}" for k in range(1, kitty_count + 1))
    for kid in kitty_ids:
        cards[kid] = Card.make(kid, KITTY, 0)

    orders: dict[str, Order] = {}
    for index, entry in enumerate(data.get("order", [])):
        oid = entry.get("id")
        where = f"order {oid or index + 1}"
        if not isinstance(oid, str) or oid in orders:
            raise _fail(source, f"{where}: each order needs a unique string 'id'")
        needs = entry.get("needs")
        if not isinstance(needs, dict) or not needs:
            raise _fail(source, f"{where}: 'needs' must map pastry types to counts")
        for kind, n in needs.items():
            if kind not in types:
                raise _fail(source, f"{where}: an order cannot ask for {kind!r}")
            if not isinstance(n, int) or n < 1:
                raise _fail(source, f"{where}: needs {n!r} {kind}")
        exact = _int(source, entry, "exact", where, 1)
        waste = _int(source, entry, "waste", where, 0)
        if waste >= exact:
            raise _fail(source, f"{where}: the waste reward must be lower than the exact reward")
        orders[oid] = Order(oid, tuple(needs.items()), exact, waste)
    if len(orders) != RULEBOOK_ORDERS:
        raise _fail(source, f"{len(orders)} order cards, but the rulebook has {RULEBOOK_ORDERS}")

    die = data.get("die", {})
    faces = die.get("faces")
    grandma = die.get("grandma")
    if (
        not isinstance(faces, list)
        or len(faces) != RULEBOOK_DIE_FACES
        or sorted(faces) != sorted([*types, grandma])
    ):
        raise _fail(source, "the die must have one face per pastry type and the Grandma face")

    layouts: dict[int, Layout] = {}
    raw_layouts = data.get("layout", {})
    for players, (columns, rows) in RULEBOOK_LAYOUTS.items():
        entry = raw_layouts.get(str(players))
        if not isinstance(entry, dict):
            raise _fail(source, f"[layout] has no entry for {players} players")
        layout = Layout(
            _int(source, entry, "columns", f"layout {players}", 1),
            _int(source, entry, "rows", f"layout {players}", 1),
            _int(source, entry, "orders", f"layout {players}", 1),
        )
        if (layout.columns, layout.rows) != (columns, rows) or layout.orders != players + 1:
            raise _fail(
                source,
                f"layout for {players} players must be {columns}x{rows} with {players + 1} orders",
            )
        layouts[players] = layout

    rules = data.get("rules", {})
    jars = _int(source, rules, "jars_per_player", "[rules]", 1)
    hand_limit = _int(source, rules, "hand_limit", "[rules]", 1)
    if jars != RULEBOOK_JARS or hand_limit != RULEBOOK_HAND_LIMIT:
        raise _fail(source, f"the rulebook has {RULEBOOK_JARS} jars each and a hand limit of 7")
    kick = data.get("kickstarter", {})
    return Catalog(
        pastry_types=tuple(types),
        wild=wild,
        cards=cards,
        pastry_ids=pastry_ids,
        kitty_ids=kitty_ids,
        orders=orders,
        order_ids=tuple(orders),
        die_faces=tuple(faces),
        grandma=grandma,
        layouts=layouts,
        jars_per_player=jars,
        hand_limit=hand_limit,
        exact_orders_to_win=_int(source, rules, "exact_orders_to_win", "[rules]", 1),
        pastry_tokens_per_type=_int(source, kick, "pastry_tokens_per_type", "[kickstarter]", 1),
        kitty_tokens_per_player=_int(source, kick, "kitty_tokens_per_player", "[kickstarter]", 1),
    )


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load the packaged ``cards.toml`` (or another file, for tests of a broken copy)."""
    data, source = read_card_toml("card_games.jumble_jam", path)
    return parse_catalog(data, source)
