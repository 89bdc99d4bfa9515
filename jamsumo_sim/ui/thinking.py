"""The "thinking" cue: while a bot works out its move, a card over the board says whose bot is
thinking, how far its search is (when the bot reports it) and for how long, so a slow reply on a
busy machine never looks like a frozen window."""

from __future__ import annotations

import time
from typing import Any

import pygame

from jamsumo_sim.ui.panel import font

BAR_WIDTH = 160  # px


def text_of(app: Any) -> tuple[str, float | None] | None:
    """(the cue's words, the search's share done or None), or None when no bot is thinking."""
    job = getattr(app, "_bot_job", None)
    if job is None or job.done():
        return None
    name = app.session.seat_colour_name(job.seat).capitalize()
    share = job.progress()
    words = f"{name} is thinking"
    if share is not None:
        words += f"… {share * 100:.0f} %"
    else:
        words += "…"
    return words, share


def draw(app: Any) -> None:
    """The card at the top of the board area (nothing when no bot is thinking)."""
    cue = text_of(app)
    if cue is None:
        return
    words, share = cue
    seconds = time.monotonic() - app._bot_job.started
    if seconds >= 1.0:
        words += f" ({seconds:.0f} s)"
    theme = app.theme
    img = font(20).render(words, True, theme.colour("text"))
    rect = app.layout().board_rect
    card = pygame.Rect(0, 0, max(img.get_width(), BAR_WIDTH) + 24, img.get_height() + 26)
    card.midtop = (rect[0] + rect[2] // 2, rect[1] + 6)
    pygame.draw.rect(app.screen, theme.colour("panel"), card, border_radius=6)
    colour = theme.dice_colour(app.session.seat_colour_name(app._bot_job.seat))
    pygame.draw.rect(app.screen, colour, card, 2, border_radius=6)
    app.screen.blit(img, (card.centerx - img.get_width() // 2, card.y + 6))
    bar = pygame.Rect(0, 0, BAR_WIDTH, 6)
    bar.midbottom = (card.centerx, card.bottom - 6)
    pygame.draw.rect(app.screen, theme.colour("text_dim"), bar, 1)
    if share is not None:
        fill = bar.copy()
        fill.width = max(1, round(bar.width * share))
        pygame.draw.rect(app.screen, colour, fill)
    else:  # no figure: a block sweeping along the bar
        block = bar.copy()
        block.width = BAR_WIDTH // 5
        block.x = bar.x + round((bar.width - block.width) * (time.monotonic() % 1.0))
        pygame.draw.rect(app.screen, colour, block)
