"""The card data file: rulebook totals, assumptions marked, and clear errors when edited wrongly."""

from __future__ import annotations

import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from card_games.jellyfish import GAME, JellyfishGame
from card_games.jellyfish.cards import load_cards, load_decks, parse_decks
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
    assert data["version"] == 2
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
        ("copies = 10", "copies = 11", "4 characters x 2 colours x 11 copies = 88 cards"),
        ("total = 80", "total = 81", "rulebook has 80 cards"),
        ("version = 2", "version = 3", "version must be 2"),
        ("to_win = 3", "to_win = 4", "rulebook says 3"),
        ("size_small = 4", "size_small = 3", "the rulebook says 4"),
        ('key = "toast"', 'key = "jellyfish"', "share a key"),
        ('colours = ["blue", "yellow",', 'colours = ["blue", "blue",', "deck.colours"),
        ('name = "Jam"', "name = ", "not valid TOML"),
        ('variant = "8x2x5"', 'variant = "10x2x4"', "two splits are called '10x2x4'"),
        ("characters = 4\ncolours = 2", "characters = 11\ncolours = 2", "only 10 are listed"),
        ("colours = 2\ncopies = 10", "colours = 5\ncopies = 10", "only 4 are listed"),
        ('variant = "standard"', 'variant = "Big Deck"', "short lower-case name"),
        ("copies = 10", "copies = 0", "must be a positive whole number"),
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
    with pytest.raises(UserError, match="split '10x2x4'.characters is 10 but only 9 are listed"):
        load_cards(path)


def test_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such file"):
        load_cards(tmp_path / "nope.toml")


def test_a_game_runs_on_an_edited_but_valid_file(tmp_path: Path) -> None:
    path = _broken(tmp_path, 'name = "Cheese"', 'name = "Brie"')
    game = JellyfishGame(load_decks(path))
    assert "Brie (blue)" in game.decks["10x2x4"].label_of.values()
    assert game.variants == GAME.variants


def test_the_split_is_data_and_every_candidate_is_a_variant() -> None:
    decks = load_decks()
    splits = {v: (len(d.characters), len(d.colours), d.copies) for v, d in decks.items()}
    # the measured choice first (docs/rules/jellyfish.md); the old assumption kept as a variant
    assert list(splits)[0] == "standard" and splits["standard"] == (4, 2, 10)
    assert splits["10x2x4"] == (10, 2, 4)
    assert {(8, 2, 5), (5, 2, 8), (5, 4, 4)} <= set(splits.values())
    assert GAME.variants == tuple(decks)
    for variant, deck in decks.items():
        assert len(set(deck.cards)) == 80 and deck.variant == variant
        state = GAME.new_initial_state({"players": 3, "variant": variant})
        assert sorted(state.all_cards()) == sorted(deck.cards)


def test_an_unknown_split_is_one_clear_line() -> None:
    with pytest.raises(UserError, match=r"no split called 'nope' \(choose from standard, 10x2x4"):
        load_cards(variant="nope")


_FIELDS = ["version", "deck", "sets", "split", "character", "total", "copies", "colours"]


def _mutate(value: Any, key: str, new: Any) -> Any:
    """``value`` with every entry called ``key`` (at any depth) replaced by ``new``."""
    if isinstance(value, dict):
        return {k: (new if k == key else _mutate(v, key, new)) for k, v in value.items()}
    if isinstance(value, list):
        return [_mutate(v, key, new) for v in value]
    return value


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.integers(-3, 100), max_size=4),
    st.lists(st.text(max_size=4), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=3),
)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(_FIELDS + ["variant", "characters", "key"]), _JUNK), max_size=3
    )
)
def test_fuzzed_card_data_gives_only_user_errors(edits: list[tuple[str, Any]]) -> None:
    data: Any = tomllib.loads(PACKAGED)
    for key, junk in edits:
        data = _mutate(data, key, junk)
    try:
        decks = parse_decks(data, "fuzzed.toml")
    except UserError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("fuzzed.toml: ")
    else:
        assert all(len(d.cards) == 80 for d in decks.values())
