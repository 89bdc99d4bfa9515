"""`card-games host GAME` and `card-games join URL`: a card game across a network.

The host deals, checks and records (jamsumo_sim.net.host); a client sees only its seat's
observation and plays it with a bot (``--bot``) or, without one, at this terminal.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

from card_games.registry import CARD_GAMES, resolve
from card_games.wording import winners_phrase
from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import count_arg, seed_arg
from jamsumo_sim.net import run
from jamsumo_sim.seeds import SEED_HELP, chosen_seed
from jamsumo_sim.turnloop import Game, State
from jamsumo_sim.turnloop.agents import Agent
from jamsumo_sim.turnloop.recording import load_record, result_summary, save_record

REMOTE = "remote"
STAND_IN = "smart"  # plays a seat whose player left (``--on-leave bot``)
# the record is rewritten at most this often (and at the end); every move is in its journal at once
RECORD_INTERVAL_S = 0.5


def register(sub: argparse._SubParsersAction) -> None:
    h = sub.add_parser("host", help="host a game that players join over the network")
    h.add_argument("game", nargs="?", help=f"one of: {', '.join(CARD_GAMES)}")
    h.add_argument("--players", type=count_arg(0, 999))
    h.add_argument("--seats", help="comma-separated: remote, smart, random, … (one per player)")
    h.add_argument("--seed", type=seed_arg, help=f"kept on the host, {SEED_HELP}")
    h.add_argument("--variant")
    h.add_argument("--record", help="save the game to this JSON file as it goes")
    h.add_argument("--resume", metavar="FILE", help="host a saved (unfinished) game onwards")
    run.add_host_flags(h)
    h.add_argument(
        "--web",
        action="store_true",
        help="also serve a page on the same port: players join from a browser (docs/network.md)",
    )
    h.set_defaults(func=cmd_host)

    j = sub.add_parser("join", help="join a hosted card game")
    run.add_join_flags(j)
    j.add_argument("--bot", metavar="KIND", help="a bot plays the seat (smart, random); else you")
    j.set_defaults(func=cmd_join)


def result_object(state: State) -> dict[str, Any]:
    """The object `card-games play --json` prints for a finished game."""
    from card_games.terminal.display import builder

    report = builder(state.game).report(state)
    return {
        "game": state.game.name,
        "players": state.num_players,
        "seed": state.seed,
        "variant": state.params.get("variant"),
        **result_summary(state),
        "end": state.end_code(),
        "breakdown": report["breakdown"],
        "reveal": report["reveal"],
    }


def _bot(game: Game, kind: str, seat: int) -> Agent:
    bots = game.bots()
    if kind not in bots:
        raise UserError(f"unknown bot {kind!r} for {game.title} (choose from {', '.join(bots)})")
    return bots[kind](seat, game)


def _setup(args: argparse.Namespace) -> tuple[Game, State, list[str], dict[int, Agent]]:
    """The game, its state, the seats and the host's own bots."""
    if args.resume is not None:
        state, data = load_record(args.resume)
        if state.is_terminal():
            raise UserError(f"{args.resume}: this game is already finished")
        if args.seed is not None and args.seed != state.seed:
            raise UserError(
                f"--resume {args.resume}: the saved game has seed {state.seed}, not {args.seed} "
                "(a resumed game keeps its seed: drop --seed)"
            )
        seats = _seats(args.seats, state.num_players) if args.seats else list(data["seats"])
        return state.game, state, seats, _local_bots(state.game, seats)
    if args.game is None or args.players is None:
        raise UserError("name the GAME and --players (or --resume FILE)")
    game = resolve(args.game)
    params = game.validate_params(
        {"players": args.players, "variant": args.variant or game.variants[0]}
    )
    seats = _seats(args.seats, args.players) if args.seats else [REMOTE] * args.players
    agents = _local_bots(game, seats)  # bad seats fail before a seed is drawn and said
    # said on the host's stderr only: clients get the seed in the result, once the game is over
    seed = chosen_seed(args.seed, "card-games")
    return game, game.new_initial_state(params, seed=seed), seats, agents


def _local_bots(game: Game, seats: list[str]) -> dict[int, Agent]:
    agents = {s: _bot(game, kind, s) for s, kind in enumerate(seats) if kind != REMOTE}
    if REMOTE not in seats:
        raise UserError("--seats names no remote seat: use 'card-games play' for bots alone")
    return agents


def _seats(text: str, players: int) -> list[str]:
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if len(seats) != players:
        raise UserError(f"--seats lists {len(seats)} seats for a {players}-player game")
    return seats


def cmd_host(args: argparse.Namespace) -> int:
    run.require_net("card-games host")
    from jamsumo_sim.fileio import check_output_path
    from jamsumo_sim.net.host import Host

    options = run.host_options(args)
    options.web = args.web
    target = args.record or args.resume
    record = Path(check_output_path(target, "--record")) if target is not None else None
    game, state, seats, agents = _setup(args)
    journal, resumed = run.open_journal(record, state, args.resume is not None)
    written = [-math.inf]

    def on_move(current: State, final: bool) -> None:
        if record is not None and (final or time.monotonic() - written[0] >= RECORD_INTERVAL_S):
            save_record(record, current, seats)
            written[0] = time.monotonic()

    if record is not None:
        save_record(record, state, seats)
    stand = STAND_IN if STAND_IN in game.bots() else "random"
    host = Host(
        state,
        seats,
        agents,
        lambda seat: _bot(game, stand, seat),
        result_object,
        options,
        on_move,
        journal=journal,
        tokens=resumed.tokens,
        match=resumed.match,
    )
    result = run.run_host(host)
    run.print_result(result, args.json, _line(result))
    return 0


def _line(result: dict[str, Any]) -> str:
    scores = ", ".join(f"seat {s}: {v:g}" for s, v in enumerate(result.get("scores", [])))
    winners = winners_phrase(result.get("winner", []))
    return f"{result.get('game')}: {scores}. {winners} after {result.get('turns')} turns."


def cmd_join(args: argparse.Namespace) -> int:
    run.require_net("card-games join")
    from jamsumo_sim.net.client import Client

    options = run.join_options(args)
    kind = args.bot

    typed: list[Any] = []  # the terminal's input, once the client exists

    def make_agent(game: Game, seat: int) -> Agent:
        if kind is not None:
            return _bot(game, kind, seat)
        from jamsumo_sim.turnloop import ConsoleAgent

        return ConsoleAgent(seat, game, stdin=typed[0], stdout=sys.stdout)

    client = Client(args.url, options, None if options.spectate else make_agent)
    if kind is None:  # a person at the terminal: presence lines, /say and /who
        from jamsumo_sim.net.terminal import attach

        typed.append(attach(client))
    result = run.run_client(client)
    run.print_result(result, args.json, _line(result))
    return 0
