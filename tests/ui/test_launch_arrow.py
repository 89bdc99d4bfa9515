"""Issue #35: the aim arrow points where the die will actually leave (the physics' launch law: a
push beyond the finger's friction cone slips), for a person's aim and for a bot's, including a bot's
die placed from the tray in Jam. Real frames (dummy video driver), screenshots kept."""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.rules.launch import launch_heading
from jamsumo_sim.ui.app import Aim, App
from jamsumo_sim.ui.gesture import DieSpot
from jamsumo_sim.ui.match_session import new_match
from tests.ui.helpers import DT, px, run_until_idle

SHOTS = Path(os.environ.get("JAMSUMO_UI_SHOTS", tempfile.gettempdir())) / "jamsumo-ui-shots"


def colour_near(app: App, point, colour, reach: int = 2) -> bool:
    x, y = px(point)
    return any(
        tuple(app.screen.get_at((x + dx, y + dy)))[:3] == colour
        for dx in range(-reach, reach + 1)
        for dy in range(-reach, reach + 1)
    )


def test_a_persons_arrow_follows_the_launch_not_the_finger():
    app = App(new_match("sumo", ["human", "human"], 2, sumo_setup="grid"), size=(1024, 640),
              sync_bots=True, autosave_enabled=False)  # fmt: skip
    app.frame(DT)
    run_until_idle(app)
    app.preview_on = False  # the arrow alone
    session = app.session
    seat = session.to_move()
    p = session.params
    # a corner die of the seat (nothing beside it on the outside), pushed 40° off its face
    mine = [s for s in session.world().states() if s.id in session.flickable(seat)]
    st = max(mine, key=lambda s: abs(s.x) + abs(s.y))
    candidates = [st.angle + math.radians(a) for a in (40, 130, 220, 310)]
    push = min(
        candidates, key=lambda a: abs(math.remainder(a - math.atan2(-st.y, -st.x), 2 * math.pi))
    )
    spot = DieSpot(st.id, st.x, st.y, st.angle, p.die_size)
    back = (st.x - 0.09 * math.cos(push), st.y - 0.09 * math.sin(push))  # a long arrow
    app.aim = Aim(spot, (st.x, st.y), back)
    params = app.flick_params(app.aim)
    flick = Flick(st.id, params.direction, None, params.offset, params.height, params.finger_speed)
    leaves = launch_heading(flick, st.x, st.y, st.angle, p)
    turn = math.degrees(math.remainder(leaves - params.direction, 2 * math.pi))
    # the nail's cone (atan 0.3 = 16.7°) turns a 40° push onto its edge: 23.3° off the aim
    assert 20 < abs(turn) < 27
    app.frame(DT)
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / "launch-arrow-person.png"))
    view = app.view()
    tip = p.die_size * (1.2 + 2.5 * params.power)
    r = p.die_size / 2 + 0.9 * tip  # beyond the neighbouring dice
    aim_colour = app.theme.colour("aim")
    on_launch = view.to_screen(st.x + r * math.cos(leaves), st.y + r * math.sin(leaves))
    on_push = view.to_screen(st.x + r * math.cos(push), st.y + r * math.sin(push))
    assert colour_near(app, on_launch, aim_colour)
    assert not colour_near(app, on_push, aim_colour, reach=1)
    assert app.aim_problem is None
    # the speed-and-slip label ("off the push: -23°") stays over the board: behind a corner die it
    # ran off the board's edge and over the strike-height gauge
    half = session.world().board.half
    corners = [view.to_screen(sx * half, sy * half) for sx in (-1, 1) for sy in (-1, 1)]
    left = min(c[0] for c in corners)
    outside = [
        (x, y)
        for x in range(0, int(left) - 1)
        for y in range(app.screen.get_height())
        if tuple(app.screen.get_at((x, y)))[:3] == aim_colour
    ]
    assert not outside, outside[:5]


def test_a_bots_die_from_the_tray_shows_its_aim_on_its_zone_before_it_moves():
    app = App(new_match("jam", ["planner:easy", "planner:easy"], 4), size=(1024, 640),
              sync_bots=True, autosave_enabled=False)  # fmt: skip
    app.bot_pause = 0.0
    seen = None
    for _ in range(400):
        app.frame(DT)
        aim = app.bot_aim
        if aim is not None and aim.shown is not None and aim.elapsed > aim.duration * 0.6:
            seen = aim
            break
    assert seen is not None, "no bot aim shown"
    shown = seen.shown
    assert shown.place is not None  # Jam opens with dice from hand
    assert shown.die not in {s.id for s in app.session.world().states()}  # not on the board yet
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / "launch-arrow-bot-tray.png"))
    x, y, angle = shown.place
    p = app.session.params
    leaves = launch_heading(shown.flick, x, y, angle, p)
    view = app.view()
    # the ghost die on its zone, and the arrow along the launch
    colour = app.theme.dice_colour(app.session.seat_colour_name(seen.seat))
    assert colour_near(app, view.to_screen(x + p.die_size * 0.3, y + p.die_size * 0.3), colour, 3)
    power = min(1.0, shown.speed / p.max_launch_speed)
    r = p.die_size / 2 + 0.6 * p.die_size * (1.2 + 2.5 * power)
    at = view.to_screen(x + r * math.cos(leaves), y + r * math.sin(leaves))
    assert colour_near(app, at, app.theme.colour("aim"))


def test_a_push_inside_the_cone_heads_between_the_normal_and_the_push_and_its_label_clears_warnings():
    """Model 0.18: a push 12° off a face's normal, inside the nail's cone, leaves atan(tan 12° / (1 +
    e_f)) off the normal, not along the push: the arrow follows that and the label says "off the
    push".  The label keeps clear of the preview's warning words (at a corner die both were put on
    the same dice, one over the other)."""
    import pygame

    from jamsumo_sim.ui.draw_overlay import draw_aim

    app = App(new_match("sumo", ["human", "human"], 2, sumo_setup="grid"), size=(1024, 640),
              sync_bots=True, autosave_enabled=False)  # fmt: skip
    app.frame(DT)
    run_until_idle(app)
    session = app.session
    seat = session.to_move()
    p = session.params
    mine = [s for s in session.world().states() if s.id in session.flickable(seat)]
    st = max(mine, key=lambda s: abs(s.x) + abs(s.y))
    toward = math.atan2(-st.y, -st.x)
    normal = st.angle + round((toward - st.angle) / (math.pi / 2)) * math.pi / 2
    push = normal + math.radians(12)
    spot = DieSpot(st.id, st.x, st.y, st.angle, p.die_size)
    app.aim = Aim(spot, (st.x, st.y), (st.x - 0.06 * math.cos(push), st.y - 0.06 * math.sin(push)))
    params = app.flick_params(app.aim)
    flick = Flick(st.id, params.direction, None, params.offset, params.height, params.finger_speed)
    leaves = launch_heading(flick, st.x, st.y, st.angle, p)
    off = math.remainder(leaves - normal, 2 * math.pi)
    d = math.remainder(params.direction - normal, 2 * math.pi)
    assert off == __import__("pytest").approx(
        math.atan(math.tan(d) / (1 + p.finger_restitution)), abs=1e-9
    )
    app.frame(DT)
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / "launch-arrow-inside-cone.png"))
    view = app.view()
    tip = p.die_size * (1.2 + 2.5 * params.power)
    r = p.die_size / 2 + 0.9 * tip
    assert colour_near(app, view.to_screen(st.x + r * math.cos(leaves), st.y + r * math.sin(leaves)),
                       app.theme.colour("aim"))  # fmt: skip
    # the label, then the same label told to keep clear of words where it went
    screen = pygame.Surface(app.screen.get_size())
    args = (screen, view, app.theme, spot, app.aim.press, app.aim.current, params,
            p.mu_board * p.gravity, session.board.side / 2)  # fmt: skip
    first = draw_aim(*args, heading=leaves)
    assert first is not None
    words = first.inflate(40, 4)
    second = draw_aim(*args, heading=leaves, avoid=[words])
    assert second is not None and not second.colliderect(words)
    assert second.size == first.size and second.centerx == first.centerx
    # on its dark tag, which keeps it readable over the dice, the dots and the arrow it may lie on
    tag = app.theme.colour("tag")
    assert tuple(screen.get_at((second.left + 2, second.centery)))[:3] == tag
    assert tuple(screen.get_at((second.right - 3, second.centery)))[:3] == tag


def test_the_previews_warning_words_sit_on_dark_tags():
    """The words fall on dice and paths (below the path's end): each line on a tag of the theme's
    ``tag`` colour, where it was drawn, and the lines' tags apart."""
    import pygame

    from jamsumo_sim.ui.shot_preview import Preview, draw_preview

    app = App(new_match("sumo", ["human", "human"], 2, sumo_setup="grid"), size=(1024, 640),
              sync_bots=True, autosave_enabled=False)  # fmt: skip
    theme = app.theme
    view = app.view()
    preview = Preview("red1", ((0.0, 0.0), (0.05, 0.0)), warnings=("struck no opponent", "removed"))
    screen = pygame.Surface(app.screen.get_size())
    screen.fill((200, 200, 200))
    words = draw_preview(screen, view, preview, app.session.params.die_size, theme.colour("aim"),
                         theme.colour("warning"), tag_colour=theme.colour("tag"))  # fmt: skip
    assert len(words) == 2 and not words[0].colliderect(words[1])
    for r in words:
        assert tuple(screen.get_at((r.left + 2, r.centery)))[:3] == theme.colour("tag")
    bare = pygame.Surface(app.screen.get_size())
    bare.fill((200, 200, 200))
    draw_preview(bare, view, preview, app.session.params.die_size, theme.colour("aim"),
                 theme.colour("warning"))  # fmt: skip
    assert tuple(bare.get_at((words[0].left + 2, words[0].centery)))[:3] == (200, 200, 200)
