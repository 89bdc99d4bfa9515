"""`jamsumo sweep SPEC.toml|json [--workers N | --scheduler ADDRESS] [--out DIR] [--json]`: a shot
map over aim x finger speed (x offset x height) with K noisy repeats a cell (docs/sweep.md)."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

from ..errors import UserError
from ..fileio import check_output_path
from ..limits import count_arg
from .bounds import MAX_WORKERS

JSON_VERSION = 1
# a Dask address: protocol://host:port (host a name, IPv4 or [IPv6])
_ADDRESS = re.compile(
    r"(tcp|tls|ucx|ws|wss)://[A-Za-z0-9.\-]+:\d{1,5}|(tcp|tls)://\[[0-9a-fA-F:]+\]:\d{1,5}"
)
MAX_CHUNK = 10**12  # cells a task; any value gives the same results


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "sweep",
        help="shot map: outcomes over aim x speed with noisy repeats (Dask)",
        description="Run a sweep spec (TOML or JSON) on a Dask LocalCluster or an existing "
        "scheduler; write sweep.npz and heat-map PNGs to --out.",
    )
    p.add_argument("spec", metavar="SPEC.toml|json", help="sweep spec (docs/sweep.md)")
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=count_arg(0, MAX_WORKERS),
        metavar="N",
        help="worker processes of a local Dask cluster (default: one a core, or this process "
        "only without the sweep extra; 0: no Dask, this process only)",
    )
    where.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler, e.g. tcp://HOST:8786"
    )
    p.add_argument("--out", metavar="DIR", help="output folder (default: SPEC's name + '.sweep')")
    p.add_argument("--json", action="store_true", help="print the cells as JSON; no progress bar")
    p.add_argument(
        "--chunk-cells",
        type=count_arg(1, MAX_CHUNK),
        metavar="N",
        help="cells a task (default: about a second of work or more; results do not depend on it)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .output import DATA_NAME
    from .spec import read_spec

    if args.workers or args.scheduler is not None:  # Dask asked for: the extra or one line first
        from .dask_runner import require_dask

        require_dask("'jamsumo sweep'")
    check_scheduler(args.scheduler)
    spec = read_spec(args.spec)
    folder = Path(args.out) if args.out else Path(Path(args.spec).name).with_suffix(".sweep")
    check_output_path(folder / DATA_NAME, "sweep data file", inputs=[args.spec])
    _check_position(spec, args.spec)
    result = _simulate(spec, args)
    from .output import write_data, write_heat_maps

    data = write_data(result, folder)
    maps = write_heat_maps(result, folder)
    if args.json:
        text = json.dumps(
            {"version": JSON_VERSION, "shots": spec.shots, "cells": result.cells_json()}
        )
        sys.stdout.write(text + "\n")
    else:
        print(f"{spec.shots} shots in {spec.cells} cells -> {data}")
        for path in maps:
            print(f"  heat map {path}")
    return 0


def check_scheduler(address: str | None) -> None:
    """A well-formed address that accepts connections (checked before any slow work)."""
    if address is None:
        return
    if not _ADDRESS.fullmatch(address[:300]):
        raise UserError(f"--scheduler {address[:60]!r} is not an address like tcp://HOST:8786")
    from .dask_runner import check_reachable

    check_reachable(address)


def _check_position(spec, path: str) -> None:
    """Set the position up once here, so a bad die or board is one line before any worker starts."""
    from .batch import ShotRunner

    try:
        ShotRunner(spec.board, spec.die, spec.dice, spec.mode, spec.max_time)
    except UserError as exc:
        raise UserError(f"spec {path}: {spec_dice_names(str(exc))}") from None


_WORLD_DIE_INDEX = re.compile(r"\bdice\[(\d+)\]")


def spec_dice_names(message: str) -> str:
    """The World's position lists the shooter first (batch.scenario_for), so its dice[i] is the
    spec's `die` for i = 0 and the spec's dice[i-1] otherwise: name them as the user wrote them."""

    def spec_name(match: re.Match[str]) -> str:
        i = int(match.group(1))
        return "die" if i == 0 else f"dice[{i - 1}]"

    return _WORLD_DIE_INDEX.sub(spec_name, message)


def _simulate(spec, args):
    """Run the sweep; with Dask, one line says the workers are starting (seconds) and the bar
    shows 0 meanwhile."""
    from ..extras import available
    from .progress import progress_bar

    # without --workers: Dask if the sweep extra is installed, else this process (the same results)
    dask_by_default = args.workers is None and args.scheduler is None
    if args.workers == 0 or (dask_by_default and not available("dask.distributed")):
        from .run import run_serial

        if args.workers is None and not args.json:  # as say_starting's line, when Dask would run
            print(
                "Dask is not installed (the sweep extra): running in this process only",
                file=sys.stderr,
                flush=True,
            )

        with progress_bar(spec.shots, "shot", args.json) as progress:
            return run_serial(spec, args.chunk_cells, progress.update)
    from .dask_runner import client_for, require_dask, run_on
    from .progress import say_starting

    workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    require_dask("'jamsumo sweep'")  # its one-line error before the line saying the workers start
    say_starting(workers, args.scheduler, args.json)
    with (
        progress_bar(spec.shots, "shot", args.json) as progress,  # at 0 while the cluster starts
        client_for(workers, args.scheduler) as client,
    ):
        return run_on(client, spec, args.chunk_cells, progress.update)
