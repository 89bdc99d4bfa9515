"""Hosted matches on the loopback: two joined bots and one local bot, every mode and card game."""

from __future__ import annotations

import json

import pytest

from jamsumo_sim.net.host import HostOptions
from jamsumo_sim.replay import verify_replay
from jamsumo_sim.turnloop.recording import verify_record
from jamsumo_sim.turnloop.serialize import replay_history, state_from_json
from tests.net.helpers import CARD, card_state, host_and_join, jam_state
from tests.net.proxy import FaultProxy, Faults


@pytest.mark.parametrize("mode", ["jam", "sumo", "jamsumo"])
def test_jamsumo_modes_end_alike_and_the_record_verifies(mode, tmp_path):
    record = tmp_path / "match.json"
    run = host_and_join(jam_state(mode), record=record)
    assert run.result["finished"] and run.result["mode"] == mode
    assert all(r == run.result for r in run.results)
    # every joined client re-simulated every shot to the host's checksum
    assert [c.mismatches for c in run.clients] == [0, 0]
    assert all(c.mirror.digest() != "" for c in run.clients)
    assert verify_replay(record).ok
    # the clients' copies are the host's match move for move (their seed is their own)
    for c in run.clients:
        assert c.mirror.history == run.host.state.history


@pytest.mark.parametrize("name", sorted(CARD))
def test_card_games_end_alike_and_the_record_verifies(name, tmp_path):
    record = tmp_path / "game.json"
    run = host_and_join(card_state(name), record=record)
    assert run.result["game"] == name and run.result["players"] == CARD[name]
    assert all(r == run.result for r in run.results)
    ok, message = verify_record(record)
    assert ok, message


def test_a_card_client_receives_only_its_seats_observation():
    """Every message seat 0 receives: known types and fields only; every observation the one
    the host's state gives seat 0 at that point; every log line one seat 0 may read. The Jam with
    seed 4 gives the other seats private lines (their hands): the test checks it saw some."""
    state = card_state("the_jam", seed=4)
    run = host_and_join(state)
    host_state = run.host.state
    replay = state_from_json({**host_state.to_json(), "history": []})
    views = [replay.observation(0)]
    for entry in host_state.history:
        replay_history(replay, [entry])
        views.append(replay.observation(0))
    readable = set(host_state.log_for(0))
    hidden = {e.text for e in host_state.log if e.to is not None and 0 not in e.to} - readable
    assert len(hidden) >= 10  # a test of hiding needs something hidden from seat 0
    allowed = {
        "welcome": {"v", "type", "seat", "token", "game", "seats", "match", "first"},
        "start": {
            "v",
            "type",
            "n",
            "game",
            "players",
            "seats",
            "seat",
            "params",
            "at",
            "obs",
            "log",
        },
        "update": {"v", "type", "n", "at", "obs", "log"},
        "turn": {"v", "type", "n", "at", "legal"},
        "presence": {"v", "type", "n", "connected", "spectators"},
        "end": {"v", "type", "n", "result", "at"},
    }
    received = run.messages[0]
    assert len(received) > 50
    for raw in received:
        message = json.loads(raw)
        kind = message["type"]
        assert set(message) <= allowed[kind], (kind, set(message) - allowed[kind])
        if "obs" in message:
            assert message["obs"] == views[message["at"]]
        for line in message.get("log", []):
            assert line in readable and line not in hidden
        assert not any(secret in raw for secret in hidden)
        if kind == "turn":
            legal = [a.to_json() for a in _legal_at(host_state, message["at"], 0)]
            assert message["legal"] == legal
    # and the hidden part really is hidden: seat 1's hand is in no message to seat 0
    assert views[0] != replay.full_state()


def _legal_at(state, at, seat):  # noqa: ANN001, ANN202
    fresh = state_from_json({**state.to_json(), "history": []})
    replay_history(fresh, state.history[:at])
    return fresh.legal_actions(seat)


@pytest.mark.parametrize("kind", ["jam", "jumblejack"])
def test_faults_change_nothing(kind):
    """Delayed, reordered, duplicated and dropped messages and cut connections: the same result
    and the same record as an undisturbed match."""

    def make():  # noqa: ANN202
        return (
            jam_state("jam", seed=5, turns=9) if kind == "jam" else card_state("jumblejack", seed=5)
        )

    calm = host_and_join(make())
    cut = 25 if kind == "jam" else 40
    proxies = []

    def proxy(url):  # noqa: ANN001, ANN202
        p = FaultProxy(url, Faults(drop=0.05, duplicate=0.05, max_delay_s=0.02, cut_after=cut), 3)
        proxies.append(p)
        return p

    stormy = host_and_join(make(), proxy=proxy, options=HostOptions(port=0, grace=30, linger=2))
    assert stormy.result == calm.result
    assert all(r == calm.result for r in stormy.results)
    assert stormy.host.state.to_json() == calm.host.state.to_json()
    assert stormy.host.state.digest() == calm.host.state.digest()
    p = proxies[0]
    assert p.dropped and p.duplicated and p.cuts  # the storm happened
