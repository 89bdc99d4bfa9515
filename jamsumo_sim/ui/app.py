"""The play window: the coordinator of the frame loop, input routing and the session.

Loop: gather events → advance the shot being animated (fixed physics step, accumulator) → draw dice
interpolated between the last two physics states.  The window decides nothing: legality comes from the
session (the rules), motion from the World.  Bots' shots animate exactly like people's.

Keys: see :data:`jamsumo_sim.ui.help_overlay.CONTROLS` (`?`/F1 shows them in the window).  Each view and
mode is its own module, called from here: input_router (events, keys, zoom/pan), aiming (the mouse
gesture, refusal check, preview), placement (the Sumo set-up), bot_turns (a bot's turn and its aim),
board_layer (board pictures, dice, tray, trails, turning), hud (aim, marks, height gauge),
panel_status (the panel's window lines), shot_fx (trails, slow motion, "what was hit").
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import pygame

from jamsumo_sim.ui import (
    aim_spread,
    aiming,
    board_layer,
    bot_turns,
    bot_worker,
    heat_overlay,
    hud,
    input_router,
    panel_status,
    saving,
    screenshot,
    sound,
    thinking,
)
from jamsumo_sim.ui.aiming import Aim, AimCheck
from jamsumo_sim.ui.animator import Animator, Pose, rest_poses
from jamsumo_sim.ui.bot_aim import BotAim, flick_of
from jamsumo_sim.ui.draw_dice import DieLook, draw_dice
from jamsumo_sim.ui.draw_overlay import draw_offer
from jamsumo_sim.ui.gesture import DieSpot, FlickParams, pick_die
from jamsumo_sim.ui.help_overlay import draw_help
from jamsumo_sim.ui.panel import PanelInfo, draw_table, font
from jamsumo_sim.ui.placement import SetupMode
from jamsumo_sim.ui.session import Placement, Session, Shot
from jamsumo_sim.ui.shot_fx import ShotFx
from jamsumo_sim.ui.shot_preview import PreviewCache
from jamsumo_sim.ui.shot_story import still_told, with_stories
from jamsumo_sim.ui.theme import Theme, load_theme
from jamsumo_sim.ui.tray import tray_slots
from jamsumo_sim.ui.view import View, make_layout
from jamsumo_sim.ui.zoom import Zoom
from jamsumo_sim.world import warm_up as warm_up_physics

HELP = panel_status.HELP
__all__ = ["Aim", "App", "HELP"]


def _set_minimum_size(size: tuple[int, int]) -> None:
    """Ask the window manager not to shrink the window below ``size`` (pygame-ce's Window API)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().minimum_size = size
    except (AttributeError, pygame.error):
        pass  # older pygame: VIDEORESIZE below the minimum is undone instead


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
        mute: bool = False,
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
        self.speeds = [float(s) for s in anim.get("speeds", [0.25, 0.5, 1.0, 2.0, 4.0])]
        self.speed_index = self.speeds.index(1.0) if 1.0 in self.speeds else 0
        self.fade_time = float(anim.get("fade_time", 0.45))
        self.max_shot_time = float(anim.get("max_shot_time", 20.0))
        self.bot_pause = float(anim.get("bot_pause", 0.6))
        self.turn_time = float(anim.get("turn_time", 0.45))
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
        self.turning: tuple[float, float] | None = None  # (start angle in degrees, elapsed s)
        # the shot on the move
        self.anim: Animator | None = None
        self.shot: Shot | None = None  # being animated, to commit when it rests
        self.committed = False
        self.replaying = False  # `R`: the animation is for show only
        self.last_shot: Shot | None = None
        # (log length when told, "red3 hit blue2"); a resumed match brings its own
        self.stories: list[tuple[int, str]] = list(getattr(session, "saved_stories", []))
        # the person's input
        self.aim: Aim | None = None
        self.aim_problem: str | None = None
        self.aim_check = AimCheck()
        self.drag_hand: str | None = None
        self.drag_pos: tuple[float, float] | None = None
        self.placement: Placement | None = None
        self.height = self.gesture.height_default
        self.keep_height = False  # the strike height resets each turn unless the player keeps it
        self.message = ""
        self.mouse_world: tuple[float, float] | None = None
        self._pan_from: tuple[int, int] | None = None
        self.setup_mode = SetupMode()  # the Sumo opening of a human seat (ui/placement.py)
        # bots
        self.bot_wait = 0.0
        self._bot_job: bot_worker.BotJob | None = None
        fx = self.theme.section("shot_fx")
        self.bot_aim: BotAim | None = None
        self.bot_aim_time = float(fx.get("bot_aim_time", 0.8))
        # views
        self.fx = ShotFx.from_settings(fx)
        self.previews = PreviewCache(float(fx.get("preview_interval", 0.1)))
        # --table: executions of the aimed flick sampled through the physics (ui/aim_spread.py)
        self.spreads = aim_spread.SpreadCache(float(fx.get("spread_interval", 0.25)))
        self.spread_samples = int(fx.get("spread_samples", aim_spread.SAMPLES))
        self.preview_on = bool(fx.get("preview", True))
        self.zoom = Zoom()
        self.show_help = False
        self.heat = heat_overlay.HeatOverlay()  # H: the practice heat map (its own thread)
        # the table's sounds from the physics events (ui/sound.py): silent without a device
        self.sound = sound.SoundPlayer.open(muted=mute)
        self.pictures = board_layer.BoardPictures()
        self.panel_cache = panel_status.PanelCache()
        self._presented: tuple[int, int] | None = None
        self._last_moved: list[pygame.Rect] | None = None  # what present() copied last frame
        self._moved_view: Any = None  # the view those rects were measured in
        self.frames = 0
        # an idle window sleeps in pygame.event.wait instead of redrawing a still frame (run())
        self.idle_wait = True
        self.idle_timeout_ms = int(win.get("idle_timeout_ms", 500))
        self.idle_waits = 0  # timeouts slept through without a redraw (benchmarks read it)
        self.flicks: list[Any] = []  # every action this window started (tests read it)
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
        """The human seat whose input the window takes now (None while anything else is going on)."""
        seat = self.session.to_move()
        if seat is None or not self.session.is_human(seat) or self.busy or self.table_shown():
            return None
        if self.show_help or self.turning is not None or self.resume_offer is not None:
            return None  # help open, the board turning, or the resume offer unanswered
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
        held = self.placement.die if self.placement is not None else None
        bot = self.bot_aim.shown if self.bot_aim is not None else None
        if bot is not None and bot.place is not None:
            held = bot.die  # shown on its zone with the bot's aim
        dice = [d for d in self.session.hand(seat) if d != held]
        return tray_slots(
            self.session.board, self.session.view_side(seat), dice, self.session.params.die_size
        )

    # --- input (input_router.py, aiming.py; the replay viewer overrides these hooks) ------------
    def handle_event(self, e: pygame.event.Event) -> None:
        input_router.route(self, e)

    def _key(self, e: pygame.event.Event) -> None:
        input_router.on_key(self, e)

    def _press(self, pos: tuple[int, int]) -> None:
        aiming.press(self, pos)

    def _motion(self, pos: tuple[int, int]) -> None:
        aiming.motion(self, pos)

    def _release(self, pos: tuple[int, int]) -> None:
        aiming.release(self, pos)

    def cancel(self) -> None:
        aiming.cancel(self)

    def flick_params(self, aim: Aim) -> FlickParams | None:
        return aiming.flick_params(self, aim)

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
        aiming.try_pass(self)

    def undo(self) -> None:
        """U: take the last shot back where the session allows it (free play, practice)."""
        if self.busy or self.bot_aim is not None:
            return
        if not self.session.undo():
            self.message = self.session.why_no_undo()
            return
        self.last_shot = None
        self.stories = still_told(self.stories, len(self.session.log()))
        self.previews.clear()
        self.spreads.clear()
        self._bot_job = None  # a bot thinking about the undone position is forgotten
        self.bot_wait = 0.0
        self.aim = self.placement = None
        self.message = "Last shot taken back."
        self.autosave()
        self._sync_view()

    # --- shots --------------------------------------------------------------------------------
    def _new_animator(self, world: Any) -> Animator:
        max_time = getattr(self.session, "shot_time", lambda: self.max_shot_time)()
        anim = Animator(world, self.session.params.step, self.fade_time, max_time)
        anim.speed = self.speed
        return anim

    def start_shot(self, seat: int | None, action: Any, *, echo: bool = False) -> None:
        """Animate (or, in a network match, send) a move; ``echo``: the host playing back the
        person's own move, already counted in ``flicks`` when it was sent."""
        submit = getattr(self.session, "submit", None)  # a network match: the host plays it
        if submit is not None and seat is not None and self.session.is_human(seat):
            submit(seat, action)
            self.flicks.append(action)
            return
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
        self.sound.start(world)
        self.previews.clear()
        self.spreads.clear()
        if not echo:
            self.flicks.append(action)

    def replay_last(self) -> None:
        if self.busy or self.last_shot is None:
            return
        self.replaying = True
        self.shot = None
        self.anim = self._new_animator(self.last_shot.before.copy())
        self.sound.start(self.anim.world)
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
        self.sound.hear(anim.world)
        if not anim.running:
            self._finish_physics()
            if anim.done:
                self.anim = None
                self.shot = None
                if self.replaying:
                    self.replaying = False
                    self.message = ""
                self._sync_view()

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
        self.spreads.tick(dt)
        self._update_anim(dt)
        # a network session plays the host's moves in order instead of local bots
        getattr(self.session, "update_turns", bot_turns.update)(self, dt)
        self.heat.update(self)

    # --- saving, closing ----------------------------------------------------------------------
    def autosave(self) -> None:
        saving.autosave(self)

    def save_replay(self) -> None:
        saving.save_replay(self)

    def close(self) -> None:
        self.heat.stop()
        if self._bot_job is not None:  # a bot thinking: its move is not wanted any more
            self._bot_job.cancel()
            self._bot_job = None
        self.autosave()
        self.running = False

    def _dismiss_table(self) -> None:
        dismiss = getattr(self.session, "dismiss_table", None)
        if dismiss is not None:
            dismiss()

    def _accept_resume(self, yes: bool) -> None:
        saving.answer_resume(self, yes)
        self._sync_view()

    # --- drawing (board_layer.py, hud.py, panel_status.py and each view's module) --------------
    def draw(self) -> None:
        view = self.view()
        self.screen.blit(self.pictures.background(self, view), (0, 0))
        seat = self.human_to_move()
        size = self.session.params.die_size
        hover = None
        if seat is not None and self.mouse_world is not None and self.aim is None:
            dice = self.spots(self.session.flickable(seat))
            hover = pick_die(dice, *self.mouse_world, self.gesture.grab_slack)
        if self.aim is not None:
            hover = self.aim.die.id
        poses = self.poses()
        looks: list[DieLook] = board_layer.looks(self, poses, seat, hover)
        if self.anim is not None:
            board_layer.draw_trails(self, view)
        to_move = self.session.to_move()
        if to_move is not None:
            board_layer.draw_tray(self, view, to_move, size)
        draw_dice(self.screen, view, looks + board_layer.held_looks(self), size)
        self.setup_mode.draw(self, view)
        if self.turning is not None:
            board_layer.draw_turning(self, view)
        self.heat.draw(self, view)
        aim_params = self.flick_params(self.aim) if self.aim is not None else None
        self.aim_problem = self.aim_check.problem(self, aim_params)
        preview = aiming.preview(self, aim_params) if self.aim_problem is None else None
        hud.draw_aiming(self, view, aim_params, preview)
        hud.draw_marks(self, view, poses, seat)
        thinking.draw(self)  # a bot working out its move: who, how far, how long
        over = getattr(self.session, "draw_over", None)  # a network match: the others' aim
        if over is not None:
            over(self, view, aim_params)
        lay = self.layout()
        info = self._decorate(self.session.panel(self.theme), aim_params)
        panel_rect = pygame.Rect(lay.panel_x, 0, lay.width - lay.panel_x, lay.height)
        self.panel_cache.blit(self.screen, panel_rect, info, self.theme)
        table = self.session.table(self.theme)
        area = pygame.Rect(0, 0, lay.panel_x, lay.height)
        if table is not None and not self.busy:
            draw_table(self.screen, area, table, self.theme)
        if self.resume_offer is not None:
            draw_offer(self.screen, area, self.theme, self.resume_offer[0])
        if self.show_help:
            draw_help(self.screen, area, self.theme)

    def _decorate(self, info: PanelInfo, params: FlickParams | None) -> PanelInfo:
        return panel_status.decorate(self, info, params)

    def _with_stories(self, log: tuple[str, ...]) -> tuple[str, ...]:
        """The session's log with each shot's "what was hit" line after that shot's own lines."""
        full = self.session.log() if self.stories else []
        return with_stories(log, full, self.stories)

    # --- the loop -----------------------------------------------------------------------------
    def idle(self) -> bool:
        """Nothing moves and nothing waits on the clock: the window may sleep until an event (a
        still frame is already on screen). Aiming, a shot, the board turning, a bot's turn, a
        network match, the heat map or a pending automatic step all keep the frames coming."""
        if self.anim is not None or self.turning is not None or self.bot_aim is not None:
            return False
        if self._bot_job is not None or self.aim is not None or self.drag_hand is not None:
            return False
        if self.heat.job is not None or hasattr(self.session, "update_turns"):
            return False
        seat = self.session.to_move()
        if seat is None:
            return self.session.finished()  # else a chance step is about to be taken
        return self.session.is_human(seat) or self.paused  # a bot about to move needs frames

    def frame(self, dt: float, events: list[pygame.event.Event] | None = None) -> None:
        start = time.perf_counter()
        self.heat.before_frame()  # the heat map's worker waits while the frame is built
        for e in pygame.event.get() if events is None else events:
            self.handle_event(e)
        self.update(dt)
        self.draw()
        self.present()
        self.frames += 1
        self.heat.after_frame(start, self.fps)

    def present(self) -> None:
        """Show the frame: only the board area while the panel is unchanged (in a real X window the
        copy of each frame costs as much as drawing it)."""
        size = self.screen.get_size()
        moved = self._moved_rects()
        if self.panel_cache.changed or size != self._presented:
            pygame.display.flip()
        elif moved is not None and self._last_moved is not None:
            # only dice moved: copy where they were and where they are (a fraction of the board)
            pygame.display.update(moved + self._last_moved)
        else:
            pygame.display.update(pygame.Rect(0, 0, self.layout().panel_x, size[1]))
        self.panel_cache.changed = False
        self._presented = size
        self._last_moved = moved

    def _moved_rects(self) -> list[pygame.Rect] | None:
        """Screen rects of everything drawn that moves while a shot runs with nothing else going
        on (each die, its shadow and trail, the pointer's label), or None when more may change
        (aiming, the board turning, a bot's aim, zoom or pan, the heat map...)."""
        if self.anim is None or self.aim is not None or self.turning is not None:
            return None
        if self.bot_aim is not None or self.heat.job is not None or self.show_help:
            return None
        view = self.view()
        key = (view.rect, view.seat, self.zoom)
        if key != self._moved_view:
            self._moved_view = key
            return None  # the view changed: the whole board this frame
        size = self.session.params.die_size
        half = max(4, round(view.length(size) * 1.1))  # a lifted die and its shadow included
        out = []
        for p in self.poses():
            x, y = view.to_screen(p.x, p.y)
            out.append(pygame.Rect(round(x) - half, round(y) - half, 2 * half, 2 * half))
        for trail in self.fx.trails.points.values():
            if len(trail) >= 2:
                pts = [view.to_screen(x, y) for _, x, y in trail]
                xs, ys = [q[0] for q in pts], [q[1] for q in pts]
                box = pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
                out.append(box.inflate(8, 8))
        if self.mouse_world is not None:  # the hovered die's label
            mx, my = view.to_screen(*self.mouse_world)
            out.append(pygame.Rect(round(mx) - 120, round(my) - 60, 240, 120))
        return out

    def run(self, frames: int | None = None, screenshot: str | None = None) -> int:
        """Run until closed, or for ``frames`` frames of 1/fps each (no waiting: headless use)."""
        clock = pygame.time.Clock()
        try:
            while self.running and (frames is None or self.frames < frames):
                events = None
                if frames is None and self.idle_wait and self.idle():
                    # nothing moves: sleep until an event (or the timeout: a clock-driven change
                    # the idle test missed still shows within it), and redraw only if one came
                    first = pygame.event.wait(self.idle_timeout_ms)
                    if first.type == pygame.NOEVENT:
                        self.idle_waits += 1
                        clock.tick()
                        continue
                    events = [first, *pygame.event.get()]
                dt = min(clock.tick(self.fps) / 1000.0, 0.1) if frames is None else 1.0 / self.fps
                if events is None:
                    self.frame(dt)
                else:
                    self.frame(dt, events)
            if screenshot:
                self.screenshot(screenshot)
        finally:
            if frames is None:
                self.autosave()
        return 0

    def screenshot(self, path: str) -> None:
        screenshot.save(self.screen, path)
