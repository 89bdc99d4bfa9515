"""The practice heat map (H): where the selected die's flicks end up and how often they do what matters.

H (free play and ``--practice`` only: at the table it would be a hint the players do not have) maps
the die being aimed (a fan round the aim) or the die under the pointer (all round it): each cell is
one aimed flick executed ``repeats`` times at the ``table`` noise level (``heat_worker``), drawn as a
dot at the mean rest point, coloured by the probability of the outcome that matters in the mode
(Jam: hole / platform / off the board; Sumo: an opponent knocked out / own die lost).  Shift+H shows
the next outcome.  The map fills in while the worker computes; it is dropped when the position
changes and recomputed when another die is aimed.

Colours: viridis, a sequential map whose lightness grows steadily (readable in greyscale and with
every colour-vision deficiency; ``tests/ui/test_heat_overlay.py`` checks it with ``palette``), and
the legend gives the numbers.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import pygame

from jamsumo_sim import noise
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.ui import heat_worker
from jamsumo_sim.ui.heat_worker import LABELS, HeatJob, HeatPlan, measures_for
from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.view import View

Colour = tuple[int, int, int]

# viridis (matplotlib's, sampled at ten even steps): dark purple = 0, yellow = 1
VIRIDIS: tuple[Colour, ...] = (
    (68, 1, 84), (72, 40, 120), (62, 73, 137), (49, 104, 142), (38, 130, 142),
    (31, 158, 137), (53, 183, 121), (110, 206, 88), (181, 222, 43), (253, 231, 37),
)  # fmt: skip
OUTLINE: Colour = (20, 18, 16)
LEGEND_TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
FRAME_MARGIN = 0.001  # s: the worker stops this long before the next frame is due
LEGEND_AT = (8, 8)  # px, top left of the window (over the board area)
LEGEND_BAR = (200, 12)  # px: the colour bar
SWITCH_INTERVAL = 0.0005  # s: Python's thread switch interval while a map computes (was 5 ms)
MIN_TURN = 0.002  # s the worker may run after each frame even when frames are late (it progresses)


def colour_at(p: float) -> Colour:
    """The viridis colour of probability ``p`` (0..1, linear between the samples)."""
    t = min(1.0, max(0.0, p)) * (len(VIRIDIS) - 1)
    i = min(int(t), len(VIRIDIS) - 2)
    f = t - i
    a, b = VIRIDIS[i], VIRIDIS[i + 1]
    return (
        round(a[0] + (b[0] - a[0]) * f),
        round(a[1] + (b[1] - a[1]) * f),
        round(a[2] + (b[2] - a[2]) * f),
    )


@dataclass(frozen=True)
class HeatSettings:
    """The map's grid (tests make it small)."""

    directions: int = 24  # all round the die (no aim)
    finger_speeds: tuple[float, ...] = (1.0, 2.0, 3.0)  # m/s, all round the die
    fan_steps: int = 9  # directions in the fan round an aim
    fan_half: float = math.radians(30.0)  # rad either side of the aim
    aim_factors: tuple[float, ...] = (0.8, 1.0, 1.25)  # the aim's strength scaled
    repeats: int = 4  # noisy executions of each cell
    level: str = noise.TABLE
    seed: int = 20


def spread_order(n: int) -> list[int]:
    """0..n-1 in an order that covers the range evenly early (the map fills in all round)."""
    order: list[int] = []
    step = 1
    while step < n:
        step *= 2
    while step >= 1:
        order += [i for i in range(0, n, step) if i not in order]
        step //= 2
    return order


def plan_for(
    die: str,
    aim: Any | None,
    mode: str,
    settings: HeatSettings,
    height: float,
    max_time: float,
) -> HeatPlan:
    """The cells: a fan round ``aim`` (FlickParams) or every direction, each at a few strengths."""
    flicks: list[Flick] = []
    if aim is not None:
        n = settings.fan_steps
        dirs = [
            aim.direction + settings.fan_half * (2 * k / (n - 1) - 1) if n > 1 else aim.direction
            for k in range(n)
        ]
        for k in spread_order(n):
            for f in settings.aim_factors:
                flicks.append(Flick(die, dirs[k], aim.impulse * f, aim.offset, aim.height))
    else:
        n = settings.directions
        for k in spread_order(n):
            d = 2 * math.pi * k / n
            for v in settings.finger_speeds:
                flicks.append(Flick(die, d, None, 0.0, height, finger_speed=v))
    return HeatPlan(
        die,
        tuple(flicks),
        measures_for(mode),
        settings.repeats,
        settings.level,
        max_time,
        settings.seed,
    )


def available(app: Any) -> str | None:
    """Why the map cannot be shown now, or None."""
    session = app.session
    practice = getattr(session, "practice", None)
    if session.mode != "sandbox" and not (practice is not None and practice()):
        return "The heat map is for free play and practice matches (--practice) only."
    if app.human_to_move() is None:
        return "The heat map needs your turn, with nothing moving."
    return None


def position_key(app: Any) -> Hashable:
    """Changes whenever the dice may have moved (a shot, an undo, the next turn)."""
    world = app.session.world()
    # a die placed on a JAM zone (not yet flicked) is part of the position the map is of
    placed = getattr(app, "placement", None)
    return (app.session.position_key(), id(world), getattr(world, "steps", None), placed)


class HeatOverlay:
    """The H key's state on the App: the job, the die it is about, the outcome shown."""

    def __init__(self, settings: HeatSettings | None = None) -> None:
        self.settings = settings or HeatSettings()
        self.job: HeatJob | None = None
        self.die: str | None = None
        self.measure = 0
        self.threaded = True
        self._legend: tuple[Any, pygame.Surface] | None = None
        self._switch: float | None = None  # the switch interval to restore

    @property
    def on(self) -> bool:
        return self.job is not None

    # --- keys -----------------------------------------------------------------------------------
    def toggle(self, app: Any) -> None:
        if self.job is not None:
            self.stop()
            app.message = "Heat map off."
            return
        why = available(app)
        die = self._selected(app) if why is None else None
        if why is None and die is None:
            why = "Heat map: point at one of your dice (or aim it), then press H."
        if why is not None:
            app.message = why
            return
        assert die is not None
        self.start(app, die)

    def cycle(self, app: Any) -> None:
        """Shift+H: the next outcome of the mode (no recomputing: every cell has them all)."""
        if self.job is None:
            self.toggle(app)
            return
        self.measure = (self.measure + 1) % len(self.job.plan.measures)
        app.message = f"Heat map: {LABELS[self.job.plan.measures[self.measure]]}"

    def _selected(self, app: Any) -> str | None:
        seat = app.human_to_move()
        if app.aim is not None:
            return str(app.aim.die.id)
        if seat is None or app.mouse_world is None:
            return None
        from jamsumo_sim.ui.gesture import DieSpot, pick_die

        spots = app.spots(app.session.flickable(seat))
        placed = app.placement  # a die from the tray on a JAM zone: in play once flicked
        if placed is not None:
            size = app.session.params.die_size
            spots = [*spots, DieSpot(placed.die, placed.x, placed.y, placed.angle, size)]
        return pick_die(spots, *app.mouse_world, app.gesture.grab_slack)

    @staticmethod
    def _position(app: Any, die: str) -> Any:
        """The world the map is of: the session's, with the die placed on a JAM zone added."""
        world = app.session.world()
        placed = app.placement
        if placed is None or placed.die != die:
            return world
        from jamsumo_sim.rules.scoring import HAND_FACE

        world = world.copy()
        world.add_die(placed.die, placed.x, placed.y, placed.angle, face=HAND_FACE)
        return world

    # --- the job --------------------------------------------------------------------------------
    def start(self, app: Any, die: str) -> None:
        """Start the map of ``die`` (the copy of the position is taken now, on this thread)."""
        self.stop()
        session = app.session
        world = self._position(app, die)
        aim = app.flick_params(app.aim) if app.aim is not None else None
        max_time = float(getattr(session, "shot_time", lambda: app.max_shot_time)())
        plan = plan_for(die, aim, session.mode, self.settings, app.height, max_time)
        colours = {s.id: session.die_colour_name(s.id) for s in world.states()}
        self.die = die
        self.measure = min(self.measure, len(plan.measures) - 1)
        self.job = heat_worker.start(world, plan, position_key(app), colours, self.threaded)
        if self._switch is None and not self.job.done():
            # the window gets the interpreter back within 0.5 ms whenever it wants it, not 5 ms
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_INTERVAL)
        app.message = f"Heat map of {die}: {LABELS[plan.measures[self.measure]]} (Shift+H: next)"

    def stop(self) -> None:
        if self.job is not None:
            self.job.cancel()
        self.job = None
        self._restore_switch()

    def _restore_switch(self) -> None:
        if self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None

    def before_frame(self) -> None:
        """The window builds a frame: the worker waits (see heat_worker)."""
        if self.job is not None:
            self.job.pause()

    def after_frame(self, frame_start: float, fps: float) -> None:
        """The frame begun at ``frame_start`` (perf_counter) is shown: the worker may run until
        just before the next one is due."""
        if self.job is not None:
            now = time.perf_counter()
            self.job.resume(max(frame_start + 1.0 / fps - FRAME_MARGIN, now + MIN_TURN))

    def update(self, app: Any) -> None:
        """Drop the map when the position changes; follow the aim to another die."""
        job = self.job
        if job is None:
            return
        if job.done():
            self._restore_switch()
        if job.error:
            self.stop()
            app.message = f"Heat map failed: {str(job.error[0])[:80]}"
        elif app.busy or position_key(app) != job.key:
            self.stop()
            app.message = "Heat map off: the position changed (H maps it again)."
        elif app.aim is not None and app.aim.die.id != self.die:
            self.start(app, str(app.aim.die.id))

    # --- drawing --------------------------------------------------------------------------------
    def draw(self, app: Any, view: View) -> None:
        job = self.job
        if job is None:
            return
        screen = app.screen
        size = app.session.params.die_size
        radius = max(4, round(view.length(size) * 0.32))
        for cell in list(job.cells):  # a snapshot: the worker appends meanwhile
            p = cell.p[self.measure]
            if cell.shots == 0 or math.isnan(p) or math.isnan(cell.x):
                continue
            at = view.to_screen(cell.x, cell.y)
            pygame.draw.circle(screen, colour_at(p), at, radius)
            pygame.draw.circle(screen, OUTLINE, at, radius, 1)
        if self.die is not None and self.die in app.session.world().die_ids:
            st = app.session.world().state(self.die)
            ring = round(view.length(size) * 0.9)
            pygame.draw.circle(
                screen, app.theme.colour("highlight"), view.to_screen(st.x, st.y), ring, 2
            )
        self.draw_legend(app, view)

    def draw_legend(self, app: Any, view: View) -> pygame.Rect:
        """Top left of the board area: the outcome, a colour bar with numbers, the progress (the
        picture is kept until one of them changes: text is costly to draw every frame)."""
        job = self.job
        assert job is not None
        key = (id(job), self.measure, len(job.cells))
        if self._legend is None or self._legend[0] != key:
            self._legend = (key, legend_picture(app.theme, job, self.measure))
        picture = self._legend[1]
        app.screen.blit(picture, LEGEND_AT)
        return picture.get_rect(topleft=LEGEND_AT)


def legend_picture(theme: Any, job: HeatJob, measure: int) -> pygame.Surface:
    """The legend: P(outcome), the viridis bar with 0–100 % under it, the map's progress."""
    f = font(18)
    label = LABELS[job.plan.measures[measure]]
    lines = [
        f"P({label})",
        f"{len(job.cells)}/{job.total} flicks · {job.plan.repeats} tries each"
        f" at {job.plan.level} noise",
        "Shift+H next outcome · H off",
    ]
    bar_w, bar_h = LEGEND_BAR
    w = max(bar_w, *(f.size(t)[0] for t in lines)) + 16
    line = f.get_linesize()
    h = 8 + line + bar_h + 4 + line + 2 * line + 6
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    surf.fill((*theme.colour("panel"), 225))
    y = 6
    surf.blit(f.render(lines[0], True, theme.colour("text")), (8, y))
    y += line
    for i in range(bar_w):
        pygame.draw.line(surf, colour_at(i / (bar_w - 1)), (8 + i, y), (8 + i, y + bar_h))
    pygame.draw.rect(surf, OUTLINE, (8, y, bar_w, bar_h), 1)
    y += bar_h + 2
    for t in LEGEND_TICKS:
        text = f.render(f"{t * 100:.0f}%", True, theme.colour("text"))
        tx = 8 + round(t * (bar_w - 1)) - text.get_width() // 2
        surf.blit(text, (min(max(tx, 4), 8 + bar_w - text.get_width() + 4), y))
    y += line
    for t in lines[1:]:
        surf.blit(f.render(t, True, theme.colour("text_dim")), (8, y))
        y += line
    return surf
