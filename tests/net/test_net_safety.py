"""Issue 34: safety beyond the host's own limits. Chance the players cannot foresee (the flick's
noise is drawn after the flick is committed), TLS with a certificate made here, one line for a
hostile host's malformed messages, addresses that can be pasted, a warning for an open host without
a password, and a closed window that rejoins its own seat."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading

import pytest
from websockets.asyncio.server import serve

from jamsumo_sim.errors import UserError
from jamsumo_sim.net import protocol as wire
from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.host import _public
from jamsumo_sim.net.run import check_url
from jamsumo_sim.turnloop import get_game
from tests.child_limits import HANG_GUARD_S
from tests.hostile.harness import assert_one_line_error, run_cli
from tests.net.helpers import bot, card_state, start_host
from tests.net.peers import make_certificate, options


def _play(coro):  # noqa: ANN001, ANN202
    return asyncio.run(asyncio.wait_for(coro, HANG_GUARD_S))


def test_a_flicks_noise_is_drawn_only_after_the_flick_is_committed(monkeypatch):
    """Every execution outcome the host draws follows a flick already in the history (and told
    to the clients); nothing on the host's path asks for the next execution ahead of time."""
    from jamsumo_sim.net import host as host_module
    from jamsumo_sim.rules.match import MatchState

    drawn: list[tuple[int, bool]] = []
    real = host_module.seeded_outcome

    def watched(state):  # noqa: ANN001, ANN202
        drawn.append((len(state.history), state.pending is not None))
        return real(state)

    def peeked(self, *args):  # noqa: ANN001, ANN002, ANN202
        raise AssertionError("the host looked at a flick's noise before the flick was made")

    monkeypatch.setattr(host_module, "seeded_outcome", watched)
    monkeypatch.setattr(MatchState, "next_execution", peeked)
    game = get_game("jam")
    params = {"players": 3, "max_turns": 3, "rounds": 1, "noise": "table"}
    state = game.new_initial_state(game.validate_params(params), seed=21)
    assert not state.noise.exact  # practice noise: each flick has an execution outcome

    async def go():  # noqa: ANN202
        told: list[dict] = []
        host, task, url = await start_host(state, ["remote", "bot", "bot"], options())
        client = Client(url, JoinOptions(seat=0, seed=3), bot, say=lambda text: None,
                        on_message=lambda raw: told.append(json.loads(raw)))  # fmt: skip
        await asyncio.gather(task, client.run())
        return host, told

    host, told = _play(go())
    executions = [at for at, pending in drawn if pending]
    assert len(executions) >= 3
    history = host.state.history
    for at in executions:  # the flick sits right before its outcome, made by a seat
        assert history[at - 1].get("seat", -1) >= 0 and history[at].get("seat") is None
    moves = [m["at"] for m in told if m["type"] == "move"]
    for at in executions:  # and seat 0 was told of the flick before its outcome
        assert moves.index(at - 1) < moves.index(at)


def test_tls_host_and_a_client_that_trusts_its_certificate(tmp_path):
    cert, key = make_certificate(tmp_path)

    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=22), ["remote", "bot", "bot"],
            options(cert=str(cert), key=str(key)),
        )  # fmt: skip
        secure = host.url().replace("127.0.0.1", "127.0.0.1")
        untrusting = Client(secure, JoinOptions(seat=0, seed=1), bot, say=lambda t: None)
        with pytest.raises(UserError, match="TLS failed"):
            await untrusting.run()
        plain = Client(url, JoinOptions(seat=0, seed=1, wait=0), bot, say=lambda t: None)
        with pytest.raises(UserError):  # ws:// to a TLS host: no match host there
            await plain.run()
        trusting = Client(secure, JoinOptions(seat=0, seed=1, cafile=str(cert)), bot, say=print)
        result = await trusting.run()
        await task
        return secure, result

    secure, result = _play(go())
    assert secure.startswith("wss://127.0.0.1:") and result["game"] == "jellyfish"


def test_tls_flags_are_checked_in_one_line(tmp_path):
    cert, key = make_certificate(tmp_path)
    out = run_cli("card-games", "host", "jellyfish", "--players", "2", "--cert", str(cert))
    assert_one_line_error(out, "--cert and --key go together")
    out = run_cli("card-games", "join", "ws://127.0.0.1:9", "--cafile", str(cert))
    assert_one_line_error(out, "--cafile is for a wss:// address")
    out = run_cli("card-games", "join", "wss://127.0.0.1:9", "--cafile", str(tmp_path / "no.pem"))
    assert_one_line_error(out, "--cafile", "no such readable file")


@pytest.mark.parametrize(
    "reply",
    [
        {"type": "welcome"},
        {"type": "welcome", "token": {"x": 1}, "seat": 0},
        {"type": "welcome", "token": "ab", "seat": "zero"},
        {"type": "start", "n": 0, "game": "jellyfish", "seat": 0},
        {"type": "update", "n": 0, "at": "x", "obs": {}},
        {"type": "turn", "n": 0, "at": 0, "legal": [7]},
        {"type": "end", "n": 0},
    ],
)
def test_a_hostile_hosts_malformed_messages_end_join_in_one_line(reply):
    """Before: a malformed welcome ended `join` with a bare KeyError."""

    async def fake(conn):  # noqa: ANN001, ANN202
        await conn.recv()
        if reply["type"] != "welcome":
            await conn.send(wire.encode("welcome", token="ab" * 8, seat=0))
        await conn.send(json.dumps({"v": wire.VERSION, **reply}))
        with contextlib.suppress(Exception):
            await conn.wait_closed()

    async def go():  # noqa: ANN202
        async with serve(fake, "127.0.0.1", 0) as server:
            url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
            client = Client(url, JoinOptions(seed=1), bot, say=lambda t: None)
            with pytest.raises(UserError) as caught:
                await client.run()
            return str(caught.value)

    message = _play(go())
    assert "malformed" in message and "\n" not in message


def test_a_host_of_another_protocol_version_is_one_line():
    async def fake(conn):  # noqa: ANN001, ANN202
        await conn.recv()
        await conn.send(json.dumps({"v": 1, "type": "welcome", "token": "t", "seat": 0}))
        with contextlib.suppress(Exception):
            await conn.wait_closed()

    async def go():  # noqa: ANN202
        async with serve(fake, "127.0.0.1", 0) as server:
            url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
            with pytest.raises(UserError, match="protocol version 1; this client speaks"):
                await Client(url, JoinOptions(seed=1), bot, say=lambda t: None).run()

    _play(go())


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")
def test_an_ipv6_host_prints_an_address_join_takes():
    """Before: `--bind ::1` printed ws://::1:PORT, which join could not parse."""

    async def go():  # noqa: ANN202
        said: list[str] = []
        host, task, _ = await start_host(
            card_state("jellyfish", seed=23), ["remote", "bot", "bot"], options()
        )
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        host.options.bind = "::1"
        host.ready.clear()
        host.say = said.append
        task = asyncio.create_task(host.run())
        await host.ready.wait()
        url = said[0].split(" on ")[1].split(" ")[0]
        check_url(url)
        result = await Client(url, JoinOptions(seat=0, seed=1), bot, say=lambda t: None).run()
        await task
        return url, result, said

    url, result, said = _play(go())
    assert url.startswith("ws://[::1]:") and result["game"] == "jellyfish"
    assert not any("warning" in line for line in said)  # the loopback is not open to others


def test_an_open_host_without_password_is_warned_about():
    assert _public("0.0.0.0") and _public("::") and _public("192.0.2.1") and _public("example.org")
    assert not _public("127.0.0.1") and not _public("::1") and not _public("localhost")

    async def go():  # noqa: ANN202
        said: list[str] = []
        host, task, _ = await start_host(
            card_state("jellyfish", seed=24), ["remote", "bot", "bot"], options()
        )
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        host.options.bind, host.say = "0.0.0.0", said.append
        host.ready.clear()
        task = asyncio.create_task(host.run())
        await host.ready.wait()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return said

    said = _play(go())
    warnings = [line for line in said if line.startswith("warning:")]
    assert len(warnings) == 1 and "--password" in warnings[0] and "\n" not in warnings[0]


def test_a_closed_window_rejoins_its_own_seat(tmp_path):
    """Before: the window said "join again with the same command" and the host answered that
    every remote seat was taken. The seat's token is kept in the user's data folder."""
    from jamsumo_sim.ui.net_session import NetLink

    state = card_state("jellyfish", seed=25)
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    box: dict = {}

    async def serve_host() -> None:
        host, task, url = await start_host(state, ["remote", "remote", "bot"], options(grace=600.0))
        box.update(host=host, url=url)
        ready.set()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    thread = threading.Thread(target=lambda: loop.run_until_complete(serve_host()), daemon=True)
    thread.start()
    assert ready.wait(HANG_GUARD_S)
    url, host = box["url"], box["host"]
    first = NetLink(url, JoinOptions(remember=True, seed=1), say=lambda t: None)
    first.begin(HANG_GUARD_S)
    seat, token = first.client.seat, first.client.token
    first.close()
    first.thread.join(HANG_GUARD_S)
    again = NetLink(url, JoinOptions(remember=True, seed=1), say=lambda t: None)
    again.begin(HANG_GUARD_S)
    assert (again.client.seat, again.client.token) == (seat, token)
    other = NetLink(url, JoinOptions(remember=True, seed=2), say=lambda t: None)
    other.begin(HANG_GUARD_S)  # a second window beside it takes the other seat, not this one
    assert other.client.seat not in (None, seat)
    for link in (again, other):
        link.close()
        link.thread.join(HANG_GUARD_S)
    loop.call_soon_threadsafe(lambda: [t.cancel() for t in asyncio.all_tasks(loop)])
    thread.join(HANG_GUARD_S)
    assert set(host.holders) == {0, 1}
