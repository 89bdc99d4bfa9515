"""Player colours that stay apart for everyone, and a second cue per player: the shape of the pips.

The dice colours live in ``assets/ui_theme.toml`` ([dice]); they were chosen so that every pair of
players stays at least :data:`MIN_DELTA_E` apart (CIE76 ΔE, 20 here) under simulated protanopia, deuteranopia and
tritanopia (Machado, Oliveira & Fernandes 2009, severity 1) and in greyscale.  Colour is never the only
cue: each player's pips (and the swatch in the panel) have their own shape.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np
import pygame

Colour = tuple[int, int, int]

MIN_DELTA_E = 20.0  # CIE76: ~2.3 is just noticeable; 20 is "clearly another colour" at a glance

# the second cue, by the rules' colour names (seat 0 red, 1 blue, 2 green, 3 yellow)
MARKS: dict[str, str] = {
    "red": "circle",
    "blue": "square",
    "green": "triangle",
    "yellow": "diamond",
}

# Machado et al. 2009, severity 1.0, on linear RGB
CVD_MATRICES: dict[str, np.ndarray] = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
VISIONS = ("normal", *CVD_MATRICES, "greyscale")

_SRGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
_WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


def to_linear(rgb: Iterable[float]) -> np.ndarray:
    c = np.asarray(list(rgb), dtype=float) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_lab(lin: np.ndarray) -> np.ndarray:
    xyz = (_SRGB_TO_XYZ @ np.clip(lin, 0.0, 1.0)) / _WHITE_D65
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen_as(rgb: Iterable[float], vision: str) -> np.ndarray:
    """CIELAB of ``rgb`` as seen with ``vision`` (one of :data:`VISIONS`)."""
    lin = to_linear(rgb)
    if vision in CVD_MATRICES:
        lin = CVD_MATRICES[vision] @ lin
    elif vision == "greyscale":
        lin = np.full(3, float(lin @ _SRGB_TO_XYZ[1]))
    elif vision != "normal":
        raise ValueError(f"unknown vision {vision!r}")
    return linear_to_lab(lin)


def delta_e(a: Iterable[float], b: Iterable[float], vision: str = "normal") -> float:
    """CIE76 colour difference between two sRGB colours as seen with ``vision``."""
    return float(np.linalg.norm(seen_as(a, vision) - seen_as(b, vision)))


def mark_of(colour_name: str) -> str:
    return MARKS.get(colour_name.lower(), "circle")


def draw_mark(
    surface: pygame.Surface,
    shape: str,
    centre: tuple[float, float],
    radius: float,
    colour: Colour,
    angle: float = 0.0,
) -> None:
    """One pip (or panel symbol) of ``shape``, ``radius`` px, turned by ``angle`` (rad, y up)."""
    cx, cy = centre
    r = max(1.0, radius)
    if shape == "circle" or r < 2.0:  # too small to tell shapes apart: a dot
        pygame.draw.circle(surface, colour, (cx, cy), r)
        return
    corners = {"square": (4, math.pi / 4, 1.1), "triangle": (3, math.pi / 2, 1.35)}
    n, start, grow = corners.get(shape, (4, 0.0, 1.3))  # diamond: a square on its corner
    pts = [
        (
            cx + r * grow * math.cos(angle + start + 2 * math.pi * k / n),
            cy - r * grow * math.sin(angle + start + 2 * math.pi * k / n),
        )
        for k in range(n)
    ]
    pygame.draw.polygon(surface, colour, pts)


def mark_for_colour(theme: Any, rgb: Colour) -> str | None:
    """The pip shape of the player whose dice have colour ``rgb`` in ``theme`` (None if no player's)."""
    for name, shape in MARKS.items():
        if theme.dice_colour(name) == tuple(rgb):
            return shape
    return None


def ink_on(rgb: Colour) -> Colour:
    """Pips / symbols that read on ``rgb``: dark on light dice, white on dark ones."""
    lum = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    return (30, 26, 22) if lum > 150 else (250, 248, 240)
