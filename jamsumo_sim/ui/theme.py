"""The window's colours, sizes and gesture settings, read once from ``assets/ui_theme.toml``."""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from typing import Any

from jamsumo_sim.resources import read_asset_text

Colour = tuple[int, int, int]


@dataclass(frozen=True)
class GestureSettings:
    """How a drag becomes a flick (lengths in board metres)."""

    pull_full: float = 0.10
    pull_min: float = 0.004
    power_curve: float = 1.5
    height_default: float = 0.5
    height_step: float = 0.05
    grab_slack: float = 0.25


@dataclass(frozen=True)
class Theme:
    raw: dict[str, Any]

    def colour(self, name: str) -> Colour:
        r, g, b = self.raw["colours"][name]
        return (int(r), int(g), int(b))

    def dice_colour(self, name: str) -> Colour:
        """RGB of the dice of colour ``name`` (red, blue, green, yellow); grey if unknown."""
        rgb = self.raw.get("dice", {}).get(name.lower(), (150, 150, 150))
        return (int(rgb[0]), int(rgb[1]), int(rgb[2]))

    def section(self, name: str) -> dict[str, Any]:
        return dict(self.raw.get(name, {}))

    @property
    def gesture(self) -> GestureSettings:
        return GestureSettings(**self.section("gesture"))


@functools.cache
def load_theme() -> Theme:
    return Theme(tomllib.loads(read_asset_text("ui_theme.toml")))
