"""The bot's aim shown for a moment before it shoots: the arrow and the power, like a person's aim."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pygame

from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.view import View


@dataclass(frozen=True)
class AimShown:
    """A flick reduced to what is drawn: which die, which way (rad, world), how fast (m/s)."""

    die: str
    direction: float
    speed: float
    flick: Any = None  # the physics Flick, for where the die will leave (launch_heading)
    place: tuple[float, float, float] | None = None  # a die from hand: x, y (m), angle (rad)

    def heading(self, angle: float, x: float, y: float, params: Any) -> float:
        """Where the die at (x, y) turned ``angle`` will leave: the launch law (the finger's push
        slips beyond its friction cone); the push itself if the flick is unknown."""
        if self.flick is None or params is None:
            return self.direction
        from jamsumo_sim.rules.launch import launch_heading

        return launch_heading(self.flick, x, y, angle, params)


def flick_of(action: Any, die_mass: float) -> AimShown | None:
    """The drawable part of a flick action (a rules action or a physics Flick); None for a pass."""
    die = getattr(action, "die", None)
    if isinstance(die, str):  # a physics Flick
        return AimShown(die, float(action.direction), float(action.impulse) / die_mass, action)
    get = getattr(action, "get", None)
    if get is None or not isinstance(get("die"), str):
        return None
    from jamsumo_sim.errors import UserError
    from jamsumo_sim.rules.flick_actions import read_flick

    try:
        spec = read_flick(action)
    except (UserError, TypeError, ValueError):
        return None  # not a flick (a placement, a chance move): nothing to aim
    from jamsumo_sim.physics.flick import Flick

    by_impulse = spec.impulse is not None
    speed = float(spec.impulse) / die_mass if by_impulse else float(spec.finger_speed or 0.0)
    flick = Flick(
        spec.die, spec.direction, spec.impulse, spec.offset, spec.height, spec.finger_speed
    )
    place = (spec.px, spec.py, spec.pangle) if spec.place is not None else None
    return AimShown(spec.die, spec.direction, speed, flick, place)


@dataclass
class BotAim:
    """A bot's chosen action waiting ``duration`` s on screen before it is shot."""

    seat: int
    action: Any
    shown: AimShown | None
    duration: float
    elapsed: float = 0.0

    def advance(self, dt: float) -> bool:
        """True once it has been shown long enough."""
        self.elapsed += dt
        return self.elapsed >= self.duration


def draw_bot_aim(
    screen: pygame.Surface,
    view: View,
    shown: AimShown,
    x: float,
    y: float,
    die_size: float,
    max_speed: float,
    colour: tuple[int, int, int],
    progress: float,
    heading: float | None = None,
) -> None:
    """An arrow from the die at (x, y) growing with the power, a power bar and the speed.
    ``heading``: where the die will leave (:meth:`AimShown.heading`), else the push's direction."""
    power = min(1.0, shown.speed / max_speed) if max_speed > 0 else 0.0
    leaves = shown.direction if heading is None else heading
    dx, dy = math.cos(leaves), math.sin(leaves)
    half = die_size / 2
    grow = min(1.0, progress * 2.5)  # the arrow draws out quickly, then holds
    length = die_size * (1.2 + 2.5 * power) * grow
    start = view.to_screen(x + dx * half, y + dy * half)
    tip = view.to_screen(x + dx * (half + length), y + dy * (half + length))
    pygame.draw.line(screen, colour, start, tip, 4)
    ang = math.atan2(tip[1] - start[1], tip[0] - start[0])
    for side in (-1, 1):
        wing = ang + math.pi + side * 0.45
        end = (tip[0] + 12 * math.cos(wing), tip[1] + 12 * math.sin(wing))
        pygame.draw.line(screen, colour, tip, end, 4)
    c = view.to_screen(x, y)
    bar = pygame.Rect(0, 0, 60, 8)
    bar.midtop = (round(c[0]), round(c[1] + view.length(die_size) * 0.8))
    pygame.draw.rect(screen, (40, 30, 24), bar)
    fill = bar.copy()
    fill.width = max(1, round(bar.width * power))
    pygame.draw.rect(screen, colour, fill)
    pygame.draw.rect(screen, colour, bar, 1)
    label = font(18).render(f"{shown.speed:.2f} m/s", True, colour)
    screen.blit(label, (bar.right + 6, bar.y - 4))
