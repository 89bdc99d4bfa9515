"""Words drawn over the board on a dark tag, so they read over dice, dots and arrows (the aim's
speed label, the preview's warnings, a hovered die's label)."""

from __future__ import annotations

import pygame

# px the tag reaches beyond the words (width, height): a little room either side of the text
PAD = (8, 4)


def tag_of(words: pygame.Rect) -> pygame.Rect:
    """The tag around words at ``words``."""
    return words.inflate(*PAD)


def words_in(tag: pygame.Rect) -> pygame.Rect:
    """Where the words go on a tag at ``tag``."""
    return tag.inflate(-PAD[0], -PAD[1])


def blit_on_tag(
    screen: pygame.Surface, img: pygame.Surface, at: pygame.Rect, colour: tuple[int, int, int]
) -> pygame.Rect:
    """``img`` at ``at`` on a tag of ``colour``; returns the tag's place."""
    tag = tag_of(at)
    pygame.draw.rect(screen, colour, tag, border_radius=4)
    screen.blit(img, at)
    return tag
