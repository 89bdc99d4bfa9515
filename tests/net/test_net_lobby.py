"""The lobby and the JamSumo checks: rest-state mismatch, password, spectators, chat, a player who
leaves (a bot or a pause takes over), and a hosted match resumed from its record."""

from __future__ import annotations

import asyncio
import json

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.host import Host, HostOptions
from jamsumo_sim.turnloop.driver import step
from jamsumo_sim.turnloop.recording import save_record, verify_record
from jamsumo_sim.turnloop.serialize import state_from_json
from tests.child_limits import HANG_GUARD_S
from tests.net.helpers import (
    bot,
    card_state,
    host_and_join,
    jam_state,
    result_of,
    start_host,
)


def test_a_client_whose_shot_rests_differently_takes_the_hosts_rest_state():
    said: list[str] = []

    def disturb(state, at):  # noqa: ANN001
        # before every shot, nudge a die on this copy by 0.5 mm: another CPU's rounding, writ large
        if state.world is not None and state.world.die_ids:
            die = state.world.die_ids[0]
            st = state.world.state(die)
            if st.status == "on_board":
                state.world.place_die(die, st.x + 5e-4, st.y, st.angle)

    async def go():  # noqa: ANN202
        state = jam_state("jam", seed=2)
        seats = ["remote", "bot", "bot"]
        host = Host(
            state,
            seats,
            {1: bot(state.game, 1), 2: bot(state.game, 2)},
            lambda seat: bot(state.game, seat),
            lambda s: result_of(s, seats),
            HostOptions(port=0, linger=1),
            say=lambda text: None,
        )
        task = asyncio.create_task(host.run())
        await host.ready.wait()
        client = Client(f"ws://127.0.0.1:{host.port}", JoinOptions(seed=10), bot, say=said.append)
        client.before_apply = disturb
        return await asyncio.gather(task, client.run()), client, host

    (result, mine), client, host = asyncio.run(go())
    assert client.mismatches >= 2
    assert len([s for s in said if "rest" in s]) == 1  # said once
    assert mine == result
    assert client.mirror.shot_checksums == host.state.shot_checksums
    assert client.mirror.world.checksum() == host.state.world.checksum()


def test_a_wrong_password_is_refused_and_the_right_one_plays():
    state = card_state("jellyfish")
    with pytest.raises(UserError, match="wrong password"):
        host_and_join(
            state,
            options=HostOptions(port=0, password="jam", linger=0.5),
            client_options=[JoinOptions(seat=0, password="marmalade"), JoinOptions(seat=1)],
        )
    run = host_and_join(
        card_state("jellyfish"),
        options=HostOptions(port=0, password="jam", linger=1),
        client_options=[JoinOptions(seat=0, password="jam"), JoinOptions(seat=1, password="jam")],
    )
    assert all(r == run.result for r in run.results)


def test_spectators_watch_the_public_view_and_chat_reaches_everyone():
    watched: list[str] = []
    said: list[str] = []

    def extra(url):  # noqa: ANN001, ANN202
        return [
            Client(
                url,
                JoinOptions(spectate=True, name="gran"),
                None,
                say=said.append,
                on_message=watched.append,
            )
        ]

    run = host_and_join(card_state("jumble_jam", seed=7), extra=extra)
    assert run.results[-1] == run.result  # the spectator ends with the same result
    starts = [m for m in watched if '"type":"start"' in m]
    assert starts and '"seat":null' in starts[0]
    # a spectator's observations are the public one (seat None): no hand of any seat
    state = run.host.state
    last = [json.loads(m) for m in watched if '"type":"update"' in m][-1]
    assert last["obs"] == state.observation(None)
    assert not said  # nothing went wrong on the way


def test_chat_lines_go_to_every_client():
    heard: list[list[str]] = [[], []]

    async def go():  # noqa: ANN202
        state = card_state("jellyfish", seed=3)
        seats = ["remote", "remote", "bot"]
        _, task, url = await start_host(state, seats, HostOptions(port=0, linger=1))
        a = Client(url, JoinOptions(seat=0), bot, say=heard[0].append)
        b = Client(url, JoinOptions(seat=1), bot, say=heard[1].append)
        ta, tb = asyncio.create_task(a.run()), asyncio.create_task(b.run())
        while a.token is None or b.token is None:
            await asyncio.sleep(0.01)
        await a.chat("good luck\x07 all")
        return await asyncio.gather(task, ta, tb)

    results = asyncio.run(go())
    assert results[0] == results[1] == results[2]
    assert "[seat 0] good luck all" in heard[0] and "[seat 0] good luck all" in heard[1]


@pytest.mark.parametrize("on_leave", ["bot", "pause"])
def test_a_player_who_leaves_is_replaced_by_a_bot_or_waited_for(on_leave):
    async def go():  # noqa: ANN202
        state = card_state("jellyfish", seed=9)
        seats = ["remote", "remote", "bot"]
        options = HostOptions(port=0, grace=0.3, on_leave=on_leave, linger=0.5)
        host, task, url = await start_host(state, seats, options)
        told: list[str] = []
        host.say = told.append
        stays = Client(url, JoinOptions(seat=0), bot, say=lambda t: None)
        leaves = Client(url, JoinOptions(seat=1), bot, say=lambda t: None)
        t_stay, t_leave = asyncio.create_task(stays.run()), asyncio.create_task(leaves.run())
        while len(host.state.history) < 10:
            await asyncio.sleep(0.01)
        t_leave.cancel()  # the player's computer goes away mid-game
        while not any(line.startswith("seat 1 left") for line in told):  # after the grace time
            await asyncio.sleep(0.01)
        if on_leave == "pause":
            moves = len(host.state.history)
            await asyncio.sleep(0.5)  # on a busy machine a weaker check, never a false alarm
            assert len(host.state.history) == moves  # paused, waiting for the player
            back = Client(url, JoinOptions(seat=1), bot, say=lambda t: None)
            back.token = leaves.token  # the same player, reconnecting with the seat's token
            back.have = 0
            t_back = asyncio.create_task(back.run())
            return await asyncio.gather(task, t_stay, t_back)
        return await asyncio.gather(task, t_stay)

    results = asyncio.run(asyncio.wait_for(go(), HANG_GUARD_S))
    assert all(r == results[0] for r in results)
    assert results[0]["game"] == "jellyfish"


def test_a_hosted_match_resumes_from_its_record(tmp_path):
    record = tmp_path / "saved.json"
    state = card_state("the_jam", seed=6)
    seats = ["remote", "remote", "smart"]  # (a kind the record's verify knows)
    agents = [bot(state.game, s) for s in range(3)]
    for _ in range(40):  # part of a game, saved as an unfinished record
        step(state, agents)
    save_record(record, state, seats)
    resumed = state_from_json(state.to_json())
    run = host_and_join(resumed, record=record)
    assert run.host.state.history[:40] == state.history
    assert all(r == run.result for r in run.results)
    ok, message = verify_record(record)
    assert ok, message
