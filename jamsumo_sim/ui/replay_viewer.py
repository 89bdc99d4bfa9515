"""`jamsumo replay FILE`: watch a recorded match shot by shot, drawn exactly like play.

Space play/pause · Left/Right previous/next shot · Home back to the start · −/+ speed · Q quit; click
or drag the timeline under the board to jump to any shot; E exports the shot on screen as MP4 (GIF
without H.264) and Shift+E the match as an HTML page, next to the replay file (``replay_export``).  Before each shot the flicked die and its
flick (arrow and power) are drawn; the panel lists the shot's events; at the end the final table shows.
Each shot is animated from the recorded state before it with its recorded execution error
(``state.preview(action, execution)``: at the ``table`` level what the hand did, not what was aimed), so
what you see is the deterministic physics of the replay file itself.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import pygame

from jamsumo_sim.errors import UserError
from jamsumo_sim.ui import replay_export
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.bot_aim import AimShown, draw_bot_aim, flick_of
from jamsumo_sim.ui.match_session import MatchSession
from jamsumo_sim.ui.panel import PanelInfo, Table
from jamsumo_sim.ui.replay_timeline import (
    Timeline,
    above_timeline,
    draw_timeline,
    event_lines,
    timeline_for,
)
from jamsumo_sim.ui.theme import Theme
from jamsumo_sim.ui.view import Layout

VIEWER_HELP = (
    "Space play/pause · Left/Right previous/next shot · Home restart · -/+ speed · Q quit",
    "Click or drag the timeline to jump to a shot · E export the shot (MP4) · Shift+E the match (HTML)",
)


class ReplaySession(MatchSession):
    """A match session whose state is replaced as the viewer moves between recorded shots."""

    def __init__(self, states: list[Any], actions: list[Any], seats: list[str]) -> None:
        super().__init__(states[0].clone(), ["replay"] * len(seats))
        self.real_seats = list(seats)
        self.states = states  # state before shot i; states[-1] is the end of the match
        self.actions = actions
        self.position = 0
        self._events: dict[int, tuple[str, ...]] = {}  # shot index -> its events in words

    def _make_agents(self) -> None:  # no bots in a replay
        self.agents = {}

    def is_human(self, seat: int) -> bool:
        return False

    def show(self, position: int) -> None:
        self.position = max(0, min(position, len(self.actions)))
        self.state = self.states[self.position].clone()
        self._pending_table = None

    def bot_action(self) -> Any:  # pragma: no cover - the viewer never asks
        raise RuntimeError("a replay has no bots")

    def save_data(self) -> dict[str, Any] | None:
        return None

    def flick_shown(self, position: int) -> AimShown | None:
        """The flick of shot ``position`` as drawn (None at the end or for a pass)."""
        if position >= len(self.actions) or self.is_pass(self.actions[position]):
            return None
        return flick_of(self.actions[position], self.params.die_mass)

    def execution(self, position: int) -> Any | None:
        """Shot ``position``'s recorded execution error (the chance move right after the flick in
        the history of the state after it), or None for exact play."""
        before = self.states[position]
        if before.noise.exact or position + 1 >= len(self.states):
            return None
        from jamsumo_sim.turnloop import Action

        n = len(before.history)  # the flick is entry n, its execution error entry n + 1
        after = self.states[position + 1].history
        if len(after) > n + 1 and "chance" in after[n + 1]:
            return Action.from_json(after[n + 1]["chance"])
        return None

    def shot_world_at(self, position: int) -> Any:
        """The world of shot ``position`` as it was executed (with its noise), ready to step."""
        return self.states[position].preview(self.actions[position], self.execution(position))

    def shot_events(self, position: int) -> tuple[str, ...]:
        """Shot ``position``'s events in words (its physics run once, then remembered)."""
        if position >= len(self.actions):
            return ()
        if position not in self._events:
            shown = self.flick_shown(position)
            lines: tuple[str, ...] = ("pass",)
            if shown is not None:
                world = self.shot_world_at(position)
                start = len(world.events)
                world.run_until_rest(float(self.states[position].shot_time))
                lines = event_lines(shown.die, world.events[start:])
            self._events[position] = lines
        return self._events[position]

    def table(self, theme: Theme) -> Table | None:
        if self.position >= len(self.actions):
            return self.match_table()  # the final table closes the replay
        return super().table(theme)

    def save_replay(self, path: str) -> str:
        raise NotImplementedError("this is a replay already")

    def panel(self, theme: Theme) -> PanelInfo:
        info = super().panel(theme)
        rows = tuple(
            type(r)(
                r.seat,
                r.name,
                r.colour,
                r.in_hand,
                r.on_board,
                r.score,
                r.to_move,
                self.real_seats[r.seat],
            )
            for r in info.players
        )
        n = len(self.actions)
        return PanelInfo(
            title=f"Replay — {info.title}",
            round_text=info.round_text,
            turn_text=f"Shot {min(self.position + 1, n)} of {n}"
            if self.position < n
            else f"End ({n} shots)",
            turn_colour=info.turn_colour,
            players=rows,
            log=(*info.log[-12:], *self._shot_heading(), *self.shot_events(self.position)),
        )

    def _shot_heading(self) -> tuple[str, ...]:
        if self.position >= len(self.actions):
            return ()
        return (f"— shot {self.position + 1}: what happens —",)


def load_states(path: str) -> tuple[list[Any], list[Any], list[str]]:
    """States before every shot (plus the final state), the shots' actions, and the seats."""
    from jamsumo_sim.replay import load_replay

    replay = load_replay(path)
    states: list[Any] = []
    actions: list[Any] = []
    last = None
    for shot in replay.iter_shots():
        states.append(shot.state.clone())
        actions.append(shot.action)
        last = shot
    states.append(_final(replay, last))
    return states, actions, replay.seats


def _final(replay: Any, last: Any) -> Any:
    """The state at the end of the recording, without re-simulating the whole match."""
    from jamsumo_sim.turnloop import replay_history

    if last is None:
        return replay.final_state()
    if len(last.state.history) > last.move:  # a live state: already at the end
        return last.state.clone()
    state = last.state.clone()
    state.apply_action(last.action)
    return replay_history(state, replay.history[last.move + 1 :], replay.path)


class ReplayApp(App):
    """The play window driven by a recorded match instead of people and bots."""

    session: ReplaySession

    def __init__(
        self,
        session: ReplaySession,
        speed: float = 1.0,
        replay_path: str | os.PathLike[str] | None = None,
        **kw: Any,
    ) -> None:
        super().__init__(session, autosave_enabled=False, **kw)
        self.replay_path = replay_path  # where E / Shift+E write (next to it)
        self.export_job: replay_export.ExportJob | None = None
        self.threaded_export = True
        self.export_size: tuple[int, int] | None = None  # px of a video (None: the CLI's default)
        self.playing = True
        self.wait = 0.0
        self.pause_between = 0.5
        self.base_speed = speed
        self.help = VIEWER_HELP
        self.scrubbing = False

    @property
    def speed(self) -> float:
        return 0.0 if self.paused else self.speeds[self.speed_index] * self.base_speed

    @property
    def paused(self) -> bool:  # type: ignore[override]
        return not getattr(self, "playing", True)

    @paused.setter
    def paused(self, value: bool) -> None:
        self.playing = not value

    def _key(self, e: pygame.event.Event) -> None:
        k = e.key
        if k == pygame.K_RIGHT:
            self.step_shot(+1)
        elif k == pygame.K_LEFT:
            self.step_shot(-1)
        elif k == pygame.K_HOME:
            self.stop_anim()
            self.session.show(0)
        elif k == pygame.K_SPACE:
            self.playing = not self.playing
        elif k == pygame.K_e:
            self.export(match=bool(getattr(e, "mod", 0) & pygame.KMOD_SHIFT))
        else:
            super()._key(e)

    def export(self, match: bool) -> None:
        """E: the shot on screen as a video; Shift+E: the match as a page (on their own thread)."""
        if self.export_job is not None:
            self.message = f"Still {self.export_job.progress()}; wait for it to finish."
            return
        if self.replay_path is None:
            self.message = "Export: this replay has no file to write next to."
            return
        n = len(self.session.actions)
        shot = min(self.session.position + 1, n)
        if n == 0:
            self.message = "Export: the replay has no shots."
            return
        try:
            job = replay_export.start(
                self.replay_path, shot, match, self.threaded_export, self.export_size
            )
        except UserError as exc:
            self.message = f"Export failed: {exc}"
            return
        self.export_job = job
        self.message = job.status()

    def idle(self) -> bool:
        # a paused replay is still, but an export in progress reports its percentage each frame
        return self.export_job is None and self.playing is False and super().idle()

    def _poll_export(self) -> None:
        job = self.export_job
        if job is not None and job.finished():
            self.message = job.outcome()
            self.export_job = None
        elif job is not None:
            self.message = job.status()  # the percentage, frame by frame (docs/ui.md)

    def stop_anim(self) -> None:
        self.anim = None
        self.shot = None
        self.wait = 0.0

    def step_shot(self, delta: int) -> None:
        """Jump to the state before the next/previous shot (an animating shot is finished at once)."""
        target = self.session.position + delta
        if self.anim is not None:
            target = self.session.position + (1 if delta > 0 else 0)
        self.stop_anim()
        self.session.show(target)
        self._sync_view()

    def layout(self) -> Layout:
        return above_timeline(super().layout())  # the timeline has the bottom strip

    def timeline(self) -> Timeline:
        lay = self.layout()
        area = pygame.Rect(0, 0, lay.panel_x, lay.height)
        return timeline_for(area, len(self.session.actions))

    def scrub_to(self, position: int) -> None:
        self.stop_anim()
        self.session.show(position)
        self._sync_view()

    def _press(self, pos: tuple[int, int]) -> None:  # no flicking in a replay: only the timeline
        tl = self.timeline()
        if tl.hit(pos):
            self.scrubbing = True
            self.scrub_to(tl.position_at(pos[0]))

    def handle_event(self, e: pygame.event.Event) -> None:
        if e.type == pygame.MOUSEMOTION and self.scrubbing:
            target = self.timeline().position_at(e.pos[0])
            if target != self.session.position:
                self.scrub_to(target)
        elif e.type == pygame.MOUSEBUTTONUP and e.button == 1:
            self.scrubbing = False
        super().handle_event(e)

    def draw(self) -> None:
        super().draw()
        session = self.session
        shown = session.flick_shown(session.position) if self.anim is None else None
        if shown is not None and self.session.table(self.theme) is None:
            world = session.state.world
            if world is not None and shown.die in world.die_ids:
                st = world.state(shown.die)
                size = session.params.die_size
                colour = self.theme.colour("aim")
                max_speed = session.params.max_launch_speed
                view = self.view()
                draw_bot_aim(self.screen, view, shown, st.x, st.y, size, max_speed, colour, 1.0)
        names = ("panel", "panel_line", "aim_face", "text_dim", "highlight", "text")
        colours = {n: self.theme.colour(n) for n in names}
        draw_timeline(self.screen, self.timeline(), session.position, self.playing, colours)

    def _finish_physics(self) -> None:
        return

    def update(self, dt: float) -> None:
        self._poll_export()
        anim = self.anim
        if anim is not None:
            anim.speed = self.speed
            anim.advance(dt)
            if anim.done:
                self.stop_anim()
                self.session.show(self.session.position + 1)
            return
        if not self.playing or self.session.position >= len(self.session.actions):
            return
        self.wait += dt * (self.speeds[self.speed_index] * self.base_speed)
        if self.wait < self.pause_between:
            return
        self.wait = 0.0
        world = self.session.shot_world_at(self.session.position)  # the flick as executed
        self.anim = self._new_animator(world)

    def _sync_view(self) -> None:
        self.view_side = 0

    def _decorate(self, info: PanelInfo, params: Any) -> PanelInfo:
        out = super()._decorate(info, params)
        status = "PAUSED — Space to play" if not self.playing else f"playing ×{self.speed:g}"
        return PanelInfo(**{**out.__dict__, "status": status, "help_lines": self.help, "aim": ()})


def run_viewer(args: argparse.Namespace) -> int:
    """Open the viewer on ``args.file`` (``--frames N --screenshot PATH`` for headless use)."""
    frames = getattr(args, "frames", None)
    screenshot = getattr(args, "screenshot", None)
    speed = float(getattr(args, "speed", 1.0) or 1.0)
    path = getattr(args, "file", None)
    if frames is not None and not (
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("SDL_VIDEODRIVER")
    ):
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from jamsumo_sim.ui.cli import has_display

    if frames is None and not has_display():
        raise UserError(
            "no display for the replay viewer (use --frames N --screenshot PATH, or --verify)"
        )
    states, actions, seats = load_states(str(path))
    app = ReplayApp(ReplaySession(states, actions, seats), speed=speed, replay_path=path)
    try:
        app.run(frames=frames, screenshot=screenshot)
    finally:
        pygame.quit()
    return 0
