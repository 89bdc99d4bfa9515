"""The component data file: rulebook totals, assumptions marked, clear errors when edited wrongly."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from card_games.jumble_jam.cards import KITTY, load_catalog
from jamsumo_sim.errors import UserError

TEXT = (resources.files("card_games.jumble_jam") / "cards.toml").read_text(encoding="utf-8")


def test_rulebook_totals() -> None:
    cat = load_catalog()
    pastry = [cat.cards[c] for c in cat.pastry_ids]
    assert len(pastry) == 60
    assert Counter(c.type for c in pastry) == {t: 10 for t in (*cat.pastry_types, "jam")}
    assert len(cat.kitty_ids) == 5 and all(cat.cards[k].type == KITTY for k in cat.kitty_ids)
    assert len(cat.orders) == 20
    assert sorted(cat.die_faces) == sorted([*cat.pastry_types, "grandma"])
    sizes = {n: (lay.columns, lay.rows, lay.orders) for n, lay in cat.layouts.items()}
    assert sizes == {2: (3, 3, 3), 3: (3, 4, 4), 4: (3, 5, 5), 5: (4, 4, 6)}
    assert (cat.jars_per_player, cat.hand_limit, cat.exact_orders_to_win) == (4, 7, 4)


def test_assumed_contents_match_card_data() -> None:
    cat = load_catalog()
    demand: Counter[str] = Counter()
    for order in cat.orders.values():
        for t, n in order.needs:
            demand[t] += n
        assert order.waste < order.exact
    assert demand == {t: 18 for t in cat.pastry_types}
    pastries = Counter()
    for cid in cat.pastry_ids:
        pastries[cat.cards[cid].type] += cat.cards[cid].pastries
    assert pastries == {**{t: 18 for t in cat.pastry_types}, "jam": 14}


def test_assumed_values_are_marked() -> None:
    data = tomllib.loads(TEXT)
    assert all(entry["assumed"] is True for entry in data["pastry"])
    assert all(entry["assumed"] is True for entry in data["order"])
    assert data["kickstarter"]["assumed"] is True


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'type = "doughnut"\npastries = 3\ncount = 2',
            'type = "doughnut"\npastries = 3\ncount = 3',
            "61 pastry cards",
        ),
        ("[kitty]\ncards = 5", "[kitty]\ncards = 4", "4 Kitty cards"),
        ('id = "O20"', 'id = "O19"', "unique"),
        ("exact = 7\nwaste = 5", "exact = 5\nwaste = 5", "lower than the exact"),
        ("needs = { pie = 3 }", "needs = { jam = 3 }", "cannot ask for 'jam'"),
        (
            "5 = { columns = 4, rows = 4, orders = 6 }",
            "5 = { columns = 4, rows = 5, orders = 6 }",
            "4x4",
        ),
        ('"cookie", "grandma"]', '"cookie", "cookie"]', "Grandma face"),
        ("version = 1", "version = 2", "unsupported version"),
        ("hand_limit = 7", "hand_limit = 8", "hand limit"),
    ],
)
def test_broken_copy_is_rejected_with_one_clear_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in TEXT
    broken = tmp_path / "cards.toml"
    broken.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(UserError) as err:
        load_catalog(broken)
    text = str(err.value)
    assert str(broken) in text and message in text and "\n" not in text


def test_unreadable_toml(tmp_path: Path) -> None:
    broken = tmp_path / "cards.toml"
    broken.write_text("version = = 1", encoding="utf-8")
    with pytest.raises(UserError, match="not valid TOML"):
        load_catalog(broken)
