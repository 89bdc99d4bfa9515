"""The play window: event handling, the real-time loop and drawing.

Loop: gather events → advance the shot being animated (fixed physics step, accumulator) → draw dice
interpolated between the last two physics states.  The window decides nothing: legality comes from the
session (the rules), motion from the World.  Bots' shots animate exactly like people's.

Keys: see :data:`jamsumo_sim.ui.help_overlay.CONTROLS` (`?`/F1 shows them in the window).  Each view
(shot preview, bot aim, trails and slow motion, zoom, help, marks on dice, the height gauge) is its own
module; the App routes input, runs the frame loop and the session, and calls them.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from jamsumo_sim.errors import UserError
from jamsumo_sim.ui import aim_spread, autosave, bot_worker, screenshot
from jamsumo_sim.ui.animator import Animator, Pose, rest_poses
from jamsumo_sim.ui.bot_aim import BotAim, draw_bot_aim, flick_of
from jamsumo_sim.ui.die_marks import draw_label, draw_rings, named_dice
from jamsumo_sim.ui.draw_board import render_background, render_table
from jamsumo_sim.ui.draw_dice import DieLook, draw_dice
from jamsumo_sim.ui.draw_overlay import draw_aim, draw_offer
from jamsumo_sim.ui.gesture import (
    DieSpot,
    FlickParams,
    flick_from_drag,
    height_after_wheel,
    pick_die,
)
from jamsumo_sim.ui.height_gauge import draw_height_gauge
from jamsumo_sim.ui.help_overlay import draw_help
from jamsumo_sim.ui.palette import mark_of
from jamsumo_sim.ui.panel import PanelInfo, draw_panel, draw_table, font
from jamsumo_sim.ui.placement import SetupMode
from jamsumo_sim.ui.session import Placement, Session, Shot
from jamsumo_sim.ui.shot_fx import ShotFx
from jamsumo_sim.ui.shot_preview import Preview, PreviewCache, draw_preview, predict
from jamsumo_sim.ui.slow_motion import SlowMotion
from jamsumo_sim.ui.theme import Theme, load_theme
from jamsumo_sim.ui.trails import Trails
from jamsumo_sim.ui.tray import pick_from_tray, tray_extent, tray_slots, zone_at
from jamsumo_sim.ui.view import View, make_layout
from jamsumo_sim.ui.zoom import Zoom, zoomed_picture
from jamsumo_sim.world import warm_up as warm_up_physics

HELP = (
    "Drag back from your die, release to flick. Wheel: strike height.",
    "Space pause · -/+ speed · R replay shot · S save replay · T turn view · Esc cancel · "
    "P pass (only if no fair flick) · U undo · ? or F1 all controls · Q quit",
)
PAN_STEP = 0.05  # m the arrow keys move a zoomed view
_PAN_KEYS = {  # screen direction (px, y down) of each arrow key
    pygame.K_LEFT: (-1.0, 0.0),
    pygame.K_RIGHT: (1.0, 0.0),
    pygame.K_UP: (0.0, -1.0),
    pygame.K_DOWN: (0.0, 1.0),
}


def _set_minimum_size(size: tuple[int, int]) -> None:
    """Ask the window manager not to shrink the window below ``size`` (pygame-ce's Window API)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = size
    except (AttributeError, pygame.error):
        pass  # older pygame: VIDEORESIZE below the minimum is undone instead


@dataclass
class Aim:
    die: DieSpot
    press: tuple[float, float]
    current: tuple[float, float]
    placement: Placement | None = None


class App:
    """One window playing one session; ``frame(dt)`` is a whole iteration (tests call it directly)."""

    def __init__(
        self,
        session: Session,
        theme: Theme | None = None,
        size: tuple[int, int] | None = None,
        sync_bots: bool = False,
        autosave_enabled: bool = True,
        resume_offer: tuple[str, Any] | None = None,
        replay_dir: Path | None = None,
    ) -> None:
        self.theme = theme or load_theme()
        warm_up_physics()  # before the window shows, not at the first flick
        win = self.theme.section("window")
        anim = self.theme.section("animation")
        pygame.init()
        font.cache_clear()  # fonts from an earlier pygame.init() are dead
        self.min_size = (int(win.get("min_width", 1024)), int(win.get("min_height", 640)))
        w, h = size or (int(win.get("width", 1280)), int(win.get("height", 800)))
        self.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        pygame.display.set_caption(str(win.get("title", "JamSumo")))
        _set_minimum_size(self.min_size)
        self.fps = int(win.get("fps", 60))
        self.speeds: list[float] = [
            float(s) for s in anim.get("speeds", [0.25, 0.5, 1.0, 2.0, 4.0])
        ]
        self.speed_index = self.speeds.index(1.0) if 1.0 in self.speeds else 0
        self.fade_time = float(anim.get("fade_time", 0.45))
        self.max_shot_time = float(anim.get("max_shot_time", 20.0))
        self.bot_pause = float(anim.get("bot_pause", 0.6))
        self.gesture = self.theme.gesture
        self.session = session
        self.sync_bots = sync_bots
        self.autosave_enabled = autosave_enabled
        self.autosave_error: str | None = None  # the last autosave failure (the CLI reports it)
        self.resume_offer = resume_offer  # (description, callable returning a Session)
        self.replay_dir = replay_dir or Path.cwd()
        self.paused = False
        self.running = True
        self.turn_view = True
        self.view_side = 0
        self.anim: Animator | None = None
        self.shot: Shot | None = None  # being animated, to commit when it rests
        self.committed = False
        self.replaying = False  # `R`: the animation is for show only
        self.last_shot: Shot | None = None
        self.aim: Aim | None = None
        self.drag_hand: str | None = None
        self.drag_pos: tuple[float, float] | None = None
        self.placement: Placement | None = None
        self.height = self.gesture.height_default
        self.message = ""
        self.mouse_world: tuple[float, float] | None = None
        self.bot_wait = 0.0
        self._bot_job: bot_worker.BotJob | None = None
        self._bg_key: tuple[Any, ...] | None = None
        self._bg: pygame.Surface | None = None
        self._panel: pygame.Surface | None = None
        self._table: pygame.Surface | None = None
        self._table_key: Any = None
        self._aim_key: Any = None
        self._aim_reason: str | None = None
        self.aim_problem: str | None = None
        self._panel_key: tuple[Any, ...] | None = None
        self.frames = 0
        self.flicks: list[Any] = []  # every action this window started (tests read it)
        self.turn_time = float(anim.get("turn_time", 0.45))
        self.turning: tuple[float, float] | None = None  # (start angle in degrees, elapsed s)
        fx = self.theme.section("shot_fx")
        self.fx = ShotFx(
            Trails(float(fx.get("trail_time", 0.35))),
            SlowMotion(
                bool(fx.get("slow_motion", True)),
                float(fx.get("slow_factor", 0.3)),
                float(fx.get("slow_hold", 0.35)),
            ),
        )
        self.previews = PreviewCache(float(fx.get("preview_interval", 0.1)))
        self.preview_on = bool(fx.get("preview", True))
        self.bot_aim: BotAim | None = None
        self.bot_aim_time = float(fx.get("bot_aim_time", 0.8))
        self.zoom = Zoom()
        self._zoomed: pygame.Surface | None = None
        self._zoomed_key: Any = None
        self._pan_from: tuple[int, int] | None = None
        self.show_help = False
        self.keep_height = False  # the strike height resets each turn unless the player keeps it
        self.stories: list[tuple[int, str]] = []  # (log length when told, "red3 hit blue2")
        self.setup_mode = SetupMode()  # the Sumo opening of a human seat (ui/placement.py)
        self._sync_view()
        self.turning = None  # the first view needs no turn

    # --- geometry -----------------------------------------------------------------------------
    def layout(self):
        lay = self.theme.section("layout")
        w, h = self.screen.get_size()
        return make_layout(
            w,
            h,
            float(lay.get("panel_fraction", 0.28)),
            int(lay.get("panel_min", 300)),
            float(lay.get("board_margin", 0.11)),
        )

    def view(self) -> View:
        base = View(self.session.board.side, self.layout().board_rect, self.view_side)
        return self.zoom.apply(base)

    def _sync_view(self) -> None:
        seat = self.session.to_move()
        side = self.view_side
        if self.turn_view and seat is not None and self.session.is_human(seat):
            side = self.session.view_side(seat)
        elif not self.turn_view:
            side = 0
        if side != self.view_side:
            # the board turns smoothly: start from the old view, rotated onto the new one
            quarter = ((side - self.view_side) + 2) % 4 - 2
            self.turning = (-quarter * 90.0, 0.0)
            self.view_side = side

    @property
    def speed(self) -> float:
        return 0.0 if self.paused else self.speeds[self.speed_index]

    @property
    def busy(self) -> bool:
        """A shot is on the move (input waits)."""
        return self.anim is not None

    def human_to_move(self) -> int | None:
        seat = self.session.to_move()
        if seat is None or not self.session.is_human(seat) or self.busy or self.table_shown():
            return None
        if self.show_help:
            return None
        if self.turning is not None:  # wait until the board has turned
            return None
        if self.resume_offer is not None:
            return None
        return seat

    def table_shown(self) -> bool:
        return self.session.table(self.theme) is not None

    # --- dice on the board ------------------------------------------------------------------
    def poses(self) -> list[Pose]:
        if self.anim is not None:
            return self.anim.poses()
        return rest_poses(self.session.world())

    def spots(self, ids: list[str]) -> list[DieSpot]:
        size = self.session.params.die_size
        wanted = set(ids)
        return [DieSpot(p.id, p.x, p.y, p.angle, size) for p in self.poses() if p.id in wanted]

    def hand_slots(self, seat: int):
        return tray_slots(
            self.session.board,
            self.session.view_side(seat),
            [
                d
                for d in self.session.hand(seat)
                if self.placement is None or d != self.placement.die
            ],
            self.session.params.die_size,
        )

    # --- events -------------------------------------------------------------------------------
    def handle_event(self, e: pygame.event.Event) -> None:
        if self.setup_mode.handle(self, e):
            return
        if e.type == pygame.QUIT:
            self.close()
        elif e.type == pygame.VIDEORESIZE:
            w = max(self.min_size[0], e.w)
            h = max(self.min_size[1], e.h)
            self.screen = pygame.display.get_surface() or self.screen
            if (w, h) != self.screen.get_size():
                self.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)
        elif e.type == pygame.KEYDOWN:
            self._key(e)
        elif e.type == pygame.MOUSEBUTTONDOWN:
            if e.button == 1:
                self._press(e.pos)
            elif e.button == 2:
                self._pan_from = e.pos
            elif e.button == 3:
                self.cancel()
        elif e.type == pygame.MOUSEMOTION:
            self._motion(e.pos)
        elif e.type == pygame.MOUSEBUTTONUP and e.button == 1:
            self._release(e.pos)
        elif e.type == pygame.MOUSEBUTTONUP and e.button == 2:
            self._pan_from = None
        elif e.type == pygame.MOUSEWHEEL:
            if pygame.key.get_mods() & pygame.KMOD_CTRL:
                self.zoom_by(1 if e.y > 0 else -1)
            else:
                self.height = height_after_wheel(self.height, e.y, self.gesture)

    def _key(self, e: pygame.event.Event) -> None:
        k = e.key
        if self.resume_offer is not None:
            if k in (pygame.K_y, pygame.K_RETURN):
                self._accept_resume(True)
            elif k in (pygame.K_n, pygame.K_ESCAPE):
                self._accept_resume(False)
            return
        if self._view_key(e):
            return
        if k == pygame.K_SPACE:
            if self.table_shown():
                self._dismiss_table()
            else:
                self.paused = not self.paused
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._dismiss_table()
        elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.speed_index = max(0, self.speed_index - 1)
        elif k in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
            self.speed_index = min(len(self.speeds) - 1, self.speed_index + 1)
        elif k == pygame.K_ESCAPE:
            self.cancel()
        elif k == pygame.K_r:
            self.replay_last()
        elif k == pygame.K_s:
            self.save_replay()
        elif k == pygame.K_t:
            self.turn_view = not self.turn_view
            self._sync_view()
        elif k == pygame.K_p:
            self.try_pass()
        elif k == pygame.K_u:
            self.undo()
        elif k == pygame.K_k:
            self.keep_height = not self.keep_height
        elif k == pygame.K_m:
            self.fx.slow.enabled = not self.fx.slow.enabled
            self.message = "Slow motion at impacts " + ("on" if self.fx.slow.enabled else "off")
        elif k == pygame.K_q:
            self.close()

    def _view_key(self, e: pygame.event.Event) -> bool:
        """Help, zoom and pan keys (True if the key was one of them)."""
        k = e.key
        ctrl = bool(getattr(e, "mod", 0) & pygame.KMOD_CTRL)
        if k == pygame.K_F1 or k == pygame.K_QUESTION or getattr(e, "unicode", "") == "?":
            self.show_help = not self.show_help
        elif self.show_help and k == pygame.K_ESCAPE:
            self.show_help = False
        elif ctrl and k in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
            self.zoom_by(1)
        elif ctrl and k in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.zoom_by(-1)
        elif ctrl and k == pygame.K_0:
            self.zoom = Zoom()
        elif self.zoom.level > 0 and k in _PAN_KEYS:
            self._pan_screen(*_PAN_KEYS[k])
        else:
            return False
        return True

    def zoom_by(self, steps: int) -> None:
        self.zoom = self.zoom.zoomed(steps, self.session.board.side / 2)

    def _pan_screen(self, dx_px: float, dy_px: float) -> None:
        """Move the view by a screen-direction amount (arrow keys move PAN_STEP m)."""
        v = self.view()
        ox, oy = v.to_world(0.0, 0.0)
        wx, wy = v.to_world(dx_px, dy_px)
        scale = PAN_STEP / max(1e-9, ((wx - ox) ** 2 + (wy - oy) ** 2) ** 0.5)
        half = self.session.board.side / 2
        self.zoom = self.zoom.panned((wx - ox) * scale, (wy - oy) * scale, half)

    def undo(self) -> None:
        """U: take the last shot back where the session allows it (free play, practice)."""
        if self.busy or self.bot_aim is not None:
            return
        if not self.session.undo():
            self.message = "Undo is only for free play and practice matches."
            return
        self.last_shot = None
        self.previews.clear()
        self.message = "Last shot taken back."
        self._sync_view()

    def _world_at(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.view().to_world(*pos)

    def _press(self, pos: tuple[int, int]) -> None:
        if self.resume_offer is not None:
            return
        if self.table_shown():
            self._dismiss_table()
            return
        seat = self.human_to_move()
        if seat is None:
            return
        x, y = self._world_at(pos)
        size = self.session.params.die_size
        slack = self.gesture.grab_slack
        if self.placement is not None:
            p = self.placement
            spot = DieSpot(p.die, p.x, p.y, p.angle, size)
            if pick_die([spot], x, y, slack) is not None:
                self.aim = Aim(spot, (x, y), (x, y), p)
                return
        hit = pick_die(self.spots(self.session.flickable(seat)), x, y, slack)
        if hit is not None:
            spot = next(s for s in self.spots([hit]))
            self.aim = Aim(spot, (x, y), (x, y))
            return
        from_tray = pick_from_tray(self.hand_slots(seat), x, y, size, slack)
        if from_tray is not None:
            self.placement = None
            self.drag_hand = from_tray
            self.drag_pos = (x, y)

    def _motion(self, pos: tuple[int, int]) -> None:
        if self._pan_from is not None and self.zoom.level > 0:
            v = self.view()
            a, b = v.to_world(*self._pan_from), v.to_world(*pos)
            half = self.session.board.side / 2
            self.zoom = self.zoom.panned(a[0] - b[0], a[1] - b[1], half)
            self._pan_from = pos
        self.mouse_world = self._world_at(pos)
        if self.aim is not None:
            self.aim.current = self.mouse_world
        if self.drag_hand is not None:
            self.drag_pos = self.mouse_world

    def _release(self, pos: tuple[int, int]) -> None:
        x, y = self._world_at(pos)
        seat = self.session.to_move()
        if self.drag_hand is not None:
            die, self.drag_hand, self.drag_pos = self.drag_hand, None, None
            zone = zone_at(self.session.board, x, y)
            if zone is None:
                self.message = "Drop the die on a JAM zone to bring it into play."
                return
            # square to the player's view: the die's faces line up with the board's sides
            angle = 0.0
            self.placement = Placement(die, zone, x, y, angle)
            self.message = "Now drag back from the die and release to flick it."
            return
        if self.aim is None or seat is None:
            return
        aim, self.aim = self.aim, None
        aim.current = (x, y)
        params = self.flick_params(aim)
        if params is None:
            self.message = "Drag back from the die, then release: the push goes the other way."
            return
        self.try_flick(seat, params, aim.placement)

    def flick_params(self, aim: Aim) -> FlickParams | None:
        p = self.session.params
        return flick_from_drag(
            aim.die,
            aim.press,
            aim.current,
            self.height,
            self.gesture,
            p.max_launch_speed,
            p.die_mass,
            physics=p,  # the pull sets the finger's speed; off-centre pushes launch slower
        )

    def try_flick(self, seat: int, params: FlickParams, placement: Placement | None) -> bool:
        """Build the action, ask the rules, and shoot it if legal (else say why)."""
        action = self.session.make_action(seat, params, placement)
        reason = self.session.why_illegal(seat, action)
        if reason is not None:
            self.message = f"Not allowed: {reason}"
            return False
        self.message = ""
        self.placement = None
        self.start_shot(seat, action)
        return True

    def try_pass(self) -> None:
        """P: pass, which the rules allow only when no fair flick is possible."""
        seat = self.human_to_move()
        if seat is None:
            return
        action = self.session.pass_action(seat)
        if action is None:
            self.message = "Not allowed: you may pass only when no fair flick is possible."
            return
        self.aim = None
        self.placement = None
        self.message = ""
        self.start_shot(seat, action)

    def cancel(self) -> None:
        if self.aim is not None:
            self.aim = None
        elif self.drag_hand is not None:
            self.drag_hand = self.drag_pos = None
        elif self.placement is not None:
            self.placement = None
            self.message = "The die went back to your hand."

    # --- shots --------------------------------------------------------------------------------
    def _new_animator(self, world: Any) -> Animator:
        max_time = getattr(self.session, "shot_time", lambda: self.max_shot_time)()
        anim = Animator(world, self.session.params.dt, self.fade_time, max_time)
        anim.speed = self.speed
        return anim

    def start_shot(self, seat: int | None, action: Any) -> None:
        if self.session.is_pass(action):  # nothing moves: the rules just note it
            self.session.commit(action)
            self.flicks.append(action)
            self.autosave()
            self._sync_view()
            return
        # the flick as executed (execution noise), where the session has one
        world = getattr(self.session, "shot_world", self.session.preview)(action)
        self.shot = Shot(seat, action, world.copy())
        self.committed = False
        self.replaying = False
        self.anim = self._new_animator(world)
        self.fx.start(world)
        self.previews.clear()
        self.flicks.append(action)

    def replay_last(self) -> None:
        if self.busy or self.last_shot is None:
            return
        self.replaying = True
        self.shot = None
        self.anim = self._new_animator(self.last_shot.before.copy())
        self.message = "Replaying the last shot"

    def _finish_physics(self) -> None:
        """The animated world came to rest: hand the shot to the rules (once)."""
        if self.replaying or self.shot is None or self.committed:
            return
        anim = self.anim
        assert anim is not None
        world = anim.world
        if world.at_rest():
            world.run_until_rest(0.0)  # settles exactly as the rules' run_until_rest does
        self.committed = True
        shown = flick_of(self.shot.action, self.session.params.die_mass)
        story = self.fx.story(world, shown.die) if shown is not None else None
        self.session.commit(self.shot.action, animated=world)
        if story is not None:
            self.stories.append((len(self.session.log()), story))
        self.last_shot = self.shot
        if not self.keep_height:
            self.height = self.gesture.height_default
        self.autosave()

    def _update_anim(self, dt: float) -> None:
        anim = self.anim
        if anim is None:
            return
        anim.speed = self.speed * self.fx.speed_factor(dt)
        anim.advance(dt)
        self.fx.after_advance(anim)
        if not anim.running:
            self._finish_physics()
            if anim.done:
                self.anim = None
                self.shot = None
                if self.replaying:
                    self.replaying = False
                    self.message = ""
                self._sync_view()

    def _update_bot(self, dt: float) -> None:
        seat = self.session.to_move()
        if seat is None or self.session.is_human(seat) or self.busy or self.table_shown():
            self.bot_wait = 0.0
            return
        if self.paused:
            return
        job = self._bot_job
        if job is None:
            self.bot_wait += dt
            if self.bot_wait < self.bot_pause:
                return
            # the bot's copy of the match is taken here, on this thread (see bot_worker)
            self._bot_job = job = bot_worker.start(self.session, seat, threaded=not self.sync_bots)
        if not job.done():
            return
        self._bot_job = None
        if not job.matches(self.session, seat):
            return  # the match moved on while the bot thought: ask again
        self.bot_wait = 0.0
        try:
            action = job.take()
        except Exception as exc:
            self.message = f"Bot failed: {exc}"
            raise
        # the bot's aim shows for a moment before it shoots
        mass = self.session.params.die_mass
        shown = None if self.session.is_pass(action) else flick_of(action, mass)
        self.bot_aim = BotAim(seat, action, shown, self.bot_aim_time if shown else 0.0)

    def _update_bot_aim(self, dt: float) -> None:
        aim = self.bot_aim
        if aim is None or self.paused:
            return
        if aim.advance(dt):
            self.bot_aim = None
            self.start_shot(aim.seat, aim.action)

    def update(self, dt: float) -> None:
        if self.turning is not None:
            start, elapsed = self.turning
            elapsed += dt
            self.turning = None if elapsed >= self.turn_time else (start, elapsed)
        if self.resume_offer is not None:
            return
        if not self.busy and not self.table_shown():
            self.session.advance_automatic()
            self._sync_view()
        self.previews.tick(dt)
        self._update_anim(dt)
        if self.bot_aim is not None:
            self._update_bot_aim(dt)
        else:
            self._update_bot(dt)

    # --- saving, closing ----------------------------------------------------------------------
    def autosave(self) -> None:
        if not self.autosave_enabled:
            return
        if self.resume_offer is not None:
            return  # the saved match stays as it is until the person has answered the offer
        data = self.session.save_data()
        if data is None:
            return
        try:
            autosave.save(data)
            self.autosave_error = None
        except (UserError, OSError) as exc:
            self.autosave_error = str(exc)
            self.message = f"Autosave failed: {exc}"

    def save_replay(self) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        path = self.replay_dir / f"jamsumo-{self.session.mode}-{stamp}.json"
        try:
            self.session.save_replay(str(path))
            # the file name only: a whole path does not fit the panel (the folder is the cwd or
            # the one given on the command line)
            self.message = f"Replay saved: {path.name}"
        except (UserError, NotImplementedError, OSError, ImportError) as exc:
            self.message = f"Cannot save a replay: {exc}"

    def close(self) -> None:
        self.autosave()
        self.running = False

    def _dismiss_table(self) -> None:
        dismiss = getattr(self.session, "dismiss_table", None)
        if dismiss is not None:
            dismiss()

    def _accept_resume(self, yes: bool) -> None:
        offer, self.resume_offer = self.resume_offer, None
        assert offer is not None
        _, make = offer
        if yes:
            self.session = make()
            self.message = "Resumed the saved match."
        else:
            try:
                moved = autosave.archive()
                self.message = f"Saved match kept as {moved.name}" if moved else ""
            except UserError as exc:
                # it cannot be moved aside: keep it, and do not overwrite it with this match
                self.autosave_enabled = False
                self.message = f"{exc}; this match will not be autosaved"
        self._sync_view()

    # --- drawing ------------------------------------------------------------------------------
    def background(self, view: View) -> pygame.Surface:
        """The still board, rendered once per window size and side; zoomed, cut from it and scaled."""
        base = View(self.session.board.side, self.layout().board_rect, view.seat)
        key = (self.screen.get_size(), base.rect, view.seat, id(self.session.board))
        if key != self._bg_key or self._bg is None:
            self._bg = render_background(
                self.session.board, base, self.theme, self.screen.get_size()
            )
            self._bg_key = key
        if view.rect == base.rect:
            return self._bg
        if (key, view.rect) != self._zoomed_key or self._zoomed is None:
            area = pygame.Rect(0, 0, self.layout().panel_x, self.screen.get_height())
            self._zoomed = zoomed_picture(self._bg, base, view, area)
            self._zoomed_key = (key, view.rect)
        return self._zoomed

    def looks(self, poses: list[Pose], seat: int | None, hover: str | None) -> list[DieLook]:
        mine = set(self.session.flickable(seat)) if seat is not None else set()
        size = self.session.params.die_size
        out = []
        for p in poses:
            name = self.session.die_colour_name(p.id)
            # a die dropping into the hole sinks (shrinks and darkens) before it fades away
            fade = max(p.fade, min(0.6, 0.6 * p.drop / size)) if p.drop > 0 else p.fade
            out.append(
                DieLook(
                    p.id,
                    p.x,
                    p.y,
                    p.angle,
                    p.face,
                    self.theme.dice_colour(name),
                    p.flat,
                    fade,
                    highlight=(p.id == hover and p.id in mine),
                    mark=mark_of(name),
                    pitch=p.pitch,
                    lift=p.z / size,
                )
            )
        return out

    def draw(self) -> None:
        view = self.view()
        self.screen.blit(self.background(view), (0, 0))
        seat = self.human_to_move()
        size = self.session.params.die_size
        hover = None
        if seat is not None and self.mouse_world is not None and self.aim is None:
            hover = pick_die(
                self.spots(self.session.flickable(seat)), *self.mouse_world, self.gesture.grab_slack
            )
        if self.aim is not None:
            hover = self.aim.die.id
        poses = self.poses()
        looks = self.looks(poses, seat, hover)
        if self.anim is not None:
            self._draw_trails(view)
        to_move = self.session.to_move()
        if to_move is not None:
            self._draw_tray(view, to_move, size)
        if self.placement is not None:
            p = self.placement
            colour = self.theme.dice_colour(self.session.die_colour_name(p.die))
            looks.append(
                DieLook(p.die, p.x, p.y, p.angle, self.session.hand_face(), colour, highlight=True)
            )
        if self.drag_hand is not None and self.drag_pos is not None:
            colour = self.theme.dice_colour(self.session.die_colour_name(self.drag_hand))
            looks.append(
                DieLook(
                    self.drag_hand,
                    *self.drag_pos,
                    0.0,
                    self.session.hand_face(),
                    colour,
                    highlight=True,
                )
            )
        draw_dice(self.screen, view, looks, size)
        self.setup_mode.draw(self, view)
        if self.turning is not None:
            self._draw_turning(view)
        aim_params = self.flick_params(self.aim) if self.aim is not None else None
        self.aim_problem = self._aim_problem(aim_params)
        preview = self._preview(aim_params) if self.aim_problem is None else None
        if preview is not None:
            colour = self.theme.colour("aim")
            draw_preview(self.screen, view, preview, size, colour, self.theme.colour("warning"))
        if self.aim is not None:
            self._draw_aim(view, self.aim, aim_params, slide_hint=preview is None)
        self._draw_marks(view, poses, seat)
        lay = self.layout()
        info = self.session.panel(self.theme)
        info = self._decorate(info, aim_params)
        self._blit_panel(pygame.Rect(lay.panel_x, 0, lay.width - lay.panel_x, lay.height), info)
        table = self.session.table(self.theme)
        area = pygame.Rect(0, 0, lay.panel_x, lay.height)
        if table is not None and not self.busy:
            draw_table(self.screen, area, table, self.theme)
        if self.resume_offer is not None:
            self._draw_offer(area)
        if self.show_help:
            draw_help(self.screen, area, self.theme)

    def _preview(self, params: FlickParams | None) -> Preview | None:
        """The collision preview of the aimed flick (recomputed when the aim changes)."""
        seat = self.session.to_move()
        if not self.preview_on or params is None or self.aim is None or seat is None:
            return None
        placement = self.aim.placement

        def compute() -> Preview | None:
            action = self.session.make_action(seat, params, placement)
            return predict(self.session, seat, action, params.die)

        return self.previews.get((params, placement), compute)

    def _draw_trails(self, view: View) -> None:
        colours = {
            d: self.theme.dice_colour(self.session.die_colour_name(d))
            for d in self.fx.trails.points
        }
        width = max(2.0, view.length(self.session.params.die_size) * 0.3)
        wood = self.theme.colour("wood_light")
        self.fx.trails.draw(self.screen, view, colours, wood, self.fx.clock, width)

    def _draw_marks(self, view: View, poses: list[Pose], seat: int | None) -> None:
        """The bot's aim, rings round dice a refusal names, the hovered die's id, the height."""
        size = self.session.params.die_size
        at = {p.id: (p.x, p.y) for p in poses if p.fade == 0}
        bot = self.bot_aim
        if bot is not None and bot.shown is not None and bot.shown.die in at:
            progress = bot.elapsed / bot.duration if bot.duration > 0 else 1.0
            colour = self.theme.colour("aim")
            x, y = at[bot.shown.die]
            max_speed = self.session.params.max_launch_speed
            draw_bot_aim(self.screen, view, bot.shown, x, y, size, max_speed, colour, progress)
        problem = self.aim_problem or (
            self.message if self.message.startswith("Not allowed") else ""
        )
        named = named_dice(problem, at) if problem else []
        warn = self.theme.colour("warning")
        draw_rings(self.screen, view, [at[d] for d in named], size, warn)
        if self.mouse_world is not None and self.aim is None:
            hover = pick_die(
                [DieSpot(d, x, y, 0.0, size) for d, (x, y) in at.items()],
                *self.mouse_world,
                0.0,
            )
            if hover is not None:
                x, y = at[hover]
                draw_label(self.screen, view, hover, x, y, size, self.theme.colour("text"))
        if seat is not None:
            colour = self.theme.dice_colour(self.session.seat_colour_name(seat))
            rect = self.layout().board_rect
            corner = (8, rect[1] + rect[3] - 70)
            draw_height_gauge(self.screen, corner, 34, self.height, colour, self.keep_height)

    def _draw_turning(self, view: View) -> None:
        """Mid-turn: the board (drawn in the new view) rotated back by what is left of the turn."""
        assert self.turning is not None
        start, elapsed = self.turning
        t = min(1.0, elapsed / self.turn_time) if self.turn_time > 0 else 1.0
        ease = t * t * (3 - 2 * t)
        angle = start * (1 - ease)
        cx, cy = view.centre
        half = int(view.rect[2] * 0.62)
        square = pygame.Rect(0, 0, 2 * half, 2 * half)
        square.center = (round(cx), round(cy))
        area = pygame.Rect(0, 0, self.layout().panel_x, self.screen.get_height())
        square = square.clip(area)
        picture = self.screen.subsurface(square).copy()
        key = (self.screen.get_size(), view.rect)
        if self._table_key != key or self._table is None:
            self._table = render_table(view, self.theme, self.screen.get_size())
            self._table_key = key
        # the table's vignette is centred on the board, so the turned picture's corners blend in
        self.screen.blit(self._table, area.topleft, area)
        turned = pygame.transform.rotate(picture, angle)
        self.screen.blit(turned, turned.get_rect(center=square.center))

    def _aim_problem(self, params: FlickParams | None) -> str | None:
        """Why the flick being aimed would be refused (asked of the rules while aiming, cached)."""
        seat = self.session.to_move()
        if params is None or self.aim is None or seat is None:
            return None
        key = (params, self.aim.placement)
        if key != self._aim_key:
            action = self.session.make_action(seat, params, self.aim.placement)
            self._aim_key = key
            self._aim_reason = self.session.why_illegal(seat, action)
        return self._aim_reason

    def _blit_panel(self, rect: pygame.Rect, info: PanelInfo) -> None:
        """Draw the panel, re-rendering its text only when what it shows changes (text is costly)."""
        key = (rect.size, info)
        if key != self._panel_key or self._panel is None:
            surf = pygame.Surface(rect.size)
            draw_panel(surf, surf.get_rect(), info, self.theme)
            self._panel, self._panel_key = surf, key
            self._panel_changed = True
        self.screen.blit(self._panel, rect.topleft)

    def _decorate(self, info: PanelInfo, params: FlickParams | None) -> PanelInfo:
        status = "PAUSED — Space to go on" if self.paused else ""
        sp = self.speeds[self.speed_index]
        if sp != 1.0:
            status = (status + "  " if status else "") + f"speed ×{sp:g}"
        if self.replaying:
            status = (status + "  " if status else "") + "replaying last shot"
        aim: tuple[str, ...] = ()
        power = None
        if params is not None:
            aim = (
                f"launch {params.speed:.2f} m/s  ({params.power * 100:.0f} %)",
                f"strike height {params.height:.2f}  offset {params.offset:+.2f}",
            )
            if self.aim_problem:
                aim += (f"Not allowed: {self.aim_problem}",)
            power = params.power
        elif self.human_to_move() is not None:
            aim = (f"strike height {self.height:.2f} (wheel)",)
        if self.preview_on and self.previews.value is not None and params is not None:
            aim += tuple(f"Preview: {w}" for w in self.previews.value.warnings)
        return PanelInfo(
            title=info.title,
            round_text=info.round_text,
            turn_text=info.turn_text,
            turn_colour=info.turn_colour,
            players=info.players,
            log=self._with_stories(info.log),
            message=self.message,
            status=status,
            aim=aim,
            power=power,
            table=info.table,
            help_lines=HELP,
            score_head=info.score_head,
        )

    def _with_stories(self, log: tuple[str, ...]) -> tuple[str, ...]:
        """The session's log with each shot's "what was hit" line after that shot's own lines."""
        if not self.stories:
            return log
        full = self.session.log()
        out: list[str] = []
        told = iter(self.stories)
        nxt = next(told, None)
        for i, line in enumerate(full):
            while nxt is not None and nxt[0] <= i:
                out.append(nxt[1])
                nxt = next(told, None)
            out.append(line)
        while nxt is not None:
            out.append(nxt[1])
            nxt = next(told, None)
        return tuple(out[-max(len(log), 1) - len(self.stories) :])

    def _draw_tray(self, view: View, seat: int, size: float) -> None:
        hand = self.session.hand(seat)
        if not hand and self.placement is None:
            return
        side = self.session.view_side(seat)
        corners = [
            view.to_screen(x, y) for x, y in tray_extent(self.session.board, side, len(hand), size)
        ]
        xs = [c[0] for c in corners]
        ys = [c[1] for c in corners]
        rect = pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
        pygame.draw.rect(self.screen, (72, 46, 26), rect, border_radius=6)
        pygame.draw.rect(self.screen, (120, 80, 44), rect, 2, border_radius=6)
        colour_of = self.theme.dice_colour
        looks = [
            DieLook(
                s.die,
                s.x,
                s.y,
                0.0,
                self.session.hand_face(),
                colour_of(self.session.die_colour_name(s.die)),
            )
            for s in self.hand_slots(seat)
            if s.die != self.drag_hand
        ]
        draw_dice(self.screen, view, looks, size)

    def _draw_aim(
        self, view: View, aim: Aim, params: FlickParams | None, slide_hint: bool = True
    ) -> None:
        p = self.session.params
        draw_aim(
            self.screen,
            view,
            self.theme,
            aim.die,
            aim.press,
            aim.current,
            params,
            slide_decel=p.mu_board * p.gravity,
            board_half=self.session.board.side / 2,
            refused=bool(self.aim_problem),
            slide_hint=slide_hint,
        )
        aim_spread.draw(self.screen, view, self.theme, self.session, aim.die, params)

    def _draw_offer(self, area: pygame.Rect) -> None:
        assert self.resume_offer is not None
        draw_offer(self.screen, area, self.theme, self.resume_offer[0])

    # --- the loop -----------------------------------------------------------------------------
    def frame(self, dt: float) -> None:
        for e in pygame.event.get():
            self.handle_event(e)
        self.update(dt)
        self.draw()
        self.present()
        self.frames += 1

    def present(self) -> None:
        """Show the frame: only the board area while the panel is unchanged (in a real X window the
        copy of each frame costs as much as drawing it)."""
        size = self.screen.get_size()
        if getattr(self, "_panel_changed", True) or size != getattr(self, "_presented", None):
            pygame.display.flip()
        else:
            pygame.display.update(pygame.Rect(0, 0, self.layout().panel_x, size[1]))
        self._panel_changed = False
        self._presented = size

    def run(self, frames: int | None = None, screenshot: str | None = None) -> int:
        """Run until closed, or for ``frames`` frames of 1/fps each (no waiting: headless use)."""
        clock = pygame.time.Clock()
        try:
            while self.running and (frames is None or self.frames < frames):
                dt = min(clock.tick(self.fps) / 1000.0, 0.1) if frames is None else 1.0 / self.fps
                self.frame(dt)
            if screenshot:
                self.screenshot(screenshot)
        finally:
            if frames is None:
                self.autosave()
        return 0

    def screenshot(self, path: str) -> None:
        screenshot.save(self.screen, path)
