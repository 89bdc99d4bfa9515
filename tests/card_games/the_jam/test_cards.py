"""The card data file: rulebook totals, the card_data.md tallies, and clear errors when edited wrongly."""

from __future__ import annotations

from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from card_games.the_jam.cards import BEAR, JAM, PIE, SALAD, SPECIAL, YOUNG_MAN, load_cards
from jamsumo_sim.errors import UserError

TEXT = (resources.files("card_games.the_jam") / "cards.toml").read_text(encoding="utf-8")


def test_rulebook_totals() -> None:
    cs = load_cards()
    assert len(cs.cards) == 72
    assert len(cs.tasks) == 12
    assert Counter(t.type for t in cs.tasks.values()) == {"winter": 4, "grandma": 4, "yumyum": 4}
    kinds = Counter(c.kind for c in cs.cards.values())
    assert kinds == {JAM: 36, PIE: 20, SALAD: 14, SPECIAL: 2}
    assert BEAR in cs.cards and YOUNG_MAN in cs.cards


def test_ingredient_half_tallies_from_card_data() -> None:
    halves = Counter(c.bottom for c in load_cards().cards.values() if c.kind != SPECIAL)
    # /work/shared/card_data.md: three commons 12 each, three mediums 8 each, two rares 5 each
    assert sorted(halves.values()) == [5, 5, 8, 8, 8, 12, 12, 12]
    assert sum(halves.values()) == 70


def test_card_rules_hold() -> None:
    cs = load_cards()
    for card in cs.cards.values():
        if card.kind in (JAM, PIE):
            assert card.top != card.bottom
        if card.kind == SALAD:
            assert len(set(card.fruits)) == 3 and card.bottom not in card.fruits
            assert 4 <= card.points <= 8
    assert cs.young_man_points == 7 and cs.bear_points == 10
    assert (cs.rules.winter_need, cs.rules.winter_points) == (3, 7)
    assert (cs.rules.grandma_need, cs.rules.grandma_points) == (2, 8)
    assert cs.rules.party_points(3) == 0 and cs.rules.party_points(4) > 0


def test_assumed_values_are_marked() -> None:
    assert TEXT.count("assumed = true") >= 40


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    assert old in TEXT
    path = tmp_path / "cards.toml"
    path.write_text(TEXT.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'bottoms = ["apple", "gooseberry", "peach", "strawberry"]',
            'bottoms = ["apple", "gooseberry", "peach"]',
            "71 game cards",
        ),
        ("strawberry = 12", "strawberry = 13", "tally says 13"),
        (
            'fruits = ["strawberry", "raspberry", "apple"]',
            'fruits = ["strawberry", "raspberry", "raspberry"]',
            "three different fruits",
        ),
        ('id = "W4"', 'id = "W3"', "repeated"),
        ("version = 1", "version = 2", "unsupported version"),
        (
            'top = "peach"\nbottoms = ["currant", "gooseberry"]',
            'top = "plum"\nbottoms = ["currant", "gooseberry"]',
            "unknown ingredient 'plum'",
        ),
    ],
)
def test_broken_copy_gives_one_clear_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(UserError) as info:
        load_cards(path)
    text = str(info.value)
    assert str(path) in text and message in text and "\n" not in text


def test_invalid_toml(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text("version = = 1", encoding="utf-8")
    with pytest.raises(UserError, match="not valid TOML"):
        load_cards(path)
