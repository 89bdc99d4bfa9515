"""End to end: real pygame events on the play window (dummy video driver)."""

from __future__ import annotations

import math

import pygame
import pytest

from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.gesture import DieSpot, flick_from_drag
from jamsumo_sim.ui.match_session import new_match
from tests.ui.helpers import DT, aim_towards_hole, fast, key, post_drag, px, run_until_idle


def make_app(mode: str, seats=("human", "human"), seed: int = 1) -> App:
    app = App(
        # these tests flick from the first frame: the old fixed Sumo opening (set-ups: test_placement_window)
        new_match(mode, list(seats), seed, sumo_setup="grid"),
        size=(1024, 640),
        sync_bots=True,
        autosave_enabled=False,
    )
    app.frame(DT)  # the set-up roll happens on the first frame
    run_until_idle(app)  # and the board turns to the first player
    return app


def test_drag_and_release_on_a_die_flicks_it_and_it_moves():
    app = make_app("sumo")
    seat = app.session.to_move()
    assert seat is not None
    st, direction = aim_towards_hole(app.session, seat)
    view = app.view()
    pull = 0.05  # m of drag back, away from the push
    start = px(view.to_screen(st.x, st.y))
    end = px(view.to_screen(st.x - pull * math.cos(direction), st.y - pull * math.sin(direction)))
    post_drag(app, start, end)
    assert app.message == ""
    assert len(app.flicks) == 1
    action = app.flicks[0]
    # the flick is what the gesture maths says for these pixels
    p = app.session.params
    expected = flick_from_drag(
        DieSpot(st.id, st.x, st.y, st.angle, p.die_size),
        view.to_world(*start),
        view.to_world(*end),
        0.5,
        app.gesture,
        p.max_launch_speed,
        p.die_mass,
        physics=p,
    )
    assert action["die"] == st.id
    assert action["direction"] == pytest.approx(expected.direction)
    assert math.cos(action["direction"] - direction) > math.cos(math.radians(3))
    assert action["impulse"] == pytest.approx(expected.impulse)
    assert app.busy
    run_until_idle(app)
    assert not app.busy
    # the die moved (or left the board) and the rules took the shot
    moved = (
        st.id not in app.session.world().die_ids
        or math.hypot(
            app.session.world().state(st.id).x - st.x, app.session.world().state(st.id).y - st.y
        )
        > 0.01
    )
    assert moved
    assert app.session.state.history[-1]["action"]["args"]["die"] == st.id
    assert app.session.mismatches == 0
    assert app.session.to_move() != seat or app.session.finished()


def test_an_unfair_flick_is_refused_with_the_reason():
    app = make_app("sumo")
    seat = app.session.to_move()
    dice = [s for s in app.session.world().states() if s.id in app.session.flickable(seat)]
    # a die with a neighbour close behind it: pushing away from that neighbour puts the finger on it
    a, b = next(
        (a, b) for a in dice for b in dice if abs(a.y - b.y) < 1e-6 and 0 < a.x - b.x < 0.025
    )
    view = app.view()
    start = px(view.to_screen(a.x, a.y))
    end = px(view.to_screen(a.x - 0.03, a.y))  # pull towards b: push away from it
    post_drag(app, start, end)
    assert app.message.startswith("Not allowed"), app.message
    assert "more than one die" in app.message
    assert not app.busy and app.flicks == []


def test_escape_and_right_click_cancel_an_aim():
    app = make_app("sumo")
    seat = app.session.to_move()
    st, direction = aim_towards_hole(app.session, seat)
    start = px(app.view().to_screen(st.x, st.y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.frame(DT)
    assert app.aim is not None
    key(app, pygame.K_ESCAPE)
    assert app.aim is None
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    app.frame(DT)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=3))
    app.frame(DT)
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0], start[1] + 80), button=1)
    )
    app.frame(DT)
    assert app.flicks == [] and not app.busy


def test_wheel_sets_the_strike_height_of_the_flick():
    app = make_app("sumo")
    seat = app.session.to_move()
    st, direction = aim_towards_hole(app.session, seat)
    for _ in range(2):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    app.frame(DT)
    view = app.view()
    start = px(view.to_screen(st.x, st.y))
    end = px(view.to_screen(st.x - 0.04 * math.cos(direction), st.y - 0.04 * math.sin(direction)))
    post_drag(app, start, end)
    assert app.flicks and app.flicks[0]["height"] == pytest.approx(0.4)


def test_placing_from_the_tray_and_flicking_is_one_action():
    app = make_app("jam")
    seat = app.session.to_move()
    hand_before = len(app.session.hand(seat))
    assert hand_before == 6
    view = app.view()
    slot = app.hand_slots(seat)[0]
    board = app.session.board
    side = app.session.view_side(seat)
    from jamsumo_sim.physics.board import from_seat

    zone = min(
        board.platforms,
        key=lambda p: math.hypot(
            *(a - b for a, b in zip((p.x, p.y), from_seat(side, 0.0, -0.18), strict=True))
        ),
    )
    post_drag(app, px(view.to_screen(slot.x, slot.y)), px(view.to_screen(zone.x, zone.y)))
    assert app.placement is not None and app.placement.place == zone.name
    assert app.flicks == []
    # now flick it from the platform towards the hole
    p = app.placement
    d = math.atan2(-p.y, -p.x)
    start = px(view.to_screen(p.x, p.y))
    end = px(view.to_screen(p.x - 0.03 * math.cos(d), p.y - 0.03 * math.sin(d)))
    post_drag(app, start, end)
    assert app.message == "", app.message
    assert len(app.flicks) == 1
    action = app.flicks[0]
    assert action["place"] == zone.name and action["die"] == slot.die
    fast(app)
    run_until_idle(app)
    assert len(app.session.hand(seat)) == hand_before - 1
    assert app.session.state.history[-1]["action"]["args"]["place"] == zone.name


def test_dropping_off_a_jam_zone_is_refused():
    app = make_app("jam")
    seat = app.session.to_move()
    view = app.view()
    slot = app.hand_slots(seat)[0]
    post_drag(app, px(view.to_screen(slot.x, slot.y)), px(view.to_screen(0.05, 0.05)))
    assert app.placement is None
    assert "JAM zone" in app.message


def test_space_pauses_time_and_speed_keys_scale_it():
    app = make_app("sumo")
    seat = app.session.to_move()
    st, direction = aim_towards_hole(app.session, seat)
    view = app.view()
    start = px(view.to_screen(st.x, st.y))
    end = px(view.to_screen(st.x - 0.08 * math.cos(direction), st.y - 0.08 * math.sin(direction)))
    post_drag(app, start, end)
    assert app.busy
    for _ in range(3):
        app.frame(DT)
    key(app, pygame.K_SPACE)
    world = app.anim.world
    t0 = world.time
    for _ in range(20):
        app.frame(DT)
    assert world.time == t0  # paused: time stops
    key(app, pygame.K_SPACE)
    app.frame(DT)
    t1 = world.time
    assert t1 > t0
    app.frame(DT)
    normal = world.time - t1
    key(app, pygame.K_MINUS)
    key(app, pygame.K_MINUS)  # ×0.25 after two steps down from ×1
    t2 = world.time
    app.frame(DT)
    slow = world.time - t2
    assert 0 < slow < normal


def test_r_replays_the_last_shot_without_changing_the_match():
    app = make_app("sumo")
    seat = app.session.to_move()
    st, direction = aim_towards_hole(app.session, seat)
    view = app.view()
    post_drag(
        app,
        px(view.to_screen(st.x, st.y)),
        px(view.to_screen(st.x - 0.02 * math.cos(direction), st.y - 0.02 * math.sin(direction))),
    )
    fast(app)
    run_until_idle(app)
    moves = len(app.session.state.history)
    key(app, pygame.K_r)
    assert app.busy and app.replaying
    run_until_idle(app)
    assert len(app.session.state.history) == moves
    assert not app.replaying


def test_bots_shots_animate_like_human_ones():
    app = make_app("sumo", seats=("random", "random"))
    frames = 0
    while not app.flicks and frames < 600:
        app.frame(DT)
        frames += 1
    assert app.flicks, "no bot shot started"
    assert app.busy  # it is animating, not applied at once
    moves = len(app.session.state.history)
    fast(app)
    run_until_idle(app)
    assert len(app.session.state.history) == moves + 1


def test_resize_keeps_a_minimum_and_rescales():
    app = make_app("sumo")
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=500, size=(800, 500)))
    app.frame(DT)
    assert app.screen.get_size() == (1024, 640)
    small = app.view().scale
    pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=1200, h=760, size=(1200, 760)))
    app.frame(DT)
    assert app.view().scale > small


def test_hot_seat_turns_the_view_and_s_saves_a_replay(tmp_path):
    app = make_app("sumo")
    first = app.session.to_move()
    assert app.view_side == app.session.view_side(first)
    st, direction = aim_towards_hole(app.session, first)
    view = app.view()
    post_drag(
        app,
        px(view.to_screen(st.x, st.y)),
        px(view.to_screen(st.x - 0.02 * math.cos(direction), st.y - 0.02 * math.sin(direction))),
    )
    fast(app)
    run_until_idle(app)
    second = app.session.to_move()
    assert second != first
    assert app.view_side == app.session.view_side(second) != app.session.view_side(first)
    key(app, pygame.K_t)  # the view stops turning: seat 0's side at the bottom
    assert app.view_side == 0
    app.replay_dir = tmp_path
    key(app, pygame.K_s)
    files = list(tmp_path.glob("jamsumo-sumo-*.json"))
    assert len(files) == 1, app.message
    from jamsumo_sim.replay import load_replay

    assert len(load_replay(files[0]).shots) == 1


def test_round_and_match_tables():
    from jamsumo_sim.turnloop import get_game
    from jamsumo_sim.ui.match_session import MatchSession

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 2, "max_turns": 1})
    session = MatchSession(game.new_initial_state(params, seed=2), ["random", "random"])
    app = App(session, size=(1024, 640), sync_bots=True, autosave_enabled=False)
    fast(app)
    frames = 0
    while app.session.table(app.theme) is None and frames < 2000:
        app.frame(DT)
        frames += 1
    table = app.session.table(app.theme)
    assert table is not None and table.title.startswith("Round 1")
    assert [r[0] for r in table.rows] == ["Red", "Blue"]
    moves = len(session.state.history)
    for _ in range(30):
        app.frame(DT)
    assert len(session.state.history) == moves  # play waits while the table is up
    key(app, pygame.K_RETURN)
    assert app.session.table(app.theme) is None
    while not session.finished() and frames < 4000:
        app.frame(DT)
        frames += 1
    run_until_idle(app)
    final = app.session.table(app.theme)
    assert final is not None and final.title == "Match over"
    # the total's column says what it holds, as the panel does (test_scores_display)
    assert final.header[-1] == "points" and "Winner" in final.footer
    key(app, pygame.K_RETURN)
    assert app.session.table(app.theme) is not None  # the final table stays


def test_the_board_turns_smoothly_and_input_waits_for_it():
    app = App(
        new_match("sumo", ["human", "human"], 1),
        size=(1024, 640),
        sync_bots=True,
        autosave_enabled=False,
    )
    app.frame(DT)
    seat = app.session.to_move()
    if app.session.view_side(seat) == 0:
        app.turn_view = False
        key(app, pygame.K_t)  # turning back on: from side 0 to the same side, no animation
        pytest.skip("the first player sits at side 0 with this seed")
    assert app.turning is not None and app.human_to_move() is None
    run_until_idle(app)
    assert app.turning is None and app.human_to_move() == seat


def test_p_passes_only_when_no_fair_flick_exists(monkeypatch):
    from jamsumo_sim.rules.flick_actions import PASS

    app = make_app("sumo")
    seat = app.session.to_move()
    key(app, pygame.K_p)
    assert app.message.startswith("Not allowed") and app.session.to_move() == seat
    # the rules now see no fair flick for this seat: passing becomes the only move
    state = app.session.state
    monkeypatch.setattr(state, "_legal_actions", lambda s: [PASS])
    key(app, pygame.K_p)
    assert state.history[-1]["action"]["name"] == "pass"
    assert app.session.to_move() != seat and not app.busy


def test_sandbox_free_play_flicks_any_die():
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.physics.params import PhysicsParams
    from jamsumo_sim.ui.session import SandboxSession

    board = load_board("standard")
    session = SandboxSession(board, PhysicsParams.from_board(board))
    app = App(session, size=(1024, 640), autosave_enabled=False)
    app.frame(DT)
    # the outer die of a corner (nothing behind it), pushed towards the hole: 44° off its faces,
    # beyond the nail's cone (16.7°), so the die leaves on the cone's edge with 0.90 of the speed
    # the pad's 31° cone gave (sqrt((1 + 0.3^2) / (1 + 0.6^2)), the push's normal part kept) and
    # more squarely into its neighbour: a 4 cm pull moves it 16.6 mm (a 3 cm pull 9.4 mm; with the
    # pad, 16.7 mm)
    st = max(session.world().states(), key=lambda s: abs(s.x) + abs(s.y))
    d = math.atan2(-st.y, -st.x)
    view = app.view()
    post_drag(
        app,
        px(view.to_screen(st.x, st.y)),
        px(view.to_screen(st.x - 0.04 * math.cos(d), st.y - 0.04 * math.sin(d))),
    )
    assert app.busy, app.message
    fast(app)
    run_until_idle(app)
    after = session.world().state(st.id)
    assert math.hypot(after.x - st.x, after.y - st.y) > 0.01
