"""Chat from the terminal (``/say``), presence lines, others' aim while they drag, and a join that
waits for a host that is not listening yet."""

from __future__ import annotations

import asyncio
import io
import socket

from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.host import Host, HostOptions
from jamsumo_sim.net.terminal import Presence, TerminalInput, attach
from tests.child_limits import HANG_GUARD_S
from tests.net.helpers import bot, card_state, jam_state, result_of


def test_terminal_input_handles_say_and_who_and_passes_the_rest_on():
    said: list[str] = []
    typed = TerminalInput(io.StringIO("/say  hello all \n3\n/who\nplay 2\n"), said.append, str)
    assert [typed.readline(), typed.readline(), typed.readline()] == ["3\n", "play 2\n", ""]
    assert said == ["hello all"]


def test_presence_says_a_line_only_when_it_changes():
    lines: list[str] = []
    presence = Presence(lines.append)
    for connected in ([0], [0], [0, 1], [1]):
        presence.on_event(None, {"type": "presence", "connected": connected, "spectators": 0})
    presence.on_event(None, {"type": "presence", "connected": [1], "spectators": 2})
    assert lines == [
        "connected: seat 0",
        "connected: seats 0, 1",
        "connected: seat 1",
        "connected: seat 1; 2 watching",
    ]


def _host(state, remote: int) -> Host:  # noqa: ANN001
    seats = ["remote"] * remote + ["bot"] * (state.num_players - remote)
    return Host(
        state,
        seats,
        {s: bot(state.game, s) for s in range(remote, state.num_players)},
        lambda s: bot(state.game, s),
        lambda s: result_of(s, seats),
        HostOptions(port=0, linger=1.0),
        say=lambda text: None,
    )


def test_a_terminal_say_reaches_every_player_and_presence_is_shown():
    async def go():  # noqa: ANN202
        host = _host(card_state("jellyfish", seed=3), remote=2)
        task = asyncio.create_task(host.run())
        await host.ready.wait()
        url = f"ws://127.0.0.1:{host.port}"
        said: dict[int, list[str]] = {0: [], 1: []}
        clients = [
            Client(url, JoinOptions(seat=k, seed=k), bot, say=said[k].append) for k in range(2)
        ]
        # typed at once, before the client has even connected: it goes once welcomed
        attach(clients[0], io.StringIO("/say good luck\n"))
        attach(clients[1], io.StringIO(""))
        results = await asyncio.wait_for(
            asyncio.gather(task, *(c.run() for c in clients)), HANG_GUARD_S
        )
        return results, said

    results, said = asyncio.run(go())
    assert results[1] == results[2] == results[0]
    for k in (0, 1):
        assert "[seat 0] good luck" in said[k]
        assert any(line.startswith("connected: seats 0, 1") for line in said[k])


def test_a_players_aim_reaches_the_others_and_bad_aims_are_refused():
    async def go():  # noqa: ANN202
        host = _host(jam_state("jam", seed=2, players=2, turns=1), remote=2)
        task = asyncio.create_task(host.run())
        await host.ready.wait()
        url = f"ws://127.0.0.1:{host.port}"
        aims: dict[int, list[dict]] = {0: [], 1: []}
        clients: list[Client] = []

        class Aimer:  # a bot that shows its aim (twice, one bad) before it moves
            is_human = False

            def __init__(self, game, seat) -> None:  # noqa: ANN001
                self.inner, self.seat = bot(game, seat), seat

            def act(self, view):  # noqa: ANN001, ANN202
                client = clients[self.seat]
                at = len(view.state.history)
                good = {"die": "x1", "direction": 0.5, "speed": 1.25}
                bad = {"die": "x1", "direction": 0.5, "speed": 1e9}
                for fields in (bad, good):
                    send = client.send_aim(at, fields)
                    asyncio.run_coroutine_threadsafe(send, client.loop).result(HANG_GUARD_S)
                return self.inner.act(view)

        for k in range(2):
            client = Client(url, JoinOptions(seat=k), Aimer, say=lambda t: None)
            client.on_aim = aims[k].append
            clients.append(client)
        await asyncio.wait_for(asyncio.gather(task, *(c.run() for c in clients)), HANG_GUARD_S)
        return host, aims

    host, aims = asyncio.run(go())
    # one turn in all: seat 0's aim reaches seat 1, and is never shown back to seat 0
    assert aims[0] == []
    assert aims[1] and all(a["seat"] == 0 for a in aims[1])
    assert all(a["speed"] == 1.25 and a["die"] == "x1" for a in aims[1])
    assert ("seat 0", "malformed") in host.refused  # the absurd speed went no further


def test_join_waits_for_a_host_that_is_not_listening_yet():
    with socket.socket() as probe:  # a free port, known before the host listens on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def go():  # noqa: ANN202
        said: list[str] = []
        url = f"ws://127.0.0.1:{port}"
        # the client's wait (wall time, the behaviour under test) is far longer than the host's
        # start-up even on a busy machine; the host starts once the client has knocked and failed
        client = Client(url, JoinOptions(seat=0, wait=60.0), bot, say=said.append)
        joining = asyncio.create_task(client.run())
        while not any("does not answer yet" in line for line in said):
            await asyncio.sleep(0.01)
        host = _host(card_state("jellyfish", seed=1), remote=1)
        host.options.port = port
        results = await asyncio.wait_for(asyncio.gather(host.run(), joining), HANG_GUARD_S)
        return results, said

    (host_result, client_result), said = asyncio.run(go())
    assert client_result == host_result
    assert [line for line in said if "does not answer yet" in line] == [
        f"ws://127.0.0.1:{port} does not answer yet; trying again (up to 60 s)"
    ]
