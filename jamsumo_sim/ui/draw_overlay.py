"""What is drawn over the board: the aim of a flick being made and the resume offer."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

from jamsumo_sim.ui.gesture import DieSpot, FlickParams
from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.text_tag import blit_on_tag, tag_of, words_in
from jamsumo_sim.ui.theme import Theme
from jamsumo_sim.ui.view import View


def draw_aim(
    screen: pygame.Surface,
    view: View,
    theme: Theme,
    die: DieSpot,
    press: tuple[float, float],
    current: tuple[float, float],
    params: FlickParams | None,
    slide_decel: float,
    board_half: float,
    refused: bool = False,
    slide_hint: bool = True,
    heading: float | None = None,
    avoid: Sequence[pygame.Rect] = (),
) -> pygame.Rect | None:
    """The pull, the struck face, the finger, the launch arrow and the free-slide hint of a flick.

    ``slide_decel`` (m/s²) = mu g gives the hint's reach v²/(2 mu g) on a flat board: a hint only (the
    dish, the hole and other dice are ignored; the physics decides).  ``refused``: the rules would say no.
    ``heading``: where the die will leave (the launch law: a push off the face's normal heads the die
    between the normal and the push, beyond the finger's friction cone it slips, and off-centre the
    pad's grip sends the die aside); the arrow follows it, the finger's own push is a thin line.
    ``avoid``: words already drawn (the preview's warnings) the speed label keeps clear of.  Returns
    the place of the label's tag (None before a flick is aimed).
    """
    c = view.to_screen(die.x, die.y)
    # the pull: a thin line from the press point to the pointer
    pygame.draw.line(
        screen, theme.colour("text_dim"), view.to_screen(*press), view.to_screen(*current), 1
    )
    if params is None:
        return None
    half = die.size / 2
    size_px = view.length(die.size)
    n = params.face_normal
    nx, ny = math.cos(n), math.sin(n)
    tx, ty = -ny, nx
    # the struck face, drawn just outside the die so it reads against the highlight
    out = half * 1.3
    a = view.to_screen(die.x + out * nx + half * tx, die.y + out * ny + half * ty)
    b = view.to_screen(die.x + out * nx - half * tx, die.y + out * ny - half * ty)
    pygame.draw.line(screen, theme.colour("aim_face"), a, b, max(3, int(size_px * 0.18)))
    # the finger: where it meets the struck face (offset along the face, left of the push)
    lx, ly = math.cos(params.direction + math.pi / 2), math.sin(params.direction + math.pi / 2)
    fx = die.x + half * nx + params.offset * die.size * lx
    fy = die.y + half * ny + params.offset * die.size * ly
    pygame.draw.circle(
        screen, theme.colour("aim"), view.to_screen(fx, fy), max(3, int(size_px * 0.22)), 2
    )
    col = theme.colour("warning" if refused else "aim")
    tip_len = die.size * (1.2 + 2.5 * params.power)
    leaves = params.direction if heading is None else heading
    aside = abs(math.remainder(leaves - params.direction, 2 * math.pi)) > math.radians(0.5)
    if aside:  # the finger's push, where the die does not go
        px_, py_ = math.cos(params.direction), math.sin(params.direction)
        far = half + tip_len * 0.8
        pygame.draw.line(
            screen,
            theme.colour("text_dim"),
            view.to_screen(die.x + px_ * half, die.y + py_ * half),
            view.to_screen(die.x + px_ * far, die.y + py_ * far),
            1,
        )
    # the launch: an arrow growing with the power, along where the die will actually go
    dx, dy = math.cos(leaves), math.sin(leaves)
    tip = view.to_screen(die.x + dx * (half + tip_len), die.y + dy * (half + tip_len))
    start = view.to_screen(die.x + dx * half, die.y + dy * half)
    pygame.draw.line(screen, col, start, tip, 3)
    ang = math.atan2(tip[1] - start[1], tip[0] - start[0])
    for side in (-1, 1):
        wing = ang + math.pi + side * 0.45
        end = (tip[0] + 10 * math.cos(wing), tip[1] + 10 * math.sin(wing))
        pygame.draw.line(screen, col, tip, end, 3)
    # dots over the free-slide distance, ending at the rim (not when the collision preview shows
    # the real path)
    reach = params.speed**2 / (2 * slide_decel) if slide_decel > 0 and slide_hint else 0.0
    steps = max(1, int(reach / (die.size * 0.9)))
    for i in range(1, min(steps, 60) + 1 if reach > 0 else 1):
        d = half + reach * i / steps
        qx, qy = die.x + dx * d, die.y + dy * d
        if abs(qx) > board_half or abs(qy) > board_half:
            break
        pygame.draw.circle(screen, col, view.to_screen(qx, qy), 2)
    text = f"{params.speed:.2f} m/s"
    if aside:
        turn = math.degrees(math.remainder(leaves - params.direction, 2 * math.pi))
        text += f"  off the push: {turn:+.0f}°"
    label = font(18).render(text, True, col)
    # behind the die, away from the arrow (the launch and the dots stay readable)
    ux, uy = tip[0] - start[0], tip[1] - start[1]
    norm = math.hypot(ux, uy) or 1.0
    gap = size_px * 0.9 + 16 + label.get_width() / 2 * abs(ux / norm)
    ax, ay = c[0] - ux / norm * gap, c[1] - uy / norm * (size_px * 0.9 + 14)
    rect = label.get_rect(center=(round(ax), round(ay)))
    # kept over the board: beside it, at a corner die, it ran over the strike-height gauge
    corners = [view.to_screen(sx * board_half, sy * board_half) for sx in (-1, 1) for sy in (-1, 1)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    board = pygame.Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    area = board.clip(screen.get_rect()) or screen.get_rect()
    # on a dark tag: moved clear of the preview's words it still lies on dice, dots or the arrow
    tag = _clear_of(tag_of(rect).clamp(area), avoid, area)
    return blit_on_tag(screen, label, words_in(tag), theme.colour("tag"))


def _clear_of(rect: pygame.Rect, avoid: Sequence[pygame.Rect], area: pygame.Rect) -> pygame.Rect:
    """``rect`` moved just above the words it would cover, or just below them if above leaves
    ``area``; as it is if it covers none."""
    hit = [r for r in avoid if rect.colliderect(r)]
    if not hit:
        return rect
    block = hit[0].unionall(hit[1:])
    above = rect.copy()
    above.bottom = block.top - 2
    if above.top >= area.top:
        return above
    below = rect.copy()
    below.top = block.bottom + 2
    return below.clamp(area)


def draw_offer(screen: pygame.Surface, area: pygame.Rect, theme: Theme, text: str) -> None:
    """The card offering to resume an autosaved match."""
    f = font(26)
    lines = ["A saved match is waiting:", text, "Resume it?  Y = yes   N = start a new match"]
    w = max(f.size(t)[0] for t in lines) + 40
    h = len(lines) * f.get_linesize() + 30
    card = pygame.Rect(0, 0, w, h)
    card.center = area.center
    pygame.draw.rect(screen, theme.colour("panel"), card, border_radius=8)
    pygame.draw.rect(screen, theme.colour("highlight"), card, 2, border_radius=8)
    y = card.y + 15
    for t in lines:
        img = f.render(t, True, theme.colour("text"))
        screen.blit(img, (card.centerx - img.get_width() // 2, y))
        y += f.get_linesize()
