"""The strike height drawn: a small side view of the die with the finger at its height."""

from __future__ import annotations

import pygame

from jamsumo_sim.ui.panel import font


def draw_height_gauge(
    screen: pygame.Surface,
    topleft: tuple[int, int],
    size: int,
    height: float,
    colour: tuple[int, int, int],
    kept: bool,
) -> pygame.Rect:
    """The die seen from the side (a square on the board line) and the finger's tip at ``height``
    (0 = bottom edge, 1 = top edge); ``kept``: the height carries over to the next turn."""
    x, y = topleft
    f = font(max(14, size // 4))
    board_y = y + size
    die = pygame.Rect(x + size // 2, y, size, size)
    pygame.draw.line(screen, (120, 80, 44), (x, board_y), (x + 2 * size, board_y), 2)
    pygame.draw.rect(screen, colour, die, border_radius=max(2, size // 8))
    pygame.draw.rect(screen, (30, 22, 16), die, 2, border_radius=max(2, size // 8))
    fy = board_y - max(0.0, min(1.0, height)) * size
    finger = pygame.Rect(0, 0, size // 2, max(4, size // 6))
    finger.midright = (die.x - 2, round(fy))
    pygame.draw.rect(screen, (236, 200, 170), finger, border_radius=3)
    pygame.draw.line(screen, (255, 150, 40), (die.x - 2, fy), (die.x + size // 5, fy), 2)
    label = f"height {height:.2f}" + ("  (kept)" if kept else "")
    img = f.render(label, True, (236, 226, 210))
    screen.blit(img, (x, board_y + 4))
    return pygame.Rect(x, y, max(2 * size, img.get_width()), size + 4 + img.get_height())
