"""The component data file: rulebook totals, the assumption flag, and clear errors when broken."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import pytest

from card_games.jumblejack.cards import load_components
from jamsumo_sim.errors import UserError

SOURCE = (resources.files("card_games.jumblejack") / "cards.toml").read_text(encoding="utf-8")


def test_packaged_data_matches_the_rulebook() -> None:
    c = load_components()
    assert c.accessories == ("hat", "cloak", "hook", "sword")
    assert len(c.pirates) == 16 and len({m for _, m in c.pirates}) == 16  # every combination
    assert sum(c.accessory_cards) == 36
    assert c.cards_assumed  # card_data.md: 9 per accessory is an assumption
    assert (c.rings_total, c.centre_rings) == (20, 12)
    assert len(c.tokens) == 8 and c.first_player_token().kind == "mirror"
    assert sorted(t.accessory for t in c.disguises()) == sorted(c.accessories)
    assert [c.disguise_count(n) for n in range(4, 9)] == [3, 4, 4, 4, 4]
    assert [len(c.fixed_tokens(n)) for n in range(4, 9)] == [1, 1, 2, 3, 4]


def broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    assert old in SOURCE, old
    path = tmp_path / "cards.toml"
    path.write_text(SOURCE.replace(old, new, count), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("hat = 9", "hat = 8", "add up to 35; the rulebook has 36"),
        (
            'id = "P16"\nwears = ["hat", "cloak", "hook", "sword"]',
            'id = "P16"\nwears = ["hat"]',
            "same accessories",
        ),
        ('wears = ["hat"]', 'wears = ["scarf"]', "unknown or repeated"),
        ("centre = 12", "centre = 11", "the rulebook has 20 / 12"),
        ('accessory = "sword"', 'accessory = "hat"', "one Disguise per accessory"),
        ("first_player = true", "first_player = false", "First Player"),
        ("version = 1", "version = 2", "version must be 1"),
        ('[[pirates]]\nid = "P01"\nwears = []\n', "", "15 pirates listed"),
        ("min_players = 8", "min_players = 9", "8 Pieces of Eight for 8 players"),
        ("accessories = [", "accessories = [[", "not valid TOML"),
    ],
)
def test_broken_file_gives_one_clear_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = broken(tmp_path, old, new)
    with pytest.raises(UserError) as info:
        load_components(path)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith(str(path))
    assert message in text, text


def test_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=re.escape(str(tmp_path / "nope.toml"))):
        load_components(tmp_path / "nope.toml")
