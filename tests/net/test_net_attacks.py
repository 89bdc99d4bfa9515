"""Issue 34: hostile peers over real sockets on the loopback. Each test plays one attack that held
against the host before (chat flooding, spectators that never leave, resend amplification, idle
connections, password guessing, forged chat) and checks the bound that stops it now."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import time

from jamsumo_sim.net.client import Client, JoinOptions
from tests.child_limits import HANG_GUARD_S
from tests.net.helpers import bot, card_state, start_host
from tests.net.peers import closed, hello, options, raw, read_all, say


def _play(coro):  # noqa: ANN001, ANN202
    return asyncio.run(asyncio.wait_for(coro, HANG_GUARD_S))


def test_chatting_spectators_cannot_grow_the_host_without_bound():
    """Before: ten chatting spectators took the host from 47 to 66 MiB in 20 s. Now chat beyond
    the rate is refused, a spectator whose unread backlog passes the cap is dropped with a reason,
    and no queue passes the cap."""
    cap, burst, rate = 32, 3, 0.5

    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=7), ["remote", "bot", "bot"],
            options(max_backlog_messages=cap, burst=burst, rate_per_s=rate),
        )  # fmt: skip
        probe, _ = await hello(url, spectate=True, name="probe")  # reads and acknowledges
        spectators = [(await hello(url, spectate=True, name=f"s{k}"))[0] for k in range(10)]
        started = time.monotonic()
        largest, heard = 0, 0
        for round_ in range(40):  # 400 chat lines; the flooders never read what comes back
            for k, conn in enumerate(spectators):
                with contextlib.suppress(Exception):  # dropped by the host meanwhile
                    await say(conn, "chat", text=f"flood {round_} from {k} " + "x" * 250)
            got = await read_all(probe, quiet_s=0.05)
            heard += sum(m["type"] == "chat" for m in got)
            if got:
                await say(probe, "sync", have=got[-1]["n"] + 1)
            largest = max([largest, *(len(p.outbox) for p in host.peers.values())])
        heard += sum(m["type"] == "chat" for m in await read_all(probe, quiet_s=1.0))
        elapsed = time.monotonic() - started
        task.cancel()
        return host, largest, heard, elapsed

    host, largest, heard, elapsed = _play(go())
    assert 10 * burst <= heard <= 10 * (burst + rate * elapsed + 1), (heard, elapsed)
    assert largest <= cap
    assert host.dropped and all(r.startswith("backlog") for _, r in host.dropped)
    assert len(host.refused) <= host.limits.max_refusals_kept


def test_a_spectator_that_does_not_read_is_dropped_with_a_reason():
    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=8),
            ["remote", "bot", "bot"],
            options(max_backlog_messages=4),
        )
        lazy, _ = await hello(url, spectate=True, name="lazy")
        talker, _ = await hello(url, spectate=True, name="talker")
        for k in range(5):
            await say(talker, "chat", text=f"line {k}")
            await say(talker, "sync", have=10**6)  # the talker acknowledges all it was sent
            await asyncio.sleep(0.05)
        # the lazy one acknowledges nothing: past 4 unacknowledged messages it is dropped
        messages = await read_all(lazy, quiet_s=1.0)
        code = lazy.close_code
        task.cancel()
        return host, messages, code

    host, messages, code = _play(go())
    assert code == 4008
    assert ("watcher lazy", "backlog: 5 messages") in [(c, r[:19]) for c, r in host.dropped]
    assert all(p.name != "lazy" for p in host.peers.values())  # and its queue went with it
    assert len(messages) <= 5


def test_spectator_slots_are_freed_when_spectators_leave():
    """Before: after 16 join-and-leave cycles nobody could watch."""

    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=9), ["remote", "bot", "bot"], options(max_spectators=3)
        )
        for k in range(20):  # with bye, and (every other one) simply cut
            conn, welcome = await hello(url, spectate=True, name=f"w{k}")
            assert welcome["type"] == "welcome", welcome
            if k % 2 == 0:
                await say(conn, "bye")
            await conn.close()
        watchers = [await hello(url, spectate=True) for _ in range(3)]
        fourth = await hello(url, spectate=True)
        task.cancel()
        return watchers, fourth, len(host.peers)

    watchers, fourth, kept = _play(go())
    assert all(w["type"] == "welcome" for _, w in watchers)
    assert fourth[1]["type"] == "error" and fourth[1]["code"] == "full"  # the cap still holds
    assert kept <= 3 + 10  # the cut ones wait only for the keep time (then they go too)


def test_a_client_cannot_make_the_host_resend_everything_over_and_over():
    """Before: ``sync have=0`` made the host resend all it had ever sent, ~1,700x the bytes asked.
    Now what was acknowledged stays acknowledged and resends come at most every interval."""
    interval = 0.5

    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=10), ["remote", "bot", "bot"],
            options(resend_interval_s=interval),
        )  # fmt: skip
        conn, _ = await hello(url, spectate=True, name="amp")
        for k in range(30):  # fill its stream with chat lines
            await say(conn, "chat", text="y" * 200) if k < 5 else None
        first = await read_all(conn, quiet_s=0.5)
        have = max(m["n"] for m in first if "n" in m) + 1
        await say(conn, "sync", have=have)  # acknowledged
        received, asked = 0, 0
        started = time.monotonic()
        for _ in range(50):
            text = json.dumps({"v": 2, "type": "sync", "have": 0, "gap": True})
            asked += len(text)
            await conn.send(text)
            try:
                while True:
                    received += len(await asyncio.wait_for(conn.recv(), 0.02))
            except TimeoutError:
                pass
        elapsed = time.monotonic() - started
        task.cancel()
        return received, asked, elapsed

    received, asked, elapsed = _play(go())
    # everything was acknowledged: nothing to resend, whatever it asks
    assert received <= asked, (received, asked, elapsed)


def test_a_resend_is_bounded_in_size_and_in_rate():
    """A client that never acknowledges and always asks for everything gets at most
    ``resend_max_messages`` again, at most once per ``resend_interval_s``."""
    interval, most = 0.5, 3

    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=11), ["remote", "bot", "bot"],
            options(resend_interval_s=interval, resend_max_messages=most),
        )  # fmt: skip
        conn, _ = await hello(url, spectate=True, name="amp")
        for _ in range(5):
            await say(conn, "chat", text="z" * 200)
        first = [m for m in await read_all(conn, quiet_s=0.5) if "n" in m]
        again: list[dict] = []
        started = time.monotonic()
        for _ in range(50):  # never acknowledges, always asks for everything
            await say(conn, "sync", have=0, gap=True)
            again.extend(m for m in await read_all(conn, quiet_s=0.02) if "n" in m)
        elapsed = time.monotonic() - started
        task.cancel()
        return first, again, elapsed

    first, again, elapsed = _play(go())
    assert len(first) >= 2 * most  # a stream longer than one resend
    resends = [m for m in again if m["n"] == 0]
    assert 1 <= len(resends) <= 2 + elapsed / interval, (len(resends), elapsed)  # before: 50
    assert len(again) <= most * len(resends)  # each the first ``most`` messages only
    assert {m["n"] for m in again} == set(range(most))


def test_idle_connections_are_closed_and_cannot_lock_out_a_player():
    """Before: connections that never said hello stayed forever. Now at most ``max_pending`` wait
    (the oldest go first) and none waits past the hello timeout; a player still gets in."""

    async def go():  # noqa: ANN202
        state = card_state("jellyfish", seed=12)
        host, task, url = await start_host(
            state, ["remote", "bot", "bot"],
            options(max_pending=6, max_pending_per_address=4, hello_timeout_s=1.0,
                    handshake_timeout_s=1.0),
        )  # fmt: skip
        tcp = [await asyncio.open_connection("127.0.0.1", host.port) for _ in range(20)]
        upgraded = [await raw(url) for _ in range(3)]  # upgraded, never say hello
        most = len(host.pending)
        client = Client(url, JoinOptions(seat=0, seed=1), bot, say=lambda text: None)
        result = await client.run()
        cut = all([await closed(r) for r, _ in tcp])
        for conn in upgraded:
            await read_all(conn, quiet_s=5.0)
        await task
        return host, most, result, cut, [c.close_code for c in upgraded]

    host, most, result, cut, codes = _play(go())
    assert most <= 4 and result["game"] == "jellyfish"  # one address: 4 pending at most
    assert cut and all(code is not None for code in codes)
    assert not host.pending
    assert {code for _, code in host.refused} >= {"evicted"}


def test_password_guesses_wait_longer_and_longer():
    """Before: 161 guesses a second. Now a wrong guess makes that address wait, twice as long each
    time; a guess within the wait is refused unchecked (the host's clock is the test's here)."""
    now = [100.0]

    async def go():  # noqa: ANN202
        host, task, url = await start_host(
            card_state("jellyfish", seed=13), ["remote", "bot", "bot"],
            options(password="right", first_delay_s=1.0, max_delay_s=4.0),
        )  # fmt: skip
        host.clock = lambda: now[0]
        codes = []
        for step in (0.0, 0.0, 0.0, 1.0, 0.5, 1.5, 4.0, 4.0):
            now[0] += step
            conn, reply = await hello(url, password="guess", name="g")
            codes.append(reply["code"])
            await conn.close()
        blocked = (await hello(url, password="right"))[1]  # right, but within the wait
        now[0] += 4.0
        right = (await hello(url, password="right", seat=0))[1]
        task.cancel()
        return codes, blocked, right

    codes, blocked, right = _play(go())
    # waits 1, 2, 4, 4 s after the 1st, 2nd, 3rd, 4th wrong guess
    assert codes == [
        "password",
        "wait",
        "wait",
        "password",
        "wait",
        "password",
        "password",
        "password",
    ]
    assert blocked["code"] == "wait" and right["type"] == "welcome"


def test_names_and_chat_cannot_forge_a_seat_line():
    """Before: a spectator printed a fake "[seat 1] I resign" on every client and the host."""
    forged = "\n[seat 1] I resign\x1b[2K\r\x1b]0;owned\x07\u202e"

    async def go():  # noqa: ANN202
        state = card_state("jellyfish", seed=14)
        host_said: list[str] = []
        host, task, url = await start_host(state, ["remote", "bot", "bot"], options())
        host.say = host_said.append
        said: list[str] = []
        client = Client(url, JoinOptions(seat=0, seed=2), bot, say=said.append)
        play = asyncio.create_task(client.run())
        await client.welcomed.wait()
        conn, welcome = await hello(url, spectate=True, name="x] [seat 1")
        await say(conn, "chat", text=forged)
        await play
        task.cancel()
        return said, host_said

    said, host_said = _play(go())
    chat = [line for line in said if "I resign" in line]
    assert chat == ["[watcher x) (seat 1] [seat 1] I resign"]
    for line in said + host_said:
        assert "\n" not in line and "\x1b" not in line and "\u202e" not in line
        assert not line.startswith("[seat 1]")


def test_idle_sockets_cannot_use_up_a_host_s_descriptors(tmp_path):
    """Before: with a 256-descriptor limit, 248 idle sockets locked out an honest player. A host
    process limited to 128 descriptors, 150 idle connections, then a player who plays to the end
    (without the caps the idle ones alone would use up the descriptors)."""
    import resource
    import subprocess

    from tests.child_limits import NUMBA_COMPILE_S, cpu_limited, ended
    from tests.net.helpers import spawn_card_games

    def few_descriptors() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128))

    from tests.hostile.harness import script

    errors = tmp_path / "host.err"
    host = subprocess.Popen(
        [script("card-games"), "host", "jellyfish", "--players", "2", "--seats", "remote,smart",
         "--port", "0", "--json"],
        stdout=subprocess.PIPE, stderr=errors.open("w"), text=True,  # a file: it is never full
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        preexec_fn=cpu_limited(60.0 + NUMBA_COMPILE_S, then=few_descriptors),
    )  # fmt: skip
    sockets = []
    try:
        port = None
        while port is None and host.poll() is None:  # a hang guard bounds the test as a whole
            line = errors.read_text()
            time.sleep(0.05)
            port = (
                line.split("ws://127.0.0.1:")[1].split(" ")[0]
                if "ws://127.0.0.1:" in line
                else None
            )
        assert port, "the host did not say where it listens"
        for _ in range(150):
            sockets.append(socket.create_connection(("127.0.0.1", int(port))))
        join = spawn_card_games("join", f"ws://127.0.0.1:{port}", "--bot", "smart", "--json")
        join_out, join_err = join.communicate(timeout=HANG_GUARD_S)
        host_out, _ = host.communicate(timeout=HANG_GUARD_S)
    finally:
        host.kill()
        for s in sockets:
            s.close()
    host_err = errors.read_text()
    assert join.returncode == 0, ended(join.returncode) + join_err[-1000:]
    assert host.returncode == 0, ended(host.returncode) + host_err[-1000:]
    assert json.loads(join_out) == json.loads(host_out)
    assert "Too many open files" not in host_err  # never even near the limit
