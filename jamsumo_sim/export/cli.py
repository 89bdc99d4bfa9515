"""`jamsumo export REPLAY --shot N|--all --out FILE`: a shot or a match as MP4, GIF, HTML or PNG.

Everything that can be wrong (the replay, the shot number, the output path, the encoder, a video of
too many frames: module budget) is one line on stderr before any frame is rendered.
"""

from __future__ import annotations

import argparse
import sys

from jamsumo_sim import __version__
from jamsumo_sim.errors import UserError
from jamsumo_sim.export import options as opt
from jamsumo_sim.fileio import check_output_path
from jamsumo_sim.limits import count_arg
from jamsumo_sim.replay import load_replay

_fps = count_arg(*opt.FPS_RANGE)
_shot = count_arg(1, 1_000_000)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "export",
        help="share a shot: MP4, GIF, a self-contained HTML page or a PNG",
        description=(
            "Render recorded shots as the window draws them. By the --out file's ending: .mp4 "
            "(H.264) or .gif, a video of the shot(s); .html, one self-contained page replaying "
            "the match (works offline); .png, the shot's rest state with its trajectories."
        ),
    )
    p.add_argument("replay", metavar="REPLAY", help="a replay written by `jamsumo match --record`")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--shot", type=_shot, metavar="N", help="the shot to export (1 = first)")
    which.add_argument("--all", action="store_true", help="every shot (the default for a page)")
    p.add_argument("--out", required=True, metavar="FILE", help="output: .mp4, .gif, .html or .png")
    p.add_argument(
        "--size",
        type=opt.size_arg,
        default=opt.DEFAULT_SIZE,
        metavar="WxH",
        help="picture size in pixels (default 960x600)",
    )
    p.add_argument(
        "--fps", type=_fps, metavar="N", help="video frames per second (default 30; GIF 25)"
    )
    p.add_argument(
        "--speed",
        type=opt.number_arg(*opt.SPEED_RANGE, "--speed"),
        default=1.0,
        metavar="X",
        help="playback speed: 0.25 = four times slower than real time (default 1)",
    )
    p.add_argument(
        "--trails",
        type=opt.number_arg(*opt.SECONDS_RANGE, "--trails"),
        default=None,
        metavar="S",
        help="seconds of trail behind moving dice, 0 for none (default: the window's)",
    )
    p.add_argument(
        "--hold",
        type=opt.number_arg(*opt.SECONDS_RANGE, "--hold"),
        default=opt.DEFAULT_HOLD,
        metavar="S",
        help=f"seconds of still picture before and after each shot (default {opt.DEFAULT_HOLD:g})",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _trail_default() -> float:
    from jamsumo_sim.ui.theme import load_theme

    return float(load_theme().section("shot_fx").get("trail_time", 0.35))


def run(args: argparse.Namespace) -> int:
    if args.out.lower().endswith(".mp4"):  # the export extra, or one line naming it, first
        from jamsumo_sim.export.encode import require_mp4

        require_mp4("'jamsumo export' to .mp4")
    out = check_output_path(args.out, "--out", inputs=[args.replay], suffixes=opt.FORMATS)
    suffix = out.suffix.lower()
    if args.shot is None and not args.all and suffix != ".html":
        raise UserError(f"--out {out}: choose the shot with --shot N (or --all for every shot)")
    if args.all and suffix == ".png":
        raise UserError(f"--out {out}: a PNG shows one shot; choose it with --shot N")
    fps = args.fps if args.fps is not None else opt.DEFAULT_FPS.get(suffix, 30)
    if suffix == ".gif" and fps > opt.GIF_MAX_FPS:
        raise UserError(f"--fps {fps}: a GIF plays at most {opt.GIF_MAX_FPS} frames a second")
    replay = load_replay(args.replay)
    count = len(replay.shots)
    if count == 0:
        raise UserError(f"{replay.path}: the replay has no shots to export")
    if args.shot is not None and args.shot > count:
        raise UserError(f"--shot {args.shot}: {replay.path} has {count} shot{'s' * (count != 1)}")
    if suffix == ".mp4":
        from jamsumo_sim.export.encode import check_mp4

        check_mp4()
    trails = args.trails if args.trails is not None else _trail_default()
    from jamsumo_sim.export import export

    wanted = None if (args.all or args.shot is None or suffix == ".html") else args.shot
    message = export.export(
        replay,
        out,
        suffix,
        wanted,
        args.size,
        fps,
        args.speed,
        trails,
        args.hold,
        progress=not args.quiet,
        start_shot=args.shot or 1,
        version=__version__,
    )
    print(message, file=sys.stdout)
    return 0
