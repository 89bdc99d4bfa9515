"""The Sumo opening in the window: choose a corner by clicking it, drag your dice, confirm.

Active while the session says a human seat is setting up (``session.setting_up()``). The window
hands it every event first (:meth:`SetupMode.handle` returns True when it used one) and lets it
draw over the board (:meth:`SetupMode.draw`). It decides nothing: the set-up action goes to the
rules, which accept it or say why not (shown as text, nothing changes until it is accepted).

Controls: click a free corner's SUMO area (your dice appear there in a suggested layout), drag
dice inside it, turn the die under the pointer (or the last one touched) with the wheel or [ and ]
(a square die pushed far off a face's normal slips on the finger and leaves turned: a turned die
shoots along a diagonal), Enter or the "Confirm" button to set up; Esc or right-click goes back to
choosing the corner; clicking another free corner moves there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pygame

from jamsumo_sim.rules.scoring import SUMO_FACE
from jamsumo_sim.rules.setup import DiePose
from jamsumo_sim.ui.draw_dice import DieLook, draw_dice
from jamsumo_sim.ui.gesture import DieSpot, pick_die
from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.view import View

CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
BACK_KEYS = (pygame.K_ESCAPE,)
TURN_KEYS = {pygame.K_LEFTBRACKET: 1, pygame.K_RIGHTBRACKET: -1}  # [ turns anticlockwise
SETUP_HELP = (  # the panel's help lines while a set-up is open (no flick: no strike height)
    "Click a free corner's SUMO area, drag your dice inside it, turn one with the wheel or [ ].",
    "Enter or Confirm sets up · Esc or right-click chooses the corner again · "
    "? or F1 all controls · Q quit",
)


@dataclass
class SetupMode:
    """What a human seat has arranged so far (world poses) and the drag in progress."""

    seat: int | None = None
    corner: str | None = None
    poses: list[DiePose] = field(default_factory=list)
    dragging: int | None = None  # index of the die being dragged
    grab: tuple[float, float] = (0.0, 0.0)  # pointer − die centre at the press (m)
    button: pygame.Rect | None = None  # the confirm button on screen (set when drawn)
    problem: str | None = None  # why the arrangement would be refused now
    selected: int | None = None  # the die last pressed: the one [ and ] turn

    # --- when it applies ------------------------------------------------------------------
    def active_seat(self, app: Any) -> int | None:
        """The human seat setting up now (the window idle), else None; resets on a change."""
        setting_up = getattr(app.session, "setting_up", None)
        seat = setting_up() if setting_up is not None else None
        if seat is None or app.human_to_move() != seat:
            seat = None
        if seat != self.seat:
            self.seat, self.corner, self.poses, self.dragging = seat, None, [], None
            self.problem = self.selected = None
        return seat

    # --- input -------------------------------------------------------------------------------
    def handle(self, app: Any, e: pygame.event.Event) -> bool:
        """Use ``e`` if it belongs to the set-up; True when used (the window then ignores it)."""
        seat = self.active_seat(app)
        if seat is None:
            return False
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 1:
            self._press(app, seat, e.pos)
            return True
        if e.type == pygame.MOUSEBUTTONDOWN and e.button == 3:
            self._back(app)
            return True
        if e.type == pygame.MOUSEMOTION:
            if self.dragging is None:
                return False  # hover and the like stay the window's
            x, y = app.view().to_world(*e.pos)
            old = self.poses[self.dragging]
            self.poses[self.dragging] = DiePose(x - self.grab[0], y - self.grab[1], old.angle)
            self._check(app, seat)
            return True
        if e.type == pygame.MOUSEBUTTONUP and e.button == 1:
            used = self.dragging is not None
            self.dragging = None
            return used
        if e.type == pygame.MOUSEWHEEL and self.corner is not None:
            if pygame.key.get_mods() & pygame.KMOD_CTRL:
                return False  # Ctrl+wheel zooms, as everywhere
            self.turn(app, seat, self._under_pointer(app), e.y)
            return True
        if e.type == pygame.KEYDOWN and e.key in TURN_KEYS and self.corner is not None:
            self.turn(app, seat, self.selected, TURN_KEYS[e.key])
            return True
        if e.type == pygame.KEYDOWN and e.key in CONFIRM_KEYS:
            self.confirm(app)
            return True
        if e.type == pygame.KEYDOWN and e.key in BACK_KEYS and self.corner is not None:
            self._back(app)
            return True
        return False

    def _press(self, app: Any, seat: int, pos: tuple[int, int]) -> None:
        if self.button is not None and self.corner is not None and self.button.collidepoint(pos):
            self.confirm(app)
            return
        x, y = app.view().to_world(*pos)
        size = app.session.params.die_size
        if self.corner is not None:
            spots = [DieSpot(str(k), p.x, p.y, p.angle, size) for k, p in enumerate(self.poses)]
            hit = pick_die(spots, x, y, app.gesture.grab_slack)
            if hit is not None:
                k = int(hit)
                self.dragging = self.selected = k
                self.grab = (x - self.poses[k].x, y - self.poses[k].y)
                return
        for name in app.session.free_corners():
            if app.session.board.sumo_area(name).contains(x, y) and name != self.corner:
                self.corner = name
                self.poses = list(app.session.suggested_setup(seat, name))
                app.message = "Drag your dice inside the area, then press Enter (or Confirm)."
                self._check(app, seat)
                return
        if self.corner is None:
            app.message = "Click a free corner's SUMO area to set up your dice there."

    def _under_pointer(self, app: Any) -> int | None:
        """The die under the pointer, else the one last touched."""
        if app.mouse_world is not None:
            size = app.session.params.die_size
            spots = [DieSpot(str(k), p.x, p.y, p.angle, size) for k, p in enumerate(self.poses)]
            hit = pick_die(spots, *app.mouse_world, app.gesture.grab_slack)
            if hit is not None:
                return int(hit)
        return self.selected

    def turn(self, app: Any, seat: int, k: int | None, notches: float) -> None:
        """Turn die ``k`` by ``notches`` steps (anticlockwise positive, as seen on screen from
        above: the view may be turned, the world angle is what the rules get)."""
        if k is None or not 0 <= k < len(self.poses):
            app.message = "Point at one of your dice (or click it) to turn it."
            return
        step = math.radians(float(app.theme.section("setup").get("turn_step_deg", 5.0)))
        old = self.poses[k]
        self.poses[k] = DiePose(old.x, old.y, old.angle + notches * step)
        self.selected = k
        self._check(app, seat)
        app.message = f"Die {k + 1} turned {self.turn_shown(app, seat, k):+.0f}° from square."

    def turn_shown(self, app: Any, seat: int, k: int) -> float:
        """Die ``k``'s turn from square to the seat's view, in degrees within ±45."""
        from jamsumo_sim.rules.seats import to_view

        _, _, angle = to_view(seat, app.session.players(), 0.0, 0.0, self.poses[k].angle)
        return math.degrees(math.remainder(angle, math.pi / 2))

    def _back(self, app: Any) -> None:
        self.corner, self.poses, self.dragging, self.problem = None, [], None, None
        self.selected = None
        app.message = "Choose a corner: click a free SUMO area."

    def _check(self, app: Any, seat: int) -> None:
        action = app.session.make_setup(seat, self.corner, self.poses)
        self.problem = app.session.why_illegal(seat, action)

    def confirm(self, app: Any) -> bool:
        """Hand the arrangement to the rules: set up (True) or say why not (False)."""
        seat = self.seat
        if seat is None or self.corner is None:
            app.message = "Not allowed: choose a corner first (click a free SUMO area)."
            return False
        action = app.session.make_setup(seat, self.corner, self.poses)
        reason = app.session.why_illegal(seat, action)
        if reason is not None:
            self.problem = reason
            app.message = f"Not allowed: {reason}"
            return False
        app.message = ""
        self.seat, self.corner, self.poses, self.problem = None, None, [], None
        app.start_shot(seat, action)  # a set-up animates nothing: the session commits it at once
        return True

    # --- drawing -----------------------------------------------------------------------------
    def draw(self, app: Any, view: View) -> None:
        seat = self.active_seat(app)
        if seat is None:
            self.button = None
            return
        screen = app.screen
        theme = app.theme
        free = set(app.session.free_corners())
        taken = getattr(app.session.state, "corners", {})
        pulse = theme.colour("highlight")
        for area in app.session.board.sumo_areas:
            pts = [
                view.to_screen(area.x + sx * area.width / 2, area.y + sy * area.depth / 2)
                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
            ]
            if area.name in taken:
                owner = app.session.seat_colour_name(taken[area.name])
                pygame.draw.polygon(screen, theme.dice_colour(owner), pts, 2)
            elif area.name in free:
                width = 4 if area.name == self.corner else 2
                pygame.draw.polygon(screen, pulse, pts, width)
        if self.corner is None:
            self._caption(app, view, "Click a free corner to set up your dice")
            self.button = None
            return
        size = app.session.params.die_size
        colour = theme.dice_colour(app.session.seat_colour_name(seat))
        looks = [
            DieLook(
                f"setup{k}",
                p.x,
                p.y,
                p.angle,
                SUMO_FACE,
                colour,
                highlight=k in (self.dragging, self.selected),
            )
            for k, p in enumerate(self.poses)
        ]
        draw_dice(screen, view, looks, size)
        self._draw_turns(app, view, seat, size)
        text = "Confirm set-up (Enter)"
        f = font(22)
        img = f.render(text, True, theme.colour("text"))
        rect = img.get_rect()
        rect.inflate_ip(24, 14)
        rect.midbottom = (round(view.centre[0]), view.rect[1] + view.rect[3] - 4)
        pygame.draw.rect(screen, theme.colour("panel"), rect, border_radius=6)
        edge = theme.colour("warning" if self.problem else "highlight")
        pygame.draw.rect(screen, edge, rect, 2, border_radius=6)
        screen.blit(img, img.get_rect(center=rect.center))
        self.button = rect
        if self.problem:
            self._caption(app, view, f"Not allowed: {self.problem}", warn=True)

    def _draw_turns(self, app: Any, view: View, seat: int, size: float) -> None:
        """Each turned die's turn from square, in degrees, beside it; the selected die's faces'
        normals as short ticks (the directions it shoots straight along)."""
        colour = app.theme.colour("text")
        for k, p in enumerate(self.poses):
            deg = self.turn_shown(app, seat, k)
            if k == self.selected:
                for q in range(4):
                    a = p.angle + q * math.pi / 2
                    inner = (p.x + 0.6 * size * math.cos(a), p.y + 0.6 * size * math.sin(a))
                    outer = (p.x + 1.1 * size * math.cos(a), p.y + 1.1 * size * math.sin(a))
                    pygame.draw.line(
                        app.screen, app.theme.colour("highlight"), view.to_screen(*inner),
                        view.to_screen(*outer), 2,
                    )  # fmt: skip
            if abs(deg) < 0.5:
                continue
            img = font(16).render(f"{deg:+.0f}°", True, colour)
            c = view.to_screen(p.x, p.y)
            app.screen.blit(img, (c[0] - img.get_width() // 2, c[1] + view.length(size) * 0.6))

    def _caption(self, app: Any, view: View, text: str, warn: bool = False) -> None:
        theme = app.theme
        img = font(22).render(text, True, theme.colour("warning" if warn else "text"))
        x = round(view.centre[0] - img.get_width() / 2)
        app.screen.blit(img, (x, view.rect[1] + 4))
