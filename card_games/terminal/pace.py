"""Bots at a human pace: a pause after each bot move shown live, so a person can follow it.

The pace is ``--pace SECONDS``; at a terminal it defaults to :data:`DEFAULT_PACE_S`, piped output
and ``--json`` get none (nobody watches; a log or a script wants the result at once). The sleep
is injected, so tests assert the pauses asked for without waiting for them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

DEFAULT_PACE_S = 0.8  # long enough to read one event line, short enough not to drag
MAX_PACE_S = 60.0

Sleep = Callable[[float], None]


def choose_pace(asked: float | None, tty: bool, as_json: bool) -> float:
    """The pause after each bot move: ``--pace`` when given, else the terminal's default;
    never with ``--json`` (nothing is shown live to follow)."""
    if as_json:
        return 0.0
    if asked is not None:
        return asked
    return DEFAULT_PACE_S if tty else 0.0


def pace_arg(text: str) -> float:
    """``--pace``: seconds, 0 … ``MAX_PACE_S`` (argparse turns the ValueError into one line)."""
    value = float(text)
    if not 0.0 <= value <= MAX_PACE_S:  # also refuses nan
        raise ValueError(text)
    return value


@dataclass
class Pacer:
    """Pauses ``pace`` seconds after a bot's move; records every pause asked for."""

    pace: float = 0.0
    sleep: Sleep | None = None  # None: time.sleep, looked up when pausing (tests patch it)
    pauses: list[float] = field(default_factory=list)

    def after_bot_move(self) -> None:
        if self.pace > 0:
            self.pauses.append(self.pace)
            (self.sleep or time.sleep)(self.pace)
