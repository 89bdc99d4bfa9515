"""A seat's observation as a fixed-size numeric array, and back.

The observation is the seat's own view from the turn loop (``State.observation(seat)``: what the
bots and the terminal see, hidden information left out), without its running log (the log only
grows; the table holds the position), as compact UTF-8 JSON zero-padded to a fixed width per game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from jamsumo_sim.errors import UserError

# Bytes of a game's observation array: above the largest view seen over random play at every
# player count and variant (tests/rl/test_card_envs.py checks the margin), rounded up.
OBS_BYTES: dict[str, int] = {
    "jellyfish": 8192,
    "jumble_jam": 8192,
    "jumblejack": 8192,
    "the_jam": 8192,
}
LEFT_OUT = ("log",)


def view_of(observation: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in observation.items() if k not in LEFT_OUT}


def encode(game: str, observation: Mapping[str, Any]) -> np.ndarray:
    blob = json.dumps(view_of(observation), sort_keys=True, separators=(",", ":")).encode()
    width = OBS_BYTES[game]
    if len(blob) > width:
        raise UserError(f"{game}: an observation of {len(blob)} bytes exceeds OBS_BYTES {width}")
    out = np.zeros(width, dtype=np.uint8)
    out[: len(blob)] = np.frombuffer(blob, dtype=np.uint8)
    return out


def decode(array: np.ndarray) -> dict[str, Any]:
    """The JSON view an observation array holds (for people and tests)."""
    raw = bytes(np.asarray(array, dtype=np.uint8)).rstrip(b"\0")
    return json.loads(raw.decode()) if raw else {}
