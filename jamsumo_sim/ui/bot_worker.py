"""A bot's decision off the window's thread, without ever touching what the window draws.

The session prepares the job on the window's thread (:meth:`Session.bot_task`: the agent and its own
copy of the match); only that copy goes to the worker thread.  The live state is changed and drawn on
the window's thread alone, so the window never sees a half-built state.  A result is used only if the
match is still where it was when the bot was asked (``key``): a stale move is dropped, never played.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class BotJob:
    """One bot decision; ``result`` is empty until done, then ``[action]`` or ``[exception]``."""

    session: Any
    seat: int
    key: Hashable
    thread: threading.Thread | None = None
    result: list[Any] = field(default_factory=list)
    agent: Any = None  # the thinking agent, if the session names it (for its progress)
    started: float = 0.0  # time.monotonic() when asked (the cue shows how long it has thought)

    def done(self) -> bool:
        return bool(self.result) and (self.thread is None or not self.thread.is_alive())

    def matches(self, session: Any, seat: int | None) -> bool:
        """The match is still at the position the bot was asked about."""
        return session is self.session and seat == self.seat and session.position_key() == self.key

    def progress(self) -> float | None:
        """How far the bot's search is (0..1), if it says; None if it does not."""
        read = getattr(self.agent, "progress", None)
        try:
            return read() if callable(read) else None
        except Exception:  # noqa: BLE001 - a cue only: never let it break the window
            return None

    def cancel(self, wait: float = 0.5) -> None:
        """The move is no longer wanted (the window closes): ask the bot to stop and give its
        thread up to ``wait`` s to end, so quitting never waits for a long search."""
        stop = getattr(self.agent, "cancel", None)
        if callable(stop):
            stop()
        if self.thread is not None and self.thread.is_alive():
            self.thread.join(wait)

    def take(self) -> Any:
        """The bot's action; a failure inside the bot is raised here, on the window's thread."""
        value = self.result[0]
        if isinstance(value, BaseException):
            raise value
        return value


def _run(task: Callable[[], Any], out: list[Any]) -> None:
    try:
        out.append(task())
    except BaseException as exc:  # noqa: BLE001 - handed to the window's thread to report
        out.append(exc)


def start(session: Any, seat: int, threaded: bool = True) -> BotJob:
    """Ask the bot at ``seat`` for its move: on a daemon thread, or at once with ``threaded=False``."""
    task = session.bot_task()  # on this (the window's) thread: the copy is taken here
    job = BotJob(session, seat, session.position_key(), agent=getattr(task, "agent", None))
    job.started = time.monotonic()
    if threaded:
        job.thread = threading.Thread(target=_run, args=(task, job.result), daemon=True)
        job.thread.start()
    else:
        _run(task, job.result)
    return job
