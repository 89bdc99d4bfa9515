"""What a card-game client's agent sees: its seat's observation and legal moves from the host.

It offers what :class:`~jamsumo_sim.turnloop.agents.SeatView` offers agents, built only from what
the host sent this seat: no state, so hidden cards cannot be reached. A bot's generator comes
from the client's own seed and the decision's place in the match (the host's seed stays secret:
it would give away every shuffle).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.keys import mix_key
from jamsumo_sim.turnloop.state import Game

_REMOTE_AGENT_STREAM = 7  # keeps a client's bot draws apart from any other use of its seed


class RemoteView:
    """An agent's view of a hosted card game, from the host's messages to this seat."""

    state = None  # hidden-information games give agents no state

    def __init__(
        self,
        game: Game,
        seat: int,
        observation: dict[str, Any],
        legal_actions: list[Action],
        at: int,
        seed: int,
    ) -> None:
        self.game = game
        self.seat = seat
        self.observation = observation
        self.legal_actions = legal_actions
        self.history_length = at
        self._key = mix_key(seed, _REMOTE_AGENT_STREAM, seat, at)

    @property
    def rng(self) -> np.random.Generator:
        return np.random.Generator(np.random.PCG64(self._key))

    def random_index(self, n: int) -> int:
        return self._key % n

    def preview(self, actions: Any) -> None:
        return None  # the host alone can play moves ahead

    def parse(self, text: str) -> Action | None:
        return None

    def check(self, action: Action) -> str | None:
        return None if action in self.legal_actions else f"{action.name!r} is not a legal move now"
