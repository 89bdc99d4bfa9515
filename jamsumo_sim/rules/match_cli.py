"""`jamsumo match`: a headless Jam, Sumo or JamSumo match between bots; prints the result."""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.fileio import check_output_path, write_json
from jamsumo_sim.limits import check_count, seed_arg
from jamsumo_sim.rules.game import MODES
from jamsumo_sim.seeds import SEED_HELP, chosen_seed
from jamsumo_sim.turnloop import Agent, MatchEvent, get_game, play

SEAT_KINDS = ("planner", "random")
# Checkpoints of a recorded match are written at most this often (s of wall time): every shot of a
# thinking bot (about a second each), while fast random bots do not rewrite a growing file
# hundreds of times a second. Every move is still captured and written on Ctrl-C and at the end.
CHECKPOINT_INTERVAL_S = 0.5


def make_agents(game: Any, seats: list[str]) -> list[Agent]:
    """Agents from seat specs: ``random``, ``planner`` or ``planner:easy|normal|hard``."""
    bots = game.bots()
    agents: list[Agent] = []
    for seat, spec in enumerate(seats):
        kind, _, level = spec.partition(":")
        if kind not in bots:
            raise UserError(
                f"unknown seat {spec!r} (use {', '.join(SEAT_KINDS)}, or planner:LEVEL)"
            )
        if level and kind != "planner":
            raise UserError(f"seat {spec!r}: only the planner has levels")
        options = {"level": level} if level else {}
        agents.append(bots[kind](seat, game, **options))
    return agents


def parse_seats(text: str | None, players: int, check: bool = True) -> list[str]:
    if text is None:
        return ["planner"] + ["random"] * (players - 1)
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if check and len(seats) != players:
        raise UserError(f"--seats lists {len(seats)} seats for {players} players")
    return seats


def result_json(state: Any, seats: list[str]) -> dict[str, Any]:
    """The printed result: mode, players, seed, per-round scores, totals and the winner(s)."""
    return {
        "mode": state.game.name,
        "players": state.num_players,
        "seed": state.seed,
        "seats": list(seats),
        "rounds": [
            {"mode": r["mode"], "scores": list(r["scores"]), "capped": bool(r["capped"])}
            for r in state.results
        ],
        "totals": state.totals(),
        "winner": state.winners() if state.is_terminal() else [],
        "finished": state.is_terminal(),
        "turns": sum(1 for e in state.history if "action" in e),
    }


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "match",
        help="play a headless match between bots",
        description="Play a headless Jam, Sumo or JamSumo match between bots and print the result.",
    )
    p.add_argument("--mode", choices=MODES, help="the game to play (default jamsumo)")
    p.add_argument("--players", type=int, help="2-4 (default: as many as --seats lists, else 2)")
    p.add_argument(
        "--seats",
        metavar="LIST",
        help="comma-separated seats: planner[:easy|normal|hard] or random (default planner,random,…)",
    )
    p.add_argument("--seed", type=seed_arg, help=f"the match seed, {SEED_HELP}")
    p.add_argument(
        "--record",
        metavar="FILE",
        help="save the replay here (atomically), and a resumable checkpoint after every shot",
    )
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_size_flags(p)
    p.add_argument(
        "--params", metavar="P.toml", help="physics parameters file (e.g. from calibrate)"
    )
    p.add_argument("--board", help="board name or TOML file (default standard)")
    p.add_argument(
        "--resume", metavar="FILE", help="continue a saved (unfinished) replay, updating it"
    )
    add_noise_flags(p, default="practice")
    p.set_defaults(func=run)


def add_noise_flags(p: argparse.ArgumentParser, default: str) -> None:
    """``--table`` / ``--practice``: the execution-noise level (jamsumo_sim.noise), for every seat."""
    group = p.add_mutually_exclusive_group()
    group.add_argument(
        "--table",
        dest="noise",
        action="store_const",
        const="table",
        help="realistic: every flick is executed with a human hand's spread of speed, direction, "
        "offset and height (assets/noise.toml)" + (" (default)" if default == "table" else ""),
    )
    group.add_argument(
        "--practice",
        dest="noise",
        action="store_const",
        const="practice",
        help="exact: every flick goes where it was aimed"
        + (" (default)" if default == "practice" else ""),
    )


def add_size_flags(p: argparse.ArgumentParser) -> None:
    """``--max-turns`` / ``--rounds``: the match's length (bounds: :func:`_check_sizes`)."""
    p.add_argument("--max-turns", type=int, metavar="N", help="turn cap per round")
    p.add_argument("--rounds", type=int, metavar="N", help="rounds (JamSumo: of each mode)")


def match_params(args: argparse.Namespace, players: int) -> dict[str, Any]:
    """The game parameters the board, size and noise flags ask for (not yet validated)."""
    params: dict[str, Any] = {"players": players, "board": args.board or "standard"}
    if args.max_turns is not None:
        params["max_turns"] = args.max_turns
    if args.rounds is not None:
        params["rounds"] = args.rounds
    params["noise"] = args.noise or "practice"
    return params


_FIXED_BY_RESUME = ("mode", "players", "max_turns", "rounds", "params", "board")


def _record_target(args: argparse.Namespace) -> Path | None:
    """Where the match is saved, checked before any play: ``--record``, else the ``--resume`` file.

    The inputs (params and board files) are never overwritten; the resumed file is updated in place.
    """
    if args.record is None and args.resume is None:
        return None
    flag, target = (
        ("--record", args.record) if args.record is not None else ("--resume", args.resume)
    )
    inputs = [args.params]
    if args.board and Path(args.board).is_file():
        inputs.append(args.board)
    return check_output_path(target, flag, inputs=inputs)


def _check_sizes(args: argparse.Namespace) -> None:
    from jamsumo_sim.replay import MATCH_LIMITS  # the one place of the bounds (replays check them)

    for flag, value, key in (
        ("--max-turns", args.max_turns, "max_turns"),
        ("--rounds", args.rounds, "rounds"),
    ):
        if value is not None:
            check_count(value, flag, *MATCH_LIMITS[key])


def load_resumed(args: argparse.Namespace, fixed: tuple[str, ...]) -> Any:
    """The replay ``--resume`` names. The flags in ``fixed``, a noise level or another --seed
    would change the saved match: they are refused, not ignored."""
    from jamsumo_sim.replay import load_replay

    given = [f"--{k.replace('_', '-')}" for k in fixed if getattr(args, k) is not None]
    if getattr(args, "noise", None) is not None:
        given.append(f"--{args.noise}")
    if given:
        raise UserError(f"--resume continues the saved match as it was: drop {', '.join(given)}")
    replay = load_replay(args.resume)
    if args.seed is not None and args.seed != replay.seed:
        raise UserError(
            f"--resume {args.resume}: the saved match has seed {replay.seed}, not {args.seed} "
            "(a resumed match keeps its seed: drop --seed)"
        )
    return replay


def _resume(args: argparse.Namespace) -> tuple[Any, Any, list[str], list[Agent]]:
    replay = load_resumed(args, _FIXED_BY_RESUME)
    players = int(replay.data["params"]["players"])
    seats = parse_seats(args.seats, players) if args.seats else replay.seats
    agents = make_agents(replay.game, seats)  # before the re-play: a bad seat fails at once
    state = replay.final_state()
    if state.is_terminal():
        raise UserError(
            f"{args.resume}: this match is already finished (watch it with 'jamsumo replay')"
        )
    return state.game, state, seats, agents


def _build(args: argparse.Namespace) -> tuple[Any, Any, list[str], list[Agent]]:
    if args.resume is not None:
        return _resume(args)
    _check_sizes(args)
    game = get_game(args.mode or "jamsumo")
    if args.players is None:
        args.players = len(parse_seats(args.seats, 0, check=False)) if args.seats else 2
    params = match_params(args, args.players)
    if args.params:
        from jamsumo_sim.physics.params_file import load_params

        params["physics"] = load_params(args.params).to_dict()
    full = game.validate_params(params)
    seats = parse_seats(args.seats, args.players)
    agents = make_agents(game, seats)
    seed = chosen_seed(args.seed, "jamsumo", "match")  # kept in the record and the result
    return game, game.new_initial_state(full, seed=seed), seats, agents


class Checkpoint:
    """The match's replay file, kept resumable while the match is played.

    Every move is captured in memory (cheap); the file is rewritten atomically when at least
    :data:`CHECKPOINT_INTERVAL_S` passed since the last write (so after every shot of a thinking
    bot, and a kill loses at most that much play), at the end, and on Ctrl-C. Only states between
    moves are captured: a Ctrl-C may stop a shot half-simulated, and that state is never saved.
    """

    def __init__(self, path: Path, seats: list[str], state: Any) -> None:
        from jamsumo_sim.replay import ReplayRecorder

        self.path = path
        self.recorder = ReplayRecorder(state, seats)
        self.pending: dict[str, Any] | None = None  # captured, not yet (completely) written
        self.written_at = -math.inf

    def capture(self, state: Any, write: bool = False) -> None:
        self.pending = self.recorder.capture(state)
        if write or time.monotonic() - self.written_at >= CHECKPOINT_INTERVAL_S:
            self.flush()

    def flush(self) -> None:
        if self.pending is not None:
            write_json(self.path, self.recorder.document(self.pending), "replay")
            self.pending = None  # only once the file is whole (an interrupted write keeps it)
            self.written_at = time.monotonic()


def run(args: argparse.Namespace) -> int:
    record = _record_target(args)
    game, state, seats, agents = _build(args)
    checkpoint = Checkpoint(record, seats, state) if record is not None else None
    if checkpoint is not None:
        checkpoint.capture(state, write=True)  # resumable from the first moment
    quiet = args.json or not sys.stderr.isatty()
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(
            desc=f"{game.title} seed {state.seed}", unit="turn", file=sys.stderr, leave=False
        )
    stopped = False
    interrupted = False

    def on_sigint(_signum: int, _frame: Any) -> None:
        # Ctrl-C only sets a flag, acted on after the move in play: an exception raised at an
        # arbitrary point can land in a C library's finaliser, which swallows it; a second
        # Ctrl-C stops at once
        nonlocal interrupted
        if interrupted:
            raise KeyboardInterrupt
        interrupted = True

    def on_event(event: MatchEvent) -> None:
        if "action" in event.entry:
            if bar is not None:
                bar.update(1)
            if checkpoint is not None:
                checkpoint.capture(event.state)
        if interrupted:
            raise KeyboardInterrupt

    def on_stop(_state: Any, _path: str | None) -> None:
        # the driver's Ctrl-C (or a quit): the state may be mid-shot, so keep the checkpoint
        nonlocal stopped
        stopped = True

    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, on_sigint) if main_thread else None
    try:
        result = play(
            game, agents, seed=state.seed, state=state, on_event=on_event, on_save=on_stop
        )
        stopped = stopped or result.stopped or interrupted
    except KeyboardInterrupt:
        stopped = True
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if bar is not None:
            bar.close()
    if stopped:
        return _interrupted(checkpoint)
    final = result.state
    if checkpoint is not None:
        checkpoint.capture(final, write=True)
    summary = result_json(final, seats)
    if args.json:
        print(json.dumps(summary))
        return 0
    names = [final.seat_name(s) for s in range(final.num_players)]
    print(
        f"{game.title}, {final.num_players} players, seed {final.seed}: "
        + ", ".join(f"{n}={s}" for n, s in zip(names, seats, strict=True))
    )
    print(score_lines(game.name, names, summary))
    print("  winner: " + " and ".join(names[s] for s in summary["winner"]))
    if record is not None:
        print(f"  replay written to {record}")
    return 0


def score_lines(game_mode: str, names: list[str], summary: dict[str, Any]) -> str:
    """The printed score table, in the words every display uses (rules.scoring.score_words)."""
    from jamsumo_sim.rules import scoring

    words = scoring.score_words(game_mode)
    lines = []
    for k, r in enumerate(summary["rounds"], 1):
        cap = " (turn cap reached: scored as it stood)" if r["capped"] else ""
        table = ", ".join(f"{n} {v}" for n, v in zip(names, r["scores"], strict=True))
        line = f"  round {k} {r['mode']}: {scoring.round_word(r['mode'])} {table}"
        if game_mode == "jamsumo":  # what the round adds to the score, signed
            signed = (scoring.signed_text(game_mode, r["mode"], v) for v in r["scores"])
            line += " → " + ", ".join(f"{n} {v}" for n, v in zip(names, signed, strict=True))
        lines.append(line + cap)
    totals = (scoring.number_text(v) for v in summary["totals"])
    lines.append(
        f"  {words.headline}: " + ", ".join(f"{n} {v}" for n, v in zip(names, totals, strict=True))
    )
    return "\n".join(lines)


def _interrupted(checkpoint: Checkpoint | None) -> int:
    """Ctrl-C: finish writing the last whole move and say where the match is (exit 130)."""
    if checkpoint is None:
        print(
            "jamsumo: interrupted; the match was not saved (give --record FILE to keep a "
            "resumable match; the same command and seed replay it from the start)",
            file=sys.stderr,
        )
        return 130
    checkpoint.flush()
    print(
        f"jamsumo: interrupted; the match is saved in {checkpoint.path} "
        f"(continue it with: jamsumo match --resume {checkpoint.path})",
        file=sys.stderr,
    )
    return 130
