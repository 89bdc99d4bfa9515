"""Never lose a match: autosave to the user's data folder after every shot and on close, resume on start.

The folder is ``$XDG_DATA_HOME/jamsumo`` (or ``~/.local/share/jamsumo``).  Files are read and written
through :mod:`jamsumo_sim.fileio` (bounded, UTF-8, atomic, umask mode).  A saved match is never deleted
and never overwritten before the person has decided: declining a resume, and a damaged file, move it
aside (``autosave-YYYYmmdd-HHMMSS.json``) instead.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError

AUTOSAVE_NAME = "autosave.json"
AUTOSAVE_VERSION = 1
MIN_SEATS, MAX_SEATS = 2, 4


def data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "jamsumo"


def autosave_path() -> Path:
    return data_dir() / AUTOSAVE_NAME


def save(data: dict[str, Any], path: Path | None = None) -> Path:
    """Write the autosave atomically; a one-line UserError if it cannot be written."""
    target = path or autosave_path()
    fileio.write_json(
        target, {"autosave_version": AUTOSAVE_VERSION, "saved_at": time.time(), **data}, "autosave"
    )
    return target


def read(path: Path | None = None) -> dict[str, Any]:
    """The autosave's data with its shape checked; a one-line UserError naming the file otherwise.

    The match itself (its state and history) is checked by rebuilding it: see :func:`load_match`.
    """
    target = path or autosave_path()
    data = fileio.read_json(target, "autosave")
    where = f"autosave {target}"
    if not isinstance(data, dict):
        raise UserError(f"{where}: expected a JSON object")
    version = data.get("autosave_version")
    if type(version) is not int or version != AUTOSAVE_VERSION:
        raise UserError(
            f"{where}: unsupported autosave_version {str(version)[:20]!r} "
            f"(this program reads {AUTOSAVE_VERSION})"
        )
    if data.get("kind") != "match":
        raise UserError(f"{where}: 'kind' must be \"match\"")
    seats = data.get("seats")
    if (
        not isinstance(seats, list)
        or not MIN_SEATS <= len(seats) <= MAX_SEATS
        or not all(isinstance(s, str) for s in seats)
    ):
        raise UserError(f"{where}: 'seats' must be a list of {MIN_SEATS} to {MAX_SEATS} names")
    if not isinstance(data.get("finished", False), bool):
        raise UserError(f"{where}: 'finished' must be true or false")
    state = data.get("state")
    if not isinstance(state, dict) or not isinstance(state.get("history"), list):
        raise UserError(f"{where}: 'state' must be an object with a 'history' list")
    return data


@dataclass
class Loaded:
    """What :func:`load_match` found: a resumable match, nothing, or a damaged file set aside."""

    data: dict[str, Any] | None = None
    session: Any = None  # the rebuilt MatchSession
    problem: str | None = None  # one line: what was wrong and where the file went

    @property
    def unfinished(self) -> bool:
        return self.session is not None and not self.session.finished()


def load_match(path: Path | None = None) -> Loaded:
    """Read the autosave and rebuild its match (replaying its history checks every move).

    A damaged file is moved aside, kept, and reported in ``problem``; this never raises for a bad file.
    """
    from jamsumo_sim.ui.match_session import resume_match

    target = path or autosave_path()
    if not target.exists() and not target.is_symlink():
        return Loaded()
    try:
        data = read(target)
        session = resume_match(data, f"autosave {target}")
    except UserError as exc:
        return Loaded(problem=_set_aside(target, str(exc)))
    return Loaded(data, session)


def _set_aside(target: Path, reason: str) -> str:
    try:
        moved = archive(target)
    except UserError as exc:
        return f"{reason}; it cannot be moved aside ({exc}), so it is left as it is"
    where = f"kept as {moved}" if moved is not None else "left as it is"
    return f"{reason}; the damaged file is {where} and a new match starts"


def archive(path: Path | None = None) -> Path | None:
    """Move the autosave aside (``autosave-YYYYmmdd-HHMMSS.json``) so a new match can start."""
    target = path or autosave_path()
    if not target.exists() and not target.is_symlink():
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    dest = target.with_name(f"autosave-{stamp}.json")
    k = 1
    while dest.exists():
        dest = target.with_name(f"autosave-{stamp}-{k}.json")
        k += 1
    try:
        target.replace(dest)
    except OSError as exc:
        raise UserError(f"cannot move autosave {target} aside: {exc.strerror or exc}") from None
    return dest


def describe(data: dict[str, Any]) -> str:
    """One line about a saved match (checked by :func:`read`), for the resume offer."""
    state = data.get("state", {})
    game = str(state.get("game", "?"))[:20]
    moves = sum(1 for e in state.get("history", []) if isinstance(e, dict) and "action" in e)
    seats = ", ".join(data.get("seats", []))
    return f"{game} match ({seats}), {moves} shots played"
