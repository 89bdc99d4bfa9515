"""The replay viewer's timeline: one tick per shot, a marker at the current one, click or drag to
scrub; plus the list of a shot's events in words."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pygame

from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.shot_story import describe
from jamsumo_sim.ui.view import Layout


@dataclass(frozen=True)
class Timeline:
    """A bar in ``rect`` for ``shots`` shots; position ``shots`` is the end of the match."""

    rect: tuple[int, int, int, int]
    shots: int

    def x_of(self, position: int) -> float:
        x, _, w, _ = self.rect
        return x + w * position / max(1, self.shots)

    def position_at(self, px: float) -> int:
        x, _, w, _ = self.rect
        frac = (px - x) / w if w > 0 else 0.0
        return max(0, min(self.shots, round(frac * self.shots)))

    def hit(self, pos: tuple[int, int]) -> bool:
        return pygame.Rect(self.rect).inflate(16, 20).collidepoint(pos)


BAR_H = 14  # px: the bar
BAR_BELOW = 18  # px: from the bar to the window's bottom (its ticks)
STRIP = 58  # px: the whole strip the timeline takes (label, bar, ticks); the board stays above it


def timeline_for(area: pygame.Rect, shots: int) -> Timeline:
    """The bar along the bottom of the board area."""
    margin = 40
    top = area.bottom - BAR_H - BAR_BELOW
    return Timeline((area.x + margin, top, area.width - 2 * margin, BAR_H), shots)


def above_timeline(lay: Layout) -> Layout:
    """``lay`` with the board (and its margins, where the trays sit) shrunk into the height above
    the timeline's strip, so that no tray is drawn under the bar."""
    x, y, side, _ = lay.board_rect
    k = max(0.1, (lay.height - STRIP) / max(1, lay.height))
    new_side = max(50, 2 * round(side * k / 2))  # even: the board art is built in halves
    new_x = x + (side - new_side) // 2
    return Layout(lay.width, lay.height, lay.panel_x, (new_x, round(y * k), new_side, new_side))


def draw_timeline(
    screen: pygame.Surface,
    tl: Timeline,
    position: int,
    playing: bool,
    colours: dict[str, tuple[int, int, int]],
) -> None:
    x, y, w, h = tl.rect
    bar = pygame.Rect(tl.rect)
    pygame.draw.rect(screen, colours["panel"], bar.inflate(8, 8), border_radius=6)
    done = bar.copy()
    done.width = max(0, round(tl.x_of(position) - x))
    pygame.draw.rect(screen, colours["panel_line"], bar, border_radius=4)
    pygame.draw.rect(screen, colours["aim_face"], done, border_radius=4)
    for i in range(tl.shots + 1):
        tx = round(tl.x_of(i))
        pygame.draw.line(screen, colours["text_dim"], (tx, y + h), (tx, y + h + 4), 1)
    mx = round(tl.x_of(position))
    pygame.draw.circle(screen, colours["highlight"], (mx, y + h // 2), h // 2 + 4)
    f = font(18)
    text = f"shot {min(position + 1, tl.shots)} / {tl.shots}" if position < tl.shots else "end"
    text += "   playing" if playing else "   paused"
    img = f.render(text, True, colours["text"])
    screen.blit(img, (x, y - img.get_height() - 6))


def event_lines(flicked: str, events: Iterable[Any], limit: int = 12) -> tuple[str, ...]:
    """The story of the shot, then its events one per line (time from the flick)."""
    evs = list(events)
    t0 = evs[0].t if evs else 0.0
    lines = [describe(flicked, evs)]
    for e in evs:
        if e.type == "flick":
            continue
        extra = ""
        if e.type == "collision":
            extra = f" ({e.data.get('kind', '')})"
        elif e.type == "tumble":
            extra = f" {e.data.get('before', '?')}→{e.data.get('after', '?')}"
        elif e.type == "platform":
            extra = f" {e.data.get('action', '')} {e.data.get('platform', '')}"
        lines.append(f"{e.t - t0:5.2f}s {e.type} {' '.join(e.dice)}{extra}")
        if len(lines) >= limit:
            lines.append("…")
            break
    return tuple(lines)
