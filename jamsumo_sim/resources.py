"""Locate data files shipped with the package (board specs, fonts), in a checkout or a wheel."""

from __future__ import annotations

from importlib import resources
from importlib.abc import Traversable


def asset(*parts: str) -> Traversable:
    """Return the packaged asset at ``assets/<parts...>`` (works from an installed wheel too)."""
    node = resources.files("jamsumo_sim.assets")
    for part in parts:
        node = node / part
    return node


def read_asset_text(*parts: str) -> str:
    """Read a packaged text asset as UTF-8."""
    return asset(*parts).read_text(encoding="utf-8")
