"""Where each window event goes: set-up mode first, then keys, the mouse (aiming) and the wheel.

The App calls :func:`route` for every pygame event; keys go through the App's ``_key`` hook (the replay
viewer overrides it) to :func:`on_key`.  Help, zoom and pan keys are handled by :func:`view_key`.
Nothing here decides a move: flicks, passes and undos are handed back to the App and its session.
"""

from __future__ import annotations

from typing import Any

import pygame

from jamsumo_sim.ui.gesture import height_after_wheel
from jamsumo_sim.ui.zoom import Zoom

PAN_STEP = 0.05  # m the arrow keys move a zoomed view
PAN_KEYS = {  # screen direction (px, y down) of each arrow key
    pygame.K_LEFT: (-1.0, 0.0),
    pygame.K_RIGHT: (1.0, 0.0),
    pygame.K_UP: (0.0, -1.0),
    pygame.K_DOWN: (0.0, 1.0),
}


def route(app: Any, e: pygame.event.Event) -> None:
    """Hand one event to whoever it belongs to."""
    chat_key = getattr(app.session, "chat_key", None)  # a network match's chat line (C)
    if chat_key is not None and e.type == pygame.KEYDOWN and chat_key(e):
        return
    if app.setup_mode.handle(app, e):
        return
    if e.type == pygame.QUIT:
        app.close()
    elif e.type == pygame.VIDEORESIZE:
        resize(app, e.w, e.h)
    elif e.type == pygame.KEYDOWN:
        app._key(e)
    elif e.type == pygame.MOUSEBUTTONDOWN:
        if e.button == 1:
            app._press(e.pos)
        elif e.button == 2:
            app._pan_from = e.pos
        elif e.button == 3:
            app.cancel()
    elif e.type == pygame.MOUSEMOTION:
        app._motion(e.pos)
    elif e.type == pygame.MOUSEBUTTONUP and e.button == 1:
        app._release(e.pos)
    elif e.type == pygame.MOUSEBUTTONUP and e.button == 2:
        app._pan_from = None
    elif e.type == pygame.MOUSEWHEEL:
        if pygame.key.get_mods() & pygame.KMOD_CTRL:
            zoom_by(app, 1 if e.y > 0 else -1)
        else:
            app.height = height_after_wheel(app.height, e.y, app.gesture)


def resize(app: Any, w: int, h: int) -> None:
    """The window was resized: never below its minimum size."""
    w = max(app.min_size[0], w)
    h = max(app.min_size[1], h)
    app.screen = pygame.display.get_surface() or app.screen
    if (w, h) != app.screen.get_size():
        app.screen = pygame.display.set_mode((w, h), pygame.RESIZABLE)


def on_key(app: Any, e: pygame.event.Event) -> None:
    """A key in play (the resume offer, then view keys, then the game's keys)."""
    k = e.key
    if app.resume_offer is not None:
        if k in (pygame.K_y, pygame.K_RETURN):
            app._accept_resume(True)
        elif k in (pygame.K_n, pygame.K_ESCAPE):
            app._accept_resume(False)
        return
    if view_key(app, e):
        return
    if k == pygame.K_SPACE:
        if app.table_shown():
            app._dismiss_table()
        else:
            app.paused = not app.paused
    elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
        app._dismiss_table()
    elif k in (pygame.K_MINUS, pygame.K_KP_MINUS):
        app.speed_index = max(0, app.speed_index - 1)
    elif k in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
        app.speed_index = min(len(app.speeds) - 1, app.speed_index + 1)
    elif k == pygame.K_m:
        app.fx.slow.enabled = not app.fx.slow.enabled
        app.message = "Slow motion at impacts " + ("on" if app.fx.slow.enabled else "off")
    elif k == pygame.K_v:  # the table's sounds (ui/sound.py)
        app.message = "Sound off (V)" if app.sound.toggle() else "Sound on (V)"
    elif k == pygame.K_t:
        app.turn_view = not app.turn_view
        app._sync_view()
    elif k == pygame.K_k:
        app.keep_height = not app.keep_height
    elif k == pygame.K_h:  # the practice heat map (ui/heat_overlay.py)
        if getattr(e, "mod", 0) & pygame.KMOD_SHIFT:
            app.heat.cycle(app)
        else:
            app.heat.toggle(app)
    else:
        action = _ACTIONS.get(k)
        if action is not None:
            getattr(app, action)()


# keys that simply call an App method
_ACTIONS = {
    pygame.K_ESCAPE: "cancel",
    pygame.K_r: "replay_last",
    pygame.K_s: "save_replay",
    pygame.K_p: "try_pass",
    pygame.K_u: "undo",
    pygame.K_q: "close",
}


def view_key(app: Any, e: pygame.event.Event) -> bool:
    """Help, zoom and pan keys (True if the key was one of them)."""
    k = e.key
    ctrl = bool(getattr(e, "mod", 0) & pygame.KMOD_CTRL)
    if k == pygame.K_F1 or k == pygame.K_QUESTION or getattr(e, "unicode", "") == "?":
        app.show_help = not app.show_help
    elif app.show_help and k == pygame.K_ESCAPE:
        app.show_help = False
    elif ctrl and k in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
        zoom_by(app, 1)
    elif ctrl and k in (pygame.K_MINUS, pygame.K_KP_MINUS):
        zoom_by(app, -1)
    elif ctrl and k == pygame.K_0:
        app.zoom = Zoom()
    elif app.zoom.level > 0 and k in PAN_KEYS:
        pan_screen(app, *PAN_KEYS[k])
    else:
        return False
    return True


def zoom_by(app: Any, steps: int) -> None:
    app.zoom = app.zoom.zoomed(steps, app.session.board.side / 2)


def pan_screen(app: Any, dx_px: float, dy_px: float) -> None:
    """Move the view by a screen-direction amount (arrow keys move PAN_STEP m)."""
    v = app.view()
    ox, oy = v.to_world(0.0, 0.0)
    wx, wy = v.to_world(dx_px, dy_px)
    scale = PAN_STEP / max(1e-9, ((wx - ox) ** 2 + (wy - oy) ** 2) ** 0.5)
    half = app.session.board.side / 2
    app.zoom = app.zoom.panned((wx - ox) * scale, (wy - oy) * scale, half)


def pan_drag(app: Any, pos: tuple[int, int]) -> None:
    """Middle-button drag of a zoomed view: the board point under the pointer follows it."""
    if app._pan_from is None or app.zoom.level == 0:
        return
    v = app.view()
    a, b = v.to_world(*app._pan_from), v.to_world(*pos)
    half = app.session.board.side / 2
    app.zoom = app.zoom.panned(a[0] - b[0], a[1] - b[1], half)
    app._pan_from = pos
