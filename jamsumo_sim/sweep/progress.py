"""What the sweep and tournament commands show on stderr while they work: a progress bar on a
terminal only, one line before a Dask cluster's start, and a tournament's expected time once its
first match is done (docs/sweep.md)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


def progress_bar(total: int, unit: str, quiet: bool):  # noqa: ANN201 - a tqdm bar
    """A progress bar on stderr, drawn only when stderr is a terminal (tqdm's ``disable=None``):
    never into a file or a pipe, never with --json."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, disable=True if quiet else None, file=sys.stderr)


def say_starting(workers: int, scheduler: str | None, quiet: bool) -> None:
    """One stderr line before the seconds a local cluster takes to start (nothing with --json)."""
    if quiet:
        return
    if scheduler is None:
        what = f"starting {workers} Dask worker{'s' if workers != 1 else ''}"
    else:
        what = f"connecting to the Dask scheduler {scheduler[:60]}"
    print(f"{what}…", file=sys.stderr, flush=True)


class Estimate:
    """The progress bar's ``update`` plus one stderr line after the first update: how long the
    whole run should take, timed on that first part (any terminal or none: a run with stderr in a
    file or a pipe still says what it is doing; nothing with --json).

    ``workers`` parts run at once (a first part of k units in t seconds: k x workers every t).
    """

    def __init__(  # noqa: ANN001 - bar: a tqdm bar (tqdm is imported late)
        self,
        bar,
        total: int,
        units: str,
        program: str,
        quiet: bool,
        workers: int = 1,
        clock: Callable[[], float] = time.perf_counter,  # (tests give their own)
    ) -> None:
        self._clock = clock
        self._start = self._clock()
        self._bar = bar
        self._total = total
        self._units = units
        self._program = program
        self._quiet = quiet
        self._workers = max(1, workers)
        self._done = 0

    def update(self, n: int) -> None:
        first = self._done == 0
        self._done += n
        self._bar.update(n)
        if first and not self._quiet and self._done < self._total:
            took = self._clock() - self._start
            whole = took * self._total / (self._done * self._workers)
            line = estimate_line(self._program, self._total, self._units, whole, took, self._done)
            self._bar.write(line, file=sys.stderr)


def estimate_line(
    program: str, total: int, units: str, whole: float, first: float, done: int = 1
) -> str:
    """``jamsumo: 30 matches, about 50 s in all (the first took 1.7 s)``."""
    which = "the first" if done == 1 else f"the first {done}"
    took = f"{first:.2g}" if first < 10 else f"{first:.0f}"
    return f"{program}: {total} {units}, about {_duration(whole)} in all ({which} took {took} s)"


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    if seconds < 90 * 60:
        return f"{round(seconds / 60)} min"
    return f"{seconds / 3600:.1f} h"
