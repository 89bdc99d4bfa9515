"""`jamsumo replay FILE [--verify]`: check a recorded match, or watch it in the replay viewer."""

from __future__ import annotations

import argparse
import importlib
import math
import sys

from jamsumo_sim.errors import UserError
from jamsumo_sim.fileio import check_output_path
from jamsumo_sim.limits import count_arg

VIEWER_MODULE = "jamsumo_sim.ui.replay_viewer"


# The viewer's playback speed and headless frame count: a slow-motion study to a fast skim, and
# far more frames (1/60 s each) than any match lasts.
SPEED_RANGE = (0.01, 100.0)
MAX_FRAMES = 1_000_000


def _speed(text: str) -> float:
    low, high = SPEED_RANGE
    try:
        value = float(text) if len(text) <= 30 else math.nan
    except ValueError:
        value = math.nan
    if not low <= value <= high:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"must be a number from {low:g} to {high:g}, not {text[:30]!r}"
        )
    return value


_frames = count_arg(1, MAX_FRAMES)


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
        "--frames", type=_frames, metavar="N", help="viewer: stop after N frames (headless runs)"
    )
    p.add_argument("--screenshot", metavar="PATH", help="viewer: save the last frame as a PNG")
    p.add_argument("--speed", type=_speed, default=1.0, metavar="X", help="viewer: playback speed")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.screenshot is not None and not args.verify:  # before loading and re-playing
        check_output_path(args.screenshot, "--screenshot", inputs=[args.file], suffixes=[".png"])
    if args.verify:
        from jamsumo_sim.replay import verify_replay

        with _ShotsBar() as bar:
            report = verify_replay(args.file, progress=bar.step)
        print(report.message, file=sys.stdout if report.ok else sys.stderr)
        return 0 if report.ok else 1
    return int(_viewer().run_viewer(args) or 0)


class _ShotsBar:
    """Shots re-simulated of the total, on stderr while --verify works (a shot can take a second);
    drawn only when stderr is a terminal, so piped and redirected output stays the report alone."""

    def __init__(self) -> None:
        from tqdm import tqdm

        self.bar = tqdm(unit="shot", file=sys.stderr, disable=None, leave=False, desc="verify")

    def step(self, done: int, total: int) -> None:
        if self.bar.total != total:
            self.bar.total = total
        self.bar.update(done - self.bar.n)

    def __enter__(self) -> _ShotsBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.close()


def _viewer():  # noqa: ANN202 - a module
    """The replay viewer (the UI's module), imported only when needed: pygame is heavy."""
    try:
        return importlib.import_module(VIEWER_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name not in (VIEWER_MODULE, "jamsumo_sim.ui"):
            raise
        raise UserError("the replay viewer is not available in this build (use --verify)") from None
