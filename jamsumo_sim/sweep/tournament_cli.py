"""`jamsumo tournament` and `card-games tournament GAME`: a bot line-up plays many matches, seats
rotated, here or on Dask; a table, a plot and a JSON file of every match (docs/sweep.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..errors import UserError
from ..fileio import check_output_path, write_atomic, write_json
from ..limits import count_arg, seed_arg
from ..seeds import SEED_HELP, chosen_seed
from .bounds import MAX_MATCHES, MAX_WORKERS

if TYPE_CHECKING:
    from .tournament import TournamentSpec

RESULTS_NAME = "tournament.json"
# `jamsumo tournament`'s default: about a minute here (the default line-up's match takes ~1.7 s of
# CPU on the 2-core development machine; 100 took 3 minutes and more); card games keep 100
# (The Jam's 100 take ~30 s, the others' a few)
JAMSUMO_MATCHES = 30
PLOT_NAME = "tournament.png"


def add_common_flags(p: argparse.ArgumentParser, matches: int = 100) -> None:
    """The flags both tournaments take; ``matches`` is the default of --matches."""
    p.add_argument("--seats", metavar="LIST", help="the bot line-up, comma-separated, one a seat")
    p.add_argument(
        "--matches",
        type=count_arg(1, MAX_MATCHES),
        default=matches,
        metavar="N",
        help=f"default {matches}",
    )
    p.add_argument("--seed", type=seed_arg, help=SEED_HELP)
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=count_arg(0, MAX_WORKERS),
        metavar="N",
        help="worker processes of a local Dask cluster (default 0: this process only)",
    )
    where.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler, tcp://HOST:8786")
    p.add_argument("--out", metavar="DIR", help=f"write {RESULTS_NAME} and {PLOT_NAME} here")
    p.add_argument("--json", action="store_true", help="print the summary as JSON; no progress bar")


def register(subparsers: argparse._SubParsersAction) -> None:
    """`jamsumo tournament`."""
    from ..rules.game import MODES
    from ..rules.match_cli import add_noise_flags

    p = subparsers.add_parser(
        "tournament",
        help="many bot matches, seats rotated: win rates with 95%% CIs and ratings",
        description="Play a bot line-up against itself many times (Jam, Sumo or JamSumo).",
    )
    p.add_argument("--mode", choices=MODES, default="jamsumo", help="default jamsumo")
    p.add_argument("--rounds", type=int, metavar="N", help="rounds (JamSumo: of each mode)")
    p.add_argument("--max-turns", type=int, metavar="N", help="turn cap per round")
    p.add_argument("--board", help="board name or TOML file (default standard)")
    add_noise_flags(p, default="practice")
    add_common_flags(p, matches=JAMSUMO_MATCHES)
    p.set_defaults(func=run_jamsumo)


def run_jamsumo(args: argparse.Namespace) -> int:
    from ..rules.match_cli import _check_sizes
    from ..turnloop import get_game

    _check_sizes(args)
    game = get_game(args.mode)
    lineup = _lineup(args.seats, default_lineup(game, "planner"))
    params: dict[str, Any] = {"players": len(lineup), "board": args.board or "standard"}
    if args.max_turns is not None:
        params["max_turns"] = args.max_turns
    if args.rounds is not None:
        params["rounds"] = args.rounds
    params["noise"] = args.noise or "practice"
    return run_common(args, args.mode, lineup, game.validate_params(params), "jamsumo")


def run_cards(args: argparse.Namespace, game: Any) -> int:
    """`card-games tournament GAME` (card_games.cli hands over the resolved game)."""
    lineup = _lineup(args.seats, default_lineup(game, "smart"))
    params = game.default_params(len(lineup), args.variant)
    params = game.validate_params({**params, "players": len(lineup)})
    return run_common(args, game.name, lineup, params, "card-games")


def default_lineup(game: Any, best: str) -> str:
    """The line-up without --seats: the game's ``best`` bot (if it has one) and random bots in
    the other seats, as many seats as the game needs at least (two or more)."""
    seats = max(2, game.min_players)
    first = best if best in game.bots() else "random"
    return ",".join([first] + ["random"] * (seats - 1))


def _lineup(text: str | None, default: str) -> tuple[str, ...]:
    names = tuple(s.strip() for s in (default if text is None else text).split(",") if s.strip())
    if not names or len(names) > 16:
        raise UserError("--seats must list 1 to 16 bots, comma-separated")
    return names


def run_common(
    args: argparse.Namespace,
    game: str,
    lineup: tuple[str, ...],
    params: dict[str, Any],
    program: str,
) -> int:
    """Play the tournament of ``game`` (registry name) and report it; ``program`` names the
    command in the line that states a fresh seed."""
    from .cli import check_scheduler
    from .tournament import TournamentSpec, check, plot, summarise, table

    if args.workers or args.scheduler is not None:  # Dask asked for: the extra or one line first
        from .dask_runner import require_dask

        require_dask(f"'{program} tournament'")
    check_scheduler(args.scheduler)
    check(TournamentSpec(game, lineup, args.matches, 0, params))  # the seed plays no part in it
    folder = Path(args.out) if args.out else None
    if folder is not None:
        check_output_path(folder / RESULTS_NAME, "tournament results")
    # drawn once the arguments are checked (an error stays the only line); kept in the summary
    seed = chosen_seed(args.seed, program, "tournament")
    spec = TournamentSpec(game, lineup, args.matches, seed, params)
    records = _play(spec, args, program)
    summary = summarise(spec, records)
    if folder is not None:
        write_json(
            folder / RESULTS_NAME,
            {**summary, "program_version": __version__, "spec": spec.to_json(), "records": records},
            "tournament results",
        )
        write_atomic(folder / PLOT_NAME, plot(summary), "tournament plot")
    if args.json:
        sys.stdout.write(json.dumps(summary) + "\n")
    else:
        print(table(summary))
        if summary["unfinished"]:
            print(f"({summary['unfinished']} matches hit the move cap and are not counted)")
        if folder is not None:  # as `jamsumo sweep` does: say where the files went
            print(f"wrote {folder / RESULTS_NAME} and {folder / PLOT_NAME}")
    return 0


def _play(spec: TournamentSpec, args: argparse.Namespace, program: str) -> list[dict[str, Any]]:
    """Every match's record; a bar on a terminal, and a line with the expected time once the first
    match (or Dask task) is done."""
    from ..rules.game import MODES
    from .dask_runner import client_for, require_dask, worker_count
    from .progress import Estimate, progress_bar, say_starting
    from .tournament import run_tournament

    if not args.workers and args.scheduler is None:
        if spec.game in MODES:  # load (or compile) the physics kernels first: the first match's
            from ..physics import warm_up  # time is then a fair sample for the estimate

            warm_up()
        with progress_bar(spec.matches, "match", args.json) as bar:
            progress = Estimate(bar, spec.matches, "matches", program, args.json)
            return run_tournament(spec, None, progress.update)
    workers = args.workers or os.cpu_count() or 1
    require_dask()  # its one-line error before the line saying the workers start
    say_starting(workers, args.scheduler, args.json)
    with (
        progress_bar(spec.matches, "match", args.json) as bar,  # at 0 while the cluster starts
        client_for(workers, args.scheduler, physics=spec.game in MODES) as client,
    ):
        progress = Estimate(bar, spec.matches, "matches", program, args.json, worker_count(client))
        return run_tournament(spec, client, progress.update)
