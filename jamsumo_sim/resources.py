"""Locate data files shipped with the package (board specs, fonts), in a checkout or a wheel."""

from __future__ import annotations

import tomllib
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from jamsumo_sim.errors import UserError


def asset(*parts: str) -> Traversable:
    """Return the packaged asset at ``assets/<parts...>`` (works from an installed wheel too)."""
    node = resources.files("jamsumo_sim.assets")
    for part in parts:
        node = node / part
    return node


def read_asset_text(*parts: str) -> str:
    """Read a packaged text asset as UTF-8."""
    return asset(*parts).read_text(encoding="utf-8")


def versioned_asset(name: str, version: int = 1) -> dict[str, Any]:
    """A packaged TOML settings file (``assets/<name>``) of the given ``version``; one-line
    UserError if it cannot be read or is of another version."""
    try:
        data = tomllib.loads(read_asset_text(name))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"assets/{name} cannot be read: {exc}") from None
    if data.get("version") != version:
        raise UserError(f"assets/{name}: unsupported version {str(data.get('version'))[:20]!r}")
    return data
