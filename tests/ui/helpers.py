"""Driving the window with real pygame events."""

from __future__ import annotations

import math

import pygame

DT = 1 / 60


def post_drag(app, start_px, end_px, steps: int = 4) -> None:
    """Press at ``start_px``, move in steps to ``end_px``, release there (events queued, then one frame)."""
    sx, sy = start_px
    ex, ey = end_px
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(sx, sy), button=1))
    app.frame(DT)
    for k in range(1, steps + 1):
        px = round(sx + (ex - sx) * k / steps)
        py = round(sy + (ey - sy) * k / steps)
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=(px, py), rel=(0, 0), buttons=(1, 0, 0))
        )
        app.frame(DT)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(ex, ey), button=1))
    app.frame(DT)


def key(app, k: int) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode=""))
    app.frame(DT)


def px(point) -> tuple[int, int]:
    return (round(point[0]), round(point[1]))


def run_until_idle(app, limit: int = 3000) -> int:
    """Frames until no shot is animating and the board has finished turning."""
    n = 0
    while (app.busy or app.turning is not None) and n < limit:
        app.frame(DT)
        n += 1
    return n


def aim_towards_hole(session, seat):
    """A die of ``seat`` and a push direction towards the hole that the rules accept."""
    from jamsumo_sim.ui.gesture import FlickParams

    m = session.params.die_mass
    for st in session.world().states():
        if st.id not in session.flickable(seat):
            continue
        d = math.atan2(-st.y, -st.x)
        fp = FlickParams(st.id, d, 1.5 * m, 0.0, 0.5, 1.5, 0.3, d + math.pi)
        if session.why_illegal(seat, session.make_action(seat, fp, None)) is None:
            return st, d
    raise AssertionError("no legal flick towards the hole")


def fast(app) -> None:
    """Fastest playback (the + key pressed to the top)."""
    for _ in range(len(app.speeds)):
        key(app, pygame.K_PLUS)
