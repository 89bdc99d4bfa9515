"""Never lose a match: autosave to the user's data folder after every shot and on close, resume on start.

The folder is ``$XDG_DATA_HOME/jamsumo`` (or ``~/.local/share/jamsumo``).  Files are written atomically
(the old file or the complete new one, never half).  Declining a resume archives the old file instead of
deleting it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import read_json_file, write_json_atomic

AUTOSAVE_NAME = "autosave.json"
AUTOSAVE_VERSION = 1


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "jamsumo"


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


def save(data: dict[str, Any], path: Path | None = None) -> Path:
    target = path or autosave_path()
    write_json_atomic(
        target,
        {"autosave_version": AUTOSAVE_VERSION, "saved_at": time.time(), **data},
        "autosave",
    )
    return target


def load(path: Path | None = None) -> dict[str, Any] | None:
    """The autosaved data, or None if there is none (a damaged file is archived, not trusted)."""
    target = path or autosave_path()
    if not target.exists():
        return None
    try:
        data = read_json_file(target, "autosave")
    except UserError:
        archive(target)
        return None
    if not isinstance(data, dict) or data.get("autosave_version") != AUTOSAVE_VERSION:
        archive(target)
        return None
    return data


def archive(path: Path | None = None) -> Path | None:
    """Move the autosave aside (``autosave-YYYYmmdd-HHMMSS.json``) so a new match can start."""
    target = path or autosave_path()
    if not target.exists():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    dest = target.with_name(f"autosave-{stamp}.json")
    k = 1
    while dest.exists():
        dest = target.with_name(f"autosave-{stamp}-{k}.json")
        k += 1
    target.replace(dest)
    return dest


def describe(data: dict[str, Any]) -> str:
    """One line about a saved match, for the resume offer."""
    state = data.get("state", {})
    game = state.get("game", "?")
    moves = sum(1 for e in state.get("history", []) if "action" in e)
    seats = ", ".join(data.get("seats", []))
    return f"{game} match ({seats}), {moves} shots played"
