"""The aim hint's spread: where the flick being aimed may stop at the match's noise level.

The free-slide hint (``draw_overlay.draw_aim``) shows one exact reach; with execution noise
(``--table``) the hand's spread of speed and direction makes that a region. This module predicts
the rest point of a flick with the same free-slide model (v² / 2μg along the push; the dish, the
hole and other dice are ignored — a hint) and draws the 2-σ ellipse of
:func:`jamsumo_sim.noise.spread` around it, with the fan of directions from the die. Nothing is
drawn at an exact level.
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from jamsumo_sim import noise
from jamsumo_sim.flick import Flick, launch_speed
from jamsumo_sim.ui.gesture import DieSpot, FlickParams
from jamsumo_sim.ui.view import View

SIGMAS = 2.0  # the drawn ellipse and fan: 2 σ (about 86 % of shots stop inside the ellipse)


def session_level(session: Any) -> noise.NoiseLevel | None:
    """The session's execution-noise level, or None where there is none (sandbox, exact play)."""
    state = getattr(session, "state", None)
    level = getattr(state, "noise", None)
    if not isinstance(level, noise.NoiseLevel) or level.exact:
        return None
    return level


def predictor(die: DieSpot, physics: Any):  # noqa: ANN201 - a closure over the die and physics
    """``predict(params) -> (x, y)``: the free-slide rest point of a flick of ``die``."""
    decel = physics.mu_board * physics.gravity

    def predict(p: FlickParams) -> tuple[float, float]:
        if p.finger_speed is not None:  # an off-centre strike launches slower (jamsumo_sim.flick)
            v = launch_speed(
                Flick(p.die, p.direction, None, p.offset, p.height, p.finger_speed), physics
            )
        else:
            v = p.speed
        v = min(v, physics.max_launch_speed)
        reach = die.size / 2 + (v * v / (2 * decel) if decel > 0 else 0.0)
        return (die.x + reach * math.cos(p.direction), die.y + reach * math.sin(p.direction))

    return predict


def predicted_spread(
    die: DieSpot, params: FlickParams, physics: Any, level: noise.NoiseLevel
) -> noise.Spread:
    """The exact free-slide rest point of the flick and its 1-σ ellipse at ``level``."""
    return noise.spread(predictor(die, physics), params, level)


def draw(
    screen: pygame.Surface,
    view: View,
    theme: Any,
    session: Any,
    die: DieSpot,
    params: FlickParams | None,
) -> noise.Spread | None:
    """Draw the spread of the flick being aimed (nothing at an exact level); return it."""
    level = session_level(session)
    if params is None or level is None:
        return None
    physics = session.params
    spread = predicted_spread(die, params, physics, level)
    colour = theme.colour("aim")
    # the fan: the push direction ± 2 σ of aim, out to the predicted reach
    reach = math.hypot(spread.x - die.x, spread.y - die.y)
    start = view.to_screen(die.x, die.y)
    for side in (-1, 1):
        a = params.direction + side * SIGMAS * level.angle
        end = view.to_screen(die.x + reach * math.cos(a), die.y + reach * math.sin(a))
        _dashed(screen, colour, start, end)
    outline = [view.to_screen(x, y) for x, y in spread.points(SIGMAS)]
    if len(outline) >= 3:
        pygame.draw.polygon(screen, colour, outline, 2)
    pygame.draw.circle(screen, colour, [round(c) for c in view.to_screen(spread.x, spread.y)], 3)
    return spread


def _dashed(
    screen: pygame.Surface,
    colour: tuple[int, int, int],
    a: tuple[float, float],
    b: tuple[float, float],
    dash: float = 6.0,
) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    steps = max(1, int(length / dash))
    for k in range(0, steps, 2):
        t0, t1 = k / steps, min(1.0, (k + 1) / steps)
        p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
        p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
        pygame.draw.line(screen, colour, p0, p1, 1)
