"""The host: the authority of a networked match.

It keeps the turn loop, asks local bots and remote clients for moves, checks every move, samples
every chance outcome from the match seed and reports each move to every client. Each client has
its own numbered stream of messages (its outbox); a client tells what it has (``sync``) and gets
the rest again, so a dropped or duplicated message, or a dropped connection, loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from jamsumo_sim.errors import UserError
from jamsumo_sim.net import protocol as wire
from jamsumo_sim.net.mirror import is_mirrored, rest_image, shot_count
from jamsumo_sim.net.options import HostOptions
from jamsumo_sim.net.protocol import Refusal
from jamsumo_sim.turnloop.actions import CHANCE, SIMULTANEOUS, TERMINAL, Action
from jamsumo_sim.turnloop.agents import Agent, SeatView
from jamsumo_sim.turnloop.driver import seeded_outcome
from jamsumo_sim.turnloop.state import State

MAX_SPECTATORS = 16
KEPT_REST_STATES = 64  # JamSumo rest states kept for clients whose re-simulation differs
_FATAL = ("password", "seat", "full", "version")  # refusals after which the connection closes


@dataclass
class Peer:
    """A client known to the host: a seat's player or a spectator, connected or not."""

    seat: int | None  # None: a spectator
    token: str
    name: str
    outbox: list[str] = field(default_factory=list)
    conn: ServerConnection | None = None
    sent: int = 0  # next outbox index to write on the live connection
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    left_at: float | None = None
    last_have: int = -1
    done: bool = False

    @property
    def label(self) -> str:
        return f"seat {self.seat}" if self.seat is not None else f"spectator {self.name}"


class Host:
    """Serve one match; ``await run()`` plays it and returns the result object."""

    def __init__(
        self,
        state: State,
        seats: list[str],
        agents: dict[int, Agent],
        stand_in: Callable[[int], Agent],
        result: Callable[[State], dict[str, Any]],
        options: HostOptions,
        on_move: Callable[[State, bool], None] | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.state = state
        self.seats = seats
        self.agents = dict(agents)  # local bots, and stand-ins for seats whose player left
        self.remote = [s for s, kind in enumerate(seats) if kind == "remote"]
        self.stand_in = stand_in
        self.result = result
        self.options = options
        self.on_move = on_move
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.mirrored = is_mirrored(state)
        self.peers: dict[str, Peer] = {}  # by token
        self.holders: dict[int, Peer] = {}  # remote seat -> its player
        self.waiting: dict[int, asyncio.Future[Action]] = {}
        self.images: dict[int, dict[str, Any]] = {}
        self.lock = asyncio.Lock()  # held while the state changes (handlers read it)
        self.ready = asyncio.Event()
        self.seated = asyncio.Event()
        self.port = 0
        self.over = False
        self._played = False  # the last message handled was a move that was played
        self.refused: list[tuple[str, str]] = []  # (client, code), for the host's summary and tests

    # -- running --------------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        async with serve(
            self._handle,
            self.options.bind,
            self.options.port,
            max_size=wire.MAX_CLIENT_MESSAGE_BYTES,
            compression=None,  # no inflating of small frames into large ones
            ping_interval=5,
            ping_timeout=20,
        ) as server:
            self.port = server.sockets[0].getsockname()[1]
            self.ready.set()
            open_seats = ", ".join(str(s) for s in self.remote) or "none"
            self.say(
                f"hosting {self.state.game.title} on ws://{self.options.bind}:{self.port} "
                f"(remote seats: {open_seats})"
            )
            if not self.remote:
                self.seated.set()
            await self.seated.wait()
            await self._play()
            outcome = self.result(self.state)
            self.over = True
            for peer in self.peers.values():
                self._post(peer, "end", result=outcome, at=len(self.state.history))
            await self._linger()
            return outcome

    async def _linger(self) -> None:
        """Keep serving until every player said bye (or the linger time passed)."""
        deadline = time.monotonic() + self.options.linger
        while time.monotonic() < deadline:
            if all(p.done for p in self.holders.values()):
                return
            await asyncio.sleep(0.05)

    async def _play(self) -> None:
        state = self.state
        limit = state.game.max_game_length(state.params)
        while (player := state.current_player()) != TERMINAL:
            if len(state.history) >= limit:
                raise RuntimeError(f"{state.game.name}: no end after {limit} moves")
            if player == CHANCE:
                outcome = seeded_outcome(state)
                await self._apply(lambda o=outcome: state.apply_action(o, known_legal=[o]))
            elif player == SIMULTANEOUS:
                seats = state.simultaneous_seats()
                moves = await asyncio.gather(*(self._move_of(s) for s in seats))
                joint = dict(zip(seats, moves, strict=True))
                await self._apply(lambda j=joint: state.apply_actions(j))
            else:
                action = await self._move_of(player)
                await self._apply(lambda a=action: state.apply_action(a))

    async def _apply(self, change: Callable[[], None]) -> None:
        state = self.state
        seen, shots = len(state.log), shot_count(state)
        async with self.lock:
            if self.mirrored:  # a shot takes a while: the host keeps answering meanwhile
                await asyncio.to_thread(change)
            else:  # a card move takes microseconds: a thread would only add its hand-over
                change()
        at = len(state.history) - 1
        entry = state.history[at]
        check = None
        if self.mirrored and shot_count(state) > shots:
            check = state.shot_checksums[-1]  # type: ignore[attr-defined]
            self.images[at] = rest_image(state)
            self.images.pop(at - KEPT_REST_STATES, None)
        new_log = state.log[seen:]
        for peer in self.peers.values():
            if self.mirrored:
                self._post(peer, "move", at=at, entry=entry, check=check)
            else:
                lines = [e.text for e in new_log if e.visible_to(peer.seat)]
                obs = state.observation(peer.seat)
                self._post(peer, "update", at=at + 1, obs=obs, log=lines)
        if self.on_move is not None:
            self.on_move(state, state.is_terminal())

    async def _move_of(self, seat: int) -> Action:
        """The move of ``seat``: from its local bot, or from its player (a bot or a pause once the
        player has been gone for the grace time)."""
        state = self.state
        while True:
            agent = self.agents.get(seat)
            if agent is not None:
                view = SeatView(state, seat)
                if self.mirrored or agent.is_human:
                    return await asyncio.to_thread(agent.act, view)
                return agent.act(view)
            future: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
            self.waiting[seat] = future
            self._post_turn(seat)
            paused = False
            while not future.done():
                peer = self.holders[seat]
                gone = peer.conn is None and peer.left_at is not None
                if gone and time.monotonic() - peer.left_at >= self.options.grace:  # type: ignore[operator]
                    if self.options.on_leave == "bot":
                        self.agents[seat] = self.stand_in(seat)
                        self.say(f"seat {seat} left: a bot plays it until the player is back")
                        break
                    if not paused:
                        paused = True
                        self.say(f"seat {seat} left: the match waits for the player to return")
                await asyncio.wait([future], timeout=0.1)
            self.waiting.pop(seat, None)
            if future.done():
                return future.result()

    def _post_turn(self, seat: int) -> None:
        peer = self.holders[seat]
        state = self.state
        fields: dict[str, Any] = {"at": len(state.history)}
        if not self.mirrored:
            fields["legal"] = [a.to_json() for a in state.legal_actions(seat)]
        self._post(peer, "turn", **fields)

    # -- the outboxes -----------------------------------------------------------------------------
    def _post(self, peer: Peer, kind: str, **fields: Any) -> None:
        peer.outbox.append(wire.encode(kind, n=len(peer.outbox), **fields))
        peer.wake.set()

    def _broadcast(self, kind: str, **fields: Any) -> None:
        for peer in self.peers.values():
            self._post(peer, kind, **fields)

    def _presence(self) -> None:
        connected = sorted(s for s, p in self.holders.items() if p.conn is not None)
        watching = sum(1 for p in self.peers.values() if p.seat is None and p.conn is not None)
        self._broadcast("presence", connected=connected, spectators=watching)

    async def _writer(self, peer: Peer, conn: ServerConnection) -> None:
        """Write ``peer``'s outbox in order on ``conn`` while it is the peer's connection."""
        try:
            while peer.conn is conn:
                if peer.sent < len(peer.outbox):
                    index = peer.sent
                    peer.sent += 1
                    await conn.send(peer.outbox[index])
                    continue
                peer.wake.clear()
                await peer.wake.wait()
        except ConnectionClosed:
            pass

    def _start_message(self, peer: Peer) -> None:
        state = self.state
        common = {
            "game": state.game.name,
            "players": state.num_players,
            "seats": list(self.seats),
            "seat": peer.seat,
        }
        if self.mirrored:  # the rules' parameters and the moves so far, not the seed
            self._post(peer, "start", params=state.params, history=state.history, **common)
        else:
            self._post(
                peer,
                "start",
                params={"players": state.num_players, "variant": state.params.get("variant")},
                at=len(state.history),
                obs=state.observation(peer.seat),
                log=state.log_for(peer.seat)[-20:],
                **common,
            )

    # -- a connection ---------------------------------------------------------------------------
    async def _handle(self, conn: ServerConnection) -> None:
        limiter = wire.RateLimiter(time.monotonic())
        peer: Peer | None = None
        refusals = 0
        rate_told = -1.0
        try:
            async for raw in conn:
                now = time.monotonic()
                if not limiter.allow(now):
                    refusals += 1
                    if now - rate_told >= 1.0:  # one notice a second, not one per message
                        rate_told = now
                        await self._refuse(conn, peer, Refusal("rate", "too many messages"))
                    if refusals > wire.MAX_REFUSALS:
                        await conn.close(1008, "too many refused messages")
                        return
                    continue
                try:
                    message = wire.decode(raw)
                    peer = await self._dispatch(conn, peer, message)
                    if self._played:  # moves that play are never limited: a bot may be quick
                        self._played = False
                        limiter.refund()
                except Refusal as refusal:
                    refusals += 1
                    await self._refuse(conn, peer, refusal)
                    if refusal.code in _FATAL and peer is None:
                        await conn.close(4000 + _FATAL.index(refusal.code), refusal.code)
                        return
                    if refusals > wire.MAX_REFUSALS:
                        await conn.close(1008, "too many refused messages")
                        return
        except ConnectionClosed:
            pass
        finally:
            if peer is not None and peer.conn is conn:
                if self.over and conn.close_code == 1000 and peer.sent >= len(peer.outbox):
                    peer.done = True  # closed normally with the end sent (its bye may be lost)
                peer.conn = None
                peer.left_at = time.monotonic()
                peer.wake.set()  # ends its writer
                if not peer.done:
                    self.say(f"{peer.label} disconnected")
                self._presence()

    async def _refuse(self, conn: ServerConnection, peer: Peer | None, refusal: Refusal) -> None:
        self.refused.append((peer.label if peer else "unjoined", refusal.code))
        with contextlib.suppress(ConnectionClosed):
            await conn.send(wire.encode("error", code=refusal.code, message=refusal.message))

    async def _dispatch(
        self, conn: ServerConnection, peer: Peer | None, message: dict[str, Any]
    ) -> Peer | None:
        kind = message["type"]
        if kind == "hello":
            return await self._hello(conn, peer, message)
        if peer is None:
            raise Refusal("hello", "say hello first")
        if kind == "sync":
            have = wire.whole(message, "have")
            gap = message.get("gap") is True  # later messages came, an earlier one did not
            if have < len(peer.outbox) and (gap or have == peer.last_have):  # send the rest again
                peer.sent = min(peer.sent, have)
                peer.wake.set()
            peer.last_have = have
        elif kind == "move":
            await self._move(peer, message)
        elif kind == "chat":
            line = wire.text(message, "text", wire.MAX_CHAT_CHARS) or ""
            line = "".join(ch for ch in line if ch.isprintable()).strip()
            if line:
                self._broadcast("chat", sender=peer.label, text=line)
        elif kind == "rest":
            at = wire.whole(message, "at")
            image = self.images.get(at)
            if image is None:
                raise Refusal("rest", f"no rest state is kept for move {at}")
            await conn.send(wire.encode("rest", at=at, image=image))
        elif kind == "bye":
            peer.done = True
        elif kind == "aim":
            self._aim(peer, message)
        return peer

    def _aim(self, peer: Peer, message: dict[str, Any]) -> None:
        """Show the others where a player aims: checked, then sent at once to every other live
        connection (not kept in the outboxes: a lost aim is simply replaced by the next one)."""
        if peer.seat is None or not self.mirrored:
            raise Refusal("aim", "only a JamSumo player may share an aim")
        at = wire.whole(message, "at")
        if at != len(self.state.history) or self.waiting.get(peer.seat) is None:
            return  # an aim for a turn that is over or not yet this seat's: nothing to show
        fields: dict[str, Any] = {"seat": peer.seat, "at": at}
        if message.get("die") is not None:
            fields["die"] = wire.text(message, "die", wire.MAX_AIM_DIE_CHARS)
            fields["direction"] = wire.real(message, "direction", -10.0, 10.0)
            fields["speed"] = wire.real(message, "speed", 0.0, wire.MAX_AIM_SPEED)
        text = wire.encode("aim", **fields)
        loop = asyncio.get_running_loop()
        for other in self.peers.values():
            if other is not peer and other.conn is not None:
                loop.create_task(_send_quietly(other.conn, text))

    async def _hello(
        self, conn: ServerConnection, peer: Peer | None, message: dict[str, Any]
    ) -> Peer:
        if peer is not None:  # a hello sent again (its welcome was lost): welcome again
            await self._welcome(conn, peer)
            return peer
        password = wire.text(message, "password", wire.MAX_PASSWORD_CHARS, "")
        wanted = self.options.password
        if wanted is not None and not hmac.compare_digest(
            (password or "").encode(), wanted.encode()
        ):
            raise Refusal("password", "wrong password")
        token = wire.text(message, "token", 64)
        name = wire.text(message, "name", wire.MAX_NAME_CHARS, "") or ""
        have = wire.whole(message, "have") if "have" in message else 0
        if token is not None:
            found = self.peers.get(token)
            if found is None:
                raise Refusal("seat", "unknown reconnection token")
            peer = found
            if peer.conn is not None and peer.conn is not conn:
                await peer.conn.close(4010, "reconnected elsewhere")
            seat = peer.seat
            if seat is not None and seat in self.remote and self.agents.get(seat) is not None:
                del self.agents[seat]  # the player is back: their seat again
                self.say(f"seat {seat} is back")
            peer.sent = min(have, len(peer.outbox))
        elif message.get("spectate") is True:
            watching = sum(1 for p in self.peers.values() if p.seat is None)
            if watching >= MAX_SPECTATORS:
                raise Refusal("full", f"no room: {MAX_SPECTATORS} spectators already watch")
            peer = Peer(None, secrets.token_hex(16), name or str(watching + 1))
            self.peers[peer.token] = peer
            async with self.lock:
                self._start_message(peer)
        else:
            peer = await self._claim(message, name)
        peer.conn = conn
        peer.left_at = None
        peer.wake.set()
        await self._welcome(conn, peer)
        asyncio.get_running_loop().create_task(self._writer(peer, conn))
        self.say(f"{peer.label} joined{' (' + name + ')' if name else ''}")
        self._presence()
        if all(s in self.holders for s in self.remote):
            self.seated.set()
        return peer

    async def _claim(self, message: dict[str, Any], name: str) -> Peer:
        seat = message.get("seat")
        if seat is None:
            free = [s for s in self.remote if s not in self.holders]
            if not free:
                raise Refusal("full", "every remote seat is taken (join with spectate)")
            seat = free[0]
        else:
            seat = wire.whole(message, "seat", 0, 99)
            if seat not in self.remote:
                raise Refusal("seat", f"seat {seat} is not open to remote players")
            if seat in self.holders:
                raise Refusal("seat", f"seat {seat} is taken")
        peer = Peer(seat, secrets.token_hex(16), name)
        self.peers[peer.token] = peer
        self.holders[seat] = peer
        async with self.lock:
            self._start_message(peer)
            if seat in self.waiting:  # a seat claimed while it is to move (a resumed match)
                self._post_turn(seat)
        return peer

    async def _welcome(self, conn: ServerConnection, peer: Peer) -> None:
        await conn.send(
            wire.encode(
                "welcome",
                seat=peer.seat,
                token=peer.token,
                game=self.state.game.name,
                seats=list(self.seats),
            )
        )

    async def _move(self, peer: Peer, message: dict[str, Any]) -> None:
        if peer.seat is None:
            raise Refusal("spectator", "spectators cannot move")
        at = wire.whole(message, "at")
        try:
            action = Action.from_json(message.get("action"))
        except (UserError, TypeError, ValueError) as exc:
            raise Refusal("malformed", str(exc).splitlines()[0][:200]) from None
        state = self.state
        async with self.lock:
            length = len(state.history)
            if at < length:
                if _made(state.history[at], peer.seat, action):
                    return  # a move sent again that was already played: nothing to do
                raise Refusal("stale", f"that move was for position {at}; play is at {length}")
            future = self.waiting.get(peer.seat)
            if at > length or future is None or future.done():
                raise Refusal("turn", f"it is not seat {peer.seat}'s turn")
            if not state.is_legal(peer.seat, action):
                raise Refusal("illegal", state.why_illegal(peer.seat, action)[:300])
            future.set_result(action)
            self._played = True


async def _send_quietly(conn: ServerConnection, text: str) -> None:
    with contextlib.suppress(ConnectionClosed):
        await conn.send(text)


def _made(entry: dict[str, Any], seat: int, action: Action) -> bool:
    """Whether the history ``entry`` is ``seat`` making ``action`` (alone or in a joint move)."""
    wanted = action.to_json()
    if entry.get("seat") == seat and entry.get("action") == wanted:
        return True
    joint = entry.get("joint")
    return isinstance(joint, dict) and joint.get(str(seat)) == wanted
