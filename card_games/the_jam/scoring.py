"""End-of-game scoring: recipe points, the Young man, the Bear and the task cards.

Each made recipe may count toward at most one task ("a jar of jam can be used in only one
combination"), and the assignment is the one that maximises the player's total. The search is
exact and small: every Jam-for-winter card is either skipped or completed with one choice of 3 of
its 4 pictured jams, every Pies-for-Grandma card likewise with 2 of its 3 pies, and the recipes
left over are split over the player's Big tea parties by a dynamic programme over recipe kinds.
Pinecone jams stand in for any jam; using a real jam before a pinecone is never worse, because a
pinecone can replace any jam later.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations, product
from operator import itemgetter

from card_games.the_jam.cards import JAM, PIE, PINECONE, Card, CardSet, TaskCard, TaskRules

FRUITS = (
    "strawberry",
    "raspberry",
    "apple",
    "cherry",
    "currant",
    "gooseberry",
    "peach",
    "cranberry",
)

FRUIT_INDEX = {fruit: i for i, fruit in enumerate(FRUITS)}


def _slot_sums(slots: list[tuple[int, ...]]) -> tuple[int, ...]:
    """Per fruit, the sum over ``slots`` (each one count per fruit); zeros for none."""
    if not slots:
        return (0,) * len(FRUITS)
    return tuple(map(sum, zip(*slots, strict=True)))


@dataclass(frozen=True)
class Breakdown:
    recipes: int
    young_man: int
    bear: int
    winter: int
    grandma: int
    party: int
    yumyum: int

    @property
    def tasks(self) -> int:
        return self.winter + self.grandma + self.party + self.yumyum

    @property
    def total(self) -> int:
        return self.recipes + self.young_man + self.bear + self.tasks

    def to_json(self) -> dict[str, int]:
        return {
            "recipes": self.recipes,
            "young_man": self.young_man,
            "bear": self.bear,
            "winter": self.winter,
            "grandma": self.grandma,
            "party": self.party,
            "yumyum": self.yumyum,
            "total": self.total,
        }


def kind_counts(cards: Iterable[Card]) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """(jams per fruit, pinecone jams, pies per fruit) of a collection of made recipes."""
    jams: Counter[str] = Counter()
    pies: Counter[str] = Counter()
    pine = 0
    for card in cards:
        if card.kind == JAM:
            if card.top == PINECONE:
                pine += 1
            else:
                jams[card.top] += 1
        elif card.kind == PIE:
            pies[card.top] += 1
    return tuple(map(jams.__getitem__, FRUITS)), pine, tuple(map(pies.__getitem__, FRUITS))


def _slots(fruits: Iterable[str]) -> tuple[int, ...]:
    counter = Counter(fruits)
    return tuple(map(counter.__getitem__, FRUITS))


def task_points(
    cards: Sequence[Card], tasks: Sequence[TaskCard], rules: TaskRules
) -> tuple[int, int, int]:
    """(winter, grandma, party) points of made recipes ``cards`` for task cards ``tasks``."""
    jams, pine, pies = kind_counts(cards)
    tasks = tuple(tasks)
    # recipes beyond what the task cards could ever use change nothing: cap them (cache hits)
    jam_cap, pine_cap, pie_cap = _caps(tasks)
    jams = tuple(map(min, jams, jam_cap))  # elementwise (all these tuples have one slot per fruit)
    pies = tuple(map(min, pies, pie_cap))
    return _task_points(jams, min(pine, pine_cap), pies, tasks, rules)


@lru_cache(maxsize=4096)
def _caps(tasks: tuple[TaskCard, ...]) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    jams = Counter(f for t in tasks for f in (*t.jams, *t.party_jams))
    pies = Counter(f for t in tasks for f in (*t.pies, *t.party_pies))
    return tuple(jams[f] for f in FRUITS), sum(jams.values()), tuple(pies[f] for f in FRUITS)


@lru_cache(maxsize=200_000)
def _task_points(
    jams: tuple[int, ...],
    pine: int,
    pies: tuple[int, ...],
    tasks: tuple[TaskCard, ...],
    rules: TaskRules,
) -> tuple[int, int, int]:
    winters = [t for t in tasks if t.type == "winter"]
    grandmas = [t for t in tasks if t.type == "grandma"]
    groupings = _groupings(tasks)
    parties = groupings[0]  # every grouping pictures the same recipes in all
    party_jams = _slot_sums([p[0] for p in parties])
    party_pies = _slot_sums([p[1] for p in parties])
    party_jam_total = sum(party_jams)
    # Winter cards use only jams and Grandma cards only pies, so their choices are enumerated
    # separately; the states are deduplicated on what the tea parties could still use.
    winter_states: dict[tuple[tuple[int, ...], int], int] = {(tuple(jams), pine): 0}
    for w in winters:
        nxt = dict(winter_states)
        for (j_left, p_left), pts in winter_states.items():
            for choice in combinations(w.jams, rules.winter_need):
                left = list(j_left)
                short = 0
                for f in choice:
                    k = FRUIT_INDEX[f]
                    if left[k] > 0:
                        left[k] -= 1
                    else:
                        short += 1  # a pinecone jam stands in
                if short <= p_left:
                    key = (tuple(left), p_left - short)
                    nxt[key] = max(nxt.get(key, -1), pts + rules.winter_points)
        winter_states = nxt
    grandma_states: dict[tuple[int, ...], int] = {tuple(pies): 0}
    for g in grandmas:
        nxt = dict(grandma_states)
        for p_left_pies, pts in grandma_states.items():
            for choice in combinations(g.pies, rules.grandma_need):
                left = list(p_left_pies)
                if all(left[FRUIT_INDEX[f]] > 0 for f in choice):
                    for f in choice:
                        left[FRUIT_INDEX[f]] -= 1
                    key = tuple(left)
                    nxt[key] = max(nxt.get(key, -1), pts + rules.grandma_points)
        grandma_states = nxt
    # only what the parties can hold matters: cap it, keep the best task points per capped state
    capped_w: dict[tuple[tuple[int, ...], int], int] = {}
    for (j_left, p_left), pts in winter_states.items():
        key = (
            tuple(map(min, j_left, party_jams)),
            min(p_left, party_jam_total),
        )
        capped_w[key] = max(capped_w.get(key, -1), pts)
    capped_g: dict[tuple[int, ...], int] = {}
    for p_left_pies, pts in grandma_states.items():
        key = tuple(map(min, p_left_pies, party_pies))
        capped_g[key] = max(capped_g.get(key, -1), pts)
    # every (winter, grandma) choice with the tea parties' best from what it leaves; the answer
    # is the first pair, in this order, with the highest total (ties keep that split)
    pairs = [
        (w_pts + g_pts, j_left, p_left, p_left_pies, w_pts, g_pts)
        for (j_left, p_left), w_pts in capped_w.items()
        for p_left_pies, g_pts in capped_g.items()
    ]
    # no party scores more than its best count of filled slots: the highest total is found
    # trying the pairs with the most winter + grandma points first, until none can reach it
    party_max = max(
        sum(
            max(map(rules.party_points, range(sum(jam_slots) + sum(pie_slots) + 1)))
            for jam_slots, pie_slots in grouping
        )
        for grouping in groupings
    )
    # and a pair whose recipes left could not reach the best total even if they all found a
    # party slot, split as well as possible, is skipped without the exact search
    k = len(parties)

    def reach(j_left: tuple[int, ...], p_left: int, p_left_pies: tuple[int, ...]) -> int:
        placed = min(sum(j_left) + p_left, party_jam_total) + sum(p_left_pies)
        return _split_bound(placed, k, rules)

    top = -1
    for base, j_left, p_left, p_left_pies, _, _ in sorted(pairs, key=itemgetter(0), reverse=True):
        if base + party_max <= top:
            break
        if base + reach(j_left, p_left, p_left_pies) <= top:
            continue
        top = max(top, base + _party_best_of(j_left, p_left, p_left_pies, groupings, rules))
    for base, j_left, p_left, p_left_pies, w_pts, g_pts in pairs:
        if base + reach(j_left, p_left, p_left_pies) >= top:
            party = _party_best_of(j_left, p_left, p_left_pies, groupings, rules)  # memoised
            if base + party == top:
                return w_pts, g_pts, party
    raise AssertionError("the best total is some pair's")  # pragma: no cover


Party = tuple[tuple[int, ...], tuple[int, ...]]  # (jam slots per fruit, pie slots per fruit)


@lru_cache(maxsize=1024)
def _split_bound(placed: int, parties: int, rules: TaskRules) -> int:
    """The most ``parties`` tea parties could score holding ``placed`` recipes in all (slots
    ignored: an upper bound on any real split)."""
    if parties <= 1:
        return rules.party_points(placed) if parties == 1 else 0
    return max(
        rules.party_points(here) + _split_bound(placed - here, parties - 1, rules)
        for here in range(placed + 1)
    )


@lru_cache(maxsize=4096)  # a pure function of the task cards, asked for on every scoring miss
def _groupings(tasks: tuple[TaskCard, ...]) -> tuple[tuple[Party, ...], ...]:
    """Every way to form the player's Big tea parties: one card of each type per party.

    With one card per type there is one party. With two (2 players) the deal order must not
    matter (it is hidden and arbitrary), so every grouping is listed and the player scores the
    best one: "players score points from all the task cards they received".
    """
    by_type: dict[str, list[TaskCard]] = {}
    for t in tasks:
        by_type.setdefault(t.type, []).append(t)
    lists = sorted(by_type.values(), key=len, reverse=True)
    if not lists:
        return ((),)
    count = len(lists[0])
    out: set[tuple[Party, ...]] = set()
    # the first type's cards stay in order; every other type's cards are permuted over them
    for orders in product(*(permutations(v) for v in lists[1:])):
        parties = []
        for i in range(count):
            members = [lists[0][i], *(order[i] for order in orders if i < len(order))]
            jams = [f for m in members for f in m.party_jams]
            pies = [f for m in members for f in m.party_pies]
            parties.append((_slots(jams), _slots(pies)))
        out.add(tuple(sorted(parties)))  # the order of the parties does not matter
    return tuple(sorted(out))


def _party_best_of(
    jams: tuple[int, ...],
    pine: int,
    pies: tuple[int, ...],
    groupings: tuple[tuple[Party, ...], ...],
    rules: TaskRules,
) -> int:
    """The best tea-party points over the player's possible groupings of task cards."""
    return max(_party_best(jams, pine, pies, parties, rules) for parties in groupings)


@lru_cache(maxsize=200_000)
def _party_best(
    jams: tuple[int, ...],
    pine: int,
    pies: tuple[int, ...],
    parties: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    rules: TaskRules,
) -> int:
    """Best total tea-party points from the recipes left, split over the parties."""
    if not parties:
        return 0
    if len(parties) == 1:
        ((jam_slots, pie_slots),) = parties
        jam = sum(map(min, jams, jam_slots))
        jam = min(jam + pine, sum(jam_slots))
        pie = sum(map(min, pies, pie_slots))
        return rules.party_points(jam + pie)
    if len(parties) == 2:
        return _two_parties(jams, pine, pies, parties, rules)
    return _party_dp(jams, pine, pies, parties, rules)


def _interval(
    counts: tuple[int, ...], a: tuple[int, ...], b: tuple[int, ...]
) -> tuple[int, int, int]:
    """(total placed, least and most of it party A can hold) for one recipe type over two parties.

    Per kind, m = min(count, a + b) recipes are placed and A takes between max(0, m - b) and
    min(m, a); sums of integer intervals are intervals, so every split in between is possible.
    """
    total = lo = hi = 0
    for c, x, y in zip(counts, a, b, strict=True):
        m = min(c, x + y)
        total += m
        lo += max(0, m - y)
        hi += min(m, x)
    return total, lo, hi


def _two_parties(
    jams: tuple[int, ...],
    pine: int,
    pies: tuple[int, ...],
    parties: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    rules: TaskRules,
) -> int:
    """Exact best for two tea parties: place as many recipes as possible, then pick A's share.

    Filling a slot never lowers a party's points, so some best split places the most recipes;
    pinecone jams then fill free jam slots of either party (A's jam share grows by up to the
    pinecones used there, bounded by A's jam slots and by what B cannot take).
    """
    (ja, pa), (jb, pb) = parties
    cap_a, cap_b = sum(ja), sum(jb)
    real, jlo, jhi = _interval(jams, ja, jb)
    jam_total = min(real + pine, cap_a + cap_b)
    jlo = max(jlo, jam_total - cap_b)
    jhi = min(jhi + (jam_total - real), cap_a)
    pie_total, plo, phi = _interval(pies, pa, pb)
    total = jam_total + pie_total
    best = 0
    for share in range(jlo + plo, jhi + phi + 1):
        best = max(best, rules.party_points(share) + rules.party_points(total - share))
    return best


def _party_dp(
    jams: tuple[int, ...],
    pine: int,
    pies: tuple[int, ...],
    parties: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...],
    rules: TaskRules,
) -> int:
    """Reference dynamic programme over kinds for any number of parties (tests compare to it)."""
    if not parties:
        return 0
    k = len(parties)
    # state: per party (jam slots filled, pie slots filled)
    states: set[tuple[int, ...]] = {(0,) * (2 * k)}
    for offset, counts in ((0, jams), (1, pies)):
        for fi in range(len(FRUITS)):
            have = counts[fi]
            caps = [parties[p][offset][fi] for p in range(k)]
            if have == 0 or sum(caps) == 0:
                continue
            splits = _splits(have, tuple(caps))
            states = {
                tuple(s[i] + (split[i // 2] if i % 2 == offset else 0) for i in range(2 * k))
                for s in states
                for split in splits
            }
    best = 0
    jam_slots = [sum(parties[p][0]) for p in range(k)]
    for s in states:
        free = tuple(jam_slots[p] - s[2 * p] for p in range(k))
        for split in _splits(pine, free):
            best = max(
                best, sum(rules.party_points(s[2 * p] + s[2 * p + 1] + split[p]) for p in range(k))
            )
    return best


@lru_cache(maxsize=10_000)
def _splits(have: int, caps: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Ways to hand out at most ``have`` items over bins with capacities ``caps`` (maximal ones)."""
    if len(caps) == 1:
        return ((min(have, caps[0]),),)
    out = []
    for x in range(min(have, caps[0]) + 1):
        for rest in _splits(have - x, caps[1:]):
            out.append((x, *rest))
    return tuple(out)


def yum_points(cards: Sequence[Card], tasks: Sequence[TaskCard], rules: TaskRules) -> int:
    """Yum-yum: per favourite-ingredient bottom half among the made recipes, for every Yum-yum card."""
    total = 0
    for t in tasks:
        if t.type == "yumyum":
            total += rules.yum_per_card * sum(1 for c in cards if c.bottom == t.favourite)
    return total


def score_player(
    cs: CardSet,
    made: Sequence[Card],
    tasks: Sequence[TaskCard],
    young_man: bool,
    bear: bool,
) -> Breakdown:
    winter, grandma, party = task_points(made, tasks, cs.rules)
    return Breakdown(
        recipes=sum(c.points for c in made),
        young_man=cs.young_man_points if young_man else 0,
        bear=cs.bear_points if bear else 0,
        winter=winter,
        grandma=grandma,
        party=party,
        yumyum=yum_points(made, tasks, cs.rules),
    )
