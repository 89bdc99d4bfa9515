"""`jamsumo calibrate DATA…`: fit friction/restitution to measured shots and write a params file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .errors import UserError
from .fileio import check_output_path, same_file
from .limits import check_count, seed_arg
from .physics.board import load_board
from .physics.params import PhysicsParams
from .physics.params_file import load_params


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate",
        help="fit the model's friction to measurements of a real board",
        description=(
            "Fit friction and restitution to measured shots (rest poses, trajectories, collisions, tilt "
            "tests, filmed tumbles; formats in calibration/README.md) and write a params file for "
            "--params."
        ),
    )
    p.add_argument(
        "data",
        nargs="+",
        metavar="DATA",
        help="measurement CSV files (format recognised from the header)",
    )
    p.add_argument(
        "--board", default="standard", help="board name or TOML file the shots were measured on"
    )
    p.add_argument("--params", help="params file to start from (default: the board's parameters)")
    p.add_argument(
        "--fit",
        metavar="NAMES",
        help="comma-separated parameters to fit (default: those the data constrain), e.g. mu_board,mu_die,restitution",
    )
    p.add_argument(
        "--holdout",
        type=float,
        default=0.0,
        metavar="FRACTION",
        help="fraction of shots held out (0..1)",
    )
    p.add_argument("--out", metavar="PARAMS.toml", help="write the fitted params file here")
    p.add_argument("--plot", metavar="FIT.png", help="draw measured vs simulated shots")
    p.add_argument("--json", action="store_true", help="print the result as JSON (no progress bar)")
    p.add_argument(
        "--seed", type=seed_arg, default=0, help="seed of the holdout split (0 to 2**64-1)"
    )
    p.add_argument(
        "--starts",
        type=int,
        default=3,
        help="number of starting points of the fit (1 to 6, default 3)",
    )
    p.add_argument(
        "--no-angles", action="store_true", help="fit positions only (ignore measured rest angles)"
    )
    p.add_argument("--model", choices=("world", "toy"), default="world", help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .calibration.data import load_all
    from .calibration.limits import MAX_STARTS

    # cheap checks first, before the fitting modules (scipy) load: bad input fails fast
    check_count(args.starts, "--starts", 1, MAX_STARTS)
    if not 0 <= args.holdout < 1:
        raise UserError(f"--holdout must be in [0, 1), got {args.holdout}")
    check_outputs(args)
    board = load_board(args.board)
    base = PhysicsParams.from_board(board)
    if args.params is not None:
        base = load_params(args.params, base)
    files = load_all(args.data, board, base)

    from .calibrate import calibrate, parse_fit_names, write_params
    from .calibration.model import make_simulator

    names = parse_fit_names(args.fit, files)
    sim = make_simulator(board, args.model)

    from tqdm import tqdm

    quiet = args.json or not sys.stderr.isatty()
    with tqdm(desc="calibrating", unit=" sims", disable=quiet, leave=False, file=sys.stderr) as bar:
        cal = calibrate(
            files,
            base,
            sim,
            fit_names=names,
            holdout=args.holdout,
            seed=args.seed,
            starts=args.starts,
            angles=not args.no_angles,
            on_eval=lambda: bar.update(1),
            board=board,
        )
    if args.out is not None:
        write_params(cal, board, args.out)
    if args.plot is not None:
        from .calibration.plot import plot_calibration

        plot_calibration(cal, board, args.plot)
    if args.json:
        print(json.dumps(cal.to_json(), indent=2))
    else:
        print(format_report(cal, args.out, args.plot))
    return 0


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse unwritable outputs, outputs that are inputs, and unknown plot formats: before any work."""
    from .calibration.plot import plot_format

    inputs = [*args.data, args.params]
    if Path(args.board).exists():  # a board file, not a board name
        inputs.append(args.board)
    if args.out is not None:
        check_output_path(args.out, "params file (--out)", inputs)
    if args.plot is not None:
        check_output_path(args.plot, "plot (--plot)", inputs)
        plot_format(args.plot)
        if args.out is not None and same_file(args.out, args.plot):
            raise UserError(f"--out and --plot both name {args.plot}; choose two files")


def format_report(cal, out: str | None = None, plot: str | None = None) -> str:
    """The human-readable summary of a calibration."""
    lines = [f"data: {', '.join(f'{f.name} ({f.kind})' for f in cal.files)}"]
    if cal.shots or "tumble" not in cal.extra:
        lines.append(
            f"shots fitted: {cal.shots}"
            + (f", held out: {cal.holdout_shots}" if cal.holdout_shots else "")
            + (f", tilt trials: {cal.tilt_trials}" if cal.tilt_trials else "")
        )
    for n, e in cal.estimates.items():
        rel = f" ({100 * e.stderr / abs(e.value):.2f} %)" if e.value else ""
        lines.append(f"  {n:<16} {e.value:.5f} ± {e.stderr:.5f}{rel}")
    for (a, b), rho in cal.corr.items():
        lines.append(f"  corr({a}, {b}) = {rho:+.3f}")
    if cal.rms_mm is not None:
        lines.append(f"RMS residual: {cal.rms_mm:.3f} mm")
    if cal.rms_angle_deg is not None:
        lines.append(f"RMS rest-angle residual: {cal.rms_angle_deg:.2f} degrees")
    if cal.holdout_rms_mm is not None:
        lines.append(f"held-out RMS residual: {cal.holdout_rms_mm:.3f} mm")
    if "tumble" in cal.extra:
        t = cal.tumble_json()
        lines.append(
            f"tumbles: {t['shots']} shots in {t['bins']} speed/height bins, cost {t['cost']:.1f} "
            f"(summed squared standard errors of the bin means), {t['evaluations']} evaluations"
        )
    lines.append(f"time: {cal.seconds:.1f} s")
    for w in cal.warnings:
        lines.append(f"warning: {w}")
    if out:
        lines.append(f"wrote {Path(out)}")
    if plot:
        lines.append(f"plotted {Path(plot)}")
    return "\n".join(lines)
