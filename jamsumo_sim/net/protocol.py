"""The wire format: JSON text messages with a version field, and the limits the host enforces.

Every message is one JSON object ``{"v": VERSION, "type": ..., ...}``. Nothing from the wire is
executed or unpickled: a message is parsed with bounded nesting and numbers (fileio.parse_json),
and only the fields named here are read. docs/network.md describes every message.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.fileio import parse_json

# 2: welcome names the match and the stream's first message, chat senders read "watcher NAME",
# a client may be dropped for its backlog (close code 4008), password guesses wait ("wait")
VERSION = 2

# Limits on what a client may send (docs/limits.md, "Network play").
MAX_CLIENT_MESSAGE_BYTES = 64 * 1024  # a larger frame closes that connection (code 1009)
MAX_HOST_MESSAGE_BYTES = 16 * 1024 * 1024  # what a client accepts (a JamSumo rest state is ~10 kB)
RATE_PER_S = (
    20.0  # sustained messages a second per connection (heartbeats: 7); played moves are free
)
RATE_BURST = 60  # messages a connection may send at once before the rate applies
MAX_CHAT_CHARS = 300  # what a client lets a person type (the host's limit is in assets/net.toml)
MAX_NAME_CHARS = 40
MAX_PASSWORD_CHARS = 200
MAX_AIM_DIE_CHARS = 16
AIM_INTERVAL_S = 0.1  # a window sends its aim at most this often while the person drags
MAX_AIM_SPEED = 100.0  # m/s: an aim's speed beyond it is refused (the launch cap is far below)
MAX_REFUSALS = 200  # refused messages after which the host closes the connection (code 1008)

# Timing (seconds of wall time).
HEARTBEAT_S = 0.15  # a client's "sync" (what it has), so a dropped message is resent
RESEND_S = 0.5  # a client resends its move if play has not moved on meanwhile
HELLO_TIMEOUT_S = 1.0  # a client resends its hello if no welcome came
LINGER_S = 3.0  # the host keeps serving after the end until every client said bye

CLIENT_TYPES = ("hello", "move", "chat", "sync", "rest", "bye", "aim")


@dataclass(frozen=True)
class Refusal(Exception):
    """A message the host refuses; ``code`` is a short word, ``message`` one line for the client."""

    code: str
    message: str


# an ANSI/VT escape sequence: ESC [ ... final byte, ESC ] ... BEL/ST, or ESC and one character
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?|\x9b[0-?]*[ -/]*[@-~]"
)


def clean(text: str) -> str:
    """One line that prints as plain text: terminal escapes removed, line breaks and tabs made
    spaces, every other control or format character (bidi overrides included) removed."""
    text = _ESCAPE.sub("", text)
    out = []
    for ch in text:
        if ch in "\n\r\t\v\f\u2028\u2029\x85":
            out.append(" ")
        elif unicodedata.category(ch)[0] != "C":
            out.append(ch)
    return " ".join("".join(out).split())


def clean_name(text: str) -> str:
    """A name as :func:`clean`, without brackets: shown as "[watcher NAME]", it cannot close the
    bracket and pass for "[seat 1]"."""
    return clean(text).replace("[", "(").replace("]", ")")


def encode(kind: str, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"))


def decode(text: str | bytes) -> dict[str, Any]:
    """A client message, checked for shape and version; a :class:`Refusal` if it is not one."""
    if isinstance(text, bytes):
        raise Refusal("malformed", "send JSON text frames, not binary ones")
    try:
        data = parse_json(text, "message")
    except UserError as exc:
        raise Refusal("malformed", str(exc)) from None
    if not isinstance(data, dict):
        raise Refusal("malformed", "a message must be a JSON object")
    if data.get("v") != VERSION:
        raise Refusal(
            "version", f"protocol version {str(data.get('v'))[:20]} (host speaks {VERSION})"
        )
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise Refusal("malformed", f"unknown message type {str(kind)[:30]!r}")
    return data


def whole(data: dict[str, Any], key: str, low: int = 0, high: int = 10**9) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refusal("malformed", f"{key!r} must be a whole number from {low} to {high}")
    return value


def text(data: dict[str, Any], key: str, limit: int, default: str | None = None) -> str | None:
    value = data.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > limit:
        raise Refusal("malformed", f"{key!r} must be text of at most {limit} characters")
    return value


def real(data: dict[str, Any], key: str, low: float, high: float) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise Refusal("malformed", f"{key!r} must be a number from {low:g} to {high:g}")
    return float(value)


class RateLimiter:
    """A token bucket: ``allow()`` is False once a connection sends faster than the limits."""

    def __init__(self, now: float, rate: float = RATE_PER_S, burst: int = RATE_BURST) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.at = now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1.0)
