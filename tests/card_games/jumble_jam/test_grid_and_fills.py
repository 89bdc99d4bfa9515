"""Layout geometry (jar edges, sliding) and the order-filling arithmetic, incl. the rulebook's jam notes."""

from __future__ import annotations

from collections import Counter

import pytest

from card_games.jumble_jam.fills import can_complete, enumerate_fills
from card_games.jumble_jam.grid import grid, slide_down


@pytest.mark.parametrize(
    ("columns", "rows", "edges"), [(3, 3, 12), (3, 4, 17), (3, 5, 22), (4, 4, 24)]
)
def test_only_internal_edges_between_orthogonal_neighbours(
    columns: int, rows: int, edges: int
) -> None:
    g = grid(columns, rows)
    assert len(g.edges) == edges
    for a, b in g.edges:
        (ca, ra), (cb, rb) = divmod(a, rows), divmod(b, rows)
        assert abs(ca - cb) + abs(ra - rb) == 1  # never diagonal (a corner), never off the grid
    # a corner card has 2 edges, a side card 3, a centre card 4: borders carry no jar
    counts = Counter(len(e) for e in g.slot_edges)
    assert counts[2] == 4
    assert set(counts) <= {2, 3, 4}


def test_edge_names_are_readable() -> None:
    g = grid(3, 3)
    assert "A1|B1" in g.edge_names and "A1|A2" in g.edge_names
    assert "A1|C1" not in g.edge_names and "A1|B2" not in g.edge_names


def test_cards_slide_to_the_bottom_of_their_column() -> None:
    g = grid(3, 3)
    cells = [None] * 9
    cells[g.slot(0, 0)] = "x"  # A1
    cells[g.slot(1, 1)] = "y"  # B2
    cells[g.slot(1, 2)] = "z"  # B3
    out = slide_down(cells, g)
    assert out[g.slot(0, 2)] == "x" and out[g.slot(0, 0)] is None
    assert out[g.slot(1, 1)] == "y" and out[g.slot(1, 2)] == "z"
    # new cards go column by column from the left, each column from its lowest empty slot
    order = [g.slot_names[s] for s in g.fill_order()]
    assert order == ["A3", "A2", "A1", "B3", "B2", "B1", "C3", "C2", "C1"]


def test_rulebook_jam_example_two_jam_covers_two_pies() -> None:
    # 3 cookies, 2 croissants, 2 pies; the player has all but the pies and a 2-jam card
    needs = {"cookie": 3, "croissant": 2, "pie": 2}
    own = {"cookie": [3], "croissant": [2]}
    assert can_complete(needs, own, [2], exact=True)
    assert not can_complete(needs, own, [], exact=False)


def test_one_jam_card_never_covers_two_types() -> None:
    # a 3-jam cannot replace 2 doughnuts and 1 cookie …
    assert not can_complete({"doughnut": 2, "cookie": 1}, {}, [3], exact=False)
    # … but a 1-jam and a 2-jam together can replace 3 doughnuts
    assert can_complete({"doughnut": 3}, {}, [1, 2], exact=True)
    assert can_complete({"doughnut": 2, "cookie": 1}, {}, [1, 2], exact=True)


def test_exact_and_waste_fills() -> None:
    assert can_complete({"pie": 3}, {"pie": [2, 2]}, [], exact=False)  # 4 pies: waste
    assert not can_complete({"pie": 3}, {"pie": [2, 2]}, [], exact=True)
    assert can_complete({"pie": 3}, {"pie": [2, 2, 1]}, [], exact=True)
    assert not can_complete({"pie": 3}, {"pie": [1, 1]}, [], exact=False)  # never fewer


def test_enumerated_fills_are_minimal_and_flag_exactness() -> None:
    fills = enumerate_fills({"pie": 3}, {"pie": Counter({2: 2, 1: 1})}, Counter({1: 1}), {}, False)
    assert fills
    for fill in fills:
        ((_, part),) = fill.parts
        pieces = [*part.own, *part.jam]
        assert sum(pieces) >= 3 and sum(pieces) - max(pieces) < 3
        assert fill.exact == (sum(pieces) == 3)
    exact_only = enumerate_fills({"pie": 3}, {"pie": Counter({2: 2})}, Counter(), {}, True)
    assert exact_only == []
