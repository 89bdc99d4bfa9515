"""One picture of a shot, drawn headless with the window's draw modules: the board (draw_board), the
dice (draw_dice, with each player's colour and pip shape), trails (trails), plus the shot's caption
under the board and the score table beside it."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # never open a window: everything is off-screen
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from jamsumo_sim.export.shots import ScoreRow, ShotScene  # noqa: E402
from jamsumo_sim.export.textfit import cut, head_lines  # noqa: E402
from jamsumo_sim.rules.scoring import ScoreWords  # noqa: E402
from jamsumo_sim.ui.animator import Pose  # noqa: E402
from jamsumo_sim.ui.draw_board import render_background  # noqa: E402
from jamsumo_sim.ui.draw_dice import DieLook, draw_dice  # noqa: E402
from jamsumo_sim.ui.palette import draw_mark, ink_on, mark_of  # noqa: E402
from jamsumo_sim.ui.theme import Theme, load_theme  # noqa: E402
from jamsumo_sim.ui.trails import Trails  # noqa: E402
from jamsumo_sim.ui.view import View  # noqa: E402

Colour = tuple[int, int, int]
PANEL_FRACTION = 0.28  # of the width: the score table
CAPTION_FRACTION = 0.14  # of the height: the caption band under the board
MARGIN_FRACTION = 0.04  # of the board area, round the board
TRACE_WIDTH = 0.18  # of a die's size: the full trajectory traces of a PNG


@dataclass(frozen=True)
class Frame:
    """Where things go in a picture of ``size`` pixels."""

    size: tuple[int, int]
    board_rect: tuple[int, int, int, int]  # the square board
    caption_rect: tuple[int, int, int, int]
    panel_rect: tuple[int, int, int, int]


def frame_layout(size: tuple[int, int]) -> Frame:
    w, h = size
    panel_w = int(w * PANEL_FRACTION)
    caption_h = max(36, int(h * CAPTION_FRACTION))
    area_w, area_h = w - panel_w, h - caption_h
    short = min(area_w, area_h)
    side = max(40, int(short * (1 - 2 * MARGIN_FRACTION)))
    board = ((area_w - side) // 2, (area_h - side) // 2, side, side)
    return Frame(size, board, (0, area_h, area_w, caption_h), (area_w, 0, panel_w, h))


def board_view(board_side: float, size: tuple[int, int]) -> View:
    """The board seen from seat 0's side (as the replay viewer shows it)."""
    return View(board_side, frame_layout(size).board_rect, 0)


def colour_name(die_id: str) -> str:
    """A die's colour from its id (red3 → red), as the window's session names it."""
    return die_id.rstrip("0123456789") or "red"


def looks(poses: Iterable[Pose], theme: Theme, die_size: float) -> list[DieLook]:
    """The window's look of each die (App.looks without a hovered die)."""
    out = []
    for p in poses:
        name = colour_name(p.id)
        fade = max(p.fade, min(0.6, 0.6 * p.drop / die_size)) if p.drop > 0 else p.fade
        out.append(
            DieLook(
                p.id,
                p.x,
                p.y,
                p.angle,
                p.face,
                theme.dice_colour(name),
                p.flat,
                fade,
                mark=mark_of(name),
                pitch=p.pitch,
                lift=p.z / die_size,
            )
        )
    return out


def _font(px: float) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    return pygame.font.Font(None, max(10, int(px)))


class SceneRenderer:
    """Draws pictures of one board at one size (the still background is rendered once)."""

    def __init__(
        self, board: Any, die_size: float, size: tuple[int, int], theme: Theme | None = None
    ):
        pygame.font.init()
        self.theme = theme or load_theme()
        self.board = board
        self.die_size = die_size
        self.layout = frame_layout(size)
        self.view = board_view(board.side, size)
        self.background = render_background(board, self.view, self.theme, size)
        self.surface = pygame.Surface(size)

    def board_picture(
        self, poses: Sequence[Pose], trails: Trails | None = None, clock: float = 0.0
    ):
        """The board with the dice (and trails), as the window draws it."""
        s = self.surface
        s.blit(self.background, (0, 0))
        if trails is not None:
            colours = {d: self.theme.dice_colour(colour_name(d)) for d in trails.points}
            width = max(2.0, self.view.length(self.die_size) * 0.3)
            trails.draw(s, self.view, colours, self.theme.colour("wood_light"), clock, width)
        self.dice(poses)
        return s

    def dice(self, poses: Sequence[Pose]) -> None:
        draw_dice(self.surface, self.view, looks(poses, self.theme, self.die_size), self.die_size)

    def traces(self, paths: dict[str, list[tuple[float, float]]]) -> None:
        """Whole trajectories (for a PNG report): a line in each die's colour from where it began."""
        width = max(2, round(self.view.length(self.die_size) * TRACE_WIDTH))
        for die, pts in paths.items():
            if len(pts) < 2:
                continue
            c = self.theme.dice_colour(colour_name(die))
            screen = [self.view.to_screen(x, y) for x, y in pts]
            pygame.draw.lines(self.surface, c, False, screen, width)
            pygame.draw.circle(self.surface, c, screen[0], width * 1.5, max(1, width // 2))

    def decorate(self, shot: ShotScene, after: bool, clock: float = 0.0) -> pygame.Surface:
        """The caption under the board and the score table beside it: ``clock`` s after the flick
        the caption tells only what has happened by then; ``after`` (at rest) all of it."""
        s = self.surface
        theme = self.theme
        x, y, w, h = self.layout.caption_rect
        pygame.draw.rect(s, theme.colour("panel"), self.layout.caption_rect)
        big = _font(h * 0.34)
        small = _font(h * 0.28)
        pad = max(4, h // 10)
        s.blit(
            big.render(cut(shot.title, big, w - 2 * pad), True, theme.colour("text")),
            (x + pad, y + pad),
        )
        if after:
            story = f"{shot.story} — {shot.verdict}" if shot.verdict else shot.story
        else:
            story = shot.story_at(clock)
        line = small.render(cut(story, small, w - 2 * pad), True, theme.colour("text_dim"))
        s.blit(line, (x + pad, y + h - pad - line.get_height()))
        self._scores(shot.scores_after if after else shot.scores_before, shot.score_words)
        return s

    def _panel_fonts(self) -> tuple[int, pygame.font.Font, pygame.font.Font]:
        """The score table's padding, title font and body font."""
        _, _, w, h = self.layout.panel_rect
        return max(6, w // 16), _font(min(h * 0.06, w * 0.12)), _font(min(h * 0.05, w * 0.1))

    def score_head(
        self, players: int, words: ScoreWords
    ) -> tuple[list[str], pygame.font.Font, int]:
        """The table's head lines, their font and the width they fit: the head takes the lines the
        rows (2.4 lines each) leave free, in the longest of the rules' wordings that fits."""
        _, _, w, h = self.layout.panel_rect
        pad, title, body = self._panel_fonts()
        line = body.get_linesize()
        free = h - 2 * pad - title.get_linesize() - line * (0.6 + 2.4 * players)
        width = w - 2 * pad
        return head_lines(words, body, width, int(free // line)), body, width

    def _scores(self, rows: Sequence[ScoreRow], words: ScoreWords) -> None:
        s = self.surface
        theme = self.theme
        x, y, w, h = self.layout.panel_rect
        pygame.draw.rect(s, theme.colour("panel"), self.layout.panel_rect)
        pygame.draw.line(s, theme.colour("panel_line"), (x, y), (x, y + h), 2)
        pad, title, body = self._panel_fonts()
        cy = y + pad
        s.blit(title.render("Score", True, theme.colour("text")), (x + pad, cy))
        cy += title.get_linesize()
        for part in self.score_head(len(rows), words)[0]:
            s.blit(body.render(part, True, theme.colour("text_dim")), (x + pad, cy))
            cy += body.get_linesize()
        cy += int(body.get_linesize() * 0.6)
        r = body.get_height() * 0.35
        for row in rows:
            rgb = theme.dice_colour(row.colour_name)
            centre = (x + pad + r * 1.5, cy + body.get_height() / 2)
            pygame.draw.rect(
                s,
                rgb,
                pygame.Rect(0, 0, r * 3, r * 3).move(centre[0] - r * 1.5, centre[1] - r * 1.5),
                border_radius=3,
            )
            draw_mark(s, mark_of(row.colour_name), centre, r * 0.6, ink_on(rgb))
            label = body.render(
                cut(f"{row.name} ({row.agent})", body, w - 2 * pad - int(r * 4)),
                True,
                theme.colour("text"),
            )
            s.blit(label, (x + pad + int(r * 4), cy))
            cy += body.get_linesize()
            score = body.render(row.total, True, theme.colour("highlight"))
            s.blit(score, (x + w - pad - score.get_width(), cy))
            cy += int(body.get_linesize() * 1.4)


def pixels(surface: pygame.Surface) -> np.ndarray:
    """The picture as an (height, width, 3) uint8 array (what encoders take)."""
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))
