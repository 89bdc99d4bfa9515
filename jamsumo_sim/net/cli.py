"""`jamsumo host` and `jamsumo join`: a Jam, Sumo or JamSumo match across a network."""

from __future__ import annotations

import argparse
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import seed_arg
from jamsumo_sim.net import run
from jamsumo_sim.net.options import JoinOptions
from jamsumo_sim.rules.game import MODES
from jamsumo_sim.rules.match_cli import (
    Checkpoint,
    add_noise_flags,
    add_size_flags,
    load_resumed,
    make_agents,
    match_params,
    result_json,
    score_lines,
)
from jamsumo_sim.seeds import SEED_HELP, chosen_seed
from jamsumo_sim.turnloop import Agent, Game, State, get_game

REMOTE = "remote"
DEFAULT_SEATS = "remote,planner"
STAND_IN = "planner:easy"  # plays a seat whose player left (``--on-leave bot``)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "host",
        help="host a match that players join over the network",
        description="Host a Jam, Sumo or JamSumo match: remote seats are taken by `jamsumo join`.",
    )
    p.add_argument("--mode", choices=MODES, help="the game (default jamsumo)")
    p.add_argument(
        "--seats",
        metavar="LIST",
        help="comma-separated: remote, planner[:LEVEL] or random (default remote,planner; "
        "with --resume the saved match's seats)",
    )
    p.add_argument("--seed", type=seed_arg, help=f"the match seed, kept on the host, {SEED_HELP}")
    p.add_argument("--record", metavar="FILE", help="save the replay here as the match goes")
    p.add_argument("--resume", metavar="FILE", help="host a saved (unfinished) replay onwards")
    add_size_flags(p)
    p.add_argument("--board", help="board name or TOML file (default standard)")
    add_noise_flags(p, default="practice")
    run.add_host_flags(p)
    p.add_argument(
        "--web",
        action="store_true",
        help="also serve a page on the same port: players join from a browser (docs/network.md)",
    )
    p.set_defaults(func=cmd_host)

    j = subparsers.add_parser(
        "join",
        help="join a hosted match",
        description="Join a hosted match: you play in the window (or with --terminal, or with no "
        "display, at the terminal); with --bot a bot plays the seat (headless).",
    )
    run.add_join_flags(j)
    j.add_argument("--bot", metavar="KIND", help="planner[:easy|normal|hard] or random")
    j.add_argument(
        "--terminal", action="store_true", help="type flicks at the terminal, not in the window"
    )
    j.set_defaults(func=cmd_join)


def split_seats(text: str) -> list[str]:
    seats = [s.strip() for s in text.split(",") if s.strip()]
    if len(seats) > 8:
        raise UserError(f"--seats lists {len(seats)} seats; at most 8")
    return seats


def local_agents(game: Game, seats: list[str]) -> dict[int, Agent]:
    """The host's own bots: every seat that is not ``remote``."""
    stand = [s if s != REMOTE else "random" for s in seats]
    agents = make_agents(game, stand)
    return {s: a for s, a in enumerate(agents) if seats[s] != REMOTE}


_FIXED_BY_RESUME = ("mode", "max_turns", "rounds", "board")  # as `jamsumo match --resume`


def _resumed(args: argparse.Namespace) -> tuple[Game, State, list[str]]:
    """The saved match to host onwards; flags that would change it are refused, not ignored."""
    replay = load_resumed(args, _FIXED_BY_RESUME)
    seats = split_seats(args.seats) if args.seats is not None else list(replay.seats)
    state = replay.final_state()
    if state.is_terminal():
        raise UserError(f"{args.resume}: this match is already finished")
    if len(seats) != state.num_players:
        raise UserError(f"--seats lists {len(seats)} seats for {state.num_players} players")
    return state.game, state, seats


def _state(args: argparse.Namespace, game: Game, seats: list[str]) -> State:
    full = game.validate_params(match_params(args, len(seats)))
    # said on the host's stderr only: clients get the seed in the result, once the match is over
    return game.new_initial_state(full, seed=chosen_seed(args.seed, "jamsumo", "match"))


def cmd_host(args: argparse.Namespace) -> int:
    run.require_net("jamsumo host")
    from jamsumo_sim.fileio import check_output_path
    from jamsumo_sim.net.host import Host
    from jamsumo_sim.rules.match_cli import _check_sizes

    _check_sizes(args)
    options = run.host_options(args)
    options.web = args.web
    target = args.record or args.resume
    record = check_output_path(target, "--record") if target is not None else None
    if args.resume is not None:
        game, state, seats = _resumed(args)
        agents = local_agents(game, seats)
    else:
        seats = split_seats(args.seats or DEFAULT_SEATS)
        game = get_game(args.mode or "jamsumo")
        agents = local_agents(game, seats)  # a bad seat fails before a seed is drawn and said
        state = _state(args, game, seats)
    journal, resumed = run.open_journal(record, state, args.resume is not None)
    checkpoint = Checkpoint(record, seats, state) if record is not None else None
    if checkpoint is not None:
        checkpoint.capture(state, write=True)

    def on_move(current: State, final: bool) -> None:
        if checkpoint is not None:
            checkpoint.capture(current, write=final)

    def stand_in(seat: int) -> Agent:
        return make_agents(game, [STAND_IN] * (seat + 1))[seat]

    host = Host(
        state,
        seats,
        agents,
        stand_in,
        lambda s: result_json(s, seats),
        options,
        on_move,
        journal=journal,
        tokens=resumed.tokens,
        match=resumed.match,
    )
    result = run.run_host(host)
    names = [state.seat_name(s) for s in range(state.num_players)]  # type: ignore[attr-defined]
    run.print_result(result, args.json, score_lines(game.name, names, result))
    return 0


def cmd_join(args: argparse.Namespace) -> int:
    run.require_net("jamsumo join")
    from jamsumo_sim.net.client import Client

    options = run.join_options(args)
    bot = args.bot

    typed: list[Any] = []  # the terminal's input, once the client exists

    def make_agent(game: Game, seat: int) -> Agent:
        if bot is None:
            from jamsumo_sim.turnloop import ConsoleAgent

            return ConsoleAgent(seat, game, stdin=typed[0])
        return make_agents(game, [bot] * (seat + 1))[seat]

    if bot is not None:  # a bad kind fails before connecting
        make_agents(get_game("jam"), [bot])
    if bot is None and not args.terminal and _has_display():
        result = _join_window(args.url, options)
    else:
        client = Client(args.url, options, None if options.spectate else make_agent)
        if bot is None:  # a person at the terminal: presence lines, /say and /who
            from jamsumo_sim.net.terminal import attach

            typed.append(attach(client))
        result = run.run_client(client)
    from jamsumo_sim.rules.seats import colour

    names = [colour(s).capitalize() for s in range(int(result.get("players", 0)))]
    run.print_result(result, args.json, score_lines(str(result.get("mode")), names, result))
    return 0


def _has_display() -> bool:
    from jamsumo_sim.ui.cli import has_display

    return has_display()


def _join_window(url: str, options: JoinOptions) -> dict[str, Any]:
    """Play the seat in the window (jamsumo_sim/ui/net_session.py); the host's result."""
    import os
    import sys

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from jamsumo_sim.ui.net_session import join_window

    session = join_window(url, options, lambda text: print(text, file=sys.stderr, flush=True))
    import pygame

    from jamsumo_sim.ui.app import App

    try:
        App(session, autosave_enabled=False).run()
    finally:
        session.link.close()
        pygame.quit()
    return session.link.outcome()
