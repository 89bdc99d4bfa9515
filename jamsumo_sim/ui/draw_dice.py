"""Dice as rotated cubes in player colours with the pips of their top face.

A die lying flat shows its square top with bevelled edges; a die that is not flat (resting tilted on a
platform edge or the hole's rim) shows a foreshortened top and one side face; a die leaving play (into the
hole, off the edge) shrinks and fades out.  A die tipped up on an edge (mid-tumble, ``pitch``) shows its
top foreshortened by cos(pitch) and the side that rises into view; a die in the air (``lift`` > 0) is
drawn larger with its shadow further away and softer.  Pips have each player's shape (the second cue
besides colour, see :mod:`.palette`).  Geometry comes in as board metres and is mapped by the View.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from jamsumo_sim.ui.palette import draw_mark
from jamsumo_sim.ui.view import View

Colour = tuple[int, int, int]

_Q = 0.25  # pip offset from the centre, in die sizes
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_Q, -_Q), (_Q, _Q)),
    3: ((-_Q, -_Q), (0, 0), (_Q, _Q)),
    4: ((-_Q, -_Q), (_Q, -_Q), (-_Q, _Q), (_Q, _Q)),
    5: ((-_Q, -_Q), (_Q, -_Q), (0, 0), (-_Q, _Q), (_Q, _Q)),
    6: ((-_Q, -_Q), (-_Q, 0), (-_Q, _Q), (_Q, -_Q), (_Q, 0), (_Q, _Q)),
}


@dataclass(frozen=True)
class DieLook:
    """Everything needed to draw one die (world metres and radians)."""

    id: str
    x: float
    y: float
    angle: float
    top: int
    colour: Colour
    flat: bool = True
    fade: float = 0.0  # 0 = fully present, 1 = gone (falling into the hole / off the edge)
    highlight: bool = False  # the die being aimed or selectable
    dim: bool = False  # not the current player's die
    mark: str = "circle"  # pip shape: the player's second cue
    pitch: float = 0.0  # rad tipped up on an edge (tumbling)
    lift: float = 0.0  # height of the base above the surface, in die sizes (airborne)


def _shade(c: Colour, f: float) -> Colour:
    if f >= 1:
        return tuple(min(255, int(v + (255 - v) * (f - 1))) for v in c)  # type: ignore[return-value]
    return tuple(max(0, int(v * f)) for v in c)  # type: ignore[return-value]


def _pip_colour(c: Colour) -> Colour:
    # light dice (yellow) get dark pips, dark dice white ones
    lum = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
    return (30, 26, 22) if lum > 150 else (250, 248, 240)


def _octagon(h: float, chamfer: float) -> list[tuple[float, float]]:
    """A square of half-size h with its corners cut (rounded edges), body coordinates, CCW."""
    c = chamfer
    return [
        (h, -h + c),
        (h, h - c),
        (h - c, h),
        (-h + c, h),
        (-h, h - c),
        (-h, -h + c),
        (-h + c, -h),
        (h - c, -h),
    ]


def draw_die(
    surface: pygame.Surface,
    centre: tuple[float, float],
    size_px: float,
    screen_angle: float,
    look: DieLook,
) -> None:
    """Draw ``look`` at pixel ``centre`` (size in px, angle as seen with y up) onto ``surface``."""
    cx, cy = centre
    lift = min(max(look.lift, 0.0), 3.0)
    # seen from above, a die in the air is nearer the eye: drawn a little larger
    scale = (1.0 - 0.55 * look.fade) * (1.0 + 0.18 * lift)
    h = size_px * 0.5 * scale
    ca, sa = math.cos(screen_angle), math.sin(screen_angle)
    pitch = min(abs(look.pitch), math.pi / 2)
    # a tilted die shows its top foreshortened along body x; a tumbling one by cos(pitch)
    squash = 1.0 if look.flat else 0.78
    if pitch > 0.02:
        squash = min(squash, max(0.3, math.cos(pitch)))

    def pt(u: float, v: float, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        u *= squash
        return (cx + dx + u * ca - v * sa, cy + dy - (u * sa + v * ca))

    base = look.colour
    if look.dim:
        base = _shade(base, 0.8)
    if look.fade > 0:
        base = _shade(base, 1.0 - 0.7 * look.fade)
    chamfer = h * 0.22
    # cast shadow, away from the light (down-right on screen)
    off = max(1.0, h * (0.28 + 0.5 * lift))
    shade = (58, 36, 18) if lift < 0.05 else (86, 56, 30)  # further away: softer
    shadow = [pt(u, v, off, off) for u, v in _octagon(h * (1.02 - 0.12 * min(lift, 1.0)), chamfer)]
    pygame.draw.polygon(surface, shade, shadow)
    if look.highlight:
        ring = [pt(u, v) for u, v in _octagon(h + max(2.0, h * 0.22), chamfer * 1.4)]
        pygame.draw.polygon(surface, (255, 240, 170), ring)
    if not look.flat:
        # the side face that tilts up into view: a darker band along the body's -x side
        band = 0.35 if pitch <= 0.02 else 0.35 + 1.1 * math.sin(pitch)
        side = [
            pt(-h, -h),
            pt(-h, h),
            pt(-h, h, -h * band * ca, h * band * sa),
            pt(-h, -h, -h * band * ca, h * band * sa),
        ]
        pygame.draw.polygon(surface, _shade(base, 0.55), side)
    # body (edges darker), then the face a little inset and lighter: reads as a bevelled cube
    pygame.draw.polygon(surface, _shade(base, 0.62), [pt(u, v) for u, v in _octagon(h, chamfer)])
    inset = h * 0.86
    pygame.draw.polygon(surface, base, [pt(u, v) for u, v in _octagon(inset, chamfer * 0.8)])
    # a highlight along the lit (upper-left as seen) edges
    hl = _shade(base, 1.35)
    edge = [pt(u, v) for u, v in _octagon(inset, chamfer * 0.8)]
    pygame.draw.lines(surface, hl, False, _lit_edge(edge, screen_angle), max(1, int(h * 0.12)))
    # pips
    pip_r = max(1.0, h * 0.2)
    pc = _pip_colour(base)
    for u, v in PIPS.get(look.top, ()):
        px, py = pt(u * 2 * h, v * 2 * h)
        draw_mark(surface, look.mark, (px, py), pip_r, pc, screen_angle)


def _lit_edge(points: list[tuple[float, float]], screen_angle: float) -> list[tuple[float, float]]:
    """Three consecutive outline points centred on the one most towards the light (upper left)."""
    n = len(points)
    i = max(range(n), key=lambda k: -points[k][0] - points[k][1])
    return [points[(i - 1) % n], points[i], points[(i + 1) % n]]


def draw_dice(surface: pygame.Surface, view: View, looks: list[DieLook], die_size: float) -> None:
    """Draw many dice (fading ones first, so dice in play stay on top)."""
    size_px = view.length(die_size)
    for look in sorted(looks, key=lambda d: (-d.fade, d.highlight)):
        if look.fade >= 1.0:
            continue
        centre = view.to_screen(look.x, look.y)
        angle = view.screen_angle(look.angle)
        if look.fade > 0:
            # fading dice are drawn through a small layer so they can become transparent
            pad = int(size_px * 1.6) + 4
            layer = pygame.Surface((pad, pad), pygame.SRCALPHA)
            draw_die(layer, (pad / 2, pad / 2), size_px, angle, look)
            layer.set_alpha(int(255 * (1 - look.fade)))
            surface.blit(layer, (centre[0] - pad / 2, centre[1] - pad / 2))
        else:
            draw_die(surface, centre, size_px, angle, look)
