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
from typing import NoReturn

from jamsumo_sim import __version__, compile_notice
from jamsumo_sim.errors import UserError
from jamsumo_sim.fileio import refuse_empty_outputs

# Subcommand modules, in the order `--help` lists them.
SUBCOMMAND_MODULES: tuple[str, ...] = (
    "jamsumo_sim.ui.cli",  # play
    "jamsumo_sim.rules.match_cli",  # match
    "jamsumo_sim.replay_cli",  # replay
    "jamsumo_sim.scenario",  # sim
    "jamsumo_sim.calibrate_cli",  # calibrate
    "jamsumo_sim.video.cli",  # markers, track
    "jamsumo_sim.sweep.cli",  # sweep
    "jamsumo_sim.sweep.tournament_cli",  # tournament
    "jamsumo_sim.export.cli",  # export (issue 23)
    "jamsumo_sim.net.cli",  # host, join (issue 24)
    "jamsumo_sim.validate.cli",  # validate (issue 33)
)


class OneLineParser(argparse.ArgumentParser):
    """argparse with its usage errors on one line (exit 2), like every other bad input here.

    Subcommand parsers are of the same class (argparse makes them with ``type(parent)``).
    """

    def error(self, message: str) -> NoReturn:
        first = message.splitlines()[0] if message.strip() else "bad arguments"
        self.exit(2, f"{self.prog}: error: {first} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="jamsumo",
        description="JamSumo: flick dice on a simulated wooden board — play, replay, simulate, calibrate.",
    )
    parser.add_argument("--version", action="version", version=f"jamsumo {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        # every module is part of the package and imports nothing optional (jamsumo_sim/extras.py):
        # a failure here is a bug to show, never a command to leave out of --help
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # a cold kernel cache compiles for ~15 s before the first step: one line says so (no import
    # of numba here; nothing when the kernels load from the cache); a sweep, and Dask's client
    # before its workers start, also compile the lone-die kernels
    dask = bool(getattr(args, "workers", None)) or getattr(args, "scheduler", None) is not None
    both = args.command == "sweep" or dask
    seconds = compile_notice.SWEEP_SECONDS if both else compile_notice.PHYSICS_SECONDS
    try:
        refuse_empty_outputs(args)  # `--out ""` is an error everywhere, not the default output
        with compile_notice.announcing(seconds):
            return int(args.func(args))
    except UserError as exc:
        text = " ".join(str(exc).split("\n"))  # one line, whatever the message
        print(f"jamsumo: error: {text}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("jamsumo: interrupted", file=sys.stderr)
        return 130
    except RecursionError:  # an input nested deeper than a reader expected: the input's fault
        print("jamsumo: error: an input is nested too deeply to read", file=sys.stderr)
        return 2
    except MemoryError:  # checks bound every size we know of; this is the last line of defence
        print(
            "jamsumo: error: out of memory: an input, count or size is far too large",
            file=sys.stderr,
        )
        return 2
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
