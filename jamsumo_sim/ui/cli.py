"""`jamsumo play`: open the window (or, with no display, play a headless demo match and print it)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, TextIO

from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import check_count, count_arg, seed_arg
from jamsumo_sim.seeds import SEED_HELP, chosen_seed

MODES = ("jam", "sumo", "jamsumo")
DEFAULT_SEATS = "human,planner"
DEFAULT_NOISE = "table"  # --table unless --practice; a resumed match keeps its own level

# Window sizes: the smallest the layout works at, the largest an 8K screen shows (a bigger window
# would only cost memory: 100000x100000 pixels is 40 GB of surfaces).
MIN_SIZE = (1024, 640)
MAX_SIZE = (7680, 4320)
# --frames (1/60 s each): far longer than any match lasts (about 28 minutes of play).
MAX_FRAMES = 100_000


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
    p.add_argument("--seed", type=seed_arg, help=f"match seed, {SEED_HELP}")
    p.add_argument(
        "--params", metavar="P.toml", help="physics parameters file (e.g. from calibrate)"
    )
    p.add_argument(
        "--frames",
        type=_frames_arg,
        metavar="N",
        help=f"run N frames (1/60 s each, 1 to {MAX_FRAMES}) and exit",
    )
    p.add_argument(
        "--screenshot", metavar="PATH", help="save the last frame (.png, .bmp, .tga or .jpg)"
    )
    p.add_argument(
        "--resume", action="store_true", help="resume the autosaved match without asking"
    )
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="free play on the bare board: flick any die, no rules",
    )
    p.add_argument("--mute", action="store_true", help="no sound (V toggles it in the window)")
    p.add_argument(
        "--size",
        default=None,
        metavar="WxH",
        help="window size in pixels, 1024x640 to 7680x4320 (default 1280x800)",
    )
    from jamsumo_sim.rules.match_cli import add_noise_flags

    # people at the window play with a hand's spread by default (an exact mouse makes Jam trivial)
    add_noise_flags(p, default=DEFAULT_NOISE)
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


_frames_arg = count_arg(1, MAX_FRAMES)


def parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    (lw, lh), (hw, hh) = MIN_SIZE, MAX_SIZE
    bounds = f"from {lw}x{lh} to {hw}x{hh}"
    try:
        if len(text) > 30:
            raise ValueError
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size must look like 1280x800 ({bounds}), not {text[:30]!r}") from None
    if not (lw <= w <= hw and lh <= h <= hh):
        raise UserError(f"--size must be {bounds}, not {text!r}")
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
    from jamsumo_sim.physics.params_file import load_params

    return dict(load_params(path).to_dict())


def run(args: argparse.Namespace) -> int:
    # every argument and output path is checked before the window opens or a match is played
    if args.frames is not None:
        check_count(args.frames, "--frames", 1, MAX_FRAMES)
    size = parse_size(args.size)
    if args.screenshot is not None:
        from jamsumo_sim.ui.autosave import autosave_path
        from jamsumo_sim.ui.screenshot import check_path

        check_path(args.screenshot, inputs=[args.params, autosave_path()])
    physics = physics_overrides(args.params)
    if args.frames is None and not has_display():
        if args.screenshot is not None:
            raise UserError("--screenshot needs a display or --frames N (there is no display)")
        return demo_match(args, physics)
    if args.frames is not None and not has_display():
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from jamsumo_sim.ui.app import App

    headless = args.frames is not None
    session, offer = make_session(args, physics, headless)
    app = App(
        session,
        size=size,
        sync_bots=headless,
        # headless runs (tests, docs) never touch the player's saved match
        autosave_enabled=not (args.sandbox or headless),
        resume_offer=None if headless else offer,
        mute=bool(getattr(args, "mute", False)),
    )
    try:
        app.run(frames=args.frames, screenshot=args.screenshot)
    except KeyboardInterrupt:
        _report_save(app, sys.stderr)  # run() saved the match (unless an offer was pending)
        raise
    finally:
        import pygame

        pygame.quit()
    _report_save(app, sys.stdout)
    return 0


def _report_save(app, out: TextIO) -> None:  # noqa: ANN001 - the App (pygame is imported late)
    """One line: where the match is kept (on ``out``), or (on stderr) why it could not be saved."""
    from jamsumo_sim.ui import autosave

    path = autosave.autosave_path()
    if app.autosave_error is not None:
        print(f"jamsumo: the match could not be saved: {app.autosave_error}", file=sys.stderr)
    elif app.resume_offer is not None:
        print(
            f"jamsumo: the saved match was left as it was in {path} "
            "(resume with: jamsumo play --resume)",
            file=sys.stderr,
        )
    elif (
        app.autosave_enabled and app.session.save_data() is not None and not app.session.finished()
    ):
        print(f"jamsumo: match saved to {path} (resume with: jamsumo play --resume)", file=out)


def make_session(args: argparse.Namespace, physics: dict[str, Any], headless: bool = False):
    """The session to play and, if an unfinished autosaved match exists, an offer to resume it.

    A damaged autosave is reported in one line on stderr, moved aside (kept) and a new match starts.
    Headless runs (``--frames``) do not read the autosave unless ``--resume`` asks for it.
    """
    from jamsumo_sim.ui import autosave

    if args.sandbox:
        from jamsumo_sim.physics.board import load_board
        from jamsumo_sim.physics.params import PhysicsParams
        from jamsumo_sim.ui.session import SandboxSession

        board = load_board("standard")
        params = PhysicsParams.from_board(board).with_overrides(physics)
        # free play has no rules and draws nothing from its seed: none is drawn or stated
        return SandboxSession(board, params, seed=args.seed or 0), None
    from jamsumo_sim.turnloop import get_game
    from jamsumo_sim.ui.match_session import new_match

    game = get_game(args.mode)
    seats = parse_seats(args.seats, sorted(game.bots()))
    level = getattr(args, "noise", None) or DEFAULT_NOISE
    if headless and not args.resume:
        seed = chosen_seed(args.seed, "jamsumo", "match")
        return new_match(args.mode, seats, seed, physics, noise=level), None
    saved = autosave.load_match()
    if args.resume:
        if saved.session is None:
            raise UserError(
                saved.problem or f"no saved match to resume (looked for {autosave.autosave_path()})"
            )
        return saved.session, None
    if saved.problem:
        print(f"jamsumo: {saved.problem}", file=sys.stderr)
    seed = chosen_seed(args.seed, "jamsumo", "match")  # a resumed match keeps its own
    session = new_match(args.mode, seats, seed, physics, noise=level)
    offer = None
    if saved.unfinished and saved.data is not None:
        resumed = saved.session
        offer = (autosave.describe(saved.data), lambda: resumed)
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
    params["noise"] = getattr(args, "noise", None) or DEFAULT_NOISE
    if physics:
        params["physics"] = physics
    params = game.validate_params(params)
    # said only once the arguments are known to be good, so a bad one is the only line printed
    print("jamsumo: no display found — playing a headless demo match between bots instead")
    seed = chosen_seed(args.seed, "jamsumo", "match")
    print(f"{game.title}: {', '.join(kinds)} (seed {seed})")

    def show(event: Any) -> None:
        for entry in event.log:
            if entry.visible_to(None):
                print(f"  {entry.text}")
        sys.stdout.flush()

    result = play(game, agents, seed=seed, params=params, on_event=show)
    state = result.state
    names = [state.seat_name(s) for s in range(state.num_players)]
    totals = ", ".join(f"{n} {t}" for n, t in zip(names, state.totals(), strict=True))
    winners = ", ".join(names[s] for s in result.winners)
    print(f"Result after {result.turns} turns: {totals}; winner: {winners}")
    return 0
