"""`jamsumo match`: a headless Jam, Sumo or JamSumo match between bots; prints the result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.rules.game import MODES
from jamsumo_sim.turnloop import Agent, MatchEvent, get_game, play

SEAT_KINDS = ("planner", "random")


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
    p.add_argument("--seed", type=int, default=0, help="the match seed (default 0)")
    p.add_argument("--record", metavar="FILE", help="write the replay here (atomically)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--max-turns", type=int, metavar="N", help="turn cap per round")
    p.add_argument("--rounds", type=int, metavar="N", help="rounds (JamSumo: of each mode)")
    p.add_argument(
        "--params", metavar="P.toml", help="physics parameters file (e.g. from calibrate)"
    )
    p.add_argument("--board", help="board name or TOML file (default standard)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved (unfinished) replay")
    p.set_defaults(func=run)


_FIXED_BY_RESUME = ("mode", "players", "max_turns", "rounds", "params", "board")


def _build(args: argparse.Namespace) -> tuple[Any, Any, list[str]]:
    if args.resume:
        from jamsumo_sim.replay import load_replay

        given = [f"--{k.replace('_', '-')}" for k in _FIXED_BY_RESUME if getattr(args, k)]
        if given:
            raise UserError(
                f"--resume continues the saved match as it was: drop {', '.join(given)}"
            )
        replay = load_replay(args.resume)
        state = replay.final_state()
        if state.is_terminal():
            raise UserError(
                f"{args.resume}: this match is already finished (watch it with 'jamsumo replay')"
            )
        seats = parse_seats(args.seats, state.num_players) if args.seats else replay.seats
        return state.game, state, seats
    game = get_game(args.mode or "jamsumo")
    if args.players is None:
        args.players = len(parse_seats(args.seats, 0, check=False)) if args.seats else 2
    params: dict[str, Any] = {"players": args.players, "board": args.board or "standard"}
    if args.max_turns is not None:
        params["max_turns"] = args.max_turns
    if args.rounds is not None:
        params["rounds"] = args.rounds
    if args.params:
        from jamsumo_sim.params import load_params

        params["physics"] = load_params(args.params).to_dict()
    if args.seed < 0:
        raise UserError(f"--seed must be non-negative, not {args.seed}")
    full = game.validate_params(params)
    seats = parse_seats(args.seats, args.players)
    return game, game.new_initial_state(full, seed=args.seed), seats


def run(args: argparse.Namespace) -> int:
    game, state, seats = _build(args)
    agents = make_agents(game, seats)
    quiet = args.json or not sys.stderr.isatty()
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(
            desc=f"{game.title} seed {state.seed}", unit="turn", file=sys.stderr, leave=False
        )

    def on_event(event: MatchEvent) -> None:
        if bar is not None and "action" in event.entry:
            bar.update(1)

    try:
        result = play(game, agents, seed=state.seed, state=state, on_event=on_event)
    finally:
        if bar is not None:
            bar.close()
    final = result.state
    if args.record:
        from jamsumo_sim.replay import save_replay

        try:
            save_replay(args.record, final, seats)
        except OSError as exc:
            raise UserError(f"cannot write replay {args.record}: {exc.strerror or exc}") from None
    summary = result_json(final, seats)
    if args.json:
        print(json.dumps(summary))
        return 0
    names = [final.seat_name(s) for s in range(final.num_players)]
    print(
        f"{game.title}, {final.num_players} players, seed {final.seed}: "
        + ", ".join(f"{n}={s}" for n, s in zip(names, seats, strict=True))
    )
    for k, r in enumerate(summary["rounds"], 1):
        word = "penalties" if r["mode"] == "jam" else "points"
        cap = " (turn cap reached: scored as it stood)" if r["capped"] else ""
        table = ", ".join(f"{n} {v}" for n, v in zip(names, r["scores"], strict=True))
        print(f"  round {k} {r['mode']}: {word} {table}{cap}")
    label = {"jam": "total penalties (lowest wins)", "sumo": "total points", "jamsumo": "aggregate"}
    print(
        f"  {label[game.name]}: "
        + ", ".join(f"{n} {v}" for n, v in zip(names, summary["totals"], strict=True))
    )
    print("  winner: " + " and ".join(names[s] for s in summary["winner"]))
    if args.record:
        print(f"  replay written to {args.record}")
    return 0
