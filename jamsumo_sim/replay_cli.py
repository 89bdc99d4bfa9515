"""`jamsumo replay FILE [--verify]`: check a recorded match, or watch it in the replay viewer."""

from __future__ import annotations

import argparse
import importlib
import sys

from jamsumo_sim.errors import UserError

VIEWER_MODULE = "jamsumo_sim.ui.replay_viewer"


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be ≥ 1")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay",
        help="verify a recorded match or watch it",
        description=(
            "Re-simulate a recorded match (--verify: exit 0 if every shot's rest state matches, "
            "1 naming the first shot that diverges, 2 for a bad file), or open it in the replay viewer."
        ),
    )
    p.add_argument("file", metavar="FILE", help="a replay written by `jamsumo match --record`")
    p.add_argument(
        "--verify", action="store_true", help="re-simulate every shot and compare checksums"
    )
    p.add_argument(
        "--frames", type=_count, metavar="N", help="viewer: stop after N frames (headless runs)"
    )
    p.add_argument("--screenshot", metavar="PATH", help="viewer: save the last frame as a PNG")
    p.add_argument(
        "--speed", type=_positive, default=1.0, metavar="X", help="viewer: playback speed"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.verify:
        from jamsumo_sim.replay import verify_replay

        report = verify_replay(args.file)
        print(report.message, file=sys.stdout if report.ok else sys.stderr)
        return 0 if report.ok else 1
    return int(_viewer().run_viewer(args) or 0)


def _viewer():  # noqa: ANN202 - a module
    """The replay viewer (the UI's module), imported only when needed: pygame is heavy."""
    try:
        return importlib.import_module(VIEWER_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name not in (VIEWER_MODULE, "jamsumo_sim.ui"):
            raise
        raise UserError("the replay viewer is not available in this build (use --verify)") from None
