"""`jamsumo play`: open the window (or, with no display, play a headless demo match and print it)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from jamsumo_sim.errors import UserError

MODES = ("jam", "sumo", "jamsumo")
DEFAULT_SEATS = "human,planner"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "play",
        help="play Jam, Sumo or JamSumo in a window (mouse flicks, hot-seat, bots)",
        description="Play in a pygame window: press on one of your dice, drag back, release to flick. "
        "Without a display (and without --frames) a headless demo match between bots is played.",
    )
    p.add_argument(
        "--mode", choices=MODES, default="jamsumo", help="game to play (default jamsumo)"
    )
    p.add_argument(
        "--seats",
        default=DEFAULT_SEATS,
        help="comma-separated seat kinds, 2-4 of: human, planner[:easy|normal|hard], random "
        "(default human,planner)",
    )
    p.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    p.add_argument(
        "--params", metavar="P.toml", help="physics parameters file (e.g. from calibrate)"
    )
    p.add_argument("--frames", type=int, metavar="N", help="run N frames (1/60 s each) and exit")
    p.add_argument("--screenshot", metavar="PATH", help="save a PNG of the last frame")
    p.add_argument(
        "--resume", action="store_true", help="resume the autosaved match without asking"
    )
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="free play on the bare board: flick any die, no rules",
    )
    p.add_argument(
        "--size", default=None, metavar="WxH", help="window size in pixels (default 1280x800)"
    )
    p.set_defaults(func=run)


def parse_seats(text: str, bots: list[str]) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    if not 2 <= len(seats) <= 4:
        raise UserError(f"--seats needs 2 to 4 seats, got {len(seats)} ({text!r})")
    allowed = ["human", *bots]
    for s in seats:
        kind, _, level = s.partition(":")
        if kind not in allowed or (level and kind != "planner"):
            raise UserError(
                f"unknown seat kind {s!r} (choose from {', '.join(allowed)}; planner:easy|normal|hard)"
            )
    return seats


def parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size must look like 1280x800, not {text!r}") from None
    if w < 1024 or h < 640:
        raise UserError(f"--size must be at least 1024x640, not {text!r}")
    return (w, h)


def has_display() -> bool:
    return bool(
        os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
        or os.environ.get("SDL_VIDEODRIVER")
    )


def physics_overrides(path: str | None) -> dict[str, Any]:
    if not path:
        return {}
    from jamsumo_sim.params import load_params

    return dict(load_params(path).to_dict())


def run(args: argparse.Namespace) -> int:
    if args.frames is not None and args.frames < 1:
        raise UserError("--frames must be at least 1")
    if args.seed < 0:
        raise UserError(f"--seed must be a non-negative integer, not {args.seed}")
    size = parse_size(args.size)
    physics = physics_overrides(args.params)
    if args.frames is None and not has_display():
        return demo_match(args, physics)
    if args.frames is not None and not has_display():
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from jamsumo_sim.ui import autosave
    from jamsumo_sim.ui.app import App

    session, offer = make_session(args, physics)
    headless = args.frames is not None
    app = App(
        session,
        size=size,
        sync_bots=headless,
        # headless runs (tests, docs) never touch the player's saved match
        autosave_enabled=not (args.sandbox or headless),
        resume_offer=None if headless else offer,
    )
    try:
        app.run(frames=args.frames, screenshot=args.screenshot)
    finally:
        import pygame

        pygame.quit()
    if app.autosave_enabled and app.session.save_data() is not None and not app.session.finished():
        print(
            f"jamsumo: match saved to {autosave.autosave_path()} (resume with: jamsumo play --resume)"
        )
    return 0


def make_session(args: argparse.Namespace, physics: dict[str, Any]):
    """The session to play and, if an autosaved match exists, an offer to resume it."""
    from jamsumo_sim.ui import autosave

    if args.sandbox:
        from jamsumo_sim.board import load_board
        from jamsumo_sim.params import PhysicsParams
        from jamsumo_sim.ui.session import SandboxSession

        board = load_board("standard")
        params = PhysicsParams.from_board(board).with_overrides(physics)
        return SandboxSession(board, params, seed=args.seed), None
    from jamsumo_sim.turnloop import get_game
    from jamsumo_sim.ui.match_session import new_match, resume_match

    game = get_game(args.mode)
    seats = parse_seats(args.seats, sorted(game.bots()))
    saved = autosave.load()
    if args.resume:
        if saved is None:
            raise UserError(f"no saved match to resume (looked for {autosave.autosave_path()})")
        return resume_match(saved), None
    session = new_match(args.mode, seats, args.seed, physics)
    offer = None
    if saved is not None and saved.get("kind") == "match" and not saved.get("finished"):
        offer = (autosave.describe(saved), lambda: resume_match(saved))
    return session, offer


def demo_match(args: argparse.Namespace, physics: dict[str, Any]) -> int:
    """A match between bots without a window: print the log as it goes and the result."""
    from jamsumo_sim.turnloop import get_game, play

    game = get_game(args.mode)
    bots = game.bots()
    seats = parse_seats(args.seats, sorted(bots))
    from jamsumo_sim.rules.match_cli import make_agents

    kinds = [s if s != "human" else "planner" for s in seats]
    agents = make_agents(game, kinds)
    params = game.default_params(len(kinds))
    if physics:
        params["physics"] = physics
    params = game.validate_params(params)
    # said only once the arguments are known to be good, so a bad one is the only line printed
    print("jamsumo: no display found — playing a headless demo match between bots instead")
    print(f"{game.title}: {', '.join(kinds)} (seed {args.seed})")

    def show(event: Any) -> None:
        for entry in event.log:
            if entry.visible_to(None):
                print(f"  {entry.text}")
        sys.stdout.flush()

    result = play(game, agents, seed=args.seed, params=params, on_event=show)
    state = result.state
    names = [state.seat_name(s) for s in range(state.num_players)]
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, state.totals(), strict=True))
    winners = ", ".join(names[s] for s in result.winners)
    print(f"Result after {result.turns} turns: {totals}; winner: {winners}")
    return 0
