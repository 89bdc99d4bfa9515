"""One stderr line before the physics kernels compile, so a first run's silent seconds are explained.

Numba raises its ``numba:compile`` event only for a kernel it could not load from its cache (the
event comes after the cache lookup: ``numba.core.event``), so the line shows exactly when the cache
is cold or stale, never when the kernels load from it.  The ``jamsumo`` command asks for the line
while a subcommand runs (:func:`announcing`); the listener goes in when the kernels first import
numba (:func:`kernel_cache.configure <jamsumo_sim.physics.kernel_cache.configure>` calls :func:`arm`), so a
command that never steps physics never imports numba for it.

Like the progress bars, the line is for a person watching a terminal: it is not written when stderr
is a file or a pipe, so a log or a test's captured stderr holds the command's own lines whatever
state the cache is in (which test compiles first depends on their order).  Dask workers never ask:
their stderr is not the person's (and the client compiles first: sweep/dask_runner.warm_kernels).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

# CPU seconds of the first compile on the development machine (2 cores), cold cache: the World's
# kernels (physics.warm_up) 13.9-15.2 s, the sweep's lone-die kernels 10.7 s more
PHYSICS_SECONDS = 15
SWEEP_SECONDS = 25
NOTICE = (
    "jamsumo: compiling the physics kernels once for this machine "
    "(about {seconds} s; later runs start at once)"
)
UNCACHED_NOTICE = (
    "jamsumo: compiling the physics kernels (about {seconds} s): numba's cache folder cannot be "
    "written, so every run compiles; set NUMBA_CACHE_DIR to a writable folder"
)


@dataclass
class _Request:
    """What the command asked for; one per process (the listener is process-wide in numba too)."""

    wanted: bool = False
    stream: TextIO | None = None  # None: sys.stderr at the time of the line
    terminal_only: bool = True
    seconds: int = PHYSICS_SECONDS
    cached: bool = True  # whether numba's cache folder can be written (kernel_cache.configure)
    installed: bool = False
    said: bool = False


_REQUEST = _Request()


@contextlib.contextmanager
def announcing(
    seconds: int = PHYSICS_SECONDS, stream: TextIO | None = None, terminal_only: bool = True
) -> Iterator[None]:
    """While the block runs, say :data:`NOTICE` (``seconds`` in it) on ``stream`` (default
    stderr; with ``terminal_only`` only if it is a terminal) once, right before the first kernel
    this process compiles; nothing if every kernel loads from the cache."""
    _REQUEST.wanted = True
    _REQUEST.stream = stream
    _REQUEST.terminal_only = terminal_only
    _REQUEST.seconds = seconds
    if "numba" in sys.modules:  # the kernels' import is past: arm now
        arm(_REQUEST.cached)
    try:
        yield
    finally:
        _REQUEST.wanted = False  # a library caller's later compiles stay silent


def arm(cached: bool) -> None:
    """Install the listener if :func:`announcing` asked (kernel_cache.configure calls this once it
    has pointed numba at its cache folder, so importing numba here reads the right one)."""
    _REQUEST.cached = cached
    if not _REQUEST.wanted or _REQUEST.installed:
        return
    from numba.core import event

    class _FirstCompile(event.Listener):
        def on_start(self, ev: Any) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
            if module.startswith("jamsumo_sim."):
                _say()

        def on_end(self, ev: Any) -> None:
            pass

    event.register("numba:compile", _FirstCompile())
    _REQUEST.installed = True


def _say() -> None:
    if _REQUEST.said or not _REQUEST.wanted:
        return
    stream = _REQUEST.stream or sys.stderr
    if _REQUEST.terminal_only and not _isatty(stream):
        return
    _REQUEST.said = True
    text = NOTICE if _REQUEST.cached else UNCACHED_NOTICE
    print(text.format(seconds=_REQUEST.seconds), file=stream, flush=True)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or closed
        return False


def said() -> bool:
    """Whether the line was printed in this process."""
    return _REQUEST.said
