"""What `host --web` sends a browser (the public view, each shot's poses) and how it checks what a
browser sends: over real sockets on the loopback, with the host in this process."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace

from websockets.exceptions import ConnectionClosed

from jamsumo_sim.net.host import HostOptions
from jamsumo_sim.net.limits import net_limits
from jamsumo_sim.net.web_view import public_view, shot_frames, shot_of
from jamsumo_sim.rules.match_cli import make_agents
from jamsumo_sim.turnloop import get_game
from jamsumo_sim.turnloop.actions import CHANCE
from jamsumo_sim.turnloop.agents import SeatView
from jamsumo_sim.turnloop.driver import seeded_outcome
from tests.child_limits import HANG_GUARD_S
from tests.net.helpers import jam_state, start_host
from tests.net.peers import hello, read_all, say


def _play(coro):  # noqa: ANN001, ANN202
    return asyncio.run(asyncio.wait_for(coro, HANG_GUARD_S))


async def _watch(url: str) -> list[dict]:
    """A browser-like spectator: every stream message in order, acknowledged, until the end."""
    conn, welcome = await hello(url, spectate=True, name="web", view=True)
    assert welcome["type"] == "welcome", welcome
    got: dict[int, dict] = {}
    while not any(m["type"] == "end" for m in got.values()):
        for m in await read_all(conn, quiet_s=0.2):
            if isinstance(m.get("n"), int):
                got.setdefault(m["n"], m)
        have = 0
        while have in got:
            have += 1
        with contextlib.suppress(ConnectionClosed):  # the host may end first
            await say(conn, "sync", have=have, gap=len(got) > have)
    with contextlib.suppress(ConnectionClosed):
        await say(conn, "bye")
        await conn.close()
    return [got[n] for n in sorted(got)]


def test_a_browser_spectator_gets_views_and_shots_that_end_where_the_rules_rest():
    async def go():  # noqa: ANN202
        state = jam_state("jam", seed=4, players=2, turns=3)
        seats = ["bot", "bot"]
        options = HostOptions(port=0, linger=1.0, web=True)
        host, task, url = await start_host(state, seats, options)
        # the bots wait for nobody: join before the first shot by holding the host's lock
        async with host.lock:
            watcher = asyncio.create_task(_watch(url))
            await asyncio.sleep(0.3)
        messages = await watcher
        await task
        return messages

    messages = _play(go())
    kinds = [m["type"] for m in messages]
    assert kinds[0] == "start" and kinds[1] == "view" and kinds[-1] == "end"
    shots = [k for k, m in enumerate(messages) if m["type"] == "shot"]
    assert len(shots) >= 3  # a Jam round of three turns a seat: every flick
    for k in shots:
        shot, move, view = messages[k], messages[k + 1], messages[k + 2]
        assert move["type"] == "move" and view["type"] == "view"  # the poses come first
        assert shot["at"] == move["at"] and view["at"] == move["at"] + 1
        last = shot["frames"][-1]
        for die, x, y, angle, face in view["dice"]:  # every die the rules left on the board
            j = shot["ids"].index(die)
            assert last[5 * j : 5 * j + 5] == [x, y, angle, face, 1], die
        assert 0.9 / 60 <= shot["dt"] <= 1.1 / 60 and shot["duration"] > 0
        width = 5 * len(shot["ids"])
        assert all(len(f) == width for f in shot["frames"])


def test_a_shot_too_large_for_one_message_is_sampled_less_often():
    game = get_game("jam")
    state = game.new_initial_state(game.validate_params({"players": 2}), seed=3)
    bots = make_agents(game, ["planner:easy", "planner:easy"])
    while state.current_player() == CHANCE:
        state.apply_action(seeded_outcome(state))
    seat = state.current_player()
    action = bots[seat].act(SeatView(state, seat))
    full = shot_frames(state, shot_of(state, action, None), seat, "red1", net_limits())
    small = replace(net_limits(), max_shot_bytes=len(str(full)) // 3)
    cut = shot_frames(state, shot_of(state, action, None), seat, "red1", small)
    assert cut["dt"] >= 2 * full["dt"] and cut["frames"][-1] == full["frames"][-1]
    assert len(cut["frames"]) < len(full["frames"])


def test_sumo_set_ups_offered_to_a_browser_are_legal():
    game = get_game("sumo")
    state = game.new_initial_state(game.validate_params({"players": 2}), seed=2)
    while state.current_player() == CHANCE:
        state.apply_action(seeded_outcome(state))
    seat = state.setting_up()
    assert seat is not None
    view = public_view(state, ["remote", "remote"], [])
    assert view["setting_up"] == seat and len(view["setups"]) == 4
    from jamsumo_sim.turnloop.actions import Action

    for choice in view["setups"]:
        assert state.is_legal(seat, Action.from_json(choice["action"]))
        assert len(choice["dice"]) == 6


def test_browser_messages_are_checked_as_any_clients():
    async def go():  # noqa: ANN202
        state = jam_state("jam", seed=1, players=2, turns=2)
        plain_host, plain_task, plain_url = await start_host(
            state, ["remote", "bot"], HostOptions(port=0, linger=0.5)
        )
        _, no_web = await hello(plain_url, spectate=True, view=True)
        _, not_bool = await hello(plain_url, spectate=True, view="yes")
        plain_task.cancel()
        web_state = jam_state("jam", seed=1, players=2, turns=2)
        host, task, url = await start_host(
            web_state, ["remote", "bot"], HostOptions(port=0, linger=0.5, web=True)
        )
        conn, welcome = await hello(url, seat=0, view=True, name="x\x1b[31m[seat 1]")
        first = await read_all(conn, quiet_s=0.5)
        # a flick far beyond the launch cap, and one of no die: refused with the rules' reason
        at = next(m["at"] for m in first if m["type"] == "turn")
        fast = {"name": "flick", "args": {"die": "red1", "direction": 0.0, "finger_speed": 90.0}}
        await say(conn, "move", at=at, action=fast)
        await say(conn, "move", at=at, action={"name": "flick", "args": {"die": "nope"}})
        await say(conn, "aim", at=at, die="red1", direction=99.0, speed=1.0)
        answers = await read_all(conn, quiet_s=0.5)
        task.cancel()
        return no_web, not_bool, welcome, host, answers

    no_web, not_bool, welcome, host, answers = _play(go())
    assert no_web["type"] == "error" and no_web["code"] == "view"
    assert not_bool["type"] == "error" and not_bool["code"] == "malformed"
    assert welcome["type"] == "welcome" and welcome["seat"] == 0
    assert host.holders[0].name == "x(seat 1)"  # cleaned as any client's name
    codes = [m["code"] for m in answers if m["type"] == "error"]
    assert codes == ["illegal", "illegal", "malformed"], answers


def test_the_link_is_printed_as_a_qr_code_that_decodes():
    import numpy as np
    import pytest

    pytest.importorskip(
        "segno", reason="segno (optional) draws the QR code; the link is printed without it"
    )
    cv2 = pytest.importorskip("cv2", reason="OpenCV ([video]) reads the QR code back")
    from jamsumo_sim.net.web_page import qr_lines

    link = "http://192.168.1.20:8765/"
    rows = []
    for line in qr_lines(link) or []:  # two rows a character: light where a block half is drawn
        rows += [[ch in "█▀" for ch in line], [ch in "█▄" for ch in line]]
    image = np.kron(np.array(rows, dtype=np.uint8) * 255, np.ones((8, 8), dtype=np.uint8))
    image = np.pad(image, 32, constant_values=255)
    assert cv2.QRCodeDetector().detectAndDecode(image)[0] == link
