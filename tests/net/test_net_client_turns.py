"""The client's decisions by position: a turn for a new position never waits behind a decision
for one play has left (a rejoined client whose host re-sent its stream from the start was asked
for its first turn again; that decision could never end, and the seat's real turn waited behind
it for ever: the rejoin test's "window at 5 sent 5, host at 5")."""

from __future__ import annotations

import asyncio
import threading

from jamsumo_sim.net.client import Client
from jamsumo_sim.net.options import JoinOptions
from jamsumo_sim.turnloop import Action, get_game
from tests.child_limits import HANG_GUARD_S


class PositionAgent:
    """A person's seat as the window's: it answers only the position the person has played."""

    is_human = True

    def __init__(self, answered: int) -> None:
        self.answered = answered
        self.asked: list[int] = []
        self.release = threading.Event()  # ends a wait for another position (at the test's end)

    def act(self, view) -> Action:
        self.asked.append(view.history_length)
        if view.history_length != self.answered:
            self.release.wait(HANG_GUARD_S)  # the person never plays this position
        return view.legal_actions[0]


def test_a_turn_for_a_new_position_does_not_wait_behind_an_old_decision() -> None:
    client = Client(
        "ws://127.0.0.1:1/", JoinOptions(seat=0, remember=False), None, say=lambda t: None
    )
    client.game = get_game("jellyfish")
    client.seat = 0
    client.obs = {}
    agent = client.agent = PositionAgent(answered=5)
    legal = [Action.make("a move")]
    sent: list[int] = []

    async def send(conn, kind: str, **fields) -> None:  # the host's end of the connection
        sent.append(fields["at"])

    client.conn = object()  # (a decision is sent, so the client knows it answered its turn)
    client._send = send

    async def play() -> None:
        try:
            client.at, client.turn = 0, (0, legal)  # the old turn, re-sent
            client._decide()
            old = client.deciding
            while not agent.asked:  # the old decision is under way (its thread waits)
                await asyncio.sleep(0.001)
            client.at, client.turn = 5, (5, legal)  # the seat's real turn
            client._decide()
            new = client.deciding
            assert new is not old  # the old one no longer holds the seat's turn up
            await asyncio.wait_for(new, HANG_GUARD_S)  # asked for 5 and answered
            assert client.deciding_at == 5 and old.cancelled()
        finally:
            agent.release.set()  # the old decision's thread ends (asyncio.run waits for it)

    asyncio.run(play())
    assert agent.asked == [0, 5] and sent == [5]


def test_say_hello_first_before_the_welcome_is_not_the_end_of_the_join() -> None:
    """A message of this connection that overtook its hello (or a hello the network lost) gets
    "say hello first": the hello is on its way or the heartbeat resends it, so the join goes on;
    the refusals that end a join still do.  (In a faulty-proxy match, one CI run in three ended
    with "the host refused: say hello first".)"""
    import pytest

    from jamsumo_sim.errors import UserError

    client = Client("ws://127.0.0.1:1", JoinOptions(seat=0), None, say=lambda text: None)
    assert not client.welcomed.is_set()
    client._refused({"type": "error", "code": "hello", "message": "say hello first"})
    with pytest.raises(UserError, match="the host refused: full"):
        client._refused({"type": "error", "code": "full", "message": "full"})
