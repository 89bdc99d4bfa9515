"""`jamsumo validate [--quick] [--board B] [--params P.toml] [--finger pad|point] [--ensemble N]
[--plot F.png] [--json]`: the game's die against the full-3D reference (the ``reference`` extra: MuJoCo)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..errors import UserError
from ..fileio import check_output_path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "validate",
        help="check the game's die against a full-3D reference (needs the reference extra)",
        description=(
            "Run a grid of flicks (speed x strike height x offset), jittered hard high flicks and "
            "two-die hits in the game and in a full-3D MuJoCo reference of the same die, board "
            "parameters and finger; print the agreement table (docs/physics.md)."
        ),
    )
    p.add_argument("--quick", action="store_true", help="a small set (under a minute of CPU)")
    p.add_argument("--board", default="standard", metavar="B", help="board name or file")
    p.add_argument("--params", metavar="PARAMS.toml", help="parameter file (e.g. from calibration)")
    p.add_argument(
        "--finger",
        choices=("pad", "point"),  # assets/fingers.toml (tests/validate check they agree)
        help="another finger in both models (assets/fingers.toml; default: the board file's nail)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the jittered flicks (default 0)")
    p.add_argument(
        "--ensemble",
        type=_count,
        metavar="N",
        help="jittered hard high flicks in the full set (default 200, validate.grid.ENSEMBLE: at "
        "50 two samples of one distribution lie as far apart as the bar)",
    )
    p.add_argument("--plot", metavar="FILE.png", help="write the agreement plot here")
    p.add_argument("--json", action="store_true", help="print JSON instead of the table")
    p.set_defaults(func=run)


def _count(text: str) -> int:
    """A whole number of flicks, 1..100000 (argparse's one-line error otherwise)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text[:30]!r}") from None
    if not 1 <= n <= 100_000:
        raise argparse.ArgumentTypeError(f"must be 1 to 100000, got {n}")
    return n


def run(args: argparse.Namespace) -> int:
    from ..extras import require

    require("mujoco", "reference", "'jamsumo validate'")
    from ..physics.board import load_board
    from ..physics.params import PhysicsParams
    from ..physics.params_file import load_params
    from ..reference.config import load_config
    from ..sweep.progress import progress_bar
    from .compare import summarise
    from .fingers import load_fingers
    from .grid import flat_board, plan
    from .plot import write_plot
    from .runner import run_plan, units
    from .table import render

    if args.plot:
        check_output_path(args.plot)
    board = load_board(args.board)
    params = PhysicsParams.from_board(board)
    if args.params:
        params = load_params(args.params, base=params)
    cfg = load_config()
    if args.finger:
        params, cfg = load_fingers()[args.finger].apply(params, cfg)
    the_plan = plan(args.quick) if args.ensemble is None else plan(args.quick, args.ensemble)
    with progress_bar(units(the_plan), "shot", quiet=args.json or args.quick) as bar:
        res = run_plan(the_plan, flat_board(board), params, cfg, args.seed, lambda: bar.update(1))
    summary = summarise(res)
    summary["finger"] = args.finger or "board"
    summary["quick"] = bool(args.quick)
    summary["reference"] = {
        "dt": cfg.step.dt,
        "grid": cfg.contacts.grid,
        "timeconst": cfg.contacts.timeconst,
        "finger_contact_time": cfg.finger.contact_time,
    }
    if args.plot:
        write_plot(summary, Path(args.plot))
    if args.json:
        json.dump(summary, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print(render(summary))
    if not res.cells:
        raise UserError("nothing to compare")
    return 0
