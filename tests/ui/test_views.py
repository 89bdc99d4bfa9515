"""The window's views: collision preview, bot aim, trails and slow motion, the hit story, marks on dice,
zoom and pan, help, undo, strike height, pitched and airborne dice."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

import pygame
import pytest

from jamsumo_sim.physics.events import Event
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.rules.launch import turn_off_aim
from jamsumo_sim.ui.app import Aim, App
from jamsumo_sim.ui.die_marks import named_dice
from jamsumo_sim.ui.draw_dice import DieLook, draw_die
from jamsumo_sim.ui.gesture import DieSpot
from jamsumo_sim.ui.session import SandboxSession
from jamsumo_sim.ui.shot_preview import predict
from jamsumo_sim.ui.shot_story import describe
from jamsumo_sim.ui.zoom import ZOOMS, Zoom
from tests.ui.helpers import DT, fast, key, run_until_idle

# screenshots to look at (JAMSUMO_UI_SHOTS=folder keeps them somewhere chosen)
SHOTS = Path(os.environ.get("JAMSUMO_UI_SHOTS", tempfile.gettempdir())) / "jamsumo-ui-shots"


def sandbox(seats: int = 4) -> SandboxSession:
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.physics.params import PhysicsParams

    board = load_board("standard")
    return SandboxSession(board, PhysicsParams.from_board(board), seats=seats)


def pair(session):
    """Two dice side by side in one corner: the first struck towards the second."""
    sts = session.world().states()
    a = max(sts, key=lambda s: abs(s.x) + abs(s.y))  # a corner's outer die: nothing behind it
    b = min((s for s in sts if s.id != a.id), key=lambda s: math.hypot(s.x - a.x, s.y - a.y))
    return a, b, math.atan2(b.y - a.y, b.x - a.x)


def aim_at(app: App, die, direction: float, pull: float = 0.05) -> None:
    size = app.session.params.die_size
    spot = DieSpot(die.id, die.x, die.y, die.angle, size)
    back = (die.x - pull * math.cos(direction), die.y - pull * math.sin(direction))
    app.aim = Aim(spot, (die.x, die.y), back)


def shoot(session, die: str, direction: float, speed: float) -> Flick:
    return Flick(die, direction, speed * session.params.die_mass, 0.0, 0.5)


def save(app: App, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / name))


# --- preview ----------------------------------------------------------------------------------
def test_preview_marks_the_first_contact_and_the_struck_die():
    s = sandbox()
    a, b, d = pair(s)
    p = predict(s, 0, shoot(s, a.id, d, 1.0), a.id)
    assert p.struck == b.id and p.contact is not None
    # the contact is on the way from a to b, about a die size from b
    assert math.hypot(p.contact[0] - b.x, p.contact[1] - b.y) < 1.3 * s.params.die_size
    assert len(p.struck_path) >= 2
    # the world being played was not touched
    assert s.world().state(a.id).x == a.x


def test_preview_warns_before_release_when_the_die_leaves_the_board():
    s = sandbox()
    a, _, _ = pair(s)
    # The nail's cone (atan 0.3 = 16.7°) lets a die leave only within 16.7° of a face's normal: pushed
    # across the board (45° to its faces) it slips onto the cone's edge and stops in its neighbours.
    # Pushed square to one of the two faces that look across the board, turned outwards inside the
    # cone, it glances off the neighbour there and leaves the board (at 5 m/s every push 3°-17°
    # outwards did on model 0.17; with the pad's 31° cone a push at 61°, 29° off a face's normal, did it).
    inward = math.atan2(-a.y, -a.x)
    right = a.angle + math.floor((inward - a.angle) / (math.pi / 2)) * math.pi / 2
    left = right + math.pi / 2  # the two pushes square to those faces, either side of ``inward``
    p = None
    # (model 0.18: inside the cone the pad grips the face, and the die heads atan(tan d / (1 + e_f))
    # off the face's normal for a push d off it)
    grip = 1 + s.params.finger_restitution
    for normal, d in ((right, -0.1), (left, 0.1), (right, -0.2), (left, 0.2)):
        f = shoot(s, a.id, normal + d, 5.0)
        off = math.atan(math.tan(d) / grip) - d
        assert turn_off_aim(f, a.x, a.y, a.angle, s.params) == pytest.approx(off, abs=1e-9)
        if s.why_illegal(0, f) is None:
            p = predict(s, 0, f, a.id)
            if p.warnings:
                break
    assert p is not None and p.warnings and "would" in p.warnings[0]
    # the physics agrees: the same shot played ends where the preview said
    w = s.preview(f)
    w.run_until_rest(30.0)
    assert w.state(a.id).status != "on_board"
    legal = [f]
    slow = predict(s, 0, Flick(a.id, legal[0].direction, 0.05 * s.params.die_mass), a.id)
    assert not slow.warnings


def test_preview_is_drawn_while_aiming():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    a, b, d = pair(s)
    app.frame(DT)
    aim_at(app, a, d)
    app.frame(DT)
    assert app.previews.value is not None and app.previews.value.struck == b.id
    save(app, "preview_first_contact.png")


# --- the hit story ----------------------------------------------------------------------------
def test_story_says_what_the_shot_did():
    ev = [
        Event(0.0, "flick", ("red3",)),
        Event(0.1, "collision", ("red3", "blue2"), {"kind": "die"}),
        Event(0.2, "collision", ("blue2", "green1"), {"kind": "die"}),
        Event(0.5, "off_board", ("blue2",)),
        Event(0.6, "hole", ("green1",)),
    ]
    line = describe("red3", ev)
    assert line.startswith("red3 knocked blue2 off the board")
    assert "green1 into the hole in a chain" in line
    assert describe("red3", ev[:1]) == "red3 hit nothing"


def test_the_log_gets_the_story_of_a_played_shot():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    a, b, d = pair(s)
    app.frame(DT)
    app.start_shot(0, shoot(s, a.id, d, 1.0))
    fast(app)
    run_until_idle(app)
    assert app.stories and app.stories[-1][1].startswith(f"{a.id} hit {b.id}")
    assert any(line.startswith(f"{a.id} hit") for line in app._with_stories(tuple(s.log())))


# --- trails and slow motion -------------------------------------------------------------------
def test_trails_follow_a_shot_and_impacts_slow_it_down():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    a, _, d = pair(s)
    app.frame(DT)
    app.start_shot(0, shoot(s, a.id, d, 1.5))
    slowed = False
    for _ in range(120):
        app.frame(DT)
        slowed = slowed or app.fx.slow.left > 0
        if len(app.fx.trails.points.get(a.id, ())) >= 3:
            pass
    assert slowed, "an impact happened but time did not slow down"
    assert any(len(q) >= 2 for q in app.fx.trails.points.values())
    # M turns it off
    key(app, pygame.K_m)
    assert not app.fx.slow.enabled
    assert app.fx.slow.scale(DT) == 1.0


# --- the bot's aim ----------------------------------------------------------------------------
class BotSandbox(SandboxSession):
    """Free play where seat 0 is a bot that always pushes red1 the same way."""

    def __init__(self) -> None:
        super().__init__(*_board_params(), seats=2)
        self.shot = None

    def is_human(self, seat: int) -> bool:
        return False

    def bot_task(self):
        return lambda: self.shot


def _board_params():
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.physics.params import PhysicsParams

    board = load_board("standard")
    return board, PhysicsParams.from_board(board)


def test_the_bots_aim_shows_before_it_shoots():
    s = BotSandbox()
    a, _, d = pair(s)
    s.shot = shoot(s, a.id, d, 1.2)
    app = App(s, size=(1024, 640), autosave_enabled=False, sync_bots=True)
    seen_aim = 0
    for _ in range(200):
        app.frame(DT)
        if app.bot_aim is not None:
            seen_aim += 1
            if seen_aim == 20:
                save(app, "bot_aim.png")
        if app.busy:
            break
    assert app.busy, "the bot never shot"
    # shown for bot_aim_time before the shot, and the shot is the bot's
    assert seen_aim >= int(app.bot_aim_time / DT) - 1
    assert app.flicks[-1] is s.shot


# --- marks on dice, hover ids, the height ------------------------------------------------------
def test_refusals_name_dice_and_those_are_marked():
    assert named_dice("Not allowed: red6 and red3 touch red6", ["red3", "red6", "blue1"]) == [
        "red6",
        "red3",
    ]
    assert named_dice("Not allowed: the finger hits something", ["red3"]) == []


def test_strike_height_resets_after_a_shot_unless_kept():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    a, _, d = pair(s)
    app.frame(DT)
    app.height = 0.9
    app.start_shot(0, shoot(s, a.id, d, 0.3))
    fast(app)
    run_until_idle(app)
    assert app.height == app.gesture.height_default
    key(app, pygame.K_k)
    app.height = 0.9
    app.start_shot(0, shoot(s, a.id, d, 0.3))
    run_until_idle(app)
    assert app.height == 0.9


# --- zoom, pan, help, undo -------------------------------------------------------------------
def test_zoom_keeps_the_pan_point_at_the_centre_and_round_trips():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    base = app.view()
    z = Zoom().zoomed(2, s.board.side / 2).panned(0.05, -0.03, s.board.side / 2)
    v = z.apply(base)
    assert v.scale == pytest.approx(base.scale * z.factor, rel=0.01)
    cx, cy = v.to_screen(*z.pan)
    assert (cx, cy) == pytest.approx(base.centre, abs=1.0)
    assert v.to_world(*v.to_screen(0.1, 0.2)) == pytest.approx((0.1, 0.2), abs=1e-9)
    # Ctrl+wheel zooms, plain wheel still sets the strike height
    pygame.key.set_mods(pygame.KMOD_CTRL)
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
    app.frame(DT)
    pygame.key.set_mods(0)
    assert app.zoom.level == 1 and app.view().scale > base.scale
    h = app.height
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
    app.frame(DT)
    assert app.zoom.level == 1 and app.height > h
    # arrows pan, Ctrl+0 resets
    key(app, pygame.K_RIGHT)
    assert app.zoom.pan != (0.0, 0.0)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_0, mod=pygame.KMOD_CTRL))
    app.frame(DT)
    assert app.zoom == Zoom()
    # the deepest zoom, panned to a corner, draws (platforms partly off the window)
    half = s.board.side / 2
    app.zoom = Zoom().zoomed(len(ZOOMS), half).panned(half, half, half)
    app.frame(DT)
    save(app, "zoomed.png")


def test_help_overlay_toggles_with_f1_and_question_mark():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    app.frame(DT)
    key(app, pygame.K_F1)
    assert app.show_help
    assert app.human_to_move() is None  # no flicking through the card
    save(app, "help_overlay.png")
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SLASH, mod=0, unicode="?"))
    app.frame(DT)
    assert not app.show_help


def test_undo_takes_the_last_shot_back_in_free_play():
    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)
    a, _, d = pair(s)
    app.frame(DT)
    before = s.world().checksum()
    app.start_shot(0, shoot(s, a.id, d, 1.0))
    fast(app)
    run_until_idle(app)
    assert s.world().checksum() != before
    key(app, pygame.K_u)
    assert s.world().checksum() == before
    key(app, pygame.K_u)  # nothing left: says so, changes nothing
    assert "Undo" in app.message and s.world().checksum() == before


def test_the_saved_file_message_fits_the_panel(tmp_path):
    s = sandbox()
    s.save_replay = lambda path: path  # type: ignore[method-assign]
    deep = tmp_path / ("very-long-folder-name-" * 4)
    deep.mkdir()
    app = App(s, size=(1024, 640), autosave_enabled=False, replay_dir=deep)
    app.frame(DT)
    key(app, pygame.K_s)
    assert app.message.startswith("Replay saved") and str(deep) not in app.message


# --- pitched and airborne dice ------------------------------------------------------------------
def _draw(look: DieLook) -> pygame.Surface:
    surf = pygame.Surface((100, 100))
    surf.fill((200, 160, 100))
    draw_die(surf, (50, 50), 40, 0.0, look)
    return surf


def test_pitched_and_airborne_dice_look_it():
    flat = DieLook("d", 0, 0, 0.0, 3, (180, 28, 50))
    tipped = DieLook("d", 0, 0, 0.0, 3, (180, 28, 50), flat=False, pitch=0.6)
    flying = DieLook("d", 0, 0, 0.0, 3, (180, 28, 50), lift=0.8)
    base = pygame.surfarray.array3d(_draw(flat))
    for other in (tipped, flying):
        diff = (pygame.surfarray.array3d(_draw(other)) != base).any(axis=2).sum()
        assert diff > 150

    # in the air the die is drawn larger: more pixels of its colour
    def body(a):
        return ((a[:, :, 0] > 120) & (a[:, :, 1] < 60)).sum()

    assert body(pygame.surfarray.array3d(_draw(flying))) > body(base)


def test_a_planner_hard_seat_keeps_its_tag_in_a_narrow_panel():
    from jamsumo_sim.ui.panel import PanelInfo, PlayerRow, draw_panel, font
    from jamsumo_sim.ui.theme import load_theme

    pygame.init()
    font.cache_clear()  # fonts made before an earlier test's pygame.quit() are dead
    theme = load_theme()

    def rows(kind):
        surf = pygame.Surface((300, 640))
        row = PlayerRow(3, "Yellow", theme.dice_colour("yellow"), 0, 6, "0 (+24)", False, kind)
        draw_panel(surf, surf.get_rect(), PanelInfo("Sumo", players=(row,)), theme)
        return pygame.surfarray.array3d(surf)

    assert (rows("planner:hard") != rows("human")).any(axis=2).sum() > 30
