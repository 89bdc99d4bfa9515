"""A joining player's seat tokens, kept in the user's data folder, so the same `join` command (or a
window opened again) rejoins the same seat after the program closed.

``$XDG_DATA_HOME/jamsumo/net_seats.json`` (readable by its owner only): for each host address, the
match it hosted, the seat, its token and the process that holds it: a token is recalled only when
that process has ended (a second `join` running beside the first must not take its seat). A token
the host no longer knows (another match at the same address) is forgotten and the client joins
afresh.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from jamsumo_sim.ui.autosave import data_dir

FILE = "net_seats.json"
VERSION = 1
MAX_KEPT = 64  # addresses remembered; the oldest go first
_held: set[str] = set()  # addresses whose kept token a client of this process plays now


def _path() -> Path:
    return data_dir() / FILE


def _read() -> dict[str, Any]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}
    seats = data.get("seats")
    return seats if isinstance(seats, dict) else {}


def _write(seats: dict[str, Any]) -> None:
    path = _path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(path.name + ".tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"version": VERSION, "seats": seats}, f)
        os.replace(temp, path)
    except OSError:
        pass  # only a convenience: the match goes on without it


def _alive(pid: object) -> bool:
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return False
    if pid == os.getpid():
        return False  # this process: a window opened again (unless a client holds it: recall)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def recall(url: str) -> str | None:
    """The token kept for ``url`` by a process that has ended (or by this one), or None."""
    entry = _read().get(url)
    if url in _held or not isinstance(entry, dict) or _alive(entry.get("pid")):
        return None
    token = entry.get("token")
    return token if isinstance(token, str) and 0 < len(token) <= 64 else None


def keep(url: str, match: str, seat: int, token: str) -> None:
    seats = _read()
    seats.pop(url, None)
    seats[url] = {"match": match, "seat": seat, "token": token, "pid": os.getpid()}
    _held.add(url)
    _write(dict(list(seats.items())[-MAX_KEPT:]))


def release(url: str) -> None:
    """This process's client of ``url`` stopped: its token may be recalled (a window reopened)."""
    _held.discard(url)


def forget(url: str) -> None:
    seats = _read()
    if seats.pop(url, None) is not None:
        _write(seats)
