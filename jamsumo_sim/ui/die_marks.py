"""Marks on dice: rings around dice a refusal names ("red6 would …"), and a die's id on hover."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pygame

from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.text_tag import blit_on_tag
from jamsumo_sim.ui.view import View

_ID = re.compile(r"\b[a-z]+\d+\b")


def named_dice(text: str, ids: Iterable[str]) -> list[str]:
    """The dice ids (of ``ids``) that ``text`` names, in the order named."""
    known = set(ids)
    out: list[str] = []
    for m in _ID.finditer(text.lower()):
        if m.group(0) in known and m.group(0) not in out:
            out.append(m.group(0))
    return out


def draw_rings(
    screen: pygame.Surface,
    view: View,
    where: Iterable[tuple[float, float]],
    die_size: float,
    colour: tuple[int, int, int],
) -> None:
    r = view.length(die_size) * 0.8 + 3
    for x, y in where:
        c = view.to_screen(x, y)
        pygame.draw.circle(screen, colour, c, r, 3)
        pygame.draw.circle(screen, (20, 14, 10), c, r + 3, 1)


def draw_label(
    screen: pygame.Surface,
    view: View,
    text: str,
    x: float,
    y: float,
    die_size: float,
    colour: tuple[int, int, int],
    tag_colour: tuple[int, int, int],
) -> None:
    """``text`` on a dark tag just above the die at (x, y)."""
    img = font(18).render(text, True, colour)
    cx, cy = view.to_screen(x, y)
    at = img.get_rect()
    at.midbottom = (round(cx), round(cy - view.length(die_size) * 0.7 - 2))
    blit_on_tag(screen, img, at, tag_colour)
