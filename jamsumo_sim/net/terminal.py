"""A person at the terminal in a network match: chat (``/say``), who is there (``/who``), presence.

One thread reads the terminal all the time, so a chat line can be typed while others move (a seat's
console agent only asks on its turn). Lines for the agent go through a queue (``readline``, as the
agent reads a file); ``/say TEXT`` and ``/who`` are handled at once and never reach the agent.
"""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from typing import Any, TextIO

from jamsumo_sim.net.protocol import MAX_CHAT_CHARS
from jamsumo_sim.turnloop.agents import MAX_TYPED_LINE

SAY = "/say "
WHO = "/who"


class TerminalInput:
    """The terminal's lines: chat commands handled here, the rest queued for the seat's agent."""

    def __init__(self, source: TextIO, chat: Callable[[str], None], who: Callable[[], str]) -> None:
        self.source = source
        self.chat = chat
        self.who = who
        self.lines: queue.Queue[str] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True, name="jamsumo-terminal")
        self.thread.start()

    def _read(self) -> None:
        while True:
            line = self.source.readline(MAX_TYPED_LINE + 1)
            if not line:
                self.lines.put("")  # the end of input: the agent stops safely
                return
            text = line.strip()
            if text.lower().startswith(SAY):
                said = text[len(SAY) :].strip()[:MAX_CHAT_CHARS]
                if said:
                    self.chat(said)
            elif text.lower() == WHO:
                print(self.who(), file=sys.stderr, flush=True)
            else:
                self.lines.put(line)

    def readline(self, limit: int = -1) -> str:
        return self.lines.get()


class Presence:
    """Who is connected, from the host's presence messages; a line whenever it changes."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say
        self.text = "nobody has joined yet"

    def on_event(self, client: Any, message: dict[str, Any]) -> None:
        if message.get("type") != "presence":
            return
        seats = [str(s) for s in message.get("connected", [])]
        watching = int(message.get("spectators", 0))
        text = f"connected: seat{'s' if len(seats) != 1 else ''} {', '.join(seats) or 'none'}"
        if watching:
            text += f"; {watching} watching"
        if text != self.text:
            self.text = text
            self.say(text)


def attach(client: Any, source: TextIO | None = None) -> TerminalInput:
    """Give ``client`` the terminal: presence lines, ``/say`` and ``/who``; the returned input is
    what the seat's console agent reads."""
    presence = Presence(client.say)
    client.say("chat: type /say TEXT at any time; /who shows who is connected")
    client.on_event = presence.on_event
    return TerminalInput(source or sys.stdin, client.chat_soon, lambda: presence.text)
