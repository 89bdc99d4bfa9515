"""The panel as the window shows it: the session's panel plus what only the window knows (pause and
speed, the aim's numbers and refusal, preview warnings, the "what was hit" lines, the help lines),
re-rendered only when something in it changes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pygame

from jamsumo_sim.ui.gesture import FlickParams
from jamsumo_sim.ui.panel import PanelInfo, draw_panel
from jamsumo_sim.ui.placement import SETUP_HELP
from jamsumo_sim.ui.shot_story import with_stories

HELP = (
    "Drag back from your die, release to flick. Wheel: strike height.",
    "Space pause · -/+ speed · R replay shot · S save replay · T turn view · Esc cancel · "
    "P pass (only if no fair flick) · U undo · ? or F1 all controls · Q quit",
)


def help_lines(app: Any) -> tuple[str, ...]:
    """The help lines, without "U undo" where this session never allows an undo (a match that is
    not practice, a network match)."""
    if getattr(app.session, "undo_offered", lambda: True)():
        return HELP
    return tuple(line.replace(" · U undo", "") for line in HELP)


def status_text(app: Any) -> str:
    parts = ["PAUSED — Space to go on"] if app.paused else []
    sp = app.speeds[app.speed_index]
    if sp != 1.0:
        parts.append(f"speed ×{sp:g}")
    if app.replaying:
        parts.append("replaying last shot")
    return "  ".join(parts)


def aim_lines(app: Any, params: FlickParams | None) -> tuple[str, ...]:
    """The aimed flick in numbers (or the strike height waiting for it), refusal and warnings."""
    aim: tuple[str, ...] = ()
    if params is not None:
        aim = (
            f"launch {params.speed:.2f} m/s  ({params.power * 100:.0f} %)",
            f"strike height {params.height:.2f}  offset {params.offset:+.2f}",
        )
        if app.aim_problem:
            aim += (f"Not allowed: {app.aim_problem}",)
    elif app.human_to_move() is not None and app.setup_mode.seat is None:
        aim = (f"strike height {app.height:.2f} (wheel)",)  # not in a set-up: nothing is flicked
    if app.preview_on and app.previews.value is not None and params is not None:
        aim += tuple(f"Preview: {w}" for w in app.previews.value.warnings)
    return aim


def decorate(app: Any, info: PanelInfo, params: FlickParams | None) -> PanelInfo:
    """``info`` (the session's panel) with the window's own lines."""
    full = app.session.log() if app.stories else []
    extra = getattr(app.session, "panel_lines", tuple)()  # a network match: chat under the log
    return replace(
        info,
        log=with_stories(info.log, full, app.stories) + tuple(extra),
        message=app.message,
        status=status_text(app),
        aim=aim_lines(app, params),
        power=params.power if params is not None else None,
        help_lines=SETUP_HELP if app.setup_mode.seat is not None else help_lines(app),
    )


class PanelCache:
    """The rendered panel, redrawn only when what it shows changes (text is costly)."""

    def __init__(self) -> None:
        self._key: Any = None
        self._surface: pygame.Surface | None = None
        self.changed = True  # since the last present(): the whole window must be shown

    def blit(self, screen: pygame.Surface, rect: pygame.Rect, info: PanelInfo, theme: Any) -> None:
        key = (rect.size, info)
        if key != self._key or self._surface is None:
            surf = pygame.Surface(rect.size)
            draw_panel(surf, surf.get_rect(), info, theme)
            self._surface, self._key = surf, key
            self.changed = True
        screen.blit(self._surface, rect.topleft)
