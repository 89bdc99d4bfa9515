"""The host: the authority of a networked match.

It keeps the turn loop, asks local bots and remote clients for moves, checks every move, samples
every chance outcome from the match seed and reports each move to every client. Each client has
its own numbered stream of messages (its outbox); a client tells what it has (``sync``) and gets
the rest again, so a dropped or duplicated message, or a dropped connection, loses nothing.

Everything that could grow with what a client does is bounded (``assets/net.toml``): an outbox keeps
only what its client has not acknowledged, up to a cap past which the client is dropped; chat has a
rate; resends and rest states are served at most so often; connections that never say ``hello``
are closed, and the oldest pending one makes room for a new one. Every move is written to the
journal (append-only, fsync'd) before any client is told of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import math
import secrets
import ssl
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from jamsumo_sim.errors import UserError
from jamsumo_sim.net import protocol as wire
from jamsumo_sim.net.journal import Journal
from jamsumo_sim.net.limits import NetLimits
from jamsumo_sim.net.mirror import is_mirrored, rest_image, shot_count
from jamsumo_sim.net.options import HostOptions
from jamsumo_sim.net.protocol import Refusal
from jamsumo_sim.turnloop.actions import CHANCE, SIMULTANEOUS, TERMINAL, Action
from jamsumo_sim.turnloop.agents import Agent, SeatView
from jamsumo_sim.turnloop.driver import seeded_outcome
from jamsumo_sim.turnloop.state import State

KEPT_REST_STATES = 64  # JamSumo rest states kept for clients whose re-simulation differs
# refusals after which the connection closes
_FATAL = ("password", "seat", "full", "version", "wait")
BACKLOG_CLOSE = 4008  # close code of a client dropped for falling too far behind


@dataclass
class Peer:
    """A client known to the host: a seat's player or a spectator, connected or not."""

    seat: int | None  # None: a spectator
    token: str
    name: str
    outbox: list[str] = field(default_factory=list)  # messages base, base + 1, ... not yet acked
    base: int = 0  # stream number of outbox[0]: earlier ones were acknowledged and dropped
    size: int = 0  # bytes in the outbox
    conn: ServerConnection | None = None
    sent: int = 0  # next stream number to write on the live connection
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    left_at: float | None = None
    last_have: int = -1
    done: bool = False
    restart: bool = False  # the outbox was dropped: a fresh start message when the client is back
    resent_at: float = -math.inf
    skip_from: int = 0  # a resend stops here and the writer goes on at skip_to (sent once already)
    skip_to: int = 0
    rest_at: float = -math.inf
    aiming: bool = False  # an aim is being written to this client (aims are never queued)
    chat: wire.RateLimiter | None = None
    chat_told: float = -math.inf  # when it was last told its chat is too fast
    view: bool = False  # a browser: sent the public view and each shot's poses (net/web_view.py)

    @property
    def next_n(self) -> int:
        return self.base + len(self.outbox)

    @property
    def label(self) -> str:
        # a spectator's name is cleaned of brackets: "[watcher x]" can never read "[seat 1]"
        return f"seat {self.seat}" if self.seat is not None else f"watcher {self.name}"

    def trim(self, have: int) -> None:
        """Drop what the client acknowledged (everything before ``have``)."""
        drop = min(have, self.next_n) - self.base
        if drop > 0:
            self.size -= sum(len(m) for m in self.outbox[:drop])
            del self.outbox[:drop]
            self.base += drop
            self.sent = max(self.sent, self.base)

    def reset(self, start_at: int) -> None:
        """Forget the outbox; the stream goes on at ``start_at`` (at least where it was)."""
        self.base = max(self.next_n, start_at)
        self.outbox.clear()
        self.size = 0
        self.sent = self.base
        self.skip_from = self.skip_to = 0


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
        journal: Journal | None = None,
        tokens: dict[int, str] | None = None,
        match: str | None = None,
    ) -> None:
        self.state = state
        self.seats = seats
        self.agents = dict(agents)  # local bots, and stand-ins for seats whose player left
        self.remote = [s for s, kind in enumerate(seats) if kind == "remote"]
        self.stand_in = stand_in
        self.result = result
        self.options = options
        self.limits: NetLimits = options.net_limits()
        self.on_move = on_move
        self.journal = journal  # every move and seat token, on disk before anyone is told
        self.match = match or secrets.token_hex(8)  # names the match to clients (kept on resume)
        self.clock = time.monotonic  # tests set a clock of their own (password delays)
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
        # (client, code), for the host's summary and tests: the newest only
        self.refused: deque[tuple[str, str]] = deque(maxlen=self.limits.max_refusals_kept)
        self.dropped: list[tuple[str, str]] = []  # (client, reason) of clients the host dropped
        self.pending: OrderedDict[ServerConnection, str] = OrderedDict()  # no hello yet -> address
        self.guesses: OrderedDict[str, tuple[int, float]] = (
            OrderedDict()
        )  # address -> (wrong, next)
        self.tasks: set[asyncio.Task[Any]] = set()
        for seat, token in (tokens or {}).items():  # a resumed match: each player's own seat again
            if seat in self.remote:
                peer = Peer(seat, token, "", left_at=time.monotonic(), restart=True)
                self.peers[token] = peer
                self.holders[seat] = peer

    # -- running --------------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        host = self

        class Connection(ServerConnection):
            """A connection the host counts from the moment it is accepted (before any upgrade)."""

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                host._accepted(self, transport)

            def connection_lost(self, exc: Exception | None) -> None:
                host.pending.pop(self, None)
                super().connection_lost(exc)

        extra: dict[str, Any] = {}
        if self.options.web:
            extra["process_request"] = self._web_responder()
        async with serve(
            self._handle,
            self.options.bind,
            self.options.port,
            max_size=wire.MAX_CLIENT_MESSAGE_BYTES,
            compression=None,  # no inflating of small frames into large ones
            ping_interval=5,
            ping_timeout=20,
            open_timeout=self.limits.handshake_timeout_s,
            create_connection=Connection,
            # the kernel queue, and so the sockets accepted in one go before any is counted (asyncio
            # may accept two such batches before the first is counted): half the pending cap
            backlog=max(1, self.limits.max_pending // 2),
            ssl=self._tls(),
            **extra,
        ) as server:
            self.port = server.sockets[0].getsockname()[1]
            self.ready.set()
            open_seats = ", ".join(str(s) for s in self.remote) or "none"
            self.say(
                f"hosting {self.state.game.title} on {self.url()} (remote seats: {open_seats})"
            )
            if self.options.web:
                self._say_link()
            if _public(self.options.bind) and self.options.password is None:
                self.say(
                    f"warning: {self.options.bind} is open to other computers and no --password "
                    "is set: anyone who reaches it can take a seat"
                )
            if all(s in self.holders for s in self.remote):
                self.seated.set()
            await self.seated.wait()
            await self._play()
            outcome = self.result(self.state)
            self.over = True
            for peer in self.peers.values():
                self._post(peer, "end", result=outcome, at=len(self.state.history))
            await self._linger()
            if self.journal is not None:
                self.journal.close()
            return outcome

    def url(self) -> str:
        """The address to give ``join``: IPv6 in brackets, so it can be pasted as it is."""
        scheme = "wss" if self.options.cert else "ws"
        bind = self.options.bind
        return f"{scheme}://{'[' + bind + ']' if ':' in bind else bind}:{self.port}"

    def _web_responder(self) -> Any:
        """The page for browsers, built once (net/web_page.py): the board page for a JamSumo match,
        the card page (net/web_cards.py) for a card game."""
        from jamsumo_sim.net.web_page import build_page, responder

        password = self.options.password is not None
        if not self.mirrored:
            from jamsumo_sim.net.web_cards import card_scene

            page, csp = build_page(card_scene(self.state, self.seats, password), "cards")
            return responder(page, csp)
        from jamsumo_sim.net.web_view import scene

        page, csp = build_page(scene(self.state, self.seats, password, self.limits))
        return responder(page, csp)

    def _say_link(self) -> None:
        from jamsumo_sim.net.web_page import page_url, qr_lines

        link = page_url(self.options.bind, self.port, bool(self.options.cert))
        self.say(f"play in a browser: {link}")
        lines = qr_lines(link)
        if lines is None:
            self.say("(install segno for a QR code of the link here)")
        else:
            self.say("\n".join(lines))

    def _tls(self) -> ssl.SSLContext | None:
        if not self.options.cert:
            return None
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(self.options.cert, self.options.key)
        except (OSError, ssl.SSLError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0][:200]
            raise UserError(f"--cert/--key cannot be used: {reason}") from None
        return context

    # -- connections that have not joined yet ---------------------------------------------------
    def _accepted(self, conn: ServerConnection, transport: asyncio.BaseTransport) -> None:
        """Count a new connection as pending; past a cap, close the oldest pending one (so a
        player who says hello at once always gets in, however many idle connections there are)."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        limits = self.limits
        same = [c for c, a in self.pending.items() if a == address]
        if len(same) >= limits.max_pending_per_address:
            self._evict(same[0])
        if len(self.pending) >= limits.max_pending:
            self._evict(next(iter(self.pending)))
        self.pending[conn] = address
        deadline = limits.handshake_timeout_s + limits.hello_timeout_s
        asyncio.get_running_loop().call_later(deadline, self._expire, conn)

    def _evict(self, conn: ServerConnection) -> None:
        self.pending.pop(conn, None)
        self.refused.append(("unjoined", "evicted"))
        conn.transport.abort()

    def _expire(self, conn: ServerConnection) -> None:
        if conn in self.pending:  # no hello within the time: not a player
            self.pending.pop(conn, None)
            self.refused.append(("unjoined", "timeout"))
            conn.transport.abort()

    def _later(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)  # kept until done (a task nobody holds may be collected)
        task.add_done_callback(self.tasks.discard)

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
                shot = None
                if self.mirrored and state.pending is not None:  # type: ignore[attr-defined]
                    # a flick's execution: its shot
                    flick = Action.from_json(state.history[-1]["action"])
                    shot = (state.pending[0], flick, outcome)  # type: ignore[attr-defined]
                await self._apply(lambda o=outcome: state.apply_action(o, known_legal=[o]), shot)
            elif player == SIMULTANEOUS:
                seats = state.simultaneous_seats()
                moves = await asyncio.gather(*(self._move_of(s) for s in seats))
                joint = dict(zip(seats, moves, strict=True))
                await self._apply(lambda j=joint: state.apply_actions(j))
            else:
                action = await self._move_of(player)
                await self._apply(lambda a=action: state.apply_action(a), (player, action, None))

    async def _apply(
        self, change: Callable[[], None], shot: tuple[int, Action, Action | None] | None = None
    ) -> None:
        """Play a move and tell every client; ``shot`` (seat, flick, execution) is a flick that may
        move dice now: browsers get its poses (net/web_view.py)."""
        state = self.state
        seen, shots = len(state.log), shot_count(state)
        frames = None
        async with self.lock:
            if self.mirrored:  # a shot takes a while: the host keeps answering meanwhile
                viewers = any(p.view for p in self.peers.values())
                wanted = shot if viewers else None
                frames = await asyncio.to_thread(self._played_shot, change, wanted)
            else:  # a card move takes microseconds: a thread would only add its hand-over
                change()
        at = len(state.history) - 1
        entry = state.history[at]
        check = None
        if self.mirrored and shot_count(state) > shots:
            check = state.shot_checksums[-1]  # type: ignore[attr-defined]
            self.images[at] = rest_image(state)
            self.images.pop(at - KEPT_REST_STATES, None)
        if self.journal is not None:  # on disk before anyone is told: a crash loses nothing told
            self.journal.move(at, entry)
        if self.on_move is not None:
            self.on_move(state, state.is_terminal())
        new_log = state.log[seen:]
        self._forget_spectators()  # no queue is kept for a spectator long gone
        view = None
        if self.mirrored and any(p.view for p in self.peers.values()):
            from jamsumo_sim.net.web_view import public_view

            view = public_view(state, self.seats, [e.text for e in new_log if e.visible_to(None)])
        for peer in list(self.peers.values()):
            if self.mirrored:
                if peer.view and frames is not None:
                    self._post(peer, "shot", at=at, **frames)
                self._post(peer, "move", at=at, entry=entry, check=check)
                if peer.view and view is not None:
                    self._post(peer, "view", **view)
            else:
                lines = [e.text for e in new_log if e.visible_to(peer.seat)]
                obs = state.observation(peer.seat)
                self._post(peer, "update", at=at + 1, obs=obs, log=lines)

    def _played_shot(
        self, change: Callable[[], None], shot: tuple[int, Action, Action | None] | None
    ) -> dict[str, Any] | None:
        """Sample ``shot`` on a copy of the world (for browsers), then make the ``change``."""
        frames = None
        if shot is not None:
            from jamsumo_sim.net.web_view import shot_frames, shot_of

            seat, flick, execution = shot
            world = shot_of(self.state, flick, execution)
            if world is not None:
                frames = shot_frames(self.state, world, seat, str(flick.get("die")), self.limits)
        change()
        return frames

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
        if peer.restart:  # its client gets a fresh start message when it is back
            return
        text = wire.encode(kind, n=peer.next_n, **fields)
        peer.outbox.append(text)
        peer.size += len(text)
        peer.wake.set()
        limits = self.limits
        if len(peer.outbox) > limits.max_backlog_messages or peer.size > limits.max_backlog_bytes:
            self._drop(peer, f"backlog: {len(peer.outbox)} messages ({peer.size} bytes) unread")

    def _drop(self, peer: Peer, reason: str) -> None:
        """A client too far behind: a spectator goes; a player's seat stays, and the player gets a
        fresh start message on reconnecting instead of the whole backlog."""
        self.dropped.append((peer.label, reason))
        self.say(f"{peer.label} dropped ({reason})")
        conn, peer.conn = peer.conn, None
        peer.reset(0)
        if peer.seat is None:
            self.peers.pop(peer.token, None)
        else:
            peer.restart = True
            peer.left_at = time.monotonic()
        peer.wake.set()
        if conn is not None:
            self._later(conn.close(BACKLOG_CLOSE, reason[:100]))

    def _broadcast(self, kind: str, **fields: Any) -> None:
        for peer in list(self.peers.values()):
            self._post(peer, kind, **fields)

    def _presence(self) -> None:
        self._forget_spectators()
        connected = sorted(s for s, p in self.holders.items() if p.conn is not None)
        self._broadcast("presence", connected=connected, spectators=self._watching())

    def _watching(self) -> int:
        return sum(1 for p in self.peers.values() if p.seat is None and p.conn is not None)

    def _forget_spectators(self) -> None:
        """Spectators who left (said bye, or gone past the keep time): their slot and queue go."""
        now = time.monotonic()
        keep = self.limits.spectator_keep_s
        for token, peer in list(self.peers.items()):
            gone = peer.done or (peer.left_at is not None and now - peer.left_at >= keep)
            if peer.seat is None and peer.conn is None and gone:
                del self.peers[token]

    async def _writer(self, peer: Peer, conn: ServerConnection) -> None:
        """Write ``peer``'s outbox in order on ``conn`` while it is the peer's connection."""
        try:
            while peer.conn is conn:
                if peer.skip_from <= peer.sent < peer.skip_to:  # the rest of a capped resend
                    peer.sent = peer.skip_to
                if peer.sent < peer.next_n:
                    index = max(peer.sent, peer.base)
                    text = peer.outbox[index - peer.base]
                    peer.sent = index + 1
                    await conn.send(text)
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
            if peer.view:  # a browser keeps no copy: the position as it is now
                from jamsumo_sim.net.web_view import LOG_LINES, public_view

                self._post(
                    peer, "view", **public_view(state, self.seats, state.log_for(None)[-LOG_LINES:])
                )
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
        if conn not in self.pending:  # evicted or timed out while its upgrade finished
            conn.transport.abort()
            return
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
                    if peer is not None:
                        self.pending.pop(conn, None)
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
            self.pending.pop(conn, None)
            if peer is not None and peer.conn is conn:
                if self.over and conn.close_code == 1000 and peer.sent >= peer.next_n:
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
            have = max(wire.whole(message, "have"), peer.base)  # what was acked stays acked
            peer.trim(have)
            gap = message.get("gap") is True  # later messages came, an earlier one did not
            now = time.monotonic()
            if (
                have < peer.next_n
                and (gap or have == peer.last_have)
                and now - peer.resent_at >= self.limits.resend_interval_s
            ):  # send the rest again: at most the unacknowledged backlog, at most so often
                peer.resent_at = now
                written = peer.sent
                peer.sent = min(peer.sent, have)
                # a bounded resend: what is beyond it, written once already, comes on a later ask
                peer.skip_from = min(written, peer.sent + self.limits.resend_max_messages)
                peer.skip_to = written
                peer.wake.set()
            peer.last_have = have
        elif kind == "move":
            await self._move(peer, message)
        elif kind == "chat":
            line = wire.clean(wire.text(message, "text", self.limits.max_chars) or "")
            if peer.chat is None:
                peer.chat = wire.RateLimiter(
                    time.monotonic(), self.limits.rate_per_s, self.limits.burst
                )
            now = time.monotonic()
            if line and not peer.chat.allow(now):
                if now - peer.chat_told < 1.0:  # told once a second, not once per line
                    self.refused.append((peer.label, "chat-rate"))
                    return peer
                peer.chat_told = now
                raise Refusal("chat-rate", "too many chat lines: wait a moment")
            if line:
                self._broadcast("chat", sender=peer.label, text=line)
        elif kind == "rest":
            at = wire.whole(message, "at")
            image = self.images.get(at)
            if image is None:
                raise Refusal("rest", f"no rest state is kept for move {at}")
            now = time.monotonic()
            if now - peer.rest_at < self.limits.rest_interval_s:
                raise Refusal("rate", "a rest state was just sent: ask again in a moment")
            peer.rest_at = now
            await conn.send(wire.encode("rest", at=at, image=image))
        elif kind == "bye":
            peer.done = True
            if peer.seat is None:  # a spectator who leaves frees its slot at once
                self.peers.pop(peer.token, None)
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
        for other in self.peers.values():
            # one aim in flight per client: a client that does not read gets no pile of them
            if other is not peer and other.conn is not None and not other.aiming:
                other.aiming = True
                self._later(_send_aim(other, other.conn, text))

    async def _hello(
        self, conn: ServerConnection, peer: Peer | None, message: dict[str, Any]
    ) -> Peer:
        if peer is not None:  # a hello sent again (its welcome was lost): welcome again
            await self._welcome(conn, peer)
            return peer
        self._check_password(conn, wire.text(message, "password", wire.MAX_PASSWORD_CHARS, ""))
        token = wire.text(message, "token", 64)
        name = wire.clean_name(wire.text(message, "name", wire.MAX_NAME_CHARS, "") or "")
        have = wire.whole(message, "have") if "have" in message else 0
        view = message.get("view", False)
        if not isinstance(view, bool):
            raise Refusal("malformed", "'view' must be true or false")
        if view and not (self.options.web and self.mirrored):
            raise Refusal("view", "this host serves no browser view (start it with --web)")
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
            if peer.restart or have < peer.base or peer.view != view:
                peer.view = view  # what it lacks is gone (or another kind of client): a fresh start
                await self._restart(peer, have)
            else:
                peer.sent = min(have, peer.next_n)
                peer.skip_from = peer.skip_to = 0
        elif message.get("spectate") is True:
            self._forget_spectators()
            limit = self.limits.max_spectators
            if self._watching() >= limit:
                raise Refusal("full", f"no room: {limit} spectators already watch")
            peer = Peer(None, secrets.token_hex(16), name or str(self._watching() + 1), view=view)
            async with self.lock:  # no move is posted to it before its start message
                self.peers[peer.token] = peer
                self._start_message(peer)
        else:
            peer = await self._claim(message, name, view)
        peer.conn = conn
        peer.left_at = None
        peer.wake.set()
        await self._welcome(conn, peer)
        asyncio.get_running_loop().create_task(self._writer(peer, conn))
        self.say(
            f"{peer.label} joined{' (' + name + ')' if name and peer.seat is not None else ''}"
        )
        self._presence()
        if all(s in self.holders for s in self.remote):
            self.seated.set()
        return peer

    async def _claim(self, message: dict[str, Any], name: str, view: bool = False) -> Peer:
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
        peer = Peer(seat, secrets.token_hex(16), name, view=view)
        if self.journal is not None:  # kept for --resume: the player rejoins this seat with it
            self.journal.token(seat, peer.token)
        self.holders[seat] = peer
        async with self.lock:  # no move is posted to it before its start message
            self.peers[peer.token] = peer
            self._start_message(peer)
            if seat in self.waiting:  # a seat claimed while it is to move (a resumed match)
                self._post_turn(seat)
        return peer

    async def _restart(self, peer: Peer, have: int) -> None:
        """Start ``peer``'s stream afresh at or after ``have`` (its backlog was dropped, or the host
        was restarted): a start message with the whole position, and its turn if it is to move."""
        peer.restart = False
        peer.reset(have)
        async with self.lock:
            self._start_message(peer)
            if peer.seat is not None and peer.seat in self.waiting:
                self._post_turn(peer.seat)

    def _check_password(self, conn: ServerConnection, given: str | None) -> None:
        """Wrong guesses from one address are answered only after a delay that doubles each time;
        a guess within the delay is refused unchecked."""
        wanted = self.options.password
        if wanted is None:
            return
        peer = conn.remote_address
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        now = self.clock()
        wrong, next_at = self.guesses.get(address, (0, -math.inf))
        if now < next_at:
            raise Refusal("wait", f"too many wrong passwords: try again in {next_at - now:.1f} s")
        if hmac.compare_digest((given or "").encode(), wanted.encode()):
            self.guesses.pop(address, None)
            return
        limits = self.limits
        delay = min(limits.first_delay_s * 2.0**wrong, limits.max_delay_s)
        self.guesses[address] = (wrong + 1, now + delay)
        self.guesses.move_to_end(address)
        while len(self.guesses) > limits.addresses_kept:
            self.guesses.popitem(last=False)
        raise Refusal("password", "wrong password")

    async def _welcome(self, conn: ServerConnection, peer: Peer) -> None:
        await conn.send(
            wire.encode(
                "welcome",
                seat=peer.seat,
                token=peer.token,
                game=self.state.game.name,
                seats=list(self.seats),
                match=self.match,
                first=peer.base,  # the stream goes on from here (earlier messages are gone)
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


async def _send_aim(peer: Peer, conn: ServerConnection, text: str) -> None:
    try:
        with contextlib.suppress(ConnectionClosed):
            await conn.send(text)
    finally:
        peer.aiming = False


def _public(bind: str) -> bool:
    """Whether ``bind`` listens beyond this computer (anything but a loopback address)."""
    if bind == "localhost":
        return False
    try:
        return not ipaddress.ip_address(bind).is_loopback
    except ValueError:  # a host name: it may well be reached from outside
        return True


def _made(entry: dict[str, Any], seat: int, action: Action) -> bool:
    """Whether the history ``entry`` is ``seat`` making ``action`` (alone or in a joint move)."""
    wanted = action.to_json()
    if entry.get("seat") == seat and entry.get("action") == wanted:
        return True
    joint = entry.get("joint")
    return isinstance(joint, dict) and joint.get(str(seat)) == wanted
