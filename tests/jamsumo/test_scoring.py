"""Scoring rules as pure functions: penalties, points, not-flat values, aggregates, the roll-off."""

from __future__ import annotations

import pytest

from jamsumo_sim.rules import scoring
from jamsumo_sim.rules.scoring import BOARD, HAND, HOLED, OUT, DieView


def test_jam_penalty_of_each_kind_of_die() -> None:
    assert scoring.jam_die_penalty(DieView(0, HOLED, face=6)) == 0
    assert scoring.jam_die_penalty(DieView(0, HAND, face=1)) == 4
    assert scoring.jam_die_penalty(DieView(0, BOARD, face=6)) == 6
    assert scoring.jam_die_penalty(DieView(0, BOARD, face=1)) == 1
    with pytest.raises(ValueError):
        scoring.jam_die_penalty(DieView(0, OUT))


def test_not_flat_dice_count_four_in_jam_and_three_in_sumo() -> None:
    tilted = DieView(0, BOARD, face=6, flat=False)
    assert scoring.jam_die_penalty(tilted) == 4
    assert scoring.sumo_die_points(tilted) == 3
    low = DieView(0, BOARD, face=1, flat=False)
    assert scoring.jam_die_penalty(low) == 4
    assert scoring.sumo_die_points(low) == 3


def test_sumo_points_only_for_dice_on_the_board() -> None:
    dice = [
        DieView(0, BOARD, face=5),
        DieView(0, OUT, face=6),
        DieView(1, BOARD, face=2),
        DieView(1, BOARD, face=4, flat=False),
    ]
    assert scoring.sumo_points(dice, 2) == [5, 5]


def test_jam_penalties_per_seat() -> None:
    dice = [DieView(0, HOLED)] * 5 + [DieView(0, BOARD, face=2)] + [DieView(1, HAND)] * 6
    assert scoring.jam_penalties(dice, 2) == [2, 24]
    assert scoring.round_scores("jam", dice, 2) == [2, 24]


def test_round_end_conditions() -> None:
    owner = {"a1": 0, "a2": 0, "b1": 1, "b2": 1}
    assert scoring.jam_round_over({"a1": HOLED, "a2": HOLED, "b1": BOARD, "b2": HAND}, owner, 2)
    assert not scoring.jam_round_over({"a1": HOLED, "a2": HAND, "b1": HOLED, "b2": BOARD}, owner, 2)
    assert scoring.sumo_round_over({"a1": OUT, "a2": OUT, "b1": BOARD, "b2": OUT}, owner, 2)
    assert not scoring.sumo_round_over({"a1": BOARD, "a2": OUT, "b1": BOARD, "b2": OUT}, owner, 2)


def test_totals_and_the_jamsumo_aggregate() -> None:
    rounds = [
        {"mode": "jam", "scores": [3, 10]},
        {"mode": "jam", "scores": [5, 0]},
        {"mode": "sumo", "scores": [12, 4]},
        {"mode": "sumo", "scores": [0, 9]},
    ]
    # aggregate = Sumo points - Jam penalties
    assert scoring.totals("jamsumo", rounds, 2) == [12 - 8, 13 - 10]
    assert scoring.totals("jam", rounds[:2], 2) == [8, 10]
    assert scoring.totals("sumo", rounds[2:], 2) == [12, 13]
    assert scoring.returns_from_totals("jam", [8, 10]) == [-8.0, -10.0]
    assert scoring.returns_from_totals("jamsumo", [4, 3]) == [4.0, 3.0]


def test_marker_rolloff_lowest_or_highest_and_ties() -> None:
    assert scoring.marker_rolloff({0: 3, 1: 1, 2: 6}, lowest_wins=True) == [1]
    assert scoring.marker_rolloff({0: 3, 1: 1, 2: 6}, lowest_wins=False) == [2]
    assert scoring.marker_rolloff({0: 2, 1: 2, 2: 6}, lowest_wins=True) == [0, 1]
    with pytest.raises(ValueError):
        scoring.marker_rolloff({}, lowest_wins=True)
