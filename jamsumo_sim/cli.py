"""`jamsumo`: simulate scenarios, play and replay matches, calibrate friction.

Each subcommand lives in its own module with a ``register(subparsers)`` function; this file
only assembles them and turns a :class:`UserError` into one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from jamsumo_sim import __version__
from jamsumo_sim.errors import UserError

# Subcommand modules, in the order `--help` lists them.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "jamsumo_sim.ui.cli",  # play
    "jamsumo_sim.rules.match_cli",  # match
    "jamsumo_sim.replay_cli",  # replay
    "jamsumo_sim.scenario",  # sim
    "jamsumo_sim.calibrate_cli",  # calibrate
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jamsumo",
        description="JamSumo: flick dice on a simulated wooden board — play, replay, simulate, calibrate.",
    )
    parser.add_argument("--version", action="version", version=f"jamsumo {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a real import error inside the module: show it
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except UserError as exc:
        print(f"jamsumo: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("jamsumo: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
