"""The aim hint's spread: where the flick being aimed may stop at the match's noise level.

One answer to "where will it stop": the collision preview steps the flick as aimed through the
physics; with execution noise (``--table``) this module steps ``count`` executions of it drawn at
the match's level through the same physics (``MatchState.preview`` with the drawn error: the dish,
the hole, the other dice and tumbling included, and the rules' own reduction of a strayed flick),
and draws where each came to rest.  The draws come from a fixed seed, so the cloud moves smoothly
with the aim (the same errors for every aim) and a still aim shows a still cloud.  Nothing is drawn
at an exact level.  Computing it costs ``count`` simulated shots, so :class:`SpreadCache` recomputes
only when the aim has changed and at most every ``interval`` seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pygame

from jamsumo_sim import noise
from jamsumo_sim.ui.view import View

SAMPLES = 12  # executions stepped per aim (about 86 % of shots stop inside their hull at 2 σ)
SEED = 35  # the draws' seed: fixed, so the cloud follows the aim and nothing else


@dataclass(frozen=True)
class RestPoint:
    """Where one drawn execution left the flicked die: x, y (m) and its status."""

    x: float
    y: float
    status: str  # "on_board", "in_hole" or "off_board"


def session_level(session: Any) -> noise.NoiseLevel | None:
    """The session's execution-noise level, or None where there is none (sandbox, exact play)."""
    state = getattr(session, "state", None)
    level = getattr(state, "noise", None)
    if not isinstance(level, noise.NoiseLevel) or level.exact:
        return None
    return level


def sample_rests(
    session: Any, action: Any, die: str, count: int = SAMPLES, seed: int = SEED
) -> list[RestPoint]:
    """Rest points of ``count`` executions of ``action`` drawn at the session's level (none at an
    exact level): each is the match's own preview with that error, stepped to rest."""
    level = session_level(session)
    if level is None:
        return []
    state = session.state
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        execution = noise.as_action(noise.draw(level, rng))
        world = state.preview(action, execution)
        world.run_until_rest(state.shot_time)
        st = world.state(die)
        out.append(RestPoint(float(st.x), float(st.y), str(st.status)))
    return out


class SpreadCache:
    """The latest cloud, recomputed when the aim changed and ``interval`` s have passed since."""

    def __init__(self, interval: float = 0.25) -> None:
        self.interval = interval
        self.key: Any = None
        self.value: list[RestPoint] = []
        self.age = math.inf

    def tick(self, dt: float) -> None:
        self.age += dt

    def get(self, key: Any, compute: Any) -> list[RestPoint]:
        if key != self.key and self.age >= self.interval:
            self.key, self.value, self.age = key, compute(), 0.0
        return self.value if key == self.key else []

    def clear(self) -> None:
        self.key, self.value, self.age = None, [], math.inf


def draw(
    screen: pygame.Surface, view: View, theme: Any, points: list[RestPoint], die_size: float
) -> None:
    """Each sampled rest point (a ring; a cross where the die left the board or dropped), and the
    outline of those on the board."""
    colour = theme.colour("aim")
    r = max(3, round(view.length(die_size) * 0.25))
    on = []
    for p in points:
        c = [round(v) for v in view.to_screen(p.x, p.y)]
        if p.status == "on_board":
            pygame.draw.circle(screen, colour, c, r, 1)
            on.append(c)
        else:  # in the hole or off the board: a cross where it was last seen
            pygame.draw.line(screen, colour, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), 1)
            pygame.draw.line(screen, colour, (c[0] - r, c[1] + r), (c[0] + r, c[1] - r), 1)
    hull = _hull(on)
    if len(hull) >= 3:
        pygame.draw.polygon(screen, colour, hull, 1)


def _hull(points: list[list[int]]) -> list[tuple[int, int]]:
    """Convex hull (monotone chain) of screen points."""
    pts = sorted({(p[0], p[1]) for p in points})
    if len(pts) < 3:
        return pts

    def cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[int, int]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[int, int]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]
