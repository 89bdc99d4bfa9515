"""One scenario per rule: scripted rolls, placed dice and scripted flicks on the real physics."""

from __future__ import annotations

import json
import math

import pytest

from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.rules.flick_actions import PASS
from jamsumo_sim.rules.scoring import BOARD, HAND, HOLED, OUT
from jamsumo_sim.turnloop import CHANCE, TERMINAL, state_from_json
from tests.jamsumo.helpers import at, new_state, roll, settle_marker, speed_action, take_out

UP = math.pi / 2
DOWN = -math.pi / 2


def hole_shot_from_south(die: str) -> object:
    """Place ``die`` on the south JAM zone and flick it at the hole at a speed that drops it."""
    return speed_action(die, UP, 1.0, place="jam-south", px=0.0, py=-0.18)


# -- set-up rolls and the round marker --------------------------------------------------------------


def test_jam_marker_goes_to_the_lowest_roll_and_ties_reroll_among_the_tied() -> None:
    s = new_state("jam", players=3, rounds=1, max_turns=1)
    assert s.current_player() == CHANCE
    roll(s, 0, 2)
    roll(s, 1, 2)
    roll(s, 2, 5)
    # red and blue tie on the lowest: only they roll again (chance nodes in the history)
    assert s.rolling == [0, 1]
    roll(s, 0, 6)
    roll(s, 1, 3)
    assert s.current_player() == 1
    assert s.marker_holder() == 1
    assert sum(1 for e in s.history if "chance" in e) == 5


def test_sumo_marker_goes_to_the_highest_roll() -> None:
    s = new_state("sumo", players=3, rounds=1, max_turns=1)
    roll(s, 0, 2)
    roll(s, 1, 6)
    roll(s, 2, 5)
    assert s.current_player() == 1


def test_endless_ties_are_cut_off_so_the_length_bound_holds() -> None:
    s = new_state("jam", players=2, rounds=1, max_turns=1, max_rerolls=2)
    for _ in range(3):
        roll(s, 0, 4)
        roll(s, 1, 4)
    assert s.current_player() == 0  # the first tied seat after max_rerolls tied passes


def test_marker_passes_left_and_the_holder_goes_first_each_round() -> None:
    s = new_state("jam", players=3, max_turns=1)  # 3 rounds, one flick each
    settle_marker(s, 1)
    order = []
    while not s.is_terminal():
        assert s.current_player() == s.marker_holder()
        order.append(s.current_player())
        s.apply_action(hole_shot_from_south(s.in_hand(s.current_player())[0]))
    assert order == [1, 2, 0]
    assert [r["capped"] for r in s.results] == [True, True, True]


# -- round counts and aggregates ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "players", "modes"),
    [
        ("jam", 2, ["jam", "jam"]),
        ("sumo", 4, ["sumo"] * 4),
        ("jamsumo", 3, ["jam", "jam", "sumo", "sumo"]),
    ],
)
def test_round_counts(mode: str, players: int, modes: list[str]) -> None:
    s = new_state(mode, players=players)
    assert s.round_modes == modes
    assert s.game.max_game_length(s.params) >= len(modes) * s.max_turns


def test_jamsumo_plays_two_jam_then_two_sumo_rounds_and_aggregates() -> None:
    s = new_state("jamsumo", players=2, max_turns=1)
    settle_marker(s, 0)
    while not s.is_terminal():
        if s.current_player() == CHANCE:  # the Sumo half has its own set-up roll (highest wins)
            assert s.mode == "sumo" and s.round == 3
            settle_marker(s, 1)
            continue
        s.apply_action(s.legal_actions()[0])
    assert [r["mode"] for r in s.results] == ["jam", "jam", "sumo", "sumo"]
    jam = [sum(r["scores"][k] for r in s.results if r["mode"] == "jam") for k in range(2)]
    sumo = [sum(r["scores"][k] for r in s.results if r["mode"] == "sumo") for k in range(2)]
    assert s.totals() == [sumo[k] - jam[k] for k in range(2)]
    assert s.returns() == [float(t) for t in s.totals()]


# -- Jam -------------------------------------------------------------------------------------------


def test_jam_dice_start_in_hand_and_enter_on_a_jam_zone_showing_four() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    assert s.in_hand(0) == [f"red{k}" for k in range(1, 7)]
    action = speed_action("red1", UP, 0.3, place="jam-south", px=0.0, py=-0.18)
    s.apply_action(action)
    assert s.where["red1"] == BOARD
    assert s.world.state("red1").face == 4
    assert s.current_player() == 1  # play goes left


def test_jam_round_ends_when_one_player_has_all_six_through_the_hole() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    for d in ("red2", "red3", "red4", "red5", "red6"):
        take_out(s, d, HOLED)
    s.apply_action(hole_shot_from_south("red1"))
    assert s.where["red1"] == HOLED
    assert s.is_terminal()
    assert s.results == [{"mode": "jam", "scores": [0, 24], "capped": False}]
    assert s.winners() == [0]
    assert "Red's die red1 dropped into the hole" in s.log_for(1)


def test_jam_die_off_the_side_returns_to_hand_and_re_enters_showing_four() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    at(s, "red1", 0.0, -0.15, face=2)
    s.apply_action(speed_action("red1", DOWN, 2.0))
    assert s.where["red1"] == HAND
    assert "red1" not in s.world.die_ids
    assert s.current_scores()[0] == 24  # six dice in hand at 4 each
    s.apply_action(speed_action("blue1", UP, 0.3, place="jam-north", px=0.0, py=0.18))
    s.apply_action(speed_action("red1", UP, 0.2, place="jam-west", px=-0.18, py=0.0))
    assert s.world.state("red1").face == 4


def test_jam_placement_must_be_on_a_free_jam_zone() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    bad_spot = speed_action("red1", UP, 1.0, place="jam-south", px=0.1, py=-0.1)
    assert "must lie on jam-south" in s.why_illegal(0, bad_spot)
    bad_zone = speed_action("red1", UP, 1.0, place="nowhere", px=0.0, py=-0.18)
    assert "no platform" in s.why_illegal(0, bad_zone)
    at(s, "red2", 0.0, -0.18, face=4)
    crowded = speed_action("red1", UP, 1.0, place="jam-south", px=0.0, py=-0.172)
    assert "touch red2" in s.why_illegal(0, crowded)
    assert "not your die" in s.why_illegal(0, speed_action("blue1", UP, 1.0))
    assert "in your hand" in s.why_illegal(0, speed_action("red3", UP, 1.0))
    with pytest.raises(IllegalAction):
        s.apply_action(bad_spot)


def test_pass_only_when_no_fair_flick_exists() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    assert PASS not in s.legal_actions()
    assert "only when no fair flick" in s.why_illegal(0, PASS)


def test_not_flat_die_counts_four_in_jam() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    at(s, "red1", 0.05, 0.05, face=6)
    assert s.current_scores()[0] == 5 * 4 + 6
    # a die straddling a level change rests tilted: the rules read DieState.flat
    s.world._dice["red1"].straddle = "jam-east"
    assert not s.world.state("red1").flat
    assert s.current_scores()[0] == 6 * 4


# -- Sumo ------------------------------------------------------------------------------------------


def sumo_duel() -> object:
    """Two dice each: red1 and blue1 face each other mid-board; red2 and blue2 stay in their corners."""
    s = new_state("sumo", rounds=1)
    settle_marker(s, 0)
    for d in list(s.where):
        if d not in ("red1", "red2", "blue1", "blue2"):
            take_out(s, d)
    at(s, "red1", -0.05, 0.1)
    at(s, "blue1", 0.05, 0.1)
    return s


def test_sumo_dice_start_in_the_players_corners_showing_three() -> None:
    s = new_state("sumo", players=4, rounds=1)
    corners = {}
    for seat in range(4):
        xs = [s.world.state(d).x for d in s.on_board(seat)]
        ys = [s.world.state(d).y for d in s.on_board(seat)]
        corners[seat] = (round(sum(xs) / 6, 2), round(sum(ys) / 6, 2))
        assert all(s.world.state(d).face == 3 for d in s.on_board(seat))
    assert len(set(corners.values())) == 4


def test_sumo_flick_that_strikes_an_opponent_keeps_the_die() -> None:
    s = sumo_duel()
    s.apply_action(speed_action("red1", 0.0, 0.9))
    assert s.where["red1"] == BOARD
    assert s.last_shot["struck"] == ["blue1"]


def test_sumo_flick_that_strikes_no_opponent_removes_the_die() -> None:
    s = sumo_duel()
    s.apply_action(speed_action("red1", math.pi, 0.4))  # away from blue1
    assert s.where["red1"] == OUT
    assert "red1" not in s.world.die_ids
    assert "Red's die red1 struck no opponent — removed" in s.log_for(0)


def test_sumo_die_at_rest_on_a_jam_platform_is_out() -> None:
    s = sumo_duel()
    at(s, "blue2", 0.0, 0.18)  # on the north JAM platform
    assert s.world.state("blue2").on_platform == "jam-north"
    s.apply_action(speed_action("red1", 0.0, 0.9))
    assert s.where["blue2"] == OUT
    assert any("JAM platform" in line for line in s.log_for(None))


def test_sumo_round_ends_when_a_player_has_no_dice_left() -> None:
    s = sumo_duel()
    take_out(s, "red2")
    s.apply_action(speed_action("red1", math.pi, 0.4))  # misses: red has nothing left
    assert s.is_terminal()
    assert s.results[0]["scores"] == [0, 6]
    assert s.winners() == [1]


def test_sumo_off_the_side_and_through_the_hole_are_out() -> None:
    s = sumo_duel()
    at(s, "blue1", -0.1, -0.05)
    at(s, "red1", -0.1, -0.2)
    s.apply_action(speed_action("red2", 0.0, 0.1))  # red's turn: a nudge that strikes nobody
    assert s.where["red2"] == OUT
    s.apply_action(speed_action("blue1", DOWN, 2.0))  # drives red1 over the edge
    assert s.where["red1"] == OUT and s.where["blue1"] == BOARD
    assert "Red's die red1 went off the side — out of the round" in s.log_for(0)


def test_sumo_die_through_the_hole_is_out() -> None:
    s = sumo_duel()
    at(s, "red1", 0.0, -0.04)
    s.apply_action(speed_action("red1", UP, 0.5))
    assert s.where["red1"] == OUT
    assert "Red's die red1 dropped into the hole — out of the round" in s.log_for(0)


def test_not_flat_die_counts_three_in_sumo() -> None:
    s = sumo_duel()
    s.world._dice["red1"].straddle = "jam-north"
    assert s.current_scores()[0] == 3 + 3


# -- the turn cap, views, preview, save and resume ------------------------------------------------


def test_turn_cap_scores_the_round_as_it_stands_and_says_so() -> None:
    s = new_state("jam", rounds=1, max_turns=2)
    settle_marker(s, 0)
    s.apply_action(s.legal_actions()[0])
    s.apply_action(s.legal_actions()[0])
    assert s.is_terminal()
    assert s.results[0]["capped"] is True
    assert any("Turn cap" in line for line in s.log_for(None))


def test_seat_relative_views_turn_the_board_not_the_physics() -> None:
    s = new_state("sumo", players=2, rounds=1)
    before = s.world.checksum()
    red = {r["id"]: r for r in s.observation(0)["dice"]}
    blue = {r["id"]: r for r in s.observation(1)["dice"]}
    # blue sits opposite red: its view is the board turned half round
    assert blue["red1"]["x"] == pytest.approx(-red["red1"]["x"])
    assert blue["red1"]["y"] == pytest.approx(-red["red1"]["y"])
    # each player sees their own dice at their near side
    assert red["red1"]["y"] < 0 and blue["blue1"]["y"] < 0
    assert s.world.checksum() == before


def test_preview_then_apply_gives_the_same_rest_state() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    action = hole_shot_from_south("red1")
    world = s.preview(action)
    while not world.at_rest():
        world.step()
    world.run_until_rest(s.shot_time)  # settles exactly as the rules do
    s.apply_action(action)
    # the window compares the stepped preview with the rest state before the rules remove dice
    assert s.last_shot["rest_checksum"] == world.checksum()
    assert s.where["red1"] == HOLED and "red1" in world.die_ids


def test_save_mid_round_and_resume_with_the_same_seat_to_play() -> None:
    s = new_state("jam", rounds=1, max_turns=8)
    settle_marker(s, 1)
    for _ in range(3):
        s.apply_action(s.legal_actions()[0])
    saved = json.loads(json.dumps(s.to_json()))
    back = state_from_json(saved)
    assert back.current_player() == s.current_player() == 0
    assert back.world.checksum() == s.world.checksum()
    assert back.full_state() == s.full_state()
    a = s.legal_actions()[1]
    s.apply_action(a)
    back.apply_action(a)
    assert back.digest() == s.digest()


def test_terminal_state_has_no_moves() -> None:
    s = new_state("jam", rounds=1, max_turns=1)
    settle_marker(s, 0)
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == TERMINAL and s.legal_actions(0) == []


def test_sumo_striking_only_your_own_die_is_a_miss() -> None:
    s = sumo_duel()
    at(s, "red2", -0.05, 0.0)
    s.apply_action(speed_action("red1", DOWN, 0.9))  # into red2, nowhere near blue
    assert s.where["red1"] == OUT
    assert s.last_shot["struck"] == []


def test_typed_flicks_parse_to_exact_parameters() -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    action = s.parse_action(0, "place red1 jam-south 0 -180 90 1.0")
    assert action is not None and s.is_legal(0, action)
    assert action["place"] == "jam-south" and action["py"] == pytest.approx(-0.18)
    assert action["impulse"] == pytest.approx(1.0 * s.physics.die_mass)
    assert s.parse_action(0, "flick red1 ninety fast") is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"impulse": -0.001}, "impulse must be > 0"),
        ({"offset": 0.7}, "offset must be in"),
        ({"height": 1.5}, "height must be in"),
        ({"direction": float("nan")}, "finite"),
        ({"impulse": 0.1}, "above the"),  # 22 m/s: over the launch-speed cap
    ],
)
def test_malformed_or_unfair_flicks_say_why(args: dict, message: str) -> None:
    s = new_state("jam", rounds=1)
    settle_marker(s, 0)
    at(s, "red1", 0.05, 0.05)
    base = {"die": "red1", "direction": 0.0, "impulse": 0.0045, "offset": 0.0, "height": 0.5}
    from jamsumo_sim.turnloop import Action

    action = Action.make("flick red1", **{**base, **args})
    assert message in s.why_illegal(0, action)
    assert not s.is_legal(0, action)


def test_render_shows_the_seat_view() -> None:
    s = new_state("sumo", rounds=1)
    text = s.game.render(s.observation(1), 1)
    assert "Sumo — round 1/1" in text and "blue1" in text and "face 3" in text
