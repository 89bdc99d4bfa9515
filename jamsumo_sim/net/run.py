"""Shared pieces of the host and join commands: options, the event loop, and printing."""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from jamsumo_sim.errors import UserError
from jamsumo_sim.extras import require
from jamsumo_sim.limits import seed_arg
from jamsumo_sim.net.options import ON_LEAVE, REACH_FOR_S, HostOptions, JoinOptions

if TYPE_CHECKING:  # both import websockets (the net extra): only a command that runs them does
    from pathlib import Path

    from jamsumo_sim.net.client import Client
    from jamsumo_sim.net.host import Host
    from jamsumo_sim.net.journal import Journal, Resumed
    from jamsumo_sim.turnloop.state import State

DEFAULT_PORT = 8765
MAX_GRACE_S = 86400.0
MAX_WAIT_S = 600.0  # --wait: a host that is not up after ten minutes is not coming


def _grace(text: str) -> float:
    try:
        value = float(text) if len(text) <= 30 else -1.0
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_GRACE_S:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_GRACE_S:g} seconds, not {text[:30]!r}")
    return value


def _wait(text: str) -> float:
    try:
        value = float(text) if len(text) <= 30 else -1.0
    except ValueError:
        value = -1.0
    if not 0 <= value <= MAX_WAIT_S:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_WAIT_S:g} seconds, not {text[:30]!r}")
    return value


def _port(text: str) -> int:
    if not text.isdigit() or len(text) > 5 or int(text) > 65535:
        raise argparse.ArgumentTypeError(
            f"must be a port number from 0 to 65535, not {text[:30]!r}"
        )
    return int(text)


def add_host_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help="TCP port (0: any free one)")
    p.add_argument("--bind", default="127.0.0.1", help="address to listen on (0.0.0.0: all)")
    p.add_argument("--password", help="players and spectators must give it to join")
    p.add_argument("--cert", metavar="PEM", help="TLS certificate chain: players join with wss://")
    p.add_argument("--key", metavar="PEM", help="the TLS certificate's private key")
    p.add_argument(
        "--grace",
        type=_grace,
        default=60.0,
        metavar="S",
        help="seconds a dropped player's seat is kept (default 60)",
    )
    p.add_argument(
        "--on-leave",
        choices=ON_LEAVE,
        default="bot",
        help="after the grace time a bot plays the seat, or the match pauses (default bot)",
    )
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")


def add_join_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", help="the host's address, ws://HOST:PORT or wss://HOST:PORT")
    p.add_argument("--password")
    p.add_argument(
        "--cafile",
        metavar="PEM",
        help="wss://: trust this CA or certificate (default: the system's)",
    )
    p.add_argument("--seat", type=int, help="the seat to take (default: the first free one)")
    p.add_argument("--spectate", action="store_true", help="watch only")
    p.add_argument("--name", default="", help="a name the others see")
    p.add_argument("--seed", type=seed_arg, default=0, help="seed of this client's bot")
    p.add_argument(
        "--wait",
        type=_wait,
        default=REACH_FOR_S,
        metavar="S",
        help=f"seconds to keep trying a host that is not listening yet (default {REACH_FOR_S:g})",
    )
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")


def require_net(command: str) -> None:
    """websockets (the net extra) imports, or one line naming the extra (before any other check)."""
    require("websockets", "net", f"'{command}'")


def check_url(url: str) -> None:
    """A ws:// or wss:// address with a host and, if given, a port from 1 to 65535 (a malformed
    one made websockets or the socket layer raise past the client's own checks)."""
    what = f"{url[:60]!r} is not a ws://HOST:PORT address"
    if not url.startswith(("ws://", "wss://")) or len(url) > 300:
        raise UserError(what)
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError as exc:  # an unclosed [IPv6 bracket, a port out of range or not a number
        raise UserError(f"{what} ({exc})") from None
    if not host or any(c.isspace() or not c.isprintable() for c in url):
        raise UserError(what)
    if port == 0:
        raise UserError(f"{what} (port 0: give the port the host listens on)")


def host_options(args: argparse.Namespace) -> HostOptions:
    if args.password is not None and len(args.password) > 200:
        raise UserError("--password: at most 200 characters")
    if (args.cert is None) != (args.key is None):
        raise UserError("--cert and --key go together (the certificate and its private key)")
    for flag, path in (("--cert", args.cert), ("--key", args.key)):
        if path is not None and not _readable(path):
            raise UserError(f"{flag} {path[:200]}: no such readable file")
    return HostOptions(
        bind=args.bind.strip("[]"),  # "[::1]" as in a URL is the address ::1
        port=args.port,
        password=args.password,
        grace=args.grace,
        on_leave=args.on_leave,
        cert=args.cert,
        key=args.key,
    )


def _readable(path: str) -> bool:
    import os

    return os.path.isfile(path) and os.access(path, os.R_OK)


def open_journal(
    record: Path | None, state: State, resuming: bool
) -> tuple[Journal | None, Resumed]:
    """The journal beside ``record`` (jamsumo_sim/net/journal.py); on ``--resume`` its moves are
    played onto ``state`` first, and its seat tokens come back."""
    from jamsumo_sim.net.journal import Journal, Resumed, journal_path, resume

    if record is None:
        return None, Resumed()
    path = journal_path(record)
    resumed = resume(state, path) if resuming else Resumed()
    return Journal(path, state, resumed.match, fresh=not resuming), resumed


def join_options(args: argparse.Namespace) -> JoinOptions:
    check_url(args.url)
    if args.seat is not None and not 0 <= args.seat <= 99:
        raise UserError(f"--seat must be a seat number from 0 to 99, not {args.seat}")
    if args.spectate and args.seat is not None:
        raise UserError("--spectate and --seat exclude each other")
    if args.cafile is not None and not _readable(args.cafile):
        raise UserError(f"--cafile {args.cafile[:200]}: no such readable file")
    if args.cafile is not None and not args.url.startswith("wss://"):
        raise UserError("--cafile is for a wss:// address (a host started with --cert)")
    return JoinOptions(
        password=args.password,
        seat=args.seat,
        spectate=args.spectate,
        name=args.name[:40],
        seed=args.seed,
        wait=args.wait,
        cafile=args.cafile,
        remember=not args.spectate,  # the same command rejoins the same seat
    )


def run_host(host: Host) -> dict[str, Any]:
    try:
        return asyncio.run(host.run())
    except OSError as exc:  # the port is taken, or the address is not ours
        raise UserError(
            f"cannot listen on {host.options.bind}:{host.options.port}: {exc.strerror or exc}"
        ) from None


def run_client(client: Client) -> dict[str, Any]:
    from jamsumo_sim.turnloop.agents import QuitRequest

    try:
        return asyncio.run(client.run())
    except QuitRequest:  # the person typed quit (or input ended): the host keeps the seat a while
        raise UserError("you left the match; join again with the same command to go on") from None


def print_result(result: dict[str, Any], as_json: bool, line: str) -> None:
    print(json.dumps(result) if as_json else line, flush=True)
