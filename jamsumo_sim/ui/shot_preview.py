"""A pool-style preview of the shot being aimed: the predicted path, the first contact, where the struck
die goes, and warnings before release (off the board, into the hole, no opponent struck in Sumo).

The prediction is the physics itself: the session's ``preview(action)`` (a World copy with the flick
applied) stepped to rest; what the rules make of that rest state comes from the session
(``predicted_outcome``), never from the window.  Computing it costs a few ms, so :class:`PreviewCache`
recomputes at most every ``min_interval`` seconds of frame time and only when the aim changed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pygame

from jamsumo_sim.ui.board_clip import clipped
from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.text_tag import PAD, blit_on_tag
from jamsumo_sim.ui.view import View

Point = tuple[float, float]

PATH_EVERY = 4  # physics steps between recorded path points
MAX_PREVIEW_TIME = 4.0  # s of simulated time predicted (a shot rests well before)


@dataclass(frozen=True)
class Preview:
    """What the physics says the aimed shot will do (world metres)."""

    die: str
    path: tuple[Point, ...]  # the flicked die's centre, from launch to rest
    contact: Point | None = None  # the flicked die's centre at its first contact with a die
    struck: str | None = None  # the die it touches first
    struck_path: tuple[Point, ...] = ()  # that die's centre after the contact
    warnings: tuple[str, ...] = ()  # what the rules would do to the flicked die (before release)
    good: bool = False  # that is what its owner wants (a die dropping into the hole in Jam)


def predict(
    session: Any, seat: int, action: Any, die: str, max_time: float = MAX_PREVIEW_TIME
) -> Preview:
    """Step the session's preview world of ``action`` to rest, noting the flicked die's path."""
    world = session.preview(action)
    start = len(world.events)
    path: list[Point] = [_xy(world, die)]
    struck_path: list[Point] = []
    contact: Point | None = None
    struck: str | None = None
    steps = math.ceil(max_time / world.params.step)
    for k in range(steps):
        world.step()
        if struck is None:
            struck = _first_hit(world.events[start:], die)
            if struck is not None:
                contact = _xy(world, die)
                struck_path.append(_xy(world, struck))
        if k % PATH_EVERY == 0:
            path.append(_xy(world, die))
            if struck is not None:
                struck_path.append(_xy(world, struck))
        if world.at_rest():
            break
    path.append(_xy(world, die))
    if struck is not None:
        struck_path.append(_xy(world, struck))
    events = list(world.events[start:])
    warnings = tuple(session.predicted_outcome(world, seat, die, events))
    good = bool(getattr(session, "good_news", lambda w, d: False)(world, die))
    return Preview(die, tuple(path), contact, struck, tuple(struck_path), warnings, good)


def _xy(world: Any, die: str) -> Point:
    st = world.state(die)
    return (float(st.x), float(st.y))


def _first_hit(events: list[Any], die: str) -> str | None:
    for e in events:
        if e.type == "collision" and e.data.get("kind") == "die" and die in e.dice:
            others = [d for d in e.dice if d != die]
            if others:
                return others[0]
    return None


class PreviewCache:
    """The latest preview, recomputed when the aim changes and ``min_interval`` s have passed."""

    def __init__(self, min_interval: float = 0.1) -> None:
        self.min_interval = min_interval
        self.key: Hashable = None
        self.value: Preview | None = None
        self.age = math.inf  # s since the last computation

    def tick(self, dt: float) -> None:
        self.age += dt

    def get(self, key: Hashable, compute: Callable[[], Preview | None]) -> Preview | None:
        if key != self.key and self.age >= self.min_interval:
            self.key, self.value, self.age = key, compute(), 0.0
        return self.value

    def clear(self) -> None:
        self.key, self.value, self.age = None, None, math.inf


def draw_preview(
    screen: pygame.Surface,
    view: View,
    preview: Preview,
    die_size: float,
    colour: tuple[int, int, int],
    warn_colour: tuple[int, int, int],
    clip: pygame.Rect | None = None,
    good_colour: tuple[int, int, int] | None = None,
    tag_colour: tuple[int, int, int] | None = None,
) -> list[pygame.Rect]:
    """The path as dots, a ghost die at the first contact, the struck die's course as an arrow.

    ``clip``: where the paths may be drawn (the board); the warning words go below the path's end,
    kept inside ``clip`` horizontally and just below it at most, each on a tag of ``tag_colour`` if
    given (they fall on dice and paths).  Returns where the words went (the aim's label keeps clear
    of them)."""
    pts = [view.to_screen(*p) for p in preview.path]
    with clipped(screen, clip if clip is not None else screen.get_clip()):
        for i, p in enumerate(pts[1:], 1):
            if i % 2 == 0:  # dotted: every other sample
                pygame.draw.circle(screen, colour, p, 2)
        if preview.contact is not None:
            r = view.length(die_size) * 0.62
            c = view.to_screen(*preview.contact)
            pygame.draw.circle(screen, colour, c, r, 2)
            pygame.draw.circle(screen, colour, c, 3)
        if len(preview.struck_path) >= 2:
            sp = [view.to_screen(*p) for p in preview.struck_path]
            pygame.draw.lines(screen, warn_colour, False, sp, 2)
            _arrow_head(screen, sp[-2], sp[-1], warn_colour)
    words: list[pygame.Rect] = []
    if preview.warnings:
        if preview.good and good_colour is not None:
            warn_colour = good_colour  # good news: the die drops where its owner wants it
        end = pts[-1]
        if clip is not None:  # the words sit by where the path leaves the board
            end = (min(max(end[0], clip.left), clip.right), min(max(end[1], clip.top), clip.bottom))
        f = font(18)
        y = end[1] + 10
        for text in preview.warnings[:3]:
            img = f.render(text, True, warn_colour)
            lo, hi = (clip.left, clip.right) if clip is not None else (4, screen.get_width())
            x = max(lo, min(end[0] - img.get_width() / 2, hi - img.get_width()))
            at = img.get_rect(topleft=(round(x), round(y)))
            if tag_colour is None:
                words.append(screen.blit(img, at))
            else:
                words.append(blit_on_tag(screen, img, at, tag_colour))
            y += f.get_linesize() + (PAD[1] if tag_colour is not None else 0)
    return words


def _arrow_head(screen: pygame.Surface, a: Point, b: Point, colour: tuple[int, int, int]) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for side in (-1, 1):
        wing = ang + math.pi + side * 0.45
        pygame.draw.line(
            screen, colour, b, (b[0] + 9 * math.cos(wing), b[1] + 9 * math.sin(wing)), 2
        )
