"""`card-games`: list the games, play them in the terminal or headless, replay and resume records."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from card_games.registry import CARD_GAMES, resolve
from card_games.terminal.closing import (
    TerminalClosed,
    signals_held,
    stop_on_closing_signals,
    unfinished_save,
)
from card_games.terminal.display import TableDisplay, builder
from card_games.terminal.input_games import card_input
from card_games.terminal.pace import Pacer, choose_pace, pace_arg
from card_games.terminal.table import look_for
from card_games.wording import result_line
from jamsumo_sim import __version__
from jamsumo_sim.cli import OneLineParser
from jamsumo_sim.errors import UserError
from jamsumo_sim.fileio import check_output_path, refuse_empty_outputs
from jamsumo_sim.limits import count_arg, seed_arg
from jamsumo_sim.seeds import SEED_HELP, chosen_seed
from jamsumo_sim.turnloop import ConsoleAgent, Game, MatchEvent, State, play
from jamsumo_sim.turnloop.agents import Agent
from jamsumo_sim.turnloop.driver import SaveCallback, SaveOrder
from jamsumo_sim.turnloop.recording import (
    Seating,
    load_record,
    result_summary,
    save_record,
    verify_record,
)


def build_agents(
    game: Game,
    players: int,
    seats: str | None,
    interactive: bool,
    display: TableDisplay | None = None,
    notices: list[str] | None = None,
) -> list[Agent]:
    """Agents from a comma-separated seat list (``human``, ``random``, ``smart``, …); people
    see the table ``display`` draws (default: the game's plain ``render``).

    A line for the person (a bot seated in place of a human) goes to ``notices``, for the caller
    to print once every argument is checked (else to stderr now).
    """
    from card_games.ismcts import with_ismcts  # the `ismcts` seat (needs jamsumo[rl] to play)

    bots = with_ismcts(game.bots())
    if seats is None:
        default_bot = "smart" if "smart" in bots else "random"
        names = (["human"] if interactive else [default_bot]) + [default_bot] * (players - 1)
        if not interactive:  # said, as `jamsumo play` says when it falls back to bots
            line = (
                f"card-games: seat 0 is played by the {default_bot} bot because stdin is not a "
                f"terminal; choose the seats with --seats (e.g. --seats human,{default_bot})"
            )
            if notices is None:
                say(line)
            else:
                notices.append(line)
    else:
        names = [s.strip() for s in seats.split(",") if s.strip()]
        if len(names) != players:
            listed = f"{len(names)} seat{'s' if len(names) != 1 else ''}"
            raise UserError(f"--seats lists {listed} for a {players}-player game")
    agents: list[Agent] = []
    hot_seat = names.count("human") > 1
    for seat, name in enumerate(names):
        if name == "human":
            show = display.show if display is not None else None
            compact = display is not None and display.look.compact
            # compact: each move menu in the rows the table leaves (an 80×24 terminal)
            rows = display.menu_rows if display is not None and compact else None
            helper = card_input(game, menu_rows=rows) if compact else None
            agents.append(
                ConsoleAgent(seat, game, handover=hot_seat, show_table=show, helper=helper)
            )
        elif name in bots:
            agents.append(bots[name](seat, game))
        else:
            choices = ", ".join(["human", *sorted(bots)])
            raise UserError(f"unknown seat kind {name!r} for {game.title} (choose from {choices})")
    return agents


def cli_name(game: Game) -> str:
    """The game's name on the command line (``the-jam``), not the registry's (``the_jam``)."""
    return next((cli for cli, name in CARD_GAMES.items() if name == game.name), game.name)


def seat_names(agents: Sequence[Agent]) -> list[str]:
    return [a.kind for a in agents]


def default_save_path(game: Game) -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    # one file per match (stamped with its start), so quitting one game never overwrites another's save
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = Path(base) / "jamsumo" / "saves"
    path = folder / f"{game.name}-{stamp}.json"
    number = 1
    while path.exists():  # two matches started within a second: never the other one's file
        number += 1
        path = folder / f"{game.name}-{stamp}-{number}.json"
    return path


def say(text: str) -> None:
    with contextlib.suppress(OSError):  # the terminal is gone (SIGHUP): the save matters
        print(text, file=sys.stderr, flush=True)


def save_somewhere(
    state: State, names: list[str], targets: Sequence[Path], seatings: list[Seating] | None = None
) -> tuple[Path | None, list[UserError]]:
    """Save to the first of ``targets`` that can be written; (where, the errors on the way)."""
    errors: list[UserError] = []
    for target in dict.fromkeys(targets):  # in order, each once
        try:
            with signals_held():  # a closing terminal waits for the save to be whole
                save_record(target, state, names, seatings=seatings)
        except UserError as exc:  # fileio names the file and the reason in one line
            errors.append(exc)
            continue
        return target, errors
    return None, errors


def make_on_save(
    game: Game, names: list[str], save_to: Path, seatings: list[Seating] | None = None
) -> SaveCallback:
    """The driver's ``on_save``: a failed save never ends the game or loses it.

    ``save [FILE]`` that fails says why and the game goes on. Quitting saves to the match's save
    file, else to the last file named by ``save FILE``, else to a fresh file in the default save
    folder; if none can be written, a typed ``quit`` returns to the game (the person can ``save
    FILE`` elsewhere), and only when nobody is left to ask (end of input, Ctrl-C) does the command
    stop with the error.
    """
    named: list[Path] = []  # files the person saved to with `save FILE` (a fallback on quitting)

    def on_save(current: State, order: SaveOrder) -> bool:
        if order.path is not None:
            targets = [Path(order.path)]
        elif order.quitting:
            targets = [save_to, *named[-1:], default_save_path(game)]
        else:
            targets = [save_to]
        where, errors = save_somewhere(current, names, targets, seatings)
        if where is not None and order.path is not None:
            named.append(where)
        if where is None:
            if not order.can_go_on:
                raise UserError(f"the match could not be saved: {errors[-1]}")
            go_on = "type 'save FILE' to save elsewhere" if order.quitting else "the game goes on"
            say(f"Could not save: {errors[-1]}; {go_on}.")
            return False
        for exc in errors:
            say(f"Could not save: {exc}")
        say(f"Saved to {where}. Resume with: card-games resume {where}")
        return True

    return on_save


def run_match(
    game: Game,
    agents: list[Agent],
    seed: int,
    params: dict[str, Any] | None,
    state: State | None,
    record: Path | None,
    as_json: bool,
    display: TableDisplay,
    seatings: list[Seating] | None = None,
    pacer: Pacer | None = None,
) -> int:
    """Play to the end or a stop; ``seatings``: the seats of a resumed match before now;
    ``pacer``: the pause after each bot move shown live (``--pace``)."""
    humans = any(a.is_human for a in agents)
    pacer = pacer or Pacer()
    names = seat_names(agents)
    save_to = record if record is not None else default_save_path(game)
    # with a person at the table the match is saved after every move: closing the terminal
    # (SIGHUP) or SIGTERM at any point loses nothing (bots alone are not slowed by it)
    autosaved: list[Path] = []

    def on_event(event: MatchEvent) -> None:
        if humans:  # the last move too: a finished game is never offered for resuming
            where, errors = save_somewhere(event.state, names, [save_to], seatings)
            if where is None and not autosaved:  # said once; `save`/`quit` still try elsewhere
                say(f"Could not autosave: {errors[-1]}")
            autosaved[:] = [where] if where is not None else []
        if as_json:
            return
        mover = event.entry.get("seat")
        by_bot = isinstance(mover, int) and not agents[mover].is_human
        by_person = isinstance(mover, int) and not by_bot
        if humans and (by_person or pacer.pace <= 0):
            display.record(event.log)  # people see each event once, in their next table
            return
        if humans:  # bots' moves and the deals at a human pace: shown as they happen, once
            display.record(event.log, shown_live=True)
        for entry in event.log:
            if entry.visible_to(None):  # the shared screen shows public lines only
                line = f"  {entry.text}"  # a person's terminal: wrapped to the tables' width
                text = textwrap.fill(line, display.look.width, subsequent_indent="    ")
                print(text if humans else line, flush=True)
        if by_bot:
            pacer.after_bot_move()

    with stop_on_closing_signals() as closing:
        try:
            result = play(
                game,
                agents,
                seed=seed,
                params=params,
                state=state,
                # --json prints no events: don't build them (unless autosaving for a person)
                on_event=on_event if humans or not as_json else None,
                on_save=make_on_save(game, names, save_to, seatings),
            )
        except TerminalClosed:  # between moves (the driver saves within one): the autosave has it
            kept = f"; the game was saved to {autosaved[0]}" if autosaved else ""
            resume = f". Resume with: card-games resume {autosaved[0]}" if autosaved else ""
            say(f"card-games: stopped by {closing.name}{kept}{resume}")
            return closing.exit_code
    if closing.signum is not None:  # the driver saved the match and said where
        say(f"card-games: stopped by {closing.name}")
        return closing.exit_code
    if record is not None and result.finished:
        where, errors = save_somewhere(
            result.state, names, [record, default_save_path(game)], seatings
        )
        if errors:  # the game is finished: keep it somewhere and say where, in one line
            kept = f"; the game was saved to {where} instead" if where else ""
            raise UserError(f"{errors[0]}{kept}")
    if result.stopped:
        return 0
    summary = result_summary(result.state)
    if as_json:
        report = builder(game).report(result.state)
        out = {
            "game": cli_name(game),  # as typed on the command line (`jumble-jam`, `the-jam`)
            "players": result.state.num_players,
            "seed": result.state.seed,
            "variant": result.state.params.get("variant"),
            **summary,
            "end": result.state.end_code(),
            "breakdown": report["breakdown"],
            "reveal": report["reveal"],
        }
        print(json.dumps(out))
    else:
        if humans:  # the last table for everyone: hidden cards face up, scores part by part
            print(display.end(result.state))
        line = result_line(game.title, summary, names)
        # at a person's terminal the line fits its width like the tables; a log keeps one line
        print(textwrap.fill(line, display.look.width) if humans else line)
    return 0


def check_save_paths(game: Game, record: str | None, humans: bool, resumed: bool) -> Path | None:
    """Check before play that the match can be saved: ``--record`` (or, resuming, the file itself)
    and, when a person may type ``save``/``quit`` without it, the default save folder."""
    if record is not None and not resumed:
        return check_output_path(record, "--record")
    if record is not None:
        try:
            return check_output_path(record, "the file resumed")
        except UserError as exc:
            raise UserError(f"{exc}; give --record FILE to save elsewhere") from None
    if humans:
        try:
            check_output_path(default_save_path(game), "save file")
        except UserError as exc:
            raise UserError(f"{exc}; give --record FILE to save elsewhere") from None
    return None


def cmd_list(args: argparse.Namespace) -> int:
    for cli_name in CARD_GAMES:
        game = resolve(cli_name)
        variants = ", ".join(game.variants)
        print(
            f"{cli_name:<12} {game.title} — {game.min_players}–{game.max_players} players; variants: {variants}"
        )
    return 0


def make_display(game: Game, args: argparse.Namespace) -> TableDisplay:
    """The table people see: plain when asked or piped; JumbleJack's memory aid on ``--aid``."""
    if args.aid and game.name != "jumblejack":
        raise UserError(f"--aid: only JumbleJack has a memory aid, not {game.title}")
    compact = True if args.compact else None  # None: compact on a terminal under 40 rows
    return TableDisplay(game, look_for(sys.stdout, args.plain, args.aid, compact))


def cmd_play(args: argparse.Namespace) -> int:
    game = resolve(args.game)
    params = game.validate_params(
        {"players": args.players, "variant": args.variant or game.variants[0]}
    )
    display = make_display(game, args)
    notices: list[str] = []  # said once every argument is checked: an error stays one line
    agents = build_agents(game, args.players, args.seats, sys.stdin.isatty(), display, notices)
    humans = any(a.is_human for a in agents)
    record = check_save_paths(game, args.record, humans, resumed=False)
    for line in notices:
        say(line)
    found = unfinished_save(default_save_path(game).parent, game.name) if humans else None
    if found is not None and offer_resume(game, *found):
        args.file, args.seats, args.record = str(found[0]), None, None
        return cmd_resume(args)
    seed = chosen_seed(args.seed, "card-games")  # once the arguments are checked; recorded
    return run_match(
        game, agents, seed, params, None, record, args.json, display, None, make_pacer(args)
    )


def make_pacer(args: argparse.Namespace) -> Pacer:
    """``--pace``, or a default pause when the moves are shown at a terminal."""
    return Pacer(choose_pace(args.pace, sys.stdout.isatty(), args.json))


def offer_resume(game: Game, path: Path, moves: int) -> bool:
    """Name an unfinished autosave of ``game``; at a terminal, ask whether to go on with it."""
    line = f"An unfinished {game.title} game ({moves} moves) is saved at {path}"
    if not sys.stdin.isatty():
        say(f"card-games: {line}; resume it with: card-games resume {path}")
        return False
    say(line + ".")
    try:
        answer = input("Resume it? [Y/n] ").strip().lower()
    except EOFError:
        return False
    return answer in ("", "y", "yes")


def cmd_resume(args: argparse.Namespace) -> int:
    state, data = load_record(args.file)
    if state.is_terminal():
        raise UserError(f"{args.file}: this match is already finished; use 'card-games replay'")
    seats = args.seats if args.seats else ",".join(data["seats"])
    display = make_display(state.game, args)
    agents = build_agents(state.game, state.num_players, seats, sys.stdin.isatty(), display)
    # resuming updates the file resumed from (also when --record names it); --record elsewhere
    # leaves it as it was
    target = args.record if args.record is not None else args.file
    record = check_save_paths(state.game, target, False, resumed=args.record is None)
    print(f"Resuming {state.game.title} after {len(state.history)} moves.", file=sys.stderr)
    seatings = data.get("seatings") or [{"from": 0, "seats": list(data["seats"])}]
    return run_match(
        state.game,
        agents,
        state.seed,
        None,
        state,
        record,
        args.json,
        display,
        seatings,
        make_pacer(args),
    )


def cmd_replay(args: argparse.Namespace) -> int:
    if args.verify:
        ok, message = verify_record(args.file)
        # like `jamsumo replay --verify`: the OK line on stdout, a divergence on stderr (exit 1)
        print(message, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    state, data = load_record(args.file)
    game = state.game
    print(
        f"{game.title}, {state.num_players} players, seed {state.seed}, seats {', '.join(data['seats'])}"
    )
    for line in state.log_for(None):
        print(f"  {line}")
    if state.is_terminal():
        print(result_line(game.title, result_summary(state), data["seats"]))
    else:
        print(
            f"Unfinished after {len(state.history)} moves; 'card-games resume {args.file}' goes on."
        )
    return 0


def add_display_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--plain",
        action="store_true",
        help="tables without colour (also so whenever the output is not a terminal)",
    )
    p.add_argument(
        "--aid",
        action="store_true",
        help="JumbleJack: list every earlier statement (default: only the top cards, as at a table)",
    )
    p.add_argument(
        "--compact",
        action="store_true",
        help="each screen fits 80x24: tables without borders, short menus ('board' redraws, 'full' shows all); "
        "the default on a terminal of fewer than 40 rows",
    )
    p.add_argument(
        "--pace",
        type=pace_arg,
        metavar="SECONDS",
        help="pause after each bot move so it can be followed (default: 0.8 at a terminal, "
        "0 when piped or with --json)",
    )


RESUME_DESCRIPTION = """\
Go on with an unfinished card game from its record: the same game, seed,
hidden cards and seats (or --seats), from the move where it stopped. The
record is updated when someone types 'save' or 'quit' and when the game ends;
with --record FILE the game is saved there instead."""
RESUME_EPILOG = """\
a record is the JSON file a game is saved to:
  - --record FILE of 'card-games play' or 'card-games host'
  - 'save FILE' typed during a game
  - the file saved when a person types 'quit' or 'save' without --record:
    $XDG_DATA_HOME/jamsumo/saves/GAME-DATE-TIME.json
    (~/.local/share/jamsumo/saves/ by default; the game says which file)

examples:
  card-games play the-jam --players 3 --seats human,smart,smart --record jam.json
  (type 'quit' during it: the game is saved to jam.json)
  card-games resume jam.json
  card-games resume jam.json --seats smart,smart,smart --record bots-finish.json
  card-games replay jam.json              (a finished game: show it)"""


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="card-games",
        description="Jumble Jam, Jelly Fish Toast & Jam, JumbleJack and The Jam in the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"card-games {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("list", help="name the available games").set_defaults(func=cmd_list)

    p = sub.add_parser("play", help="play a game (humans in the terminal, bots headless)")
    p.add_argument("game", help=f"one of: {', '.join(CARD_GAMES)}")
    # each game checks its own range (a clearer message than a bound here)
    p.add_argument(
        "--players",
        type=count_arg(0, 999),
        required=True,
        help="how many players (each game's range: see 'card-games list')",
    )
    p.add_argument("--seats", help="comma-separated: human, smart, random, … (one per player)")
    p.add_argument("--seed", type=seed_arg, help=SEED_HELP)
    p.add_argument(
        "--variant", help="a variant of the game (default: its first; see 'card-games list')"
    )
    p.add_argument("--record", help="write the finished (or saved) game to this JSON file")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_display_flags(p)
    p.set_defaults(func=cmd_play)

    r = sub.add_parser("replay", help="show a recorded game, or --verify that it re-plays exactly")
    r.add_argument("file")
    r.add_argument("--verify", action="store_true")
    r.set_defaults(func=cmd_replay)

    s = sub.add_parser(
        "resume",
        help="go on with a saved game",
        description=RESUME_DESCRIPTION,
        epilog=RESUME_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("file", metavar="RECORD", help="the saved game (JSON) to go on with")
    s.add_argument(
        "--seats", metavar="LIST", help="replace the recorded seats (comma-separated, one a player)"
    )
    s.add_argument(
        "--record",
        metavar="FILE",
        help="save here instead, leaving RECORD as it was (default: RECORD is updated)",
    )
    s.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_display_flags(s)
    s.set_defaults(func=cmd_resume)

    # `card-games tournament GAME` (jamsumo_sim.sweep, issue 20): bot line-ups, seats rotated
    from jamsumo_sim.sweep.tournament_cli import add_common_flags, run_cards

    t = sub.add_parser("tournament", help="many bot games, seats rotated: win rates and ratings")
    t.add_argument("game", help=f"one of: {', '.join(CARD_GAMES)}")
    t.add_argument("--variant")
    add_common_flags(t)
    t.set_defaults(func=lambda args: run_cards(args, resolve(args.game)))

    # `card-games export RECORD --out game.html` (card_games/export.py, issue 23)
    from card_games.export import register as register_export

    register_export(sub)

    # `card-games host GAME` and `card-games join URL` (card_games/net.py, issue 24)
    from card_games.net import register as register_net

    register_net(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        refuse_empty_outputs(args)  # `--out ""` is an error everywhere, not the default output
        return int(args.func(args))
    except UserError as exc:
        text = " ".join(str(exc).split("\n"))  # one line, whatever the message
        print(f"card-games: error: {text}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("card-games: interrupted", file=sys.stderr)
        return 130
    except RecursionError:  # an input nested deeper than a reader expected: the input's fault
        print("card-games: error: an input is nested too deeply to read", file=sys.stderr)
        return 2
    except MemoryError:  # the readers bound every size; this is the last line of defence
        print("card-games: error: out of memory: an input is far too large", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
