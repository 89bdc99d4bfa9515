"""The help card (`?` or F1): every control of the play window, over the board."""

from __future__ import annotations

import pygame

from jamsumo_sim.ui.panel import font
from jamsumo_sim.ui.theme import Theme

CONTROLS: tuple[tuple[str, str], ...] = (
    ("Drag back from a die, release", "flick it (the push goes the other way)"),
    ("Drag a die from your tray", "put it on a JAM zone, then flick it"),
    ("Wheel", "strike height (the side view shows the finger)"),
    ("K", "keep the strike height for the next turns (on/off)"),
    ("Esc / right click", "cancel the aim"),
    ("P", "pass (only when no fair flick is possible)"),
    ("U", "undo the last shot (free play and practice)"),
    ("Space", "pause / go on; close a score table"),
    ("- / +", "slower / faster playback"),
    ("M", "automatic slow motion at impacts (on/off)"),
    ("V", "sound on/off (--mute starts without it)"),
    ("R", "replay the last shot"),
    ("H", "heat map of a die's flicks (free play and practice; on/off)"),
    ("Shift+H", "the heat map's next outcome (hole, platform, off; knocked out, lost)"),
    ("C", "a chat line (network matches: Enter sends, Esc drops)"),
    ("Ctrl+wheel, Ctrl+ -/+ ", "zoom in and out (Ctrl+0 resets)"),
    ("Arrow keys / middle drag", "pan the zoomed board"),
    ("T", "turn the board to the player to move (on/off)"),
    ("S", "save the match as a replay file"),
    ("? / F1", "this help"),
    ("Q", "quit (the match is autosaved)"),
)


def draw_help(
    screen: pygame.Surface,
    area: pygame.Rect,
    theme: Theme,
    controls: tuple[tuple[str, str], ...] = CONTROLS,
) -> pygame.Rect:
    """A card listing ``controls`` centred in ``area``; returns the card's rectangle."""
    f = font(max(16, min(24, area.height // 34)))
    kf = font(max(16, min(24, area.height // 34)))
    line = f.get_linesize()
    key_w = max(kf.size(k)[0] for k, _ in controls)
    text_w = max(f.size(t)[0] for _, t in controls)
    w = min(area.width - 20, key_w + text_w + 60)
    h = min(area.height - 20, (len(controls) + 2) * line + 30)
    card = pygame.Rect(0, 0, w, h)
    card.center = area.center
    layer = pygame.Surface(card.size, pygame.SRCALPHA)
    layer.fill((*theme.colour("panel"), 238))
    screen.blit(layer, card.topleft)
    pygame.draw.rect(screen, theme.colour("highlight"), card, 2, border_radius=8)
    title = font(int(line * 1.3)).render("Controls", True, theme.colour("text"))
    screen.blit(title, (card.x + 20, card.y + 12))
    y = card.y + 20 + title.get_height()
    for k, text in controls:
        if y + line > card.bottom - 8:
            break
        screen.blit(kf.render(k, True, theme.colour("highlight")), (card.x + 20, y))
        screen.blit(f.render(text, True, theme.colour("text")), (card.x + 40 + key_w, y))
        y += line
    hint = f.render("? or F1 closes this", True, theme.colour("text_dim"))
    screen.blit(hint, (card.right - hint.get_width() - 14, card.bottom - line - 4))
    return card
