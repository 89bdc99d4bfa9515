"""Hostile network clients: each is refused with a message to that client only, and the match goes
on for everyone else. Plus the host and join commands on bad arguments (one line, exit 2)."""

from __future__ import annotations

import asyncio
import json

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from jamsumo_sim.net import protocol as wire
from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.host import HostOptions
from tests.child_limits import HANG_GUARD_S
from tests.hostile.harness import assert_one_line_error, run_cli
from tests.net.helpers import bot, card_state, start_host

PASSWORD = "jam"


async def _exchange(
    url: str, *frames: str | bytes, errors: int = 1, closes: bool = False, quiet: float = 0.3
) -> tuple[list[dict], int | None]:
    """Send frames on a fresh connection; return the replies and the close code (None: open).

    Waits, however long the host takes, for ``errors`` error replies (and the close, if
    ``closes``); then takes what else comes within ``quiet`` s. Only that look for extra replies
    is timed: on a busy machine it may see fewer, never a false alarm."""
    replies: list[dict] = []
    async with connect(url, proxy=None, compression=None, max_size=None) as conn:
        try:
            for frame in frames:
                await conn.send(frame)
            while len(_codes(replies)) < errors or closes:
                replies.append(json.loads(await conn.recv()))
            while True:
                raw = await asyncio.wait_for(conn.recv(), quiet)
                replies.append(json.loads(raw))
        except TimeoutError:
            return replies, None
        except ConnectionClosed:
            return replies, conn.close_code


def _hello(**fields) -> str:  # noqa: ANN003
    return wire.encode("hello", password=PASSWORD, **fields)


def _codes(replies: list[dict]) -> list[str]:
    return [r["code"] for r in replies if r["type"] == "error"]


async def _seat_one(url: str, log: list) -> None:  # noqa: ANN001
    """Seat 1 played by a crude client: out of turn and illegal moves first, then legal ones."""
    async with connect(url, proxy=None, compression=None) as conn:
        await conn.send(_hello(seat=1))
        await conn.send(wire.encode("move", at=0, action={"name": "anything"}))
        tried_illegal = False
        async for raw in conn:
            message = json.loads(raw)
            log.append(message)
            if message["type"] == "end":
                await conn.close(1000, "bye")
                return
            if message["type"] != "turn":
                continue
            at = message["at"]
            if not tried_illegal:
                tried_illegal = True
                await conn.send(wire.encode("move", at=at, action={"name": "no such move"}))
                await conn.send(wire.encode("move", at=at, action={"name": 5}))
                await conn.send(wire.encode("move", at=at + 3, action=message["legal"][0]))
            await conn.send(wire.encode("move", at=at, action=message["legal"][0]))


def test_hostile_clients_are_refused_and_the_match_goes_on():
    async def go():  # noqa: ANN202
        state = card_state("jellyfish", seed=2)
        seats = ["remote", "remote", "bot"]
        options = HostOptions(port=0, password=PASSWORD, linger=1)
        host, task, url = await start_host(state, seats, options)
        good = Client(url, JoinOptions(seat=0, password=PASSWORD), bot, say=lambda t: None)
        good_task = asyncio.create_task(good.run())
        while good.token is None:
            await asyncio.sleep(0.01)
        seen = {}
        seen["password"] = await _exchange(
            url, wire.encode("hello", password="marmalade"), closes=True
        )
        seen["malformed"] = await _exchange(
            url, "{not json", b"\x00binary", "[1]", json.dumps({"v": wire.VERSION}), errors=4
        )
        seen["deep"] = await _exchange(url, "[" * 5000 + "]" * 5000)
        seen["version"] = await _exchange(url, json.dumps({"v": 99, "type": "hello"}))
        seen["taken"] = await _exchange(url, _hello(seat=0), closes=True)
        seen["no seat"] = await _exchange(url, _hello(seat=7))
        seen["thief"] = await _exchange(url, _hello(token="0" * 32))
        seen["huge"] = await _exchange(
            url, "x" * (wire.MAX_CLIENT_MESSAGE_BYTES + 10), errors=0, closes=True
        )
        watcher = [_hello(spectate=True), wire.encode("move", at=0, action={"name": "x"})]
        seen["spectator"] = await _exchange(url, *watcher)
        flood = [_hello(spectate=True)] + [wire.encode("chat", text="spam")] * 150
        seen["flood"] = await _exchange(url, *flood, quiet=0.5)
        seat_one: list = []
        results = await asyncio.gather(task, good_task, _seat_one(url, seat_one))
        return host, seen, results, seat_one

    host, seen, results, seat_one = asyncio.run(asyncio.wait_for(go(), HANG_GUARD_S))
    assert _codes(seen["password"][0]) == ["password"] and seen["password"][1] is not None
    assert _codes(seen["malformed"][0]) == ["malformed"] * 4 and seen["malformed"][1] is None
    assert _codes(seen["deep"][0]) == ["malformed"]
    assert _codes(seen["version"][0]) == ["version"]
    assert _codes(seen["taken"][0]) == ["seat"] and seen["taken"][1] is not None
    assert _codes(seen["no seat"][0]) == ["seat"]
    assert _codes(seen["thief"][0]) == ["seat"]
    assert seen["huge"][1] == 1009  # message too big: that connection closes
    assert "spectator" in _codes(seen["spectator"][0])
    flood_codes = _codes(seen["flood"][0])
    assert "rate" in flood_codes and len(flood_codes) < 10  # told, not answered 90 times
    chats = [r for r in seen["flood"][0] if r["type"] == "chat"]
    assert len(chats) <= wire.RATE_BURST + 5  # the rest were not passed on to everyone
    errors = [m["code"] for m in seat_one if m["type"] == "error"]
    assert {"turn", "illegal", "malformed"} <= set(errors)
    host_result, good_result = results[0], results[1]
    assert good_result == host_result and host_result["game"] == "jellyfish"
    # no error reached the well-behaved client: refusals go to their sender only
    assert not [c for c, _ in host.refused if c == "seat 0"]


def test_host_and_join_bad_arguments_are_one_line_errors():
    out = run_cli("jamsumo", "join", "http://example.org", "--bot", "random")
    assert_one_line_error(out, "ws://")
    out = run_cli("card-games", "join", "ws://127.0.0.1:1", "--bot", "smart", "--wait", "0")
    assert_one_line_error(out, "cannot reach")
    out = run_cli("card-games", "host", "jellyfish", "--players", "3", "--seats", "remote,smart")
    assert_one_line_error(out, "--seats")


MALFORMED_URLS = [
    ("ws://[::1", "Invalid IPv6 URL"),  # an unclosed bracket: urllib's ValueError was a traceback
    ("ws://127.0.0.1:99999", "out of range"),
    ("ws://127.0.0.1:-1", "'-1'"),
    ("ws://localhost:80x", "'80x'"),
    ("wss://[zz]:8765", "'zz'"),
    ("ws://127.0.0.1:0", "port 0"),  # websockets took it for port 80
    ("ws://:8765", "ws://HOST:PORT"),
    ("ws://a host:8765", "ws://HOST:PORT"),
]


@pytest.mark.parametrize("prog,bot", [("jamsumo", "random"), ("card-games", "smart")])
def test_join_refuses_a_malformed_address_in_one_line(prog, bot):
    for url, why in MALFORMED_URLS:
        out = run_cli(prog, "join", url, "--bot", bot, "--wait", "0")
        assert_one_line_error(out, "is not a ws://HOST:PORT address", why)


def test_host_resume_and_seat_and_wait_flags_are_one_line_errors(tmp_path):
    saved = str(tmp_path / "match.json")  # the flags are refused before the file is read
    out = run_cli("jamsumo", "host", "--resume", saved, "--mode", "jam", "--port", "0")
    assert_one_line_error(out, "--resume", "drop --mode")
    out = run_cli("jamsumo", "host", "--resume", saved, "--practice", "--rounds", "2")
    assert_one_line_error(out, "drop --rounds, --practice")
    out = run_cli("jamsumo", "host", "--seats", "remote,bogus", "--port", "0")
    assert_one_line_error(out, "bogus")
    out = run_cli("jamsumo", "join", "ws://127.0.0.1:1", "--wait", "nan")
    assert_one_line_error(out, "--wait")
