"""The side panel (mode, round, turn, players, scores, aim readout, event log) and the score tables.

The panel only displays a :class:`PanelInfo` built by the session from the match state; it decides nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import pygame

from jamsumo_sim.ui.palette import draw_mark, ink_on, mark_for_colour
from jamsumo_sim.ui.theme import Theme

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class PlayerRow:
    seat: int
    name: str
    colour: Colour
    in_hand: int
    on_board: int
    score: str
    to_move: bool = False
    kind: str = "human"


@dataclass(frozen=True)
class Table:
    """A score table shown over the board (end of a round, end of the match)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    footer: str = ""


@dataclass(frozen=True)
class PanelInfo:
    title: str
    round_text: str = ""
    turn_text: str = ""
    turn_colour: Colour | None = None
    players: tuple[PlayerRow, ...] = ()
    log: tuple[str, ...] = ()
    message: str = ""  # e.g. why a flick was refused
    status: str = ""  # time control: paused / speed
    aim: tuple[str, ...] = ()  # power, launch speed, height, offset while aiming
    power: float | None = None  # 0..1 for the power meter
    table: Table | None = None
    help_lines: tuple[str, ...] = field(default=())
    score_head: str = "score"  # what the score column holds: penalties, points or score


@functools.cache
def font(size: int) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(8, size))


def _wrap(text: str, f: pygame.font.Font, width: int) -> list[str]:
    words = text.split()
    lines: list[str] = []
    line = ""
    for w in words:
        trial = f"{line} {w}".strip()
        if f.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = w
    if line:
        lines.append(line)
    return lines or [""]


def _meter_colour(p: float, theme: Theme) -> Colour:
    """Green → yellow → red as the power grows."""
    lo, mid, hi = theme.colour("meter_low"), theme.colour("meter_mid"), theme.colour("meter_high")
    a, b, t = (lo, mid, p * 2) if p < 0.5 else (mid, hi, p * 2 - 1)
    return tuple(int(u + (v - u) * t) for u, v in zip(a, b, strict=True))  # type: ignore[return-value]


def _tint(c: Colour) -> Colour:
    """A player colour lightened to read well on the dark panel."""
    return tuple(int(v + (255 - v) * 0.45) for v in c)  # type: ignore[return-value]


def draw_panel(surface: pygame.Surface, rect: pygame.Rect, info: PanelInfo, theme: Theme) -> None:
    """Draw the side panel into ``rect``."""
    pygame.draw.rect(surface, theme.colour("panel"), rect)
    pygame.draw.line(surface, theme.colour("panel_line"), rect.topleft, rect.bottomleft, 2)
    unit = max(17, rect.h // 33)
    pad = unit
    x = rect.x + pad
    width = rect.w - 2 * pad
    y = rect.y + pad
    text_c = theme.colour("text")
    dim = theme.colour("text_dim")

    def line(text: str, size: float = 1.0, colour: Colour = text_c, indent: int = 0) -> None:
        nonlocal y
        f = font(int(unit * size))
        for part in _wrap(text, f, width - indent):
            surface.blit(f.render(part, True, colour), (x + indent, y))
            y += f.get_linesize()

    line(info.title, 1.6)
    if info.round_text:
        line(info.round_text, 1.05, dim)
    if info.turn_text:
        line(info.turn_text, 1.15, _tint(info.turn_colour) if info.turn_colour else text_c)
    y += unit // 2
    # players: swatch, name, in hand / on board, score
    f = font(unit)
    hf = font(int(unit * 0.85))
    # right edges of the number columns: the score column as wide as its head ("penalties") and
    # its widest entry ("22 (+26)"), so a score never runs into the board count; hand and board
    # as wide as their heads, so the name and the seat's kind keep the rest
    widest = max((f.size(row.score)[0] for row in info.players), default=0)
    score_w = max(hf.size(info.score_head)[0], widest) + unit // 2
    num_w = max(hf.size("board")[0], hf.size("hand")[0]) + unit
    rights = (x + width - score_w - num_w, x + width - score_w, x + width)
    if info.players:
        surface.blit(hf.render("player", True, dim), (x, y))
        for right, head in zip(rights, ("hand", "board", info.score_head), strict=True):
            img = hf.render(head, True, dim)
            surface.blit(img, (right - img.get_width(), y))
        y += f.get_linesize()
    for row in info.players:
        sw = pygame.Rect(x, y + 2, unit - 4, unit - 4)
        pygame.draw.rect(surface, row.colour, sw, border_radius=3)
        mark = mark_for_colour(theme, row.colour)  # the player's pip shape: a cue beside colour
        if mark is not None:
            draw_mark(surface, mark, sw.center, sw.width * 0.3, ink_on(row.colour))
        if row.to_move:
            pygame.draw.rect(
                surface, theme.colour("highlight"), sw.inflate(4, 4), 2, border_radius=4
            )
        # the name, then the seat's kind small and dim if it fits before the first number column
        # (whose head, "hand", or number is right-aligned at its right edge)
        hand_w = max(hf.size("hand")[0], f.size(str(row.in_hand))[0])
        room = rights[0] - hand_w - unit // 3 - (x + unit + 2)
        img = f.render(row.name, True, text_c)
        surface.blit(img, (x + unit + 2, y))
        if row.kind != "human":
            kf = font(int(unit * 0.75))
            # a long kind ("planner:hard") shortens before it is dropped: the level must stay seen
            tries = (row.kind, row.kind.replace("planner", "plan"), row.kind.split(":")[-1])
            fits = [k for k in tries if img.get_width() + 6 + kf.size(k)[0] <= room]
            tag = kf.render(fits[0] if fits else tries[-1], True, dim)
            if fits:
                surface.blit(
                    tag,
                    (
                        x + unit + 8 + img.get_width(),
                        y + (f.get_height() - kf.get_height()) // 2 + 1,
                    ),
                )
        cols = (str(row.in_hand), str(row.on_board), row.score)
        for right, c in zip(rights, cols, strict=True):
            img = f.render(c, True, text_c)
            surface.blit(img, (right - img.get_width(), y))
        y += f.get_linesize() + 2
    y += unit // 2
    if info.aim:
        for t in info.aim:
            bad = t.startswith("Not allowed")
            line(t, 0.95, theme.colour("warning" if bad else "highlight"))
        if info.power is not None:
            bar = pygame.Rect(x, y + 2, width, max(6, unit // 2))
            pygame.draw.rect(surface, theme.colour("panel_line"), bar, border_radius=3)
            fill = bar.copy()
            fill.w = int(bar.w * max(0.0, min(1.0, info.power)))
            p = max(0.0, min(1.0, info.power))
            col = _meter_colour(p, theme)
            pygame.draw.rect(surface, col, fill, border_radius=3)
            y += bar.h + unit // 2
    if info.message:
        warn = info.message.startswith(("Not allowed", "Cannot", "Autosave failed", "Bot failed"))
        line(info.message, 1.0, theme.colour("warning") if warn else theme.colour("highlight"))
    if info.status:
        line(info.status, 0.95, dim)
    y += unit // 3
    # the log fills the rest, newest at the bottom; help at the very bottom
    help_f = font(int(unit * 0.8))
    help_lines = [part for h in info.help_lines for part in _wrap(h, help_f, width)]
    help_h = len(help_lines) * help_f.get_linesize()
    log_bottom = rect.bottom - pad - help_h - (unit // 2 if help_h else 0)
    pygame.draw.line(surface, theme.colour("panel_line"), (x, y), (x + width, y), 1)
    y += 4
    lf = font(int(unit * 0.9))
    # each line tinted with the colour of the player it starts with ("Blue's die dropped …")
    tints = {row.name: _tint(row.colour) for row in info.players}
    room = max(0, (log_bottom - y) // lf.get_linesize())
    # whole entries only, newest first until the room is full: the log never opens mid-message
    lines: list[tuple[str, Colour]] = []
    for entry in reversed(info.log):
        first = entry.split(" ", 1)[0].split("'", 1)[0]
        colour = tints.get(first, text_c)
        parts = _wrap(entry, lf, width)
        if len(lines) + len(parts) > room:
            break
        lines[:0] = [(part, colour) for part in parts]
    for text, colour in lines:
        surface.blit(lf.render(text, True, colour), (x, y))
        y += lf.get_linesize()
    hy = rect.bottom - pad - help_h
    for text in help_lines:
        surface.blit(help_f.render(text, True, dim), (x, hy))
        hy += help_f.get_linesize()


def draw_table(surface: pygame.Surface, area: pygame.Rect, table: Table, theme: Theme) -> None:
    """A score table centred over ``area`` on a translucent card."""
    unit = max(16, area.h // 30)
    f = font(unit)
    tf = font(int(unit * 1.5))
    cols = len(table.header)
    col_w = [
        max([f.size(table.header[i])[0]] + [f.size(r[i])[0] for r in table.rows if i < len(r)])
        + unit
        for i in range(cols)
    ]
    w = max(sum(col_w), tf.size(table.title)[0], f.size(table.footer)[0]) + 2 * unit
    h = tf.get_linesize() + (len(table.rows) + 1) * f.get_linesize() + 3 * unit
    if table.footer:
        h += f.get_linesize()
    card = pygame.Rect(0, 0, w, h)
    card.center = area.center
    layer = pygame.Surface(card.size, pygame.SRCALPHA)
    layer.fill((*theme.colour("panel"), 232))
    surface.blit(layer, card.topleft)
    pygame.draw.rect(surface, theme.colour("highlight"), card, 2, border_radius=6)
    y = card.y + unit // 2
    img = tf.render(table.title, True, theme.colour("text"))
    surface.blit(img, (card.centerx - img.get_width() // 2, y))
    y += tf.get_linesize() + unit // 2
    for r, row in enumerate((table.header, *table.rows)):
        xx = card.x + unit
        colour = theme.colour("text_dim") if r == 0 else theme.colour("text")
        for i in range(cols):
            cell = row[i] if i < len(row) else ""
            surface.blit(f.render(cell, True, colour), (xx, y))
            xx += col_w[i]
        y += f.get_linesize()
    if table.footer:
        y += unit // 2
        img = f.render(table.footer, True, theme.colour("highlight"))
        surface.blit(img, (card.centerx - img.get_width() // 2, y))
