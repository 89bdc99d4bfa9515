"""The panel's event log shows whole entries: when the log is longer than the room, the oldest
entries drop out whole, so the first line shown is the start of a message, never the tail of a
wrapped one (seen in a Sumo match: the log opened with "first)")."""

from __future__ import annotations

import os

import pygame

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from jamsumo_sim.ui import panel  # noqa: E402
from jamsumo_sim.ui.panel import PanelInfo, draw_panel  # noqa: E402
from jamsumo_sim.ui.theme import load_theme  # noqa: E402


class _RecordingFont:
    """A real font that remembers what it was asked to draw."""

    def __init__(self, real: pygame.font.Font, drawn: list[str]) -> None:
        self._real, self._drawn = real, drawn

    def render(self, text, *args):
        self._drawn.append(text)
        return self._real.render(text, *args)

    def __getattr__(self, name):
        return getattr(self._real, name)


def test_the_log_drops_old_entries_whole(monkeypatch):
    pygame.font.init()
    panel.font.cache_clear()  # fonts made before an earlier test's pygame.quit() are dead
    drawn: list[str] = []
    real_font = panel.font
    monkeypatch.setattr(panel, "font", lambda size: _RecordingFont(real_font(size), drawn))
    # long entries that wrap over several lines, each with its own first word
    log = tuple(
        f"entry{k} " + " ".join(f"word{k}_{i}" for i in range(6 + k % 5)) for k in range(40)
    )
    surf = pygame.Surface((300, 640))
    draw_panel(surf, surf.get_rect(), PanelInfo("Sumo", log=log), load_theme())
    shown = [t for t in drawn if t.split(" ", 1)[0].startswith(("entry", "word"))]
    assert shown, "no log line drawn"
    assert shown[0].startswith("entry"), f"the log opens mid-message: {shown[0]!r}"
    assert shown[-1].startswith(("entry39", "word39_")), "the newest entry is at the bottom"
    assert "entry39" in " ".join(shown) and "entry0 " not in " ".join(shown)
