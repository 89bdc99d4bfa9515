"""`card-games`: list the games, play them in the terminal or headless, replay and resume records."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from card_games.registry import CARD_GAMES, resolve
from jamsumo_sim import __version__
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import ConsoleAgent, Game, MatchEvent, State, play
from jamsumo_sim.turnloop.agents import Agent
from jamsumo_sim.turnloop.recording import (
    load_record,
    result_summary,
    save_record,
    verify_record,
)


def build_agents(game: Game, players: int, seats: str | None, interactive: bool) -> list[Agent]:
    """Agents from a comma-separated seat list (``human``, ``random``, ``smart``, …)."""
    bots = game.bots()
    if seats is None:
        default_bot = "smart" if "smart" in bots else "random"
        names = (["human"] if interactive else [default_bot]) + [default_bot] * (players - 1)
    else:
        names = [s.strip() for s in seats.split(",") if s.strip()]
        if len(names) != players:
            listed = f"{len(names)} seat{'s' if len(names) != 1 else ''}"
            raise UserError(f"--seats lists {listed} for a {players}-player game")
    agents: list[Agent] = []
    hot_seat = names.count("human") > 1
    for seat, name in enumerate(names):
        if name == "human":
            agents.append(ConsoleAgent(seat, game, handover=hot_seat))
        elif name in bots:
            agents.append(bots[name](seat, game))
        else:
            choices = ", ".join(["human", *sorted(bots)])
            raise UserError(f"unknown seat kind {name!r} for {game.title} (choose from {choices})")
    return agents


def seat_names(agents: Sequence[Agent]) -> list[str]:
    return [a.kind for a in agents]


def default_save_path(game: Game) -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    # one file per match (stamped with its start), so quitting one game never overwrites another's save
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(base) / "jamsumo" / "saves" / f"{game.name}-{stamp}.json"


def run_match(
    game: Game,
    agents: list[Agent],
    seed: int,
    params: dict[str, Any] | None,
    state: State | None,
    record: str | None,
    as_json: bool,
) -> int:
    humans = any(a.is_human for a in agents)
    names = seat_names(agents)
    save_to = Path(record) if record else default_save_path(game)

    def on_event(event: MatchEvent) -> None:
        if as_json:
            return
        for entry in event.log:
            if entry.visible_to(None):  # the shared screen shows public lines only
                print(f"  {entry.text}")

    def on_save(current: State, path: str | None) -> None:
        target = Path(path) if path else save_to
        try:
            save_record(target, current, names)
        except UserError as exc:  # fileio names the file and the reason in one line
            if path is None:  # quitting: nothing else will save the match, so say so and stop
                raise
            print(f"Could not save: {exc}", file=sys.stderr)
            return
        print(f"Saved to {target}. Resume with: card-games resume {target}", file=sys.stderr)

    result = play(
        game, agents, seed=seed, params=params, state=state, on_event=on_event, on_save=on_save
    )
    if record and result.finished:
        save_record(record, result.state, names)
    if result.stopped:
        return 0
    summary = result_summary(result.state)
    if as_json:
        out = {
            "game": game.name,
            "players": result.state.num_players,
            "seed": result.state.seed,
            "variant": result.state.params.get("variant"),
            **summary,
        }
        print(json.dumps(out))
    else:
        if humans:
            print(game.render(result.state.observation(None), None))
        scores = ", ".join(f"seat {s} ({names[s]}): {v:g}" for s, v in enumerate(summary["scores"]))
        winners = " and ".join(f"seat {s}" for s in summary["winner"])
        print(f"{game.title}: {scores}. Winner: {winners} after {summary['turns']} turns.")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    for cli_name in CARD_GAMES:
        game = resolve(cli_name)
        variants = ", ".join(game.variants)
        print(
            f"{cli_name:<12} {game.title} — {game.min_players}–{game.max_players} players; variants: {variants}"
        )
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    game = resolve(args.game)
    if args.seed < 0:
        raise UserError("--seed must be a non-negative integer")
    params = game.validate_params(
        {"players": args.players, "variant": args.variant or game.variants[0]}
    )
    agents = build_agents(game, args.players, args.seats, interactive=sys.stdin.isatty())
    return run_match(game, agents, args.seed, params, None, args.record, args.json)


def cmd_resume(args: argparse.Namespace) -> int:
    state, data = load_record(args.file)
    if state.is_terminal():
        raise UserError(f"{args.file}: this match is already finished; use 'card-games replay'")
    seats = args.seats if args.seats else ",".join(data["seats"])
    agents = build_agents(state.game, state.num_players, seats, interactive=sys.stdin.isatty())
    print(f"Resuming {state.game.title} after {len(state.history)} moves.", file=sys.stderr)
    return run_match(
        state.game, agents, state.seed, None, state, args.record or args.file, args.json
    )


def cmd_replay(args: argparse.Namespace) -> int:
    if args.verify:
        ok, message = verify_record(args.file)
        print(message)
        return 0 if ok else 1
    state, data = load_record(args.file)
    game = state.game
    print(
        f"{game.title}, {state.num_players} players, seed {state.seed}, seats {', '.join(data['seats'])}"
    )
    for line in state.log_for(None):
        print(f"  {line}")
    if state.is_terminal():
        summary = result_summary(state)
        print(
            f"Scores {summary['scores']}; winner {summary['winner']} after {summary['turns']} turns."
        )
    else:
        print(
            f"Unfinished after {len(state.history)} moves; 'card-games resume {args.file}' goes on."
        )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="card-games",
        description="Jumble Jam, Jelly Fish Toast & Jam, JumbleJack and The Jam in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"card-games {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("list", help="name the available games").set_defaults(func=cmd_list)

    p = sub.add_parser("play", help="play a game (humans in the terminal, bots headless)")
    p.add_argument("game", help=f"one of: {', '.join(CARD_GAMES)}")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seats", help="comma-separated: human, smart, random, … (one per player)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variant")
    p.add_argument("--record", help="write the finished (or saved) game to this JSON file")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="show a recorded game, or --verify that it re-plays exactly")
    r.add_argument("file")
    r.add_argument("--verify", action="store_true")
    r.set_defaults(func=cmd_replay)

    s = sub.add_parser("resume", help="go on with a saved game")
    s.add_argument("file")
    s.add_argument("--seats", help="replace the recorded seats (comma-separated)")
    s.add_argument("--record", help="where to save (default: the file resumed from)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_resume)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except UserError as exc:
        print(f"card-games: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("card-games: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
