"""Task scoring: hand-built cases, and the exact search against a brute force on small collections."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from card_games.the_jam.cards import JAM, PIE, PINECONE, Card, TaskCard
from card_games.the_jam.scoring import FRUITS, score_player, task_points, yum_points
from tests.card_games.the_jam.helpers import CARDS, CS, jam_of, pie_of, pinecone_jam

RULES = CS.rules
W = [t for t in CS.tasks.values() if t.type == "winter"]
G = [t for t in CS.tasks.values() if t.type == "grandma"]
Y = [t for t in CS.tasks.values() if t.type == "yumyum"]


def cards(*ids: str) -> list[Card]:
    return [CARDS[i] for i in ids]


def jams(fruits: list[str]) -> list[Card]:
    out: list[str] = []
    for f in fruits:
        out.append(jam_of(f, exclude=out) if f != PINECONE else pinecone_jam(exclude=out))
    return cards(*out)


def pies(fruits: list[str]) -> list[Card]:
    out: list[str] = []
    for f in fruits:
        out.append(pie_of(f, exclude=out))
    return cards(*out)


def test_winter_needs_three_of_its_four_jams() -> None:
    w = W[0]
    assert task_points(jams(list(w.jams[:2])), [w], RULES)[0] == 0
    assert task_points(jams(list(w.jams[:3])), [w], RULES)[0] == RULES.winter_points
    assert task_points(jams(list(w.jams)), [w], RULES)[0] == RULES.winter_points  # not twice


def test_pinecone_jam_stands_in_for_any_jam() -> None:
    w = W[0]
    assert task_points(jams([*w.jams[:2], PINECONE]), [w], RULES)[0] == RULES.winter_points


def test_grandma_needs_two_of_its_three_pies() -> None:
    g = G[0]
    assert task_points(pies(list(g.pies[:1])), [g], RULES)[1] == 0
    assert task_points(pies(list(g.pies[:2])), [g], RULES)[1] == RULES.grandma_points


def test_tea_party_needs_four_pictured_recipes() -> None:
    w, g, y = W[0], G[0], Y[0]
    party_jams = [*w.party_jams, *g.party_jams, *y.party_jams]
    party_pies = [*g.party_pies, *y.party_pies]
    three = jams(party_jams[:3])
    four = jams(party_jams[:3]) + pies(party_pies[:1])
    assert task_points(three, [w, g, y], RULES)[2] == 0
    assert task_points(four, [w, g, y], RULES)[2] == RULES.party_points(4) > 0


def test_a_recipe_counts_for_one_task_only_and_the_best_split_is_chosen() -> None:
    # a winter card and a tea party that share a jam: 4 jams cannot pay for both 3 + 4 recipes
    w, g, y = W[0], G[0], Y[0]
    tasks = [w, g, y]
    party = [f for f in (*w.party_jams, *g.party_jams, *y.party_jams)]
    shared = [f for f in w.jams if f in party]
    if not shared:  # data without overlap: build it from the first party jam instead
        shared = [party[0]]
    winter_only = [f for f in w.jams if f != shared[0]][:2]
    party_only = [f for f in party if f != shared[0]][:3]
    collection = jams([*winter_only, shared[0], *party_only])
    winter, grandma, tea = task_points(collection, tasks, RULES)
    # either the winter card (7) with 3 party recipes (0), or the party with 4 (6): never both
    assert winter + tea == max(RULES.winter_points, RULES.party_points(4))
    assert not (winter and tea)


def test_yum_yum_counts_favourite_bottom_halves() -> None:
    y = Y[0]
    with_fav = [c for c in CARDS.values() if c.bottom == y.favourite and c.kind in (JAM, PIE)][:3]
    others = [c for c in CARDS.values() if c.bottom not in ("", y.favourite) and c.kind == JAM][:2]
    assert yum_points(with_fav + others, [y], RULES) == 3 * RULES.yum_per_card


def test_score_adds_young_man_and_bear() -> None:
    made = jams(["strawberry", "apple"])
    plain = score_player(CS, made, [], False, False)
    both = score_player(CS, made, [], True, True)
    assert plain.total == sum(c.points for c in made)
    assert both.total - plain.total == CS.young_man_points + CS.bear_points


# -- brute force --------------------------------------------------------------------------------
def _matched(recipes: list[Card], slots: list[tuple[str, str]]) -> int:
    """Most recipes matched to distinct slots (kind, fruit); pinecone jams fit any jam slot."""
    best = 0
    for perm in itertools.permutations(range(len(slots)), min(len(recipes), len(slots))):
        count = 0
        for r, s in zip(recipes, perm, strict=False):
            kind, fruit = slots[s]
            if r.kind == kind and (r.top == fruit or (kind == JAM and r.top == PINECONE)):
                count += 1
        best = max(best, count)
    return best


def brute(collection: list[Card], tasks: list[TaskCard]) -> int:
    winters = [t for t in tasks if t.type == "winter"]
    grandmas = [t for t in tasks if t.type == "grandma"]
    by_type: dict[str, list[TaskCard]] = {}
    for t in tasks:
        by_type.setdefault(t.type, []).append(t)
    # every grouping of the task cards into parties (one card of each type per party): the
    # player scores the best one (2 players: the deal order is hidden and must not matter)
    lists = list(by_type.values())
    return max(
        _brute_grouping(collection, winters, grandmas, _grouped(lists[0], orders))
        for orders in itertools.product(*(itertools.permutations(v) for v in lists[1:]))
    )


def _grouped(first: list[TaskCard], orders: tuple[tuple[TaskCard, ...], ...]) -> list[list[Any]]:
    parties = []
    for i, lead in enumerate(first):
        members = [lead, *(order[i] for order in orders if i < len(order))]
        parties.append(
            [(JAM, f) for m in members for f in m.party_jams]
            + [(PIE, f) for m in members for f in m.party_pies]
        )
    return parties


def _brute_grouping(
    collection: list[Card],
    winters: list[TaskCard],
    grandmas: list[TaskCard],
    parties: list[list[Any]],
) -> int:
    targets = (
        [("w", i) for i in range(len(winters))]
        + [("g", i) for i in range(len(grandmas))]
        + [("p", i) for i in range(len(parties))]
    )

    def fits(card: Card, target: tuple[str, int]) -> bool:
        kind, i = target
        slots = (
            [(JAM, f) for f in winters[i].jams]
            if kind == "w"
            else [(PIE, f) for f in grandmas[i].pies]
            if kind == "g"
            else parties[i]
        )
        return _matched([card], slots) == 1

    options = [[None, *(t for t in targets if fits(c, t))] for c in collection]
    best = 0
    for assign in itertools.product(*options):
        total = 0
        for kind, i in targets:
            mine = [c for c, a in zip(collection, assign, strict=True) if a == (kind, i)]
            if kind == "w":
                hit = _matched(mine, [(JAM, f) for f in winters[i].jams])
                total += RULES.winter_points if hit >= RULES.winter_need else 0
            elif kind == "g":
                hit = _matched(mine, [(PIE, f) for f in grandmas[i].pies])
                total += RULES.grandma_points if hit >= RULES.grandma_need else 0
            else:
                total += RULES.party_points(_matched(mine, parties[i]))
        best = max(best, total)
    return best


RECIPES = [c for c in CARDS.values() if c.kind in (JAM, PIE)]


@settings(max_examples=20, deadline=None)
@given(
    st.lists(st.sampled_from(RECIPES), min_size=3, max_size=6, unique_by=lambda c: c.id),
    st.integers(0, 3),
    st.booleans(),
)
def test_exact_search_matches_brute_force(
    collection: list[Card], index: int, two_players: bool
) -> None:
    tasks = [W[index], G[index], Y[index]]
    if two_players:
        tasks += [W[(index + 1) % 4], G[(index + 2) % 4], Y[(index + 3) % 4]]
    assert sum(task_points(collection, tasks, RULES)) == brute(collection, tasks)


def test_two_player_tea_parties_do_not_depend_on_the_deal_order() -> None:
    # the same six task cards dealt in another order (which Grandma / Yum-yum card is "second")
    # and the same recipes: the same score; here W1's and G2's party parts hold 5 recipes, which
    # only score as a tea party when those two cards are grouped together
    made = jams([*W[0].party_jams, *G[1].party_jams]) + pies([*W[0].party_pies, *G[1].party_pies])
    results = {
        task_points(made, [W[0], W[1], *gs, *ys], RULES)
        for gs in itertools.permutations(G[:2])
        for ys in itertools.permutations(Y[:2])
    }
    assert len(results) == 1
    assert sum(results.pop()) >= RULES.party_points(len(made)) > 0


def test_fruits_cover_every_non_pinecone_ingredient() -> None:
    assert set(FRUITS) == {f for f in CS.tiers if f != PINECONE}
