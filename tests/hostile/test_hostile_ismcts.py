"""The `ismcts` seat of `card-games play` (issue 21): listed among the seat kinds, refused in one
line when misused, and a short match with it runs to the end under the memory limit."""

from __future__ import annotations

import json

import pytest

from tests.hostile.harness import assert_one_line_error, run_cli

pytest.importorskip("pyspiel")


def test_an_unknown_seat_lists_ismcts_among_the_kinds():
    out = run_cli("card-games", "play", "jellyfish", "--players", "2", "--seats", "ismcts,bogus")
    assert_one_line_error(out, "unknown seat kind 'bogus'", "ismcts")


def test_too_many_ismcts_seats_is_one_line():
    out = run_cli(
        "card-games", "play", "jellyfish", "--players", "2", "--seats", "ismcts,ismcts,ismcts"
    )
    assert_one_line_error(out, "3 seats")


def test_an_ismcts_match_finishes_under_the_limits():
    out = run_cli(
        "card-games",
        "play",
        "jellyfish",
        "--players",
        "2",
        "--seats",
        "ismcts,random",
        "--seed",
        "5",
        "--json",
    )
    assert out.code == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["game"] == "jellyfish" and result["winner"]
