"""The board and the dice on it: the cached still pictures, the dice's looks, the tray, the trails and
the board turning to the next player.  Drawing only: the App passes itself for the session and theme."""

from __future__ import annotations

from typing import Any

import pygame

from jamsumo_sim.ui.animator import Pose
from jamsumo_sim.ui.board_clip import board_clip, clipped
from jamsumo_sim.ui.draw_board import render_background, render_table
from jamsumo_sim.ui.draw_dice import DieLook, draw_dice
from jamsumo_sim.ui.palette import mark_of
from jamsumo_sim.ui.tray import tray_extent
from jamsumo_sim.ui.view import View
from jamsumo_sim.ui.zoom import zoomed_picture

TRAY_FILL = (72, 46, 26)  # the dark wooden tray dice in hand sit in
TRAY_EDGE = (120, 80, 44)


class BoardPictures:
    """The still board (per window size, side and board) and the bare table, rendered once each;
    a zoomed view is cut from the still board and scaled, never re-rendered."""

    def __init__(self) -> None:
        self._bg_key: Any = None
        self._bg: pygame.Surface | None = None
        self._zoomed_key: Any = None
        self._zoomed: pygame.Surface | None = None
        self._table_key: Any = None
        self._table: pygame.Surface | None = None

    def background(self, app: Any, view: View) -> pygame.Surface:
        size = app.screen.get_size()
        base = View(app.session.board.side, app.layout().board_rect, view.seat)
        key = (size, base.rect, view.seat, id(app.session.board))
        if key != self._bg_key or self._bg is None:
            self._bg = render_background(app.session.board, base, app.theme, size)
            self._bg_key = key
        if view.rect == base.rect:
            return self._bg
        if (key, view.rect) != self._zoomed_key or self._zoomed is None:
            area = pygame.Rect(0, 0, app.layout().panel_x, size[1])
            self._zoomed = zoomed_picture(self._bg, base, view, area)
            self._zoomed_key = (key, view.rect)
        return self._zoomed

    def table(self, app: Any, view: View) -> pygame.Surface:
        key = (app.screen.get_size(), view.rect)
        if self._table_key != key or self._table is None:
            self._table = render_table(view, app.theme, app.screen.get_size())
            self._table_key = key
        return self._table


def looks(app: Any, poses: list[Pose], seat: int | None, hover: str | None) -> list[DieLook]:
    """How each die on the board is drawn (the hovered die of the seat to move highlighted)."""
    mine = set(app.session.flickable(seat)) if seat is not None else set()
    size = app.session.params.die_size
    out = []
    for p in poses:
        name = app.session.die_colour_name(p.id)
        # a die dropping into the hole sinks (shrinks and darkens) before it fades away
        fade = max(p.fade, min(0.6, 0.6 * p.drop / size)) if p.drop > 0 else p.fade
        out.append(
            DieLook(
                p.id,
                p.x,
                p.y,
                p.angle,
                p.face,
                app.theme.dice_colour(name),
                p.flat,
                fade,
                highlight=(p.id == hover and p.id in mine),
                mark=mark_of(name),
                pitch=p.pitch,
                lift=p.z / size,
            )
        )
    return out


def held_looks(app: Any) -> list[DieLook]:
    """The die placed on a JAM zone and the die being dragged from the tray, if any."""
    out = []
    face = app.session.hand_face()
    if app.placement is not None:
        p = app.placement
        colour = app.theme.dice_colour(app.session.die_colour_name(p.die))
        out.append(DieLook(p.die, p.x, p.y, p.angle, face, colour, highlight=True))
    if app.drag_hand is not None and app.drag_pos is not None:
        colour = app.theme.dice_colour(app.session.die_colour_name(app.drag_hand))
        out.append(DieLook(app.drag_hand, *app.drag_pos, 0.0, face, colour, highlight=True))
    return out


def draw_tray(app: Any, view: View, seat: int, size: float) -> None:
    """The seat's dice in hand, in a tray at its side of the board (Jam)."""
    session = app.session
    hand = session.hand(seat)
    if not hand and app.placement is None:
        return
    side = session.view_side(seat)
    corners = [view.to_screen(x, y) for x, y in tray_extent(session.board, side, len(hand), size)]
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    rect = pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    pygame.draw.rect(app.screen, TRAY_FILL, rect, border_radius=6)
    pygame.draw.rect(app.screen, TRAY_EDGE, rect, 2, border_radius=6)
    colour_of = app.theme.dice_colour
    dice = [
        DieLook(
            s.die, s.x, s.y, 0.0, session.hand_face(), colour_of(session.die_colour_name(s.die))
        )
        for s in app.hand_slots(seat)
        if s.die != app.drag_hand
    ]
    draw_dice(app.screen, view, dice, size)


def draw_trails(app: Any, view: View) -> None:
    trails = app.fx.trails
    colours = {d: app.theme.dice_colour(app.session.die_colour_name(d)) for d in trails.points}
    width = max(2.0, view.length(app.session.params.die_size) * 0.3)
    with clipped(app.screen, board_clip(app, view)):  # a die leaving the board: its trail stops
        trails.draw(app.screen, view, colours, app.theme.colour("wood_light"), app.fx.clock, width)


def draw_turning(app: Any, view: View) -> None:
    """Mid-turn: the board (drawn in the new view) rotated back by what is left of the turn."""
    assert app.turning is not None
    start, elapsed = app.turning
    t = min(1.0, elapsed / app.turn_time) if app.turn_time > 0 else 1.0
    ease = t * t * (3 - 2 * t)
    angle = start * (1 - ease)
    cx, cy = view.centre
    half = int(view.rect[2] * 0.62)
    square = pygame.Rect(0, 0, 2 * half, 2 * half)
    square.center = (round(cx), round(cy))
    area = pygame.Rect(0, 0, app.layout().panel_x, app.screen.get_height())
    square = square.clip(area)
    picture = app.screen.subsurface(square).copy()
    # the table's vignette is centred on the board, so the turned picture's corners blend in
    app.screen.blit(app.pictures.table(app, view), area.topleft, area)
    turned = pygame.transform.rotate(picture, angle)
    app.screen.blit(turned, turned.get_rect(center=square.center))
