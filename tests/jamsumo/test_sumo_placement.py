"""The Sumo opening: each seat chooses a corner and places its dice (a set-up action), legality
from the board's SUMO areas, bots choose for themselves, replays record and verify it."""

from __future__ import annotations

import json
import math

import pytest

from jamsumo_sim.replay import content_hash, save_replay, verify_replay
from jamsumo_sim.rules import setup
from jamsumo_sim.rules.bots import PlannerBot, RandomBot, setup_score, turned_setups
from jamsumo_sim.rules.scoring import BOARD
from jamsumo_sim.turnloop import get_game, play, seat_view
from jamsumo_sim.turnloop.driver import seeded_outcome
from tests.jamsumo.helpers import new_state


def at_setup(players: int = 2, seed: int = 0, **params):
    state = new_state("sumo", players=players, seed=seed, sumo_setup="choose", rounds=1, **params)
    while state.setting_up() is None:
        state.apply_action(seeded_outcome(state))
    return state


def layout(state, seat: int, corner: str, poses):
    area = state.board.sumo_area(corner)
    rel = setup.to_seat_relative(area, seat, state.num_players, poses)
    return setup.setup_action(seat, corner, rel)


def test_the_marker_holder_sets_up_first_then_left_and_nobody_flicks_before():
    state = at_setup(players=3, seed=5)
    holder = state.marker_holder()
    order = []
    while state.setting_up() is not None:
        seat = state.current_player()
        order.append(seat)
        assert all(a.get("corner") for a in state.legal_actions(seat))  # only set-ups now
        state.apply_action(state.legal_actions(seat)[0])
    assert order == [(holder + k) % 3 for k in range(3)]
    assert state.current_player() == holder
    assert len(set(state.corners)) == 3 and sorted(state.corners.values()) == [0, 1, 2]
    assert all(state.where[d] == BOARD for d in state.where)


def test_legality_inside_the_area_no_overlap_corner_not_taken():
    state = at_setup()
    seat = state.current_player()
    size = state.physics.die_size
    corner = state.board.sumo_areas[0].name
    area = state.board.sumo_area(corner)
    good = setup._spread(area, size)
    assert state.is_legal(seat, layout(state, seat, corner, good))
    # one die sticking out of the area
    out = list(good)
    out[0] = setup.DiePose(area.x - area.width / 2 - size / 4, out[0].y)
    assert "must lie inside" in state.why_illegal(seat, layout(state, seat, corner, out))
    # a die turned 45° in a corner of the area sticks out even with its centre inside
    turned = list(good)
    turned[0] = setup.DiePose(good[0].x, good[0].y, math.pi / 4)
    assert "must lie inside" in state.why_illegal(seat, layout(state, seat, corner, turned))
    # two dice overlapping
    lap = list(good)
    lap[1] = setup.DiePose(lap[0].x + size * 0.9, lap[0].y)
    assert "would overlap" in state.why_illegal(seat, layout(state, seat, corner, lap))
    # touching (side by side) is fine
    touch = list(good)
    touch[1] = setup.DiePose(touch[0].x + size, touch[0].y)
    assert state.why_illegal(seat, layout(state, seat, corner, touch)).endswith("is legal")
    # an unknown corner, and a taken one
    assert "no SUMO area" in state.why_illegal(
        seat,
        layout(state, seat, corner, good).__class__.make(
            "x", **{**dict(layout(state, seat, corner, good).args), "corner": "middle"}
        ),
    )
    state.apply_action(layout(state, seat, corner, good))
    other = state.current_player()
    again = layout(state, other, corner, good)
    assert "is taken by" in state.why_illegal(other, again)
    # a flick is not a set-up
    from jamsumo_sim.rules.flick_actions import flick_action

    assert "set up your dice first" in state.why_illegal(other, flick_action("red1", 0.0, 0.01))


def test_positions_are_seat_relative():
    """The same seat-relative layout in each seat's front-left corner looks the same from each side."""
    state = new_state("sumo", players=4, sumo_setup="choose")
    board = state.board
    for seat in range(4):
        corner = setup.preferred_corner(board, seat, 4, {})
        spec = setup.SetupSpec(
            corner, tuple(setup.DiePose(0.01 * k - 0.025, 0.0) for k in range(6))
        )
        world = setup.to_world(board, seat, 4, spec)
        from jamsumo_sim.rules.seats import to_view

        area = board.sumo_area(corner)
        seen = [to_view(seat, 4, p.x - area.x, p.y - area.y, 0.0) for p in world]
        assert [round(x, 12) for x, _, _ in seen] == [round(0.01 * k - 0.025, 12) for k in range(6)]
    # four seats, four different default corners
    assert len({setup.preferred_corner(board, s, 4, {}) for s in range(4)}) == 4


def test_bots_set_up_legally_and_the_planner_leaves_fair_flicks_at_opponents():
    state = at_setup(seed=1)
    first = state.current_player()
    bot = RandomBot(first, state.game)
    action = bot.act(seat_view(state, first))
    assert state.is_legal(first, action) and setup.is_setup(action)
    state.apply_action(action)
    second = state.current_player()
    planner = PlannerBot(second, state.game, level="easy")
    choice = planner.act(seat_view(state, second))
    assert state.is_legal(second, choice)
    menu = state.legal_actions(second)
    scores = [setup_score(state, second, a) for a in menu]
    # the planner searches turned variants too: never worse than the best listed layout
    assert setup_score(state, second, choice) >= max(scores)
    # the old fixed grid leaves fewer attacking flicks than the planner's choice
    grid = [a for a in menu if a.name.endswith("(grid)")]
    assert grid and max(setup_score(state, second, g) for g in grid) < max(scores)


def test_a_sumo_match_with_set_ups_records_and_verifies(tmp_path):
    game = get_game("sumo")
    params = game.validate_params({"players": 2, "rounds": 1, "max_turns": 3})
    agents = [RandomBot(0, game), RandomBot(1, game)]
    result = play(game, agents, seed=4, params=params)
    state = result.state
    setups = [e for e in state.history if "action" in e and setup.is_setup(e["action"])]
    assert len(setups) == 2
    path = tmp_path / "r.json"
    save_replay(path, state, ["random", "random"])
    report = verify_replay(path)
    assert report.ok, report.message
    # a set-up edited (and re-sealed) is caught: the start of play differs
    data = json.loads(path.read_text())
    entry = next(e for e in data["history"] if "action" in e and "corner" in e["action"]["args"])
    entry["action"]["args"]["x1"] += 0.002
    data["content_sha256"] = content_hash(data)
    path.write_text(json.dumps(data))
    assert not verify_replay(path).ok


def test_a_replay_without_sumo_setup_replays_the_old_grid(tmp_path):
    """Records from before set-up actions (no ``sumo_setup`` param) keep verifying: grid implied."""
    state = new_state("sumo", rounds=1, max_turns=2, sumo_setup="grid")
    game = state.game
    result = play(game, [RandomBot(0, game), RandomBot(1, game)], seed=0, state=state)
    path = tmp_path / "old.json"
    save_replay(path, result.state, ["random", "random"])
    data = json.loads(path.read_text())
    del data["params"]["sumo_setup"]
    data["content_sha256"] = content_hash(data)
    path.write_text(json.dumps(data))
    assert verify_replay(path).ok


@pytest.mark.parametrize("bad", [{"x1": "a"}, {"x1": float("nan")}, {"extra": 1.0}])
def test_malformed_set_ups_are_one_line_refusals(bad):
    state = at_setup()
    seat = state.current_player()
    action = state.legal_actions(seat)[0]
    args = {**dict(action.args), **bad}
    broken = action.__class__.make(action.name, **args)
    reason = state.why_illegal(seat, broken)
    assert "set-up" in reason and "\n" not in reason


def _fair_towards_centre(state, seat: int, poses) -> list[int]:
    """For each die of ``poses`` (world), how many of 19 directions within ±45° of the board's
    centre are fair flicks (the finger touches no other die)."""
    from jamsumo_sim.physics.flick import Flick
    from jamsumo_sim.rules.match import _world_class
    from jamsumo_sim.rules.seats import die_ids

    world = _world_class()(state.board, state.physics)
    ids = die_ids(seat)
    for die, p in zip(ids, poses, strict=True):
        world.add_die(die, p.x, p.y, p.angle, face=3)
    counts = []
    for die, p in zip(ids, poses, strict=True):
        bearing = math.atan2(-p.y, -p.x)
        turns = [bearing + math.radians(5 * k) for k in range(-9, 10)]
        counts.append(
            sum(
                world.check_flick(Flick(die, a, None, 0.0, 0.5, finger_speed=1.0)) is None
                for a in turns
            )
        )
    return counts


def test_the_suggested_layout_gives_every_die_a_fair_flick_towards_the_centre():
    state = at_setup(seed=0)
    seat = state.current_player()
    size = state.physics.die_size
    for area in state.board.sumo_areas:
        label, poses = setup.suggest_layouts(
            state.board, size, area, state.setup_targets(seat, area.name)
        )[0]
        assert state.is_legal(seat, layout(state, seat, area.name, poses)), label
        counts = _fair_towards_centre(state, seat, poses)
        assert min(counts) >= 1, (area.name, label, counts)


def test_suggested_and_bot_layouts_stay_clear_of_the_areas_outline():
    state = at_setup(seed=1)
    size = state.physics.die_size
    inner = setup.SUGGESTED_INSET * size * 0.99
    while state.setting_up() is not None:
        seat = state.current_player()
        choice = PlannerBot(seat, state.game, level="easy").act(seat_view(state, seat))
        spec = setup.read_setup(choice)
        area = state.board.sumo_area(spec.corner)
        shrunk = setup.SumoArea(
            area.name, area.x, area.y, area.width - 2 * inner, area.depth - 2 * inner
        )
        poses = setup.to_world(state.board, seat, state.num_players, spec)
        assert all(setup.inside(shrunk, p, size) for p in poses), (choice.name, poses)
        state.apply_action(choice)


def test_a_die_turned_at_set_up_is_recorded_checked_and_old_records_without_turns_still_read():
    state = at_setup(seed=2)
    seat = state.current_player()
    corner = state.board.sumo_areas[0].name
    area = state.board.sumo_area(corner)
    size = state.physics.die_size
    poses = [setup.DiePose(p.x, p.y, math.radians(20)) for p in setup._spread(area, size)]
    turned = layout(state, seat, corner, poses)
    assert state.is_legal(seat, turned)
    # recorded in the action, in the seat's view (a quarter turn per side on top)
    quarter = math.pi / 2
    assert all(
        abs(math.remainder(turned.get(f"a{k}") - math.radians(20), quarter)) < 1e-9
        for k in range(1, 7)
    )
    # out of range: a one-line refusal naming the die
    args = dict(turned.args)
    args["a3"] = 13.0  # beyond two full turns
    reason = state.why_illegal(seat, turned.__class__.make(turned.name, **args))
    assert "turned 745°" in reason and "±720°" in reason and "\n" not in reason
    # a record from before turns were recorded (no a1..a6): every die square
    square = layout(state, seat, corner, setup._spread(area, size))
    old = {k: v for k, v in square.args if not k.startswith("a")}
    bare = square.__class__.make(square.name, **old)
    assert state.is_legal(seat, bare)
    assert [p.angle for p in setup.read_setup(bare).dice] == [0.0] * 6
    state.apply_action(bare)
    assert sorted(state.corners) == [corner]


def test_the_set_up_score_follows_the_launch_law_and_the_planner_turns_its_dice():
    """A square die aimed 38° off its face slips in the finger's friction cone and leaves at the
    cone's edge (the World's law): it scores no line at a target there; turned, it does.  Turned
    to within 0.11° of the aim, the pad grips the face (model 0.18) and the die heads
    atan(tan d / (1 + e_f)) off the face's normal, d the push's angle off it."""
    from jamsumo_sim.physics.flick import Flick
    from jamsumo_sim.rules.launch import launch_heading, turn_off_aim

    state = at_setup(seed=0)
    p = state.physics
    leaves = launch_heading(Flick("d", math.radians(40), None, finger_speed=1.0), 0, 0, 0.0, p)
    cone = math.degrees(math.atan(p.mu_finger))
    assert abs(math.degrees(leaves) - cone) < 0.5  # 40° aimed leaves at the cone (nail: 16.7°)
    d = math.radians(40) - 0.7  # the push's angle off the turned die's face normal
    gripped = math.atan(math.tan(d) / (1 + p.finger_restitution)) - d
    off = turn_off_aim(Flick("d", math.radians(40), None, finger_speed=1.0), 0, 0, 0.7, p)
    assert off == pytest.approx(gripped, rel=1e-9) and abs(off) < math.radians(0.04)
    # a line at a target 38° off the die's faces: square, the die leaves wide (no open line);
    # turned to face it, it runs at the target
    from types import SimpleNamespace

    from jamsumo_sim.rules.bots import _open_line

    here = (-0.14, 0.04)
    bearing = math.radians(38)
    there = (here[0] + 0.12 * math.cos(bearing), here[1] + 0.12 * math.sin(bearing))
    for angle, open_ in ((0.0, False), (bearing, True)):
        pos = {
            "red1": SimpleNamespace(x=here[0], y=here[1], angle=angle),
            "blue1": SimpleNamespace(x=there[0], y=there[1], angle=0.0),
        }
        assert _open_line(state, pos, "red1", "blue1") is open_, angle
    # the planner searches turned set-ups: legal ones, and its choice scores best of all
    seat = state.current_player()
    legal = state.legal_actions(seat)
    turned = turned_setups(state, seat, legal)
    assert turned and all(state.is_legal(seat, a) for a in turned)
    assert any(
        any(abs(math.remainder(d.angle, math.pi / 2)) > 1e-6 for d in setup.read_setup(a).dice)
        for a in turned
    )
    choice = PlannerBot(seat, state.game, level="easy").act(seat_view(state, seat))
    best = max(setup_score(state, seat, a) for a in legal + turned)
    assert setup_score(state, seat, choice) == best
