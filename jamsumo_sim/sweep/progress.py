"""What the sweep and tournament commands show on stderr while they work: a progress bar on a
terminal only, and one line before a Dask cluster's start (docs/sweep.md)."""

from __future__ import annotations

import sys


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
