"""Reading a card game's data file: the packaged ``cards.toml``, or another file (a real card list,
or a broken copy in a test). Validation against the rulebook stays with each game."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from jamsumo_sim.errors import UserError


def read_card_toml(
    package: str, path: str | Path | None = None, filename: str = "cards.toml"
) -> tuple[dict[str, Any], str]:
    """The parsed TOML and the name to use in error messages; problems are one-line UserErrors."""
    if path is None:
        node = resources.files(package) / filename
        where = f"{package.replace('.', '/')}/{filename}"
    else:
        node = Path(path)
        where = str(path)
    try:
        text = node.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"{where}: cannot read: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{where}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return tomllib.loads(text), where
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{where}: not valid TOML: {exc}") from None
