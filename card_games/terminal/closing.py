"""A closing terminal never loses a game: SIGTERM and SIGHUP stop the match as Ctrl-C does (the
driver saves it), saves are never cut by a signal, and `play` finds an unfinished autosave.

The match is saved after every move (the CLI's autosave), so a signal at any point loses nothing:
the driver catches the :class:`TerminalClosed` raised here like a ``KeyboardInterrupt`` and saves
the state, and a signal landing outside a move is answered from the last autosave.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

# Signals that mean "the terminal (or the session) is going away": save and stop.
CLOSING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
# Autosaves bigger than this are not opened to look for an unfinished game (a save is ~100 kB).
_MAX_PEEK_BYTES = 20_000_000


class TerminalClosed(KeyboardInterrupt):
    """Raised by the handler of a closing signal; a KeyboardInterrupt, so the driver saves."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@dataclass
class Closing:
    """The closing signal received, if any (set by the handler before it raises)."""

    signum: int | None = None

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name if self.signum else ""

    @property
    def exit_code(self) -> int:
        return 128 + (self.signum or 0)  # as a shell reports a process ended by that signal


@contextmanager
def stop_on_closing_signals() -> Iterator[Closing]:
    """While inside, SIGTERM/SIGHUP raise :class:`TerminalClosed` (once: a second signal during
    the save is ignored, so the save finishes); the old handlers come back after."""
    closing = Closing()

    def handler(signum: int, frame: FrameType | None) -> None:
        if closing.signum is not None:
            return  # already stopping: let the save finish
        closing.signum = signum
        raise TerminalClosed(signum)

    old = {sig: signal.signal(sig, handler) for sig in CLOSING_SIGNALS}
    try:
        yield closing
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold closing signals and Ctrl-C while a save is written; they are delivered right after.
    (The write is atomic anyway; holding them means the newest move is in the file.)"""
    held = {*CLOSING_SIGNALS, signal.SIGINT}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def unfinished_save(folder: Path, game_name: str) -> tuple[Path, int] | None:
    """The newest unfinished save of ``game_name`` in ``folder`` and its number of moves."""
    try:
        candidates = sorted(folder.glob(f"{game_name}-*.json"), reverse=True)  # stamped names
    except OSError:
        return None
    for path in candidates:
        try:
            if path.stat().st_size > _MAX_PEEK_BYTES:
                continue
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # unreadable: not ours to judge here; `resume` says what is wrong
        if (
            isinstance(data, dict)
            and data.get("game") == game_name
            and data.get("finished") is False
        ):
            history = data.get("history")
            return path, len(history) if isinstance(history, list) else 0
    return None
