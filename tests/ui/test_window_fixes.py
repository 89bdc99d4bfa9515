"""Window fixes found by using the installed product: undo takes the shot's story line back too, H maps
a die just placed on a JAM zone, a refusal leaves the panel when a new aim starts, paths drawn over
the board stay on it, the panel's columns never run together, the replay's trays stay above its
timeline."""

from __future__ import annotations

import pygame

from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.turnloop import seat_view
from jamsumo_sim.ui import hud
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.heat_overlay import HeatSettings
from jamsumo_sim.ui.match_session import new_match
from jamsumo_sim.ui.panel import PanelInfo, PlayerRow, draw_panel
from jamsumo_sim.ui.shot_preview import Preview
from jamsumo_sim.ui.theme import load_theme
from tests.ui.helpers import DT, fast, key, post_drag, px, run_until_idle


def _practice(mode: str) -> App:
    setup = {"sumo_setup": "grid"} if mode == "sumo" else {}
    session = new_match(mode, ["human", "human"], 3, noise="practice", **setup)
    app = App(session, size=(1024, 640), sync_bots=True, autosave_enabled=False)
    app.frame(DT)  # the round-marker roll
    run_until_idle(app)
    return app


def test_undo_takes_the_shots_story_line_back_too():
    app = _practice("sumo")
    st = app.session.state
    seat = app.session.to_move()
    action = RandomBot(seat, st.game).act(seat_view(st, seat))
    app.start_shot(seat, action)
    fast(app)
    run_until_idle(app)
    told = [line for _, line in app.stories]
    assert told and told[0] in app._with_stories(app.session.log())
    key(app, pygame.K_u)
    assert app.message == "Last shot taken back."
    shown = app._with_stories(app.session.log())
    assert not any(line in shown for line in told), shown[-3:]


def test_h_maps_a_die_just_placed_on_a_jam_zone():
    app = _practice("jam")
    app.heat.settings = HeatSettings(directions=4, finger_speeds=(1.5,), repeats=1)
    seat = app.session.to_move()
    view = app.view()
    slot = app.hand_slots(seat)[0]
    zone = app.session.board.platforms[0]
    post_drag(app, px(view.to_screen(slot.x, slot.y)), px(view.to_screen(zone.x, zone.y)))
    assert app.placement is not None and app.placement.die == slot.die, app.message
    at = px(view.to_screen(app.placement.x, app.placement.y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=at, rel=(0, 0), buttons=(0, 0, 0)))
    app.frame(DT)
    key(app, pygame.K_h)
    try:
        assert app.heat.on and app.heat.die == slot.die, app.message
        assert app.message.startswith(f"Heat map of {slot.die}")
    finally:
        app.heat.stop()


def test_a_new_aim_clears_the_old_refusal():
    app = _practice("sumo")
    seat = app.session.to_move()
    die = next(s for s in app.session.world().states() if s.id in app.session.flickable(seat))
    app.message = "Not allowed: the finger would strike more than one die ('red3' and 'red2')"
    at = px(app.view().to_screen(die.x, die.y))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=at, button=1))
    app.frame(DT)
    assert app.aim is not None and app.aim.die.id == die.id
    assert not app.message.startswith("Not allowed"), app.message
    info = app._decorate(app.session.panel(app.theme), None)
    assert not any("red3' and 'red2'" in t for t in (info.message, *info.aim))


def test_a_preview_running_off_the_board_is_drawn_on_the_board_only():
    app = _practice("jam")
    view = app.view()
    far = (3.0, 0.05)  # metres: far past the board's right edge, across the panel
    preview = Preview("red1", ((0.0, 0.05), (1.0, 0.05), far), struck_path=((0.0, 0.0), (3.0, 0.0)))
    app.screen.fill((0, 0, 0))
    hud.draw_aiming(app, view, None, preview)
    x, y, w, h = (round(v) for v in view.rect)
    strip = pygame.Rect(x + w + 2, y, app.layout().width - (x + w + 2), h)
    drawn_outside = [
        (i, j)
        for i in range(strip.left, strip.right, 2)
        for j in range(strip.top, strip.bottom, 2)
        if app.screen.get_at((i, j))[:3] != (0, 0, 0)
    ]
    on_board = app.screen.get_at(px(view.to_screen(0.1, 0.0)))[:3]
    assert not drawn_outside, drawn_outside[:5]
    assert on_board != (0, 0, 0)  # the path is drawn where it is on the board


class _Recorder:
    """Stands in for the panel's fonts: remembers where each text lands."""

    def __init__(self, size: int, log: list) -> None:
        pygame.font.init()
        self.font = pygame.font.Font(None, max(8, size))
        self.log = log

    def __getattr__(self, name):
        return getattr(self.font, name)

    def render(self, text, *args):
        img = self.font.render(text, *args)
        self.log.append((text, img))
        return img


def test_panel_columns_keep_apart_and_the_bot_kind_is_not_shortened(monkeypatch):
    from jamsumo_sim.ui import panel

    rendered: list = []
    monkeypatch.setattr(panel, "font", lambda size: _Recorder(size, rendered))
    theme = load_theme()
    blits: list = []

    class Screen(pygame.Surface):
        def blit(self, img, pos, *args):
            blits.append((img, pos))
            return super().blit(img, pos, *args)

    surface = Screen((1280 - 922, 800))

    rows = (
        PlayerRow(0, "Red", (200, 30, 50), 5, 1, "0 (+24)", kind="human"),
        PlayerRow(1, "Blue", (30, 30, 120), 4, 2, "22 (+26)", kind="planner"),
    )
    for head in ("penalties", "score"):
        rendered.clear()
        blits.clear()
        info = PanelInfo(title="Jam", players=rows, score_head=head)
        draw_panel(surface, surface.get_rect(), info, theme)
        where = {id(img): pos for img, pos in blits}
        placed = [(t, where[id(img)], img.get_width()) for t, img in rendered if id(img) in where]
        assert any(t == "planner" for t, *_ in placed), [t for t, *_ in placed]
        board = next(p for t, p, w in placed if t == "2")
        score = next(p for t, p, w in placed if t == "22 (+26)")
        assert score[0] > board[0] + 8, (board, score)  # not "2 22 (+26)"


def test_replay_trays_stay_above_the_timeline():
    from jamsumo_sim.ui.replay_viewer import ReplayApp, ReplaySession
    from jamsumo_sim.ui.tray import tray_extent

    app = _practice("jam")
    state = app.session.state
    session = ReplaySession([state], [], list(app.session.seats))
    viewer = ReplayApp(session, size=(1280, 800))
    view = viewer.view()
    lowest = 0.0
    for seat in range(state.num_players):
        side = app.session.view_side(seat)
        hand = app.session.hand(seat)
        size = app.session.params.die_size
        corners = [view.to_screen(x, y) for x, y in tray_extent(state.board, side, len(hand), size)]
        lowest = max(lowest, *(y for _, y in corners))
    bar_top = viewer.timeline().rect[1]
    label = 24  # px: the "shot 19 / 33 paused" line above the bar
    assert lowest < bar_top - label, (lowest, bar_top)
