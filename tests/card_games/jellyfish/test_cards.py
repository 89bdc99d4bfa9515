"""The card data file: rulebook totals, assumptions marked, and clear errors when edited wrongly."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from card_games.jellyfish import GAME, JellyfishGame
from card_games.jellyfish.cards import load_cards
from jamsumo_sim.errors import UserError

PACKAGED = (resources.files("card_games.jellyfish") / "cards.toml").read_text(encoding="utf-8")


def test_packaged_deck_matches_the_rulebook_totals() -> None:
    deck = load_cards()
    assert len(deck.cards) == 80 and len(set(deck.cards)) == 80
    assert deck.to_win == 3
    assert [deck.set_size(n) for n in range(2, 7)] == [4, 4, 4, 3, 3]
    # every kind (character + colour) has enough cards for the biggest set
    per_kind = Counter(deck.kind_of[c] for c in deck.cards)
    assert min(per_kind.values()) >= 4
    assert GAME.deck.cards == deck.cards


def test_assumed_values_are_marked() -> None:
    data = tomllib.loads(PACKAGED)
    assert data["version"] == 1
    assert data["deck"]["assumed"] is True
    assert all(c["assumed"] is True for c in data["character"])


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    assert old in PACKAGED
    path = tmp_path / "cards.toml"
    path.write_text(PACKAGED.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("copies = 4", "copies = 5", "100 cards, not the 80"),
        ("total = 80", "total = 81", "rulebook has 80 cards"),
        ("version = 1", "version = 2", "version must be 1"),
        ("to_win = 3", "to_win = 4", "rulebook says 3"),
        ("size_small = 4", "size_small = 3", "the rulebook says 4"),
        ('key = "toast"', 'key = "jellyfish"', "share a key"),
        ('colours = ["blue", "yellow"]', 'colours = ["blue", "blue"]', "deck.colours"),
        ('name = "Jam"', "name = ", "not valid TOML"),
    ],
)
def test_broken_copy_gives_one_clear_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = _broken(tmp_path, old, new)
    with pytest.raises(UserError) as err:
        load_cards(path)
    text = str(err.value)
    assert str(path) in text and message in text and "\n" not in text


def test_a_character_fewer_is_caught(tmp_path: Path) -> None:
    path = _broken(tmp_path, '[[character]]\nkey = "cheese"\nname = "Cheese"\nassumed = true\n', "")
    with pytest.raises(UserError, match="9 characters x 2 colours x 4 copies = 72 cards"):
        load_cards(path)


def test_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such file"):
        load_cards(tmp_path / "nope.toml")


def test_a_game_runs_on_an_edited_but_valid_file(tmp_path: Path) -> None:
    path = _broken(tmp_path, 'name = "Cheese"', 'name = "Brie"')
    game = JellyfishGame(load_cards(path))
    assert "Brie (blue)" in game.deck.label_of.values()
