"""A client: joins a hosted match, plays its seat with an agent, ends with the host's result.

JamSumo clients keep a full copy of the match and re-simulate every shot (the host's per-shot
checksum says whether the copy rests as the host's did; if not, the client takes the host's rest
state and says so once). Card-game clients keep only what the host sends their seat. Messages are
numbered per client: duplicates are dropped, gaps are filled by asking again (``sync``), and a
dropped connection is re-opened with the seat's token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import ssl
import sys
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from jamsumo_sim.errors import UserError
from jamsumo_sim.net import protocol as wire
from jamsumo_sim.net import seat_tokens
from jamsumo_sim.net.mirror import shot_count, take_image
from jamsumo_sim.net.options import JoinOptions
from jamsumo_sim.net.remote_view import RemoteView
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.agents import Agent, QuitRequest, SeatView
from jamsumo_sim.turnloop.registry import get_game
from jamsumo_sim.turnloop.serialize import replay_history
from jamsumo_sim.turnloop.state import Game, State

RECONNECT_FOR_S = 60.0  # how long a client keeps trying to reach a host that went away
REACH_RETRY_S = 0.25
# refusals that end a join.  Not "hello" ("say hello first"): before the welcome it only means the host
# got a message of this connection before its hello (a reordering or lost hello, which the heartbeat
# resends; tests/net/test_net_matches.py's faulty proxy met it once in three CI runs)
_FATAL = ("password", "seat", "full", "version", "wait")


class Client:
    """Join ``url``; ``await run()`` returns the host's result object once the match ends."""

    def __init__(
        self,
        url: str,
        options: JoinOptions,
        make_agent: Callable[[Game, int], Agent] | None,
        say: Callable[[str], None] | None = None,
        on_message: Callable[[str], None] | None = None,
        on_event: Callable[[Client, dict[str, Any]], None] | None = None,
    ) -> None:
        self.url = url
        self.options = options
        self.make_agent = make_agent
        self.say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self.on_message = on_message  # every raw message received (tests inspect them)
        self.on_event = on_event  # each stream message once processed (a display)
        self.before_apply: Callable[[State, int], None] | None = None  # tests: disturb a copy
        self.on_aim: Callable[[dict[str, Any]], None] | None = None  # others' aims (a window)
        self.conn: ClientConnection | None = None
        self.token: str | None = None
        self.seat: int | None = None
        self.game: Game | None = None
        self.agent: Agent | None = None
        self.have = 0  # next stream number expected
        self.early: dict[int, dict[str, Any]] = {}  # stream messages that came before their turn
        self.mirror: State | None = None  # JamSumo: the whole match, re-simulated
        self.obs: dict[str, Any] | None = None  # card games: this seat's observation
        self.at = 0  # the match's history length as last heard
        self.turn: tuple[int, list[Action]] | None = None
        self.sent: tuple[int, dict[str, Any], float] | None = None
        self.deciding: asyncio.Task[None] | None = None
        self.deciding_at = -1  # the position the running decision is for
        self.result: dict[str, Any] | None = None
        self.mismatches = 0
        self.welcomed = asyncio.Event()
        self.busy = False
        self.failure: BaseException | None = None
        self.loop: asyncio.AbstractEventLoop | None = None  # where run() runs (other threads chat)
        self.reach_for = options.wait
        self.unsent: list[str] = []  # chat typed before the event loop ran
        self.match: str | None = None
        self.recalled = False  # the token came from the data folder (it may be from another match)
        if options.remember and not options.spectate:
            self.token = seat_tokens.recall(url)
            self.recalled = self.token is not None

    # -- running --------------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        try:
            return await self._run()
        finally:
            if self.options.remember and self.token is not None and not self.recalled:
                seat_tokens.release(self.url)

    async def _run(self) -> dict[str, Any]:
        self.loop = asyncio.get_running_loop()
        gave_up_at = None
        reach_until: float | None = None
        while self.result is None:
            if self.failure is not None:
                raise self.failure
            try:
                async with connect(
                    self.url,
                    ssl=self._tls(),
                    max_size=wire.MAX_HOST_MESSAGE_BYTES,
                    compression=None,
                    proxy=None,
                    open_timeout=5,
                    ping_interval=5,
                    ping_timeout=20,
                ) as conn:
                    gave_up_at = None
                    await self._session(conn)
            except (
                ssl.SSLError
            ) as exc:  # before OSError: a certificate not trusted will not be later
                reason = str(exc.reason or exc).splitlines()[0][:200]
                raise UserError(f"{self.url}: TLS failed ({reason}); see --cafile") from None
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                if self.result is not None:
                    break
                if isinstance(exc, InvalidHandshake) and self.token is None:
                    raise UserError(f"{self.url}: not a match host ({exc})") from None
                now = time.monotonic()
                gave_up_at = gave_up_at or now + RECONNECT_FOR_S
                if isinstance(exc, socket.gaierror):  # no such host name: waiting will not help
                    raise UserError(f"cannot reach {self.url}: {exc.strerror or exc}") from None
                if (self.token is None or self.recalled) and isinstance(exc, OSError):
                    # the host may be starting: try again for a while, then say so in one line
                    if reach_until is None:
                        reach_until = now + self.reach_for
                        if self.reach_for > 0:
                            wait = f"up to {self.reach_for:g} s"
                            self.say(f"{self.url} does not answer yet; trying again ({wait})")
                    if now > reach_until:
                        reason = exc.strerror or exc
                        raise UserError(f"cannot reach {self.url}: {reason}") from None
                    await asyncio.sleep(REACH_RETRY_S)
                    continue
                if now > gave_up_at:
                    raise UserError(f"lost the connection to {self.url}") from None
                await asyncio.sleep(0.1)
            except InvalidURI as exc:
                raise UserError(f"{self.url}: not a ws:// address ({exc})") from None
        assert self.result is not None
        if self.options.remember:
            seat_tokens.forget(self.url)  # the match is over: nothing to rejoin
        return self.result

    def _tls(self) -> ssl.SSLContext | None:
        if not self.url.startswith("wss://"):
            return None
        try:
            return ssl.create_default_context(cafile=self.options.cafile)
        except (OSError, ssl.SSLError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc).splitlines()[0][:200]
            raise UserError(f"--cafile {self.options.cafile}: {reason}") from None

    async def _session(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.welcomed.clear()
        beat = asyncio.get_running_loop().create_task(self._heartbeat(conn))
        try:
            await self._hello(conn)
            async for raw in conn:
                if self.on_message is not None:
                    self.on_message(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue  # not from a match host: nothing to act on
                if isinstance(message, dict):
                    await self._checked(message)
                if self.result is not None:
                    await self._send(conn, "bye")
                    await conn.close(1000, "bye")
                    return
        finally:
            beat.cancel()
            self.conn = None

    async def _hello(self, conn: ClientConnection) -> None:
        fields: dict[str, Any] = {"have": self.have, "name": self.options.name}
        if self.options.password is not None:
            fields["password"] = self.options.password
        if self.token is not None:
            fields["token"] = self.token
        elif self.options.spectate:
            fields["spectate"] = True
        elif self.options.seat is not None:
            fields["seat"] = self.options.seat
        await self._send(conn, "hello", **fields)
        self._hello_fields = fields

    async def _heartbeat(self, conn: ClientConnection) -> None:
        """Say what arrived (so gaps are filled), resend a hello or a move that got no answer."""
        hello_at = time.monotonic()
        while True:
            await asyncio.sleep(wire.HEARTBEAT_S)
            now = time.monotonic()
            if not self.welcomed.is_set():
                if now - hello_at >= wire.HELLO_TIMEOUT_S:
                    hello_at = now
                    await self._send(conn, "hello", **self._hello_fields)
                continue
            if not self.busy:
                await self._send(conn, "sync", have=self.have, gap=bool(self.early))
            if (
                self.sent is not None
                and self.sent[0] == self.at
                and now - self.sent[2] > wire.RESEND_S
            ):
                self.sent = (self.sent[0], self.sent[1], now)
                await self._send(conn, "move", at=self.sent[0], action=self.sent[1])

    async def _send(self, conn: ClientConnection, kind: str, **fields: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            await conn.send(wire.encode(kind, **fields))

    async def chat(self, text: str) -> None:
        if self.conn is not None:
            await self._send(self.conn, "chat", text=text)

    def chat_soon(self, text: str) -> None:
        """Send a chat line from another thread (the terminal's reader, a window); a line typed
        before the host welcomed this client goes once it has."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            asyncio.run_coroutine_threadsafe(self._chat_when_welcome(text), loop)
        else:
            self.unsent.append(text)

    async def _chat_when_welcome(self, text: str) -> None:
        await self.welcomed.wait()
        await self.chat(text)

    async def send_aim(self, at: int, aim: dict[str, Any] | None) -> None:
        """Where this seat aims now (``die``, ``direction`` rad, ``speed`` m/s), or None: no aim."""
        if self.conn is not None:
            await self._send(self.conn, "aim", at=at, **(aim or {}))

    # -- messages -------------------------------------------------------------------------------
    async def _checked(self, message: dict[str, Any]) -> None:
        """Handle one message from the host, checked as the host checks a client's: a wrong
        version or a message of the wrong shape ends the client with one line."""
        kind = str(message.get("type"))[:30]
        if message.get("v") != wire.VERSION:
            raise UserError(
                f"the host speaks protocol version {str(message.get('v'))[:20]}; "
                f"this client speaks {wire.VERSION} (use the same jamsumo version)"
            )
        try:
            await self._receive(message)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            what = type(exc).__name__
            raise UserError(f"the host sent a malformed {kind!r} message ({what})") from None

    def _welcome(self, message: dict[str, Any]) -> None:
        token, seat, first = message["token"], message["seat"], message.get("first", 0)
        if not isinstance(token, str) or not 0 < len(token) <= 64:
            raise ValueError("token")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ValueError("seat")
        if isinstance(first, bool) or not isinstance(first, int) or first < 0:
            raise ValueError("first")
        if first > self.have:  # the host starts this client's stream afresh from there
            self.have = first
            self.early = {n: m for n, m in self.early.items() if n >= first}
        self.token, self.seat, self.recalled = token, seat, False
        match = message.get("match")
        self.match = match if isinstance(match, str) else None
        if self.options.remember and seat is not None:
            seat_tokens.keep(self.url, self.match or "", seat, token)

    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self._welcome(message)
            self.welcomed.set()
            while self.unsent and self.conn is not None:
                await self.chat(self.unsent.pop(0))
            return
        if kind == "error":
            self._refused(message)
            return
        if kind == "rest":
            return  # a rest state asked for twice: the first one was taken
        if kind == "aim":  # another player's aim while they drag: shown, never kept
            if self.on_aim is not None:
                self.on_aim(message)
            return
        n = message.get("n")
        if not isinstance(n, int) or n < self.have:
            return  # a duplicate
        self.early[n] = message
        while self.have in self.early and self.result is None:
            current = self.early.pop(self.have)
            self.busy = True
            try:
                await self._process(current)
            finally:
                self.busy = False
            self.have += 1
            if self.on_event is not None:
                self.on_event(self, current)

    def _refused(self, message: dict[str, Any]) -> None:
        code, text = str(message.get("code")), wire.clean(str(message.get("message"))[:300])
        if code == "seat" and self.recalled and not self.welcomed.is_set():
            # a kept token the host does not know (another match at that address): join afresh
            seat_tokens.forget(self.url)
            self.token, self.recalled = None, False
            return
        if code in _FATAL and not self.welcomed.is_set():
            raise UserError(f"the host refused: {text}")
        if code == "illegal":
            self.say(f"the host refused the move: {text}")
            self.sent = None
            if self.turn is not None and self.turn[0] == self.at:
                self._decide(fallback=True)
        # 'stale' and 'turn' refusals answer a move sent twice: play has moved on

    async def _process(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "start":
            await self._start(message)
        elif kind == "move":
            await self._move(message)
        elif kind == "update":
            self.obs = message["obs"]
            self.at = int(message["at"])
        elif kind == "turn":
            at = int(message["at"])
            legal = [Action.from_json(a) for a in message.get("legal", [])]
            self.turn = (at, legal)
            if at == self.at:
                self._decide()
        elif kind == "chat":  # cleaned here too: a host may be hostile
            sender = wire.clean_name(str(message.get("sender"))[:60])
            self.say(f"[{sender}] {wire.clean(str(message.get('text'))[:400])}")
        elif kind == "end":
            self._end(message)

    async def _start(self, message: dict[str, Any]) -> None:
        game = get_game(str(message["game"]))
        self.game = game
        self.seat = message.get("seat")
        if self.seat is not None and self.make_agent is not None and self.agent is None:
            self.agent = self.make_agent(game, self.seat)
        if "history" in message:  # JamSumo: the whole match, re-played here
            params = game.validate_params(message["params"])
            state = game.new_initial_state(params, seed=self.options.seed)
            history = message["history"]
            await asyncio.to_thread(replay_history, state, history, "the host's history")
            self.mirror = state
            self.at = len(state.history)
        else:
            self.obs = message["obs"]
            self.at = int(message["at"])

    async def _move(self, message: dict[str, Any]) -> None:
        state = self.mirror
        assert state is not None
        at = int(message["at"])
        if at != len(state.history):
            return  # already applied (the start message carried it)
        shots = shot_count(state)
        if self.before_apply is not None:
            self.before_apply(state, at)
        try:
            await asyncio.to_thread(replay_history, state, [message["entry"]], "the host's move")
            differs = shot_count(state) > shots and state.shot_checksums[-1] != message.get("check")  # type: ignore[attr-defined]
        except UserError:  # the copy had drifted so far that the move does not fit: take the host's
            state.history.append(message["entry"])
            differs = True
        if differs and message.get("check") is not None:
            await self._take_rest(at)
        self.at = len(state.history)

    async def _take_rest(self, at: int) -> None:
        """This copy's shot rested differently: continue from the host's rest state."""
        state = self.mirror
        assert state is not None and self.conn is not None
        conn = self.conn
        reply = None
        while reply is None:  # read here: the receive loop is waiting for this move to finish
            await self._send(conn, "rest", at=at)
            try:
                raw = await asyncio.wait_for(conn.recv(), wire.RESEND_S)
            except TimeoutError:
                continue
            if self.on_message is not None:
                self.on_message(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))
            try:
                message = json.loads(raw)
            except ValueError:
                continue
            if not isinstance(message, dict):
                continue
            if message.get("type") == "rest" and message.get("at") == at:
                reply = message
            elif isinstance(message.get("n"), int) and message["n"] > self.have:
                self.early.setdefault(message["n"], message)  # kept for its turn
        take_image(state, reply["image"])
        self.mismatches += 1
        if self.mismatches == 1:
            self.say(
                f"shot at move {at + 1} came to rest differently on this computer; "
                "continuing from the host's rest state (said once)"
            )

    def _decide(self, fallback: bool = False) -> None:
        if self.agent is None or self.seat is None or self.turn is None:
            return
        if self.deciding is not None and not self.deciding.done():
            if self.deciding_at == self.turn[0]:
                return
            # a decision for a position play has left (a rejoined client's stream re-sent from
            # its start asks for its first turn again): dropped, or the seat's turn now would wait
            # behind it for ever
            self.deciding.cancel()
        self.deciding_at = self.turn[0]
        self.deciding = asyncio.get_running_loop().create_task(self._choose(fallback))
        self.deciding.add_done_callback(self._decided)

    async def _choose(self, fallback: bool) -> None:
        assert self.agent is not None and self.seat is not None and self.turn is not None
        at, legal = self.turn
        if self.mirror is not None:
            view: Any = SeatView(self.mirror.clone(), self.seat)  # a copy: play may move on
        else:
            assert self.game is not None and self.obs is not None
            view = RemoteView(self.game, self.seat, self.obs, legal, at, self.options.seed)
        try:
            if fallback:  # a refused move: a legal one from the list rather than the same again
                options = view.legal_actions
                action = options[view.random_index(len(options))]
            elif self.mirror is not None or self.agent.is_human:
                action = await asyncio.to_thread(self.agent.act, view)
            else:  # a card bot decides in milliseconds: a thread would only add its hand-over
                action = self.agent.act(view)
        except QuitRequest:
            self.say("you left the match (the host keeps your seat for a while)")
            if self.conn is not None:
                await self.conn.close(1000, "left")
            raise
        if self.at != at or self.conn is None:
            return  # play moved on meanwhile (a bot stood in)
        self.sent = (at, action.to_json(), time.monotonic())
        await self._send(self.conn, "move", at=at, action=action.to_json())

    def _decided(self, task: asyncio.Task[None]) -> None:
        """A decision ended: if the seat's next turn came meanwhile, decide that one now."""
        if task.cancelled():
            return
        if task.exception() is not None:  # the agent failed (or a person quit): stop the client
            self.failure = task.exception()
            if self.conn is not None:
                asyncio.get_running_loop().create_task(self.conn.close(1000, "left"))
            return
        turn = self.turn
        if (
            turn is not None
            and turn[0] == self.at
            and (self.sent is None or self.sent[0] != turn[0])
        ):
            self._decide()

    def _end(self, message: dict[str, Any]) -> None:
        result = message["result"]
        if self.mirror is not None and self.game is not None:
            mine = own_result(self.mirror, result)
            if mine is not None and mine != result:
                self.say(
                    "this computer's copy of the match ends differently; the host's result counts"
                )
        self.result = result


def own_result(state: State, host_result: dict[str, Any]) -> dict[str, Any] | None:
    """The result object this client's copy gives (JamSumo), with the seed the host reveals."""
    from jamsumo_sim.rules.match_cli import result_json

    if not hasattr(state, "results"):
        return None
    mine = result_json(state, list(host_result.get("seats", [])))
    mine["seed"] = host_result.get("seed")
    return mine
