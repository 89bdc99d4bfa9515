"""Loading and validating The Jam's card data (``cards.toml``).

Every card content (recipes, ingredient halves, points, task cards) lives in the TOML file; this
module turns it into frozen values and checks it against the rulebook totals, so an edited file
that no longer adds up fails at start-up with one clear line naming the file and the problem.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from card_games.data import read_card_toml
from jamsumo_sim.errors import UserError

# Rulebook totals (known, not assumed): 72 game cards incl. the Bear and the Young man, 12 task
# cards in three types of four.
GAME_CARDS = 72
TASK_CARDS = 12
TASK_TYPES = ("winter", "grandma", "yumyum")
TASKS_PER_TYPE = 4
PINECONE = "pinecone"
JAM, PIE, SALAD, SPECIAL = "jam", "pie", "salad", "special"
BEAR, YOUNG_MAN = "special:bear", "special:young_man"


@dataclass(frozen=True)
class Card:
    """One game card: a recipe top (jam, pie or salad) and an ingredient bottom, or a special."""

    id: str
    kind: str  # jam | pie | salad | special
    top: str  # the recipe's fruit ("" for salads and specials)
    fruits: tuple[str, ...]  # a salad's three fruits
    bottom: str  # ingredient half ("" for specials)
    points: int
    label: str  # what a person reads, identical for interchangeable copies

    @property
    def is_recipe(self) -> bool:
        return self.kind in (JAM, PIE, SALAD)


@dataclass(frozen=True)
class TaskCard:
    id: str
    type: str  # winter | grandma | yumyum
    jams: tuple[str, ...]  # winter: pictured jams
    pies: tuple[str, ...]  # grandma: pictured pies
    favourite: str  # yumyum: the favourite ingredient
    party_jams: tuple[str, ...]
    party_pies: tuple[str, ...]

    def describe(self) -> str:
        party = (
            "+".join(self.party_jams)
            + " jams"
            + (f", {'+'.join(self.party_pies)} pie" if self.party_pies else "")
        )
        if self.type == "winter":
            main = f"Jam for winter: 3 of {', '.join(self.jams)} jams"
        elif self.type == "grandma":
            main = f"Pies for Grandma: 2 of {', '.join(self.pies)} pies"
        else:
            main = f"Yum-yum: {self.favourite}"
        return f"{self.id} {main} · tea party: {party}"


@dataclass(frozen=True)
class TaskRules:
    winter_need: int
    winter_points: int
    grandma_need: int
    grandma_points: int
    party_min: int
    party_scale: tuple[tuple[int, int], ...]  # (recipes held, points), ascending
    yum_per_card: int

    def party_points(self, held: int) -> int:
        best = 0
        for count, points in self.party_scale:
            if held >= count:
                best = points
        return best if held >= self.party_min else 0


@dataclass(frozen=True)
class CardSet:
    cards: dict[str, Card]  # id -> card, in file order
    tasks: dict[str, TaskCard]
    rules: TaskRules
    tiers: dict[str, int]
    young_man_points: int
    bear_points: int

    def game_card_ids(self, kids: bool = False) -> list[str]:
        """The deck's card ids; the kids' game leaves out the specials and the pinecone jams."""
        out = []
        for card in self.cards.values():
            if kids and (card.kind == SPECIAL or (card.kind == JAM and card.top == PINECONE)):
                continue
            out.append(card.id)
        return out

    def tasks_of_type(self, kind: str) -> list[str]:
        return [t.id for t in self.tasks.values() if t.type == kind]


class _Checker:
    def __init__(self, where: str) -> None:
        self.where = where

    def fail(self, message: str) -> None:
        raise UserError(f"{self.where}: {message}")

    def table(self, data: Any, key: str) -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            self.fail(f"missing table [{key}]")
        return value

    def int_(self, value: Any, what: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            self.fail(f"{what} must be a non-negative integer, not {value!r}")
        return value

    def strings(self, value: Any, what: str) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.fail(f"{what} must be a list of strings")
        return tuple(value)


def _recipe_label(kind: str, top: str, fruits: tuple[str, ...], bottom: str) -> str:
    if kind == SALAD:
        return f"fruit salad {'+'.join(fruits)} ({bottom})"
    return f"{top} {kind} ({bottom})"


def parse_cards(data: dict[str, Any], where: str) -> CardSet:
    """Build and validate a CardSet from parsed TOML."""
    c = _Checker(where)
    if data.get("version") != 1:
        c.fail(f"unsupported version {data.get('version')!r} (expected version = 1)")
    tiers = {
        k: c.int_(v, f"ingredient tier of {k}")
        for k, v in c.table(data, "ingredients").items()
        if k != "assumed"
    }
    if PINECONE not in tiers:
        c.fail("[ingredients] must list the pinecone")
    points = c.table(data, "points")
    jam_points = points.get("jam")
    pie_points = points.get("pie")
    for name, table in (("jam", jam_points), ("pie", pie_points)):
        if not isinstance(table, list) or len(table) != 4:
            c.fail(f"points.{name} must list 4 values (tiers 0-3)")
    salad_base = c.int_(points.get("salad_base"), "points.salad_base")
    for fruit, tier in tiers.items():
        if tier > 3:
            c.fail(f"ingredient {fruit} has tier {tier}; tiers are 0-3")

    def fruit(name: Any, what: str, allow_pinecone: bool = True) -> str:
        if name not in tiers or (not allow_pinecone and name == PINECONE):
            c.fail(f"{what}: unknown ingredient {name!r}")
        return name

    cards: dict[str, Card] = {}
    copies: Counter[str] = Counter()

    def add(kind: str, top: str, fruits: tuple[str, ...], bottom: str, pts: int) -> None:
        label = _recipe_label(kind, top, fruits, bottom)
        copies[label] += 1
        key = "+".join(fruits) if kind == SALAD else top
        card_id = f"{kind}:{key}:{bottom}:{copies[label]}"
        cards[card_id] = Card(card_id, kind, top, fruits, bottom, pts, label)

    for entry in data.get("jams", []):
        top = fruit(entry.get("top"), "a jam's top")
        for bottom in c.strings(entry.get("bottoms"), f"{top} jam bottoms"):
            fruit(bottom, f"{top} jam bottom")
            if bottom == top:
                c.fail(
                    f"a {top} jam card has the same bottom half ({bottom}); top and bottom differ"
                )
            add(JAM, top, (), bottom, int(jam_points[tiers[top]]))
    for entry in data.get("pies", []):
        top = fruit(entry.get("top"), "a pie's top", allow_pinecone=False)
        for bottom in c.strings(entry.get("bottoms"), f"{top} pie bottoms"):
            fruit(bottom, f"{top} pie bottom")
            if bottom == top:
                c.fail(
                    f"a {top} pie card has the same bottom half ({bottom}); top and bottom differ"
                )
            add(PIE, top, (), bottom, int(pie_points[tiers[top]]))
    for entry in data.get("salads", []):
        fruits = c.strings(entry.get("fruits"), "a fruit salad's fruits")
        for f in fruits:
            fruit(f, "a fruit salad fruit", allow_pinecone=False)
        if len(fruits) != 3 or len(set(fruits)) != 3:
            c.fail(f"fruit salad {'+'.join(fruits)} must need three different fruits")
        bottom = fruit(entry.get("bottom"), "a fruit salad's bottom")
        if bottom in fruits:
            c.fail(f"fruit salad {'+'.join(fruits)} has one of its own fruits ({bottom}) as bottom")
        add(SALAD, "", fruits, bottom, salad_base + sum(tiers[f] for f in fruits))
    specials = c.table(data, "specials")
    for key, card_id in (("bear", BEAR), ("young_man", YOUNG_MAN)):
        label = specials.get(key)
        if not isinstance(label, str):
            c.fail(f"[specials] must name the {key}")
        cards[card_id] = Card(card_id, SPECIAL, key, (), "", 0, label)

    # tallies: the rulebook's 72 cards, and the per-kind and per-ingredient counts of the list
    if len(cards) != GAME_CARDS:
        c.fail(f"{len(cards)} game cards listed; the rulebook has {GAME_CARDS}")
    tallies = c.table(data, "tallies")
    kinds = Counter(card.kind for card in cards.values())
    for kind, key in ((JAM, "jams"), (PIE, "pies"), (SALAD, "salads")):
        want = c.int_(tallies.get(key), f"tallies.{key}")
        if kinds[kind] != want:
            c.fail(f"{kinds[kind]} {key} listed but tallies.{key} = {want}")
    halves = Counter(card.bottom for card in cards.values() if card.kind != SPECIAL)
    expected = {k: v for k, v in c.table(tallies, "ingredient_halves").items()}
    for name, want in expected.items():
        if halves[name] != c.int_(want, f"tallies.ingredient_halves.{name}"):
            c.fail(
                f"{halves[name]} cards show {name} on their bottom half but the tally says {want}"
            )
    extra = sorted(set(halves) - set(expected))
    if extra:
        c.fail(f"ingredient halves {extra} are not in [tallies.ingredient_halves]")

    tasks = _parse_tasks(data, c, fruit)
    rules = _parse_rules(c.table(data, "task_rules"), c)
    return CardSet(
        cards=cards,
        tasks=tasks,
        rules=rules,
        tiers=tiers,
        young_man_points=c.int_(points.get("young_man"), "points.young_man"),
        bear_points=c.int_(points.get("bear"), "points.bear"),
    )


def _parse_tasks(data: dict[str, Any], c: _Checker, fruit: Any) -> dict[str, TaskCard]:
    tasks: dict[str, TaskCard] = {}
    for entry in data.get("tasks", []):
        task_id = entry.get("id")
        kind = entry.get("type")
        if not isinstance(task_id, str) or task_id in tasks:
            c.fail(f"task card id {task_id!r} is missing or repeated")
        if kind not in TASK_TYPES:
            c.fail(f"task {task_id}: type {kind!r} is not one of {', '.join(TASK_TYPES)}")
        jams = tuple(
            fruit(f, f"task {task_id}")
            for f in c.strings(entry.get("jams", []), f"task {task_id} jams")
        )
        pies = tuple(
            fruit(f, f"task {task_id}")
            for f in c.strings(entry.get("pies", []), f"task {task_id} pies")
        )
        party_jams = c.strings(entry.get("party_jams"), f"task {task_id} party_jams")
        party_pies = c.strings(entry.get("party_pies"), f"task {task_id} party_pies")
        for f in party_jams + party_pies:
            fruit(f, f"task {task_id} tea party")
        favourite = entry.get("favourite", "")
        if kind == "winter" and (len(jams) != 4 or len(set(jams)) != 4):
            c.fail(f"task {task_id}: Jam for winter pictures 4 different jams")
        if kind == "grandma" and (len(pies) != 3 or len(set(pies)) != 3):
            c.fail(f"task {task_id}: Pies for Grandma pictures 3 different pies")
        if kind == "yumyum":
            fruit(favourite, f"task {task_id} favourite")
        tasks[task_id] = TaskCard(task_id, kind, jams, pies, favourite, party_jams, party_pies)
    if len(tasks) != TASK_CARDS:
        c.fail(f"{len(tasks)} task cards listed; the rulebook has {TASK_CARDS}")
    per_type = Counter(t.type for t in tasks.values())
    for kind in TASK_TYPES:
        if per_type[kind] != TASKS_PER_TYPE:
            c.fail(
                f"{per_type[kind]} {kind} task cards listed; there are {TASKS_PER_TYPE} of each type"
            )
    # one card of each type together picture a whole tea party: 6 jams and 2 pies
    for w in (t for t in tasks.values() if t.type == "winter"):
        for g in (t for t in tasks.values() if t.type == "grandma"):
            for y in (t for t in tasks.values() if t.type == "yumyum"):
                jams = len(w.party_jams) + len(g.party_jams) + len(y.party_jams)
                pies = len(w.party_pies) + len(g.party_pies) + len(y.party_pies)
                if (jams, pies) != (6, 2):
                    c.fail(
                        f"tasks {w.id}+{g.id}+{y.id} picture {jams} jams and {pies} pies for the tea party, not 6 and 2"
                    )
    return tasks


def _parse_rules(table: dict[str, Any], c: _Checker) -> TaskRules:
    scale_table = table.get("party_scale")
    if not isinstance(scale_table, dict):
        c.fail("missing table [task_rules.party_scale]")
    scale = []
    for key, value in scale_table.items():
        if key == "assumed":
            continue
        if not key.isdigit():
            c.fail(f"task_rules.party_scale key {key!r} must be a number of recipes")
        scale.append((int(key), c.int_(value, f"task_rules.party_scale.{key}")))
    yum = table.get("yumyum")
    if not isinstance(yum, dict):
        c.fail("missing table [task_rules.yumyum]")
    return TaskRules(
        winter_need=c.int_(table.get("winter_need"), "task_rules.winter_need"),
        winter_points=c.int_(table.get("winter_points"), "task_rules.winter_points"),
        grandma_need=c.int_(table.get("grandma_need"), "task_rules.grandma_need"),
        grandma_points=c.int_(table.get("grandma_points"), "task_rules.grandma_points"),
        party_min=c.int_(table.get("party_min"), "task_rules.party_min"),
        party_scale=tuple(sorted(scale)),
        yum_per_card=c.int_(yum.get("per_card"), "task_rules.yumyum.per_card"),
    )


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card file (default: the packaged ``cards.toml``)."""
    if path is None:
        return _packaged()
    data, where = read_card_toml("card_games.the_jam", path)
    return parse_cards(data, where)


@cache
def _packaged() -> CardSet:
    data, where = read_card_toml("card_games.the_jam")
    return parse_cards(data, where)


_RANKS: dict[int, tuple[CardSet, dict[str, int]]] = {}


def card_rank(cs: CardSet) -> dict[str, int]:
    """Card id -> position in the order (label, id): the fixed order trade bundles are built in."""
    hit = _RANKS.get(id(cs))
    if hit is None or hit[0] is not cs:
        order = sorted(cs.cards, key=lambda c: (cs.cards[c].label, c))
        hit = _RANKS[id(cs)] = (cs, {c: i for i, c in enumerate(order)})
    return hit[1]
