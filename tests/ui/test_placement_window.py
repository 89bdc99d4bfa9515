"""The Sumo opening in the window: a human seat chooses a corner by clicking and drags dice; a bot
sets up by itself; refusals are text. Real pygame events (dummy video driver), screenshots kept."""

from __future__ import annotations

import pygame

from jamsumo_sim.rules.setup import inside
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.match_session import new_match
from tests.ui.helpers import DT, key, post_drag, px, run_until_idle

SHOTS = "/tmp/jamsumo-shots"


def make_app(seats, seed: int = 2) -> App:
    app = App(
        new_match("sumo", list(seats), seed),
        size=(1024, 640),
        sync_bots=True,
        autosave_enabled=False,
    )
    app.bot_pause = 0.0
    app.frame(DT)  # the set-up roll
    run_until_idle(app)
    return app


def click(app: App, pos) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.frame(DT)


def frames_until(app: App, done, limit: int = 600) -> None:
    for _ in range(limit):
        if done():
            return
        app.frame(DT)
    raise AssertionError("the window did not get there")


def human_sets_up(app: App, seat: int, tmp_path, name: str) -> str:
    """Click the seat's nearest free corner, drag one die inside it, confirm with Enter."""
    session = app.session
    view = app.view()
    corner = session.free_corners()[0]
    area = session.board.sumo_area(corner)
    click(app, px(view.to_screen(area.x, area.y)))
    mode = app.setup_mode
    assert mode.corner == corner and len(mode.poses) == 6, app.message
    app.screenshot(str(tmp_path / f"{name}-chosen.png"))
    # drag die 1 to a free spot of the area: the pose follows the pointer
    before = mode.poses[0]
    target = min(
        (
            (area.x + fx * area.width, area.y + fy * area.depth)
            for fx in (-0.3, 0.0, 0.3)
            for fy in (-0.3, 0.0, 0.3)
        ),
        key=lambda p: -min((p[0] - q.x) ** 2 + (p[1] - q.y) ** 2 for q in mode.poses[1:]),
    )
    post_drag(app, px(view.to_screen(before.x, before.y)), px(view.to_screen(*target)))
    after = app.setup_mode.poses[0]
    assert abs(after.x - target[0]) < 0.004 and abs(after.y - target[1]) < 0.004
    assert (after.x, after.y) != (before.x, before.y)
    if app.setup_mode.problem is None:
        key(app, pygame.K_RETURN)
    return corner


def test_human_drags_dice_and_planner_sets_up_then_shots_follow(tmp_path):
    app = make_app(["human", "planner:easy"])
    session = app.session
    frames_until(app, lambda: session.setting_up() == 0 or session.setting_up() is None)
    assert session.setting_up() == 0  # the bot (if first) set up alone; now the human's turn
    corner = human_sets_up(app, 0, tmp_path, "human")
    frames_until(app, lambda: session.setting_up() is None)
    state = session.state
    assert state.corners[corner] == 0 and len(state.corners) == 2
    area = session.board.sumo_area(corner)
    size = session.params.die_size
    for st in session.world().states():
        if st.id.startswith("red"):
            from jamsumo_sim.rules.setup import DiePose

            assert inside(area, DiePose(st.x, st.y, st.angle), size)
    assert len(session.world().states()) == 12
    # the history holds both set-ups, then the game goes on to flicks
    setups = [e for e in state.history if "action" in e and "corner" in e["action"]["args"]]
    assert len(setups) == 2
    # seed 2: Blue (the planner) holds the marker, so the first flick is the bot's
    assert session.to_move() == 1
    frames_until(app, lambda: any("die" in dict(a.args) for a in app.flicks))
    app.screenshot(str(tmp_path / "after-setup.png"))
    import shutil
    from pathlib import Path

    Path(SHOTS).mkdir(exist_ok=True)
    for p in tmp_path.glob("*.png"):
        shutil.copy(p, Path(SHOTS) / p.name)
    assert session.to_move() in (0, 1) and session.setting_up() is None


def test_refusals_are_text_and_nothing_is_set_up(tmp_path):
    app = make_app(["human", "human"], seed=4)
    session = app.session
    seat = session.setting_up()
    assert seat is not None
    key(app, pygame.K_RETURN)  # no corner yet
    assert app.message.startswith("Not allowed: choose a corner")
    view = app.view()
    corner = session.free_corners()[0]
    area = session.board.sumo_area(corner)
    click(app, px(view.to_screen(area.x, area.y)))
    poses = app.setup_mode.poses
    # drag die 1 onto die 2: the rules refuse the overlap, in words, and nothing changes
    post_drag(
        app, px(view.to_screen(poses[0].x, poses[0].y)), px(view.to_screen(poses[1].x, poses[1].y))
    )
    key(app, pygame.K_RETURN)
    assert "would overlap" in app.message and app.message.startswith("Not allowed")
    assert session.setting_up() == seat and not session.state.corners
    app.screenshot(str(tmp_path / "refused.png"))
    import shutil
    from pathlib import Path

    Path(SHOTS).mkdir(exist_ok=True)
    shutil.copy(tmp_path / "refused.png", Path(SHOTS) / "refused.png")
    # Esc goes back to choosing the corner
    key(app, pygame.K_ESCAPE)
    assert app.setup_mode.corner is None


def test_the_wheel_and_brackets_turn_a_die_at_set_up_and_the_turn_is_recorded(tmp_path):
    """Issue #35: a die is turned while placing (wheel over it, or [ ] for the last one touched),
    the turn shows beside it, and the set-up action the rules get carries it."""
    import math

    from jamsumo_sim.rules.setup import read_setup

    app = make_app(["human", "human"])
    session = app.session
    frames_until(app, lambda: session.setting_up() is not None)
    seat = session.setting_up()
    view = app.view()
    corner = session.free_corners()[0]
    area = session.board.sumo_area(corner)
    click(app, px(view.to_screen(area.x, area.y)))
    mode = app.setup_mode
    assert mode.corner == corner
    # point at die 2 and roll the wheel up three notches: 15° anticlockwise
    die = mode.poses[1]
    at = px(view.to_screen(die.x, die.y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    for _ in range(3):
        pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    app.frame(DT)
    assert abs(mode.poses[1].angle - die.angle - math.radians(15)) < 1e-9
    assert abs(mode.turn_shown(app, seat, 1) - 15) < 1e-6
    assert "turned +15°" in app.message
    # click die 4 (selects it), then ] twice: 10° clockwise
    d4 = mode.poses[3]
    click(app, px(view.to_screen(d4.x, d4.y)))
    assert mode.selected == 3
    key(app, pygame.K_RIGHTBRACKET)
    key(app, pygame.K_RIGHTBRACKET)
    assert abs(mode.poses[3].angle - d4.angle + math.radians(10)) < 1e-9
    app.frame(DT)
    shot = tmp_path / "setup-turned.png"
    app.screenshot(str(shot))
    app.screenshot(f"{SHOTS}/setup-turned.png")
    assert mode.problem is None, mode.problem
    key(app, pygame.K_RETURN)
    frames_until(app, lambda: session.setting_up() != seat)
    recorded = next(
        e["action"]
        for e in reversed(session.state.history)
        if "corner" in e.get("action", {}).get("args", {})
    )
    from jamsumo_sim.turnloop import Action

    spec = read_setup(Action.from_json(recorded))
    turns = [math.degrees(math.remainder(d.angle, math.pi / 2)) for d in spec.dice]
    assert abs(turns[1] - 15) < 1e-6 and abs(turns[3] + 10) < 1e-6
    assert all(abs(t) < 1e-6 for k, t in enumerate(turns) if k not in (1, 3))
    # the world has the dice turned as placed
    world = {st.id: st for st in session.world().states()}
    from jamsumo_sim.rules.seats import die_ids

    ids = die_ids(seat)
    assert (
        abs(math.remainder(world[ids[1]].angle - die.angle - math.radians(15), 2 * math.pi)) < 1e-6
    )
