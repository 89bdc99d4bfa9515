"""Reading a card game's data file: the packaged ``cards.toml``, or another file (a real card list,
or a broken copy in a test). Validation against the rulebook stays with each game."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError


def read_card_toml(
    package: str, path: str | Path | None = None, filename: str = "cards.toml"
) -> tuple[dict[str, Any], str]:
    """The parsed TOML and the name to use in error messages; problems are one-line UserErrors.

    Both go through :mod:`jamsumo_sim.fileio` (UTF-8, size and number bounds, one-line errors).
    """
    if path is not None:
        return fileio.parse_toml(fileio.read_text(path, "card data file"), str(path)), str(path)
    where = f"{package.replace('.', '/')}/{filename}"
    try:
        data = (resources.files(package) / filename).read_bytes()
    except OSError as exc:  # a broken install
        raise UserError(f"{where}: cannot read: {exc.strerror or exc}") from None
    return fileio.parse_toml(fileio.decode_utf8(data, where), where), where
