"""Short fading trails behind moving dice, so a 0.3 s shot can be followed with the eye."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

import pygame

from jamsumo_sim.ui.view import View

Colour = tuple[int, int, int]
BANDS = 4  # age bands a trail is drawn in


class Trails:
    """The last ``length`` s of each moving die's centre (animation clock), drawn thinning out."""

    def __init__(self, length: float = 0.35, min_move: float = 0.002) -> None:
        self.length = length
        self.min_move = min_move  # m: a die that has not moved this far adds no point
        self.points: dict[str, deque[tuple[float, float, float]]] = {}

    def record(self, poses: Iterable[Any], clock: float) -> None:
        for p in poses:
            q = self.points.setdefault(p.id, deque())
            if not q or (p.x - q[-1][1]) ** 2 + (p.y - q[-1][2]) ** 2 >= self.min_move**2:
                q.append((clock, p.x, p.y))
        for q in self.points.values():
            while q and clock - q[0][0] > self.length:
                q.popleft()

    def clear(self) -> None:
        self.points.clear()

    def draw(
        self,
        screen: pygame.Surface,
        view: View,
        colour_of: dict[str, Colour],
        background: Colour,
        clock: float,
        width_px: float,
    ) -> None:
        """The trail blends from the die's colour into ``background`` and thins out with age, drawn
        in :data:`BANDS` age bands (one polyline each: 24 dice cost ~100 draw calls, not ~500)."""
        for die, q in self.points.items():
            if len(q) < 2:
                continue
            col = colour_of.get(die, (200, 200, 200))
            pts = list(q)
            for band in range(BANDS):
                lo, hi = band / BANDS, (band + 1) / BANDS  # age as a fraction of the trail's length
                seg = [
                    view.to_screen(x, y)
                    for t, x, y in pts
                    if lo - 1.0 / BANDS <= (clock - t) / self.length <= hi
                ]
                if len(seg) < 2:
                    continue
                fresh = 1.0 - (lo + hi) / 2
                c = tuple(int(b + (a - b) * fresh) for a, b in zip(col, background, strict=True))
                pygame.draw.lines(screen, c, False, seg, max(1, round(width_px * fresh)))
