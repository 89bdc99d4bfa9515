"""The wooden board, drawn from its BoardSpec: grain, dish, hole, JAM platforms, SUMO corners, legs.

Everything static is rendered once per window size and view seat into a background surface (numpy for
the per-pixel wood and shading, pygame for shapes and lettering).  The grain is generated from a fixed
seed in *board* coordinates, so the same board looks the same from every seat and every window size.
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from jamsumo_sim.physics.board import BoardSpec, from_seat
from jamsumo_sim.ui.theme import Theme
from jamsumo_sim.ui.view import View

GRAIN_SEED = 20140101  # fixed: the board's wood never changes between runs
# light comes from the upper left of the screen (x right, y up), slightly from above
_LIGHT = np.array([-0.6, 0.8])


def _smooth(t: np.ndarray) -> np.ndarray:
    return t * t * (3 - 2 * t)


class _Noise:
    """Value noise on a fixed random lattice, evaluated anywhere with smooth bilinear interpolation."""

    def __init__(self, seed: int, size: int = 64) -> None:
        self.size = size
        self.lattice = np.random.default_rng(seed).random((size + 1, size + 1))

    def __call__(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        n = self.size
        u = np.mod(u, n)
        v = np.mod(v, n)
        i = np.floor(u).astype(np.int64)
        j = np.floor(v).astype(np.int64)
        fu = _smooth(u - i)
        fv = _smooth(v - j)
        i1 = (i + 1) % n
        j1 = (j + 1) % n
        lat = self.lattice
        a = lat[i, j] * (1 - fu) + lat[i1, j] * fu
        b = lat[i, j1] * (1 - fu) + lat[i1, j1] * fu
        return a * (1 - fv) + b * fv


def _lerp(c0, c1, t: np.ndarray) -> np.ndarray:
    c0 = np.asarray(c0, dtype=np.float32)
    c1 = np.asarray(c1, dtype=np.float32)
    return c0 + (c1 - c0) * t[..., None]


_WOOD_CACHE: dict[tuple, np.ndarray] = {}
_WOOD_CACHE_SIZE = 8
WOOD_BAND_ROWS = 128  # rows of the board texture computed at once (memory ~ 0.2 kB x width a row)


def wood_pixels(board: BoardSpec, view: View, theme: Theme) -> np.ndarray:
    """RGB array (w, h, 3) of the board's top surface as seen in ``view`` (grain, dish, hole).

    Cached per board, size and seat: turning the view back and forth or reopening a window is free.
    """
    try:
        key: tuple | None = (board, view.rect[2], view.seat % 4, id(theme))
        hit = _WOOD_CACHE.get(key)
    except TypeError:  # an unhashable board (never with load_board's frozen values)
        key, hit = None, None
    if hit is not None:
        return hit
    out = _wood_pixels(board, view, theme)
    if key is not None:
        if len(_WOOD_CACHE) >= _WOOD_CACHE_SIZE:
            _WOOD_CACHE.pop(next(iter(_WOOD_CACHE)))
        _WOOD_CACHE[key] = out
    return out


def _wood_pixels(board: BoardSpec, view: View, theme: Theme) -> np.ndarray:
    side_px = view.rect[2]
    # pixel centres in the seat frame (y up); rows go down the screen
    coords = (np.arange(side_px, dtype=np.float64) + 0.5) / view.scale - board.side / 2
    out = np.empty((side_px, side_px, 3), np.uint8)
    # every pixel is computed on its own: a band of rows at a time keeps the two dozen float
    # arrays of the texture small (a whole 4K board at once held over 1 GB)
    for top in range(0, side_px, WOOD_BAND_ROWS):
        rows = slice(top, top + WOOD_BAND_ROWS)
        out[rows] = _wood_band(board, view, theme, coords, -coords[rows])
    return out.transpose(1, 0, 2)


def _wood_band(
    board: BoardSpec, view: View, theme: Theme, xcoords: np.ndarray, ycoords: np.ndarray
) -> np.ndarray:
    """RGB rows (rows, columns, 3) of the board's top at seat-frame ``ycoords`` x ``xcoords``."""
    s = view.scale
    xs, ys = np.meshgrid(xcoords, ycoords, indexing="xy")
    xw, yw = from_seat(view.seat % 4, xs, ys)
    # --- grain: long wavy bands along the board's x axis, with fine fibres
    big = _Noise(GRAIN_SEED)
    fine = _Noise(GRAIN_SEED + 1, 128)
    k = 1.0 / board.side  # work in board widths
    u, v = xw * k, yw * k
    warp = 0.9 * big(u * 3.0 + 7.3, v * 9.0 + 1.1) + 0.25 * big(u * 9.0, v * 25.0)
    rings = v * 14.0 + warp * 2.2 + 0.15 * np.sin(u * 5.0)
    band = np.abs(np.mod(rings, 1.0) - 0.5) * 2.0  # triangle wave 0..1
    late = np.clip((band - 0.62) / 0.38, 0, 1) ** 1.6  # sharp dark latewood lines
    fibre = fine(u * 40.0, v * 900.0)
    tone = 0.55 * big(u * 2.0 + 3.0, v * 4.0 + 5.0) + 0.25 * fibre
    rgb = _lerp(theme.colour("wood_light"), theme.colour("wood_dark"), np.clip(tone, 0, 1))
    rgb = rgb * (1 - late[..., None] * 0.35) + np.asarray(theme.colour("wood_grain")) * (
        late[..., None] * 0.35
    )
    # --- the dish: a shallow bowl towards the hole, shaded by its slope (exaggerated: 3 mm is subtle)
    r = np.hypot(xw, yw)
    big_r = max(board.dish_radius, 1e-9)
    inside = r < big_r
    # paraboloid bowl (surface.py): depth ~ (R^2 - r^2), slope ~ r (steepest at the bowl's rim)
    depth = np.where(inside, 1 - np.clip(r / big_r, 0, 1) ** 2, 0.0)
    slope = np.where(inside, r / big_r, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ux = np.where(r > 0, xs / np.maximum(r, 1e-12), 0.0)
        uy = np.where(r > 0, ys / np.maximum(r, 1e-12), 0.0)
    # surface normal leans towards the centre: the side nearer the light is in shade
    facing = -(ux * _LIGHT[0] + uy * _LIGHT[1]) * slope
    rim_soft = np.clip((big_r - r) / (0.08 * big_r), 0, 1)
    shade = 1.0 + 0.12 * facing * rim_soft - 0.14 * depth
    rgb = rgb * shade[..., None]
    # --- the hole: a crisp rim (a die at the rim visibly overhangs it), a wall lit on the far side
    hr = board.hole_radius
    if hr > 0:
        px_m = 1.0 / s  # one pixel, m
        wall = max(0.22 * hr, 3 * px_m)  # apparent width of the visible wall
        # the far wall (away from the light) catches light: shift the dark pit towards the light
        px = xs + _LIGHT[0] * wall * 0.6
        py = ys + _LIGHT[1] * wall * 0.6
        rp = np.hypot(px, py)
        cover = np.clip((hr - r) / px_m + 0.5, 0, 1)  # the hole's edge, antialiased over a pixel
        pit = np.clip((hr - wall - rp) / (0.3 * hr), 0, 1)  # 0 at the wall, 1 deep down
        wall_t = np.clip((hr - r) / wall, 0, 1)
        lit = np.clip(ux * _LIGHT[0] + uy * _LIGHT[1], 0, 1)  # the wall facing the light
        rim_c = np.asarray(theme.colour("hole_rim"), dtype=np.float32)
        hole_c = np.asarray(theme.colour("hole"), dtype=np.float32)
        wall_rgb = rim_c * ((0.55 + 0.45 * lit) * (1 - 0.6 * wall_t))[..., None]
        hole_rgb = wall_rgb * (1 - pit[..., None]) + hole_c * pit[..., None]
        rgb = rgb * (1 - cover[..., None]) + hole_rgb * cover[..., None]
        # the rim itself: a thin worn edge catching the light, then a narrow shadowed lip
        band = max(1.5 * px_m, 0.07 * hr)
        out = r - hr
        edge = np.clip(1 - np.abs(out - 0.5 * band) / band, 0, 1) * (out >= 0)
        rgb = rgb + (255 - rgb) * (0.35 * edge * (0.4 + 0.6 * (1 - lit)))[..., None]
        lip = np.clip(1 - np.abs(out - 2.0 * band) / band, 0, 1) * (out >= 0)
        rgb = rgb * (1 - 0.25 * lip[..., None])
    return np.clip(rgb, 0, 255).astype(np.uint8)


def _text(font: pygame.font.Font, text: str, colour, up: tuple[float, float]) -> pygame.Surface:
    """Rendered text turned so that its top points along screen vector ``up``."""
    surf = font.render(text, True, colour)
    angle = math.degrees(math.atan2(-up[0], -up[1]))
    return pygame.transform.rotate(surf, angle)


def _seat_rect(view: View, x0: float, y0: float, x1: float, y1: float) -> pygame.Rect:
    """Screen rectangle of a board-axis-aligned rectangle (quarter turns keep it axis-aligned)."""
    pts = [view.to_screen(x, y) for x, y in ((x0, y0), (x1, y1))]
    left = min(p[0] for p in pts)
    top = min(p[1] for p in pts)
    right = max(p[0] for p in pts)
    bottom = max(p[1] for p in pts)
    return pygame.Rect(round(left), round(top), round(right - left), round(bottom - top))


def _engrave_rect(surf: pygame.Surface, rect: pygame.Rect, dark, radius: int, width: int) -> None:
    light = tuple(min(255, c + 70) for c in dark)
    pygame.draw.rect(surf, light, rect.move(1, 1), width, border_radius=radius)
    pygame.draw.rect(surf, dark, rect, width, border_radius=radius)


def _font(px: float) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(8, int(px)))


def render_background(
    board: BoardSpec, view: View, theme: Theme, size: tuple[int, int]
) -> pygame.Surface:
    """The table with the board on it (everything that does not move), for a window of ``size``."""
    bg = render_table(view, theme, size)
    _draw_board_on(bg, board, view, theme)
    return bg


def render_table(view: View, theme: Theme, size: tuple[int, int]) -> pygame.Surface:
    """The table under the board: dark, with a vignette centred on the board (so it is unchanged
    by turning the board about its centre)."""
    w, h = size
    bg = pygame.Surface(size)
    sw, sh = max(2, w // 8), max(2, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw]
    cx, cy = view.centre
    d = np.hypot((xx + 0.5) * 8 - cx, (yy + 0.5) * 8 - cy) / max(w, h)
    t = np.clip(d * 1.4, 0, 1)[..., None]
    table = (
        np.asarray(theme.colour("table"), np.float32) * (1 - t)
        + np.asarray(theme.colour("table_vignette"), np.float32) * t
    )
    small = pygame.surfarray.make_surface(table.astype(np.uint8).transpose(1, 0, 2))
    bg.blit(pygame.transform.smoothscale(small, size), (0, 0))
    return bg


def _draw_board_on(bg: pygame.Surface, board: BoardSpec, view: View, theme: Theme) -> None:
    size = bg.get_size()

    x, y, side, _ = view.rect
    s = view.scale
    # soft drop shadow of the board on the table (offset away from the light)
    shadow = pygame.Surface(size, pygame.SRCALPHA)
    off = max(3, int(0.012 * side))
    for i in range(6, 0, -1):
        grow = int(i * 0.006 * side)
        pygame.draw.rect(
            shadow,
            (0, 0, 0, 22),
            pygame.Rect(x + off - grow, y + off - grow, side + 2 * grow, side + 2 * grow),
            border_radius=int(0.02 * side) + grow,
        )
    bg.blit(shadow, (0, 0))
    # the tripod's feet peek out under the rim
    half = board.side / 2
    for leg in board.legs:
        m = max(abs(leg.x), abs(leg.y), 1e-9)
        fx, fy = leg.x / m * (half - 0.002), leg.y / m * (half - 0.002)
        px, py = view.to_screen(fx, fy)
        rad = max(4, int(0.012 * s))
        pygame.draw.circle(bg, theme.colour("leg"), (round(px + off / 2), round(py + off / 2)), rad)
        pygame.draw.circle(
            bg, tuple(min(255, c + 40) for c in theme.colour("leg")), (round(px), round(py)), rad, 2
        )

    # the board's top
    top = pygame.surfarray.make_surface(wood_pixels(board, view, theme))
    # rounded corners of the carved board
    mask = pygame.Surface((side, side), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=int(0.02 * side))
    top = top.convert_alpha() if pygame.display.get_init() and pygame.display.get_surface() else top
    board_surf = pygame.Surface((side, side), pygame.SRCALPHA)
    board_surf.blit(top, (0, 0))
    board_surf.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    bg.blit(board_surf, (x, y))
    _draw_features(bg, board, view, theme)
    # bevelled rim: light on the lit edges, dark on the others
    rim = max(2, int(0.008 * side))
    radius = int(0.02 * side)
    outer = pygame.Rect(x, y, side, side)
    pygame.draw.rect(bg, theme.colour("wood_edge"), outer, rim, border_radius=radius)
    hi = tuple(min(255, c + 60) for c in theme.colour("wood_light"))
    pygame.draw.line(bg, hi, (x + radius, y + 1), (x + side - radius, y + 1), max(1, rim // 2))
    pygame.draw.line(bg, hi, (x + 1, y + radius), (x + 1, y + side - radius), max(1, rim // 2))


def _draw_features(bg: pygame.Surface, board: BoardSpec, view: View, theme: Theme) -> None:
    s = view.scale
    cx, cy = view.centre
    # SUMO corners: engraved outlines and lettering facing the centre
    for area in board.sumo_areas:
        rect = _seat_rect(
            view,
            area.x - area.width / 2,
            area.y - area.depth / 2,
            area.x + area.width / 2,
            area.y + area.depth / 2,
        )
        # the groove lies just outside the rules' area (pygame draws a border inside its rect) with
        # square inner corners: a die the rules accept, even flush in a corner, never covers it
        line = 2
        _engrave_rect(bg, rect.inflate(2 * line, 2 * line), theme.colour("sumo_line"), line, line)
        ax, ay = view.to_screen(area.x, area.y)
        up = (cx - ax, cy - ay)
        label = _text(_font(0.016 * s), "SUMO", theme.colour("sumo_text"), up)
        # sit the word at the inner corner of the area, towards the hole
        n = math.hypot(*up) or 1.0
        d = 0.5 * max(rect.w, rect.h) * 1.55
        pos = (ax + up[0] / n * d, ay + up[1] / n * d)
        bg.blit(label, label.get_rect(center=(round(pos[0]), round(pos[1]))))
    # JAM platforms: raised blocks with a cast shadow, bevels and carved letters
    for p in board.platforms:
        rect = _seat_rect(
            view, p.x - p.width / 2, p.y - p.depth / 2, p.x + p.width / 2, p.y + p.depth / 2
        )
        lift = max(2, int(p.height * s * 1.6))  # exaggerated: 3 mm would be ~2 px
        shadow = pygame.Surface((rect.w + 3 * lift, rect.h + 3 * lift), pygame.SRCALPHA)
        for i in range(3):
            pygame.draw.rect(
                shadow,
                (0, 0, 0, 40),
                pygame.Rect(i, i, rect.w + lift, rect.h + lift),
                border_radius=max(2, lift),
            )
        bg.blit(shadow, (rect.x, rect.y))
        seen = rect.clip(bg.get_rect())  # zoomed in, a platform may be partly off the window
        if seen.w > 0 and seen.h > 0:
            top = bg.subsurface(seen).copy()
            top.fill((28, 24, 16), special_flags=pygame.BLEND_RGB_ADD)
            bg.blit(top, seen.topleft)
        bevel = max(2, lift // 2 + 1)
        hi = theme.colour("platform_light")
        lo = theme.colour("platform_dark")
        pygame.draw.rect(bg, lo, rect, bevel, border_radius=2)
        pygame.draw.line(bg, hi, rect.topleft, (rect.right - 1, rect.top), bevel)
        pygame.draw.line(bg, hi, rect.topleft, (rect.left, rect.bottom - 1), bevel)
        px, py = view.to_screen(p.x, p.y)
        label = _text(_font(0.019 * s), "JAM", theme.colour("platform_text"), (cx - px, cy - py))
        bg.blit(label, label.get_rect(center=(round(px), round(py))))
