"""Host a match in this process and join it with bot clients, all on the loopback."""

from __future__ import annotations

import asyncio
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.host import Host, HostOptions
from jamsumo_sim.turnloop import Agent, Game, State, get_game
from tests.child_limits import HANG_GUARD_S, NUMBA_COMPILE_S, cpu_limited
from tests.hostile.harness import script

CARD = {"jumble_jam": 3, "jellyfish": 3, "jumblejack": 4, "the_jam": 3}


def jam_state(mode: str, seed: int = 1, players: int = 3, turns: int = 3) -> State:
    game = get_game(mode)
    params = game.validate_params({"players": players, "max_turns": turns, "rounds": 1})
    return game.new_initial_state(params, seed=seed)


def card_state(name: str, seed: int = 1) -> State:
    game = get_game(name)
    return game.new_initial_state(game.validate_params({"players": CARD[name]}), seed=seed)


def local_kind(game: Game) -> str:
    """The bot kind the host's own seats play (a record lists it: replay --verify knows it)."""
    return "smart" if "smart" in game.bots() else "random"


def bot(game: Game, seat: int) -> Agent:
    return game.bots()[local_kind(game)](seat, game)


@dataclass
class Run:
    host: Host
    clients: list[Client]
    result: dict[str, Any]
    results: list[dict[str, Any]]
    messages: dict[int, list[str]] = field(default_factory=dict)


def result_of(state: State, seats: list[str]) -> dict[str, Any]:
    if hasattr(state, "shot_checksums"):
        from jamsumo_sim.rules.match_cli import result_json

        return result_json(state, seats)
    from card_games.net import result_object

    return result_object(state)


async def start_host(
    state: State,
    seats: list[str],
    options: HostOptions,
    on_move: Callable[[State, bool], None] | None = None,
) -> tuple[Host, asyncio.Task, str]:
    """A quiet Host on the loopback, bots in its ``bot`` seats and as stand-ins, ready for clients:
    the host, its running task and its URL."""
    game = state.game
    agents = {s: bot(game, s) for s, kind in enumerate(seats) if kind in ("bot", local_kind(game))}
    host = Host(
        state,
        seats,
        agents,
        lambda seat: bot(game, seat),
        lambda s: result_of(s, seats),
        options,
        on_move,
        say=lambda text: None,
    )
    task = asyncio.create_task(host.run())
    await host.ready.wait()
    return host, task, f"ws://127.0.0.1:{host.port}"


def host_and_join(
    state: State,
    remote: int = 2,
    record: Path | None = None,
    options: HostOptions | None = None,
    proxy: Any = None,
    extra: Any = None,
    client_options: list[JoinOptions] | None = None,
) -> Run:
    """The first ``remote`` seats remote (bot clients), the rest local bots; play to the end."""
    return asyncio.run(_run(state, remote, record, options, proxy, extra, client_options))


async def _run(state, remote, record, options, proxy, extra, client_options) -> Run:  # noqa: ANN001
    seats = ["remote"] * remote + [local_kind(state.game)] * (state.num_players - remote)
    on_move = None
    if record is not None:
        on_move = _recorder(state, seats, record)
    host, task, url = await start_host(
        state, seats, options or HostOptions(port=0, linger=2.0), on_move
    )
    if proxy is not None:
        proxy = proxy(url)
        await proxy.start()
        url = f"ws://127.0.0.1:{proxy.port}"
    messages: dict[int, list[str]] = {}
    clients = []
    for k in range(remote):
        messages[k] = []
        opts = client_options[k] if client_options else JoinOptions(seat=k, seed=10 + k)
        clients.append(Client(url, opts, bot, say=lambda text: None, on_message=messages[k].append))
    if extra is not None:
        clients.extend(extra(url))
    out = await asyncio.wait_for(asyncio.gather(task, *(c.run() for c in clients)), HANG_GUARD_S)
    if proxy is not None:
        await proxy.stop()
    return Run(host, clients, out[0], list(out[1:]), messages)


def _recorder(state: State, seats: list[str], record: Path):  # noqa: ANN202
    if hasattr(state, "shot_checksums"):
        from jamsumo_sim.rules.match_cli import Checkpoint

        checkpoint = Checkpoint(record, seats, state)
        return lambda s, final: checkpoint.capture(s, write=final)
    from jamsumo_sim.turnloop.recording import save_record

    return lambda s, final: save_record(record, s, seats) if final else None


def spawn_card_games(*args: str, cpu_s: float = 60.0 + NUMBA_COMPILE_S) -> subprocess.Popen:
    """The installed ``card-games`` with ``args``, headless, pipes for its output, limited by CPU
    time (a match of card bots takes a second or two)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [script("card-games"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=cpu_limited(cpu_s),
    )
