"""The window as a network client: the person plays their seat, the host decides everything.

A :class:`NetLink` runs the protocol's :class:`~jamsumo_sim.net.client.Client` on its own thread (an
asyncio loop); it hands the window the host's history entries, presence, chat and notes through a
lock, and takes the person's moves through a queue (the seat's agent, :class:`WindowAgent`, waits on
it). :class:`NetSession` is the window's session (a :class:`MatchSession` whose moves come from the
host): its own copy of the match advances on the window's thread one host entry at a time, so every
shot — the person's own too, once the host has played it with its execution error — is animated as a
local one is. The window only checks a flick against its copy before sending it; the host rules.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.net.client import Client, JoinOptions
from jamsumo_sim.net.mirror import rest_image, take_image
from jamsumo_sim.net.protocol import AIM_INTERVAL_S, MAX_CHAT_CHARS
from jamsumo_sim.turnloop.actions import CHANCE, Action
from jamsumo_sim.turnloop.agents import Agent, QuitRequest
from jamsumo_sim.turnloop.registry import get_game
from jamsumo_sim.turnloop.serialize import replay_history
from jamsumo_sim.ui.match_session import HUMAN, MatchSession
from jamsumo_sim.ui.panel import PanelInfo
from jamsumo_sim.ui.theme import Theme

START_TIMEOUT_S = 20.0  # how long the window waits for the host's start message
CHAT_SHOWN = 6  # chat and note lines kept under the match log in the panel
POLL_S = 0.1
AIM_SHOWN_S = 1.0  # an aim from the others not renewed for this long is no longer drawn  # how often a waiting agent looks whether the window closed


class WindowAgent(Agent):
    """The seat's agent on the client's thread: it waits for the window's move for its position."""

    kind = "window"

    def __init__(self, seat: int, game: Any, link: NetLink) -> None:
        super().__init__(seat, game)
        self.link = link

    @property
    def is_human(self) -> bool:
        return True

    def act(self, view: Any) -> Action:
        # kept by position, never taken away: if the client asks again for the same position
        # (its first answer was dropped with a connection), the person's move is still there
        at = len(view.state.history)
        while not self.link.closing.is_set():
            with self.link.lock:
                action = self.link.moves.get(at)
            if action is not None:
                return action
            self.link.moved.wait(POLL_S)
            self.link.moved.clear()
        raise QuitRequest()


class NetLink:
    """The client's thread and everything the window reads from it (under ``lock``)."""

    def __init__(self, url: str, options: JoinOptions, say: Callable[[str], None]) -> None:
        self.lock = threading.Lock()
        self.moves: dict[int, Action] = {}  # the person's move for each position
        self.moved = threading.Event()
        self.closing = threading.Event()
        self.started = threading.Event()
        self.start: dict[str, Any] | None = None
        self.entries: dict[int, dict[str, Any]] = {}
        self.checks: dict[int, Any] = {}
        self.images: dict[int, dict[str, Any]] = {}  # host rest states the client had to take
        self.connected: tuple[int, ...] = ()
        self.spectators = 0
        self.aims: dict[int, tuple[dict[str, Any], float]] = {}  # seat -> (aim, arrival time)
        self.lines: list[str] = []  # chat and notes, newest last
        self.result: dict[str, Any] | None = None
        self.failure: BaseException | None = None
        self._say = say
        self._loop: asyncio.AbstractEventLoop | None = None
        self._last_aim = 0.0
        self._mismatches = 0
        self.client = Client(url, options, self._agent, say=self.note, on_event=self._event)
        self.client.on_aim = self._aim
        self.thread = threading.Thread(target=self._run, daemon=True, name="jamsumo-net")

    # -- the client's thread --------------------------------------------------------------------
    def _agent(self, game: Any, seat: int) -> Agent:
        return WindowAgent(seat, game, self)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            self.result = loop.run_until_complete(self.client.run())
        except BaseException as exc:  # noqa: BLE001 - handed to the window's thread
            self.failure = exc
        finally:
            self.started.set()  # a failure before the start wakes the waiting window too
            left = asyncio.all_tasks(loop)  # heartbeats, a decision waiting for the window
            for task in left:
                task.cancel()
            if left:
                loop.run_until_complete(asyncio.wait(left))
            loop.close()

    def _event(self, client: Client, message: dict[str, Any]) -> None:
        kind = message.get("type")
        with self.lock:
            if kind == "start":
                history = list(message.get("history", []))
                self.start = dict(message)
                self.entries.update(enumerate(history))
                self.started.set()
            elif kind == "move":
                at = int(message["at"])
                self.entries[at] = message["entry"]
                self.checks[at] = message.get("check")
                if client.mismatches > self._mismatches and client.mirror is not None:
                    # the client took the host's rest state: the window's copy takes it too
                    self._mismatches = client.mismatches
                    self.images[at] = rest_image(client.mirror)
            elif kind == "presence":
                self.connected = tuple(int(s) for s in message.get("connected", []))
                self.spectators = int(message.get("spectators", 0))

    def _aim(self, message: dict[str, Any]) -> None:
        seat = message.get("seat")
        if isinstance(seat, int):
            with self.lock:
                self.aims[seat] = (message, time.monotonic())

    def note(self, text: str) -> None:
        """A line from the client (a refusal, a mismatch): in the panel and on stderr."""
        with self.lock:
            self.lines.append(text)
        self._say(text)

    # -- the window's thread --------------------------------------------------------------------
    def begin(self, timeout: float = START_TIMEOUT_S) -> dict[str, Any]:
        """Connect and wait for the host's start message (a refusal is one UserError line)."""
        self.thread.start()
        if not self.started.wait(timeout):
            self.closing.set()
            raise UserError(f"{self.client.url}: no match started within {timeout:g} s")
        if self.failure is not None:
            raise self.failure
        with self.lock:
            assert self.start is not None
            return dict(self.start)

    def lost(self) -> str | None:
        """Why the connection to the match ended early (one line), or None."""
        if self.thread.is_alive() or self.result is not None or self.closing.is_set():
            return None
        failure = self.failure
        reason = str(failure) if isinstance(failure, UserError) else type(failure).__name__
        return f"Cannot go on: {reason}"

    def entry(self, at: int) -> dict[str, Any] | None:
        with self.lock:
            return self.entries.get(at)

    def send_move(self, at: int, action: Action) -> None:
        with self.lock:
            self.moves[at] = action
        self.moved.set()

    def _call(self, coro_of: Callable[[], Any]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            asyncio.run_coroutine_threadsafe(coro_of(), loop)

    def chat(self, text: str) -> None:
        line = text.strip()[:MAX_CHAT_CHARS]
        if line:
            self.client.chat_soon(line)

    def aim(self, at: int, fields: dict[str, Any] | None) -> None:
        """Tell the others where this seat aims (at most one message per ``AIM_INTERVAL_S``)."""
        now = time.monotonic()
        if fields is not None and now - self._last_aim < AIM_INTERVAL_S:
            return
        self._last_aim = now
        self._call(lambda: self.client.send_aim(at, fields))

    def close(self) -> None:
        """The window closed: leave (the host keeps the seat for its grace time)."""
        self.closing.set()
        if self.result is None:
            self._call(self._leave)

    async def _leave(self) -> None:
        self.client.failure = QuitRequest()
        if self.client.conn is not None:
            await self.client.conn.close(1000, "left")

    def outcome(self, wait: float = 5.0) -> dict[str, Any]:
        """The host's result once the client's thread has ended (a one-line error if it had not)."""
        self.thread.join(wait)
        if self.result is not None:
            return self.result
        failure = self.failure
        if isinstance(failure, UserError):
            raise failure
        raise UserError("you left the match; join again with the same command to go on")


class NetSession(MatchSession):
    """A hosted match seen from one seat (or a spectator's chair) in the window."""

    mode_tag = "network"

    def __init__(self, link: NetLink, start: dict[str, Any]) -> None:
        game = get_game(str(start["game"]))
        state = game.new_initial_state(game.validate_params(start["params"]), seed=0)
        replay_history(state, list(start.get("history", [])), "the host's match")
        self.me: int | None = start.get("seat")
        kinds = [str(k) for k in start.get("seats", [])]
        seats = [HUMAN if s == self.me else k for s, k in enumerate(kinds)]
        super().__init__(state, seats)
        self.agents = {}  # every other seat's moves come from the host
        self.link = link
        self.sent_at: int | None = None  # the position the person's move was sent for
        self.chatting: str | None = None  # the chat line being typed (None: not typing)
        self._aiming = False

    # --- who moves ------------------------------------------------------------------------------
    def is_human(self, seat: int) -> bool:
        """The person's seat, while its move is still to be made here (not sent, not played)."""
        at = len(self.state.history)
        return seat == self.me and self.sent_at != at and self.link.entry(at) is None

    def _needs_execution(self, action: Action) -> bool:
        return not self.state.noise.exact and not self.is_pass(action)

    def _ready(self) -> tuple[int, Action] | None:
        """The host's next move (seat, action) once everything to show it has arrived."""
        at = len(self.state.history)
        entry = self.link.entry(at)
        if entry is None or "action" not in entry:
            return None
        action = Action.from_json(entry["action"])
        if self._needs_execution(action) and self.link.entry(at + 1) is None:
            return None  # the hand's execution error follows at once
        return int(entry["seat"]), action

    def update_turns(self, app: Any, dt: float) -> None:
        """The App's hook in place of local bots: show and play the host's moves in order."""
        from jamsumo_sim.ui import bot_turns
        from jamsumo_sim.ui.bot_aim import BotAim, flick_of

        if app.bot_aim is not None:
            bot_turns.update(app, dt)  # another seat's aim on show, then its shot
            return
        lost = self.link.lost()
        if lost is not None and app.message != lost:
            app.message = lost  # the window stays open on the match as it was
        if app.busy or app.table_shown() or app.paused:
            return
        ready = self._ready()
        if ready is None:
            return
        seat, action = ready
        if seat == self.me:  # the person's own move, as the host played it
            app.aim = None
            app.start_shot(seat, action, echo=True)
            return
        shown = None if self.is_pass(action) else flick_of(action, self.params.die_mass)
        app.bot_aim = BotAim(seat, action, shown, app.bot_aim_time if shown else 0.0)

    def submit(self, seat: int, action: Action) -> None:
        """The person's checked move: to the host (it comes back as the host's history entry)."""
        at = len(self.state.history)
        self.sent_at = at
        self.link.send_move(at, action)
        self.link.aim(at, None)

    def advance_automatic(self) -> list[str]:
        """Chance outcomes as the host drew them (never from a seed here: the host keeps it)."""
        lines: list[str] = []
        while self.state.current_player() == CHANCE:
            entry = self.link.entry(len(self.state.history))
            if entry is None or "chance" not in entry:
                break
            seen = len(self.state.log)
            replay_history(self.state, [entry], "the host's move")
            self._after_host_move()
            lines.extend(e.text for e in self.state.log[seen:] if e.visible_to(None))
        return lines

    def shot_world(self, action: Any) -> Any:
        """The shot as the host executed it (its recorded execution error)."""
        execution = None
        if self._needs_execution(action):
            entry = self.link.entry(len(self.state.history) + 1)
            execution = Action.from_json(entry["chance"]) if entry is not None else None
        return self.state.preview(action, execution)

    def commit(self, action: Any, animated: Any | None = None) -> list[str]:
        at = len(self.state.history)
        seen, rounds = len(self.state.log), len(self.state.results)
        replay_history(self.state, [self.link.entry(at)], "the host's move")
        if self.state.pending is not None:
            replay_history(self.state, [self.link.entry(at + 1)], "the host's move")
        if animated is not None and len(self.state.results) == rounds and self.state.world:
            self._compare(animated)
        self._after_host_move()
        self._note_round_end()
        return [e.text for e in self.state.log[seen:] if e.visible_to(None)]

    def _after_host_move(self) -> None:
        """Take the host's rest state where this copy rested differently."""
        at = len(self.state.history) - 1
        with self.link.lock:
            check, image = self.link.checks.get(at), self.link.images.get(at)
        sums = self.state.shot_checksums
        if image is not None and (not sums or sums[-1] != check):
            take_image(self.state, image)

    # --- chat (C opens a line; Enter sends it, Esc drops it) --------------------------------------
    def chat_key(self, e: Any) -> bool:
        """A key for the chat line; True when it was used (the window then ignores it)."""
        import pygame

        if self.chatting is None:
            if e.key == pygame.K_c and not getattr(e, "mod", 0) & pygame.KMOD_CTRL:
                self.chatting = ""
                return True
            return False
        if e.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.link.chat(self.chatting)
            self.chatting = None
        elif e.key == pygame.K_ESCAPE:
            self.chatting = None
        elif e.key == pygame.K_BACKSPACE:
            self.chatting = self.chatting[:-1]
        else:
            typed = "".join(ch for ch in getattr(e, "unicode", "") if ch.isprintable())
            self.chatting = (self.chatting + typed)[:MAX_CHAT_CHARS]
        return True

    # --- the person's aim, shown to the others ----------------------------------------------------
    def share_aim(self, app: Any, params: Any) -> None:
        """Send the aim being dragged (rate-limited in :meth:`NetLink.aim`)."""
        if self.me is None or not self.is_human(self.me):
            return
        at = len(self.state.history)
        if params is None:
            if self._aiming:
                self._aiming = False
                self.link.aim(at, None)
            return
        self._aiming = True
        self.link.aim(
            at,
            {"die": params.die, "direction": float(params.direction), "speed": float(params.speed)},
        )

    def others_aim(self) -> tuple[int, Any] | None:
        """Another seat's aim as it drags (seat, AimShown), fresh and for the current position."""
        from jamsumo_sim.ui.bot_aim import AimShown

        at = len(self.state.history)
        with self.link.lock:
            found = [
                (seat, m)
                for seat, (m, when) in self.link.aims.items()
                if m.get("at") == at and time.monotonic() - when < AIM_SHOWN_S
            ]
        for seat, m in found:
            if seat != self.me and seat == self.to_move() and isinstance(m.get("die"), str):
                return seat, AimShown(m["die"], float(m["direction"]), float(m["speed"]))
        return None

    def draw_over(self, app: Any, view: Any, params: Any) -> None:
        """The App's drawing hook: share the person's aim, draw the aim another seat drags."""
        from jamsumo_sim.ui.bot_aim import draw_bot_aim

        self.share_aim(app, params)
        found = self.others_aim() if app.bot_aim is None and not app.busy else None
        if found is None:
            return
        _, shown = found
        at = {p.id: (p.x, p.y) for p in app.poses() if p.fade == 0}
        if shown.die in at:
            x, y = at[shown.die]
            colour = app.theme.colour("aim")
            size, top = self.params.die_size, self.params.max_launch_speed
            draw_bot_aim(app.screen, view, shown, x, y, size, top, colour, 0.0)

    # --- no local saving or undo: the host records the match -------------------------------------
    def practice(self) -> bool:
        return False

    def can_undo(self) -> bool:
        return False

    def undo_offered(self) -> bool:
        return False

    def why_no_undo(self) -> str:
        return "No undo in a network match: the host keeps the match."

    def save_data(self) -> dict[str, Any] | None:
        return None

    def pass_action(self, seat: int) -> Any | None:
        return super().pass_action(seat) if self.is_human(seat) else None

    # --- showing it -------------------------------------------------------------------------------
    def panel(self, theme: Theme) -> PanelInfo:
        from dataclasses import replace

        info = super().panel(theme)
        with self.link.lock:
            connected, watching = set(self.link.connected), self.link.spectators
        rows = []
        for row in info.players:
            kind = row.kind
            if row.seat == self.me:
                kind = "you"
            elif kind == "remote":
                kind = "online" if row.seat in connected else "away"
            rows.append(replace(row, kind=kind))
        where = f"Network: {len(connected)} connected, {watching} watching"
        turn_text = info.turn_text
        if self.me is None:
            where += " — you watch"
        elif self.sent_at == len(self.state.history) and self.to_move() == self.me:
            turn_text = turn_text.replace("(human's turn)", "(your move went to the host)")
        return replace(
            info,
            round_text=f"{info.round_text}. {where} (C: chat)",
            turn_text=turn_text,
            players=tuple(rows),
        )

    def panel_lines(self) -> tuple[str, ...]:
        """The chat and the client's notes, and the line being typed, under the match log."""
        with self.link.lock:
            lines = [f"» {line}" for line in self.link.lines[-CHAT_SHOWN:]]
        if self.chatting is not None:
            lines.append(f"say: {self.chatting}_")
        return tuple(lines)

    def position_key(self) -> Any:
        return (id(self.state), len(self.state.history))


def join_window(url: str, options: JoinOptions, say: Callable[[str], None]) -> NetSession:
    """Connect to ``url`` and build the window's session from the host's start message."""
    link = NetLink(url, options, say)
    start = link.begin()
    if start.get("history") is None:
        link.close()
        raise UserError(f"{url}: this host plays {start.get('game')}, not a JamSumo match")
    return NetSession(link, start)
