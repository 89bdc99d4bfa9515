"""The State protocol every game implements, and the Game that makes states.

A game subclasses :class:`Game` and :class:`State`. The state implements the ``_``-prefixed
hooks; the public methods here keep the history, check legality and serialise, identically for
every game, so the driver, the agents, the CLIs and the conformance kit treat all games alike.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from jamsumo_sim.errors import IllegalAction, UserError
from jamsumo_sim.turnloop.actions import CHANCE, SIMULTANEOUS, TERMINAL, Action
from jamsumo_sim.turnloop.chance import Chance

FORMAT_VERSION = 1


@dataclass(frozen=True)
class LogEntry:
    """A line of the game log; ``to`` limits who may read it (None = everyone)."""

    text: str
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


# Public log lines by text, shared (a LogEntry is immutable): the same lines recur all game long
# and from game to game, and making a frozen dataclass costs more than the rest of ``say``.
_PUBLIC_LINES: dict[str, LogEntry] = {}
_PUBLIC_LINES_KEPT = 1 << 14  # then forgotten all at once: a few MB at most


def _public_line(text: str) -> LogEntry:
    entry = _PUBLIC_LINES.get(text)
    if entry is None:
        if len(_PUBLIC_LINES) >= _PUBLIC_LINES_KEPT:
            _PUBLIC_LINES.clear()
        entry = _PUBLIC_LINES[text] = LogEntry(text)
    return entry


def is_listed(action: Action, actions: list[Action]) -> bool:
    """Whether ``action`` is in ``actions``: by identity first, as agents return one of the
    listed objects (``in`` alone calls ``Action.__eq__``, Python code, on every move before it)."""
    for listed in actions:
        if listed is action:
            return True
    return action in actions


class Game:
    """A game: its name, player counts, variants, bots and how to make a starting state."""

    name: ClassVar[str] = "game"
    title: ClassVar[str] = "Game"
    version: ClassVar[int] = 1
    # older rules versions whose saved histories are still valid moves here (they re-play as-is)
    reads_versions: ClassVar[tuple[int, ...]] = ()
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    variants: ClassVar[tuple[str, ...]] = ("standard",)
    perfect_information: ClassVar[bool] = False

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        """An upper bound on the number of history entries of any game with these params."""
        raise NotImplementedError

    def default_params(self, players: int, variant: str | None = None) -> dict[str, Any]:
        return {"players": players, "variant": variant or self.variants[0]}

    def validate_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """Check player count, variant and that every key is known; return a complete params dict."""
        if not isinstance(params, Mapping):
            raise UserError(f"{self.title}: params must be an object, not {str(params)[:30]}")
        players = params.get("players")
        if (
            isinstance(players, bool)
            or not isinstance(players, int)
            or not self.min_players <= players <= self.max_players
        ):
            raise UserError(
                f"{self.title} takes {self.min_players}–{self.max_players} players, "
                f"not {str(players)[:30]}"
            )
        variant = params.get("variant", self.variants[0])
        if not isinstance(variant, str) or variant not in self.variants:
            raise UserError(
                f"{self.title} has no variant {str(variant)[:30]!r} "
                f"(choose from {', '.join(self.variants)})"
            )
        out = self.default_params(players, variant)
        unknown = sorted(str(k) for k in set(params) - set(out))
        if unknown:  # a typo or an edited record: refuse rather than carry it along unread
            raise UserError(f"{self.title}: unknown parameter {unknown[0][:30]!r}")
        out.update(params)
        out["variant"] = variant
        return out

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0) -> State:
        raise NotImplementedError

    def bots(self) -> dict[str, type]:
        """Bot names → agent classes: ``random`` (``turnloop.agents.RandomAgent``) and the game's
        heuristic bots.  Each game lists its own (the agents module builds on this one)."""
        raise NotImplementedError

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        """A text view of an observation for a terminal (``seat`` None: a spectator)."""
        return json.dumps(observation, indent=1, default=str)

    def input_helper(self) -> Any:
        """A new helper for one person typing this game's moves at a terminal (see
        ``agents.InputHelper``), or None for the plain numbered list."""
        return None


class State:
    """One position of a game. Subclasses implement the ``_`` hooks."""

    def __init__(self, game: Game, params: Mapping[str, Any], seed: int = 0) -> None:
        self.game = game
        self.params: dict[str, Any] = dict(params)
        self.seed = seed
        self.num_players: int = int(params["players"])
        self.history: list[dict[str, Any]] = []
        self.log: list[LogEntry] = []

    # -- hooks for games ----------------------------------------------------------------------
    def current_player(self) -> int:
        """A seat, or CHANCE, SIMULTANEOUS or TERMINAL."""
        raise NotImplementedError

    def _legal_actions(self, seat: int) -> list[Action]:
        raise NotImplementedError

    def _apply_action(self, action: Action) -> None:
        raise NotImplementedError

    def _apply_actions(self, actions: Mapping[int, Action]) -> None:
        raise NotImplementedError(f"{self.game.name} has no simultaneous moves")

    def _chance(self) -> Chance:
        raise NotImplementedError(f"{self.game.name} has no chance nodes")

    def simultaneous_seats(self) -> list[int]:
        """The seats that move at a SIMULTANEOUS node."""
        return []

    def returns(self) -> list[float]:
        """Each seat's result: the score at a terminal node (higher is better)."""
        raise NotImplementedError

    def winners(self) -> list[int]:
        """The seats that won (ties share the win); meaningful at terminal nodes."""
        returns = self.returns()
        best = max(returns)
        return [s for s, r in enumerate(returns) if r == best]

    def end_code(self) -> str | None:
        """How a finished game ended, as a short code (``three_sets``, ``deck_out``, …) for
        machine-readable results; None where a game names no end conditions."""
        return None

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None: a spectator, public information only), JSON-able."""
        raise NotImplementedError

    def full_state(self) -> dict[str, Any]:
        """Everything, hidden information included (for tests and checksums), JSON-able."""
        raise NotImplementedError

    def perturb_hidden(self, seat: int, rng: Any) -> State | None:
        """A copy in which only information hidden from ``seat`` differs (None if there is none).

        The conformance kit checks that ``observation(seat)`` does not change.
        """
        return None

    def parse_action(self, seat: int, text: str) -> Action | None:
        """Parse a typed action that need not be in the listed legal actions (e.g. a flick)."""
        return None

    def turns_played(self) -> int:
        """Turns played so far; by default every player decision (games with multi-step turns override)."""
        chance = 0
        for entry in self.history:  # a loop: a generator would be resumed once per entry
            chance += "chance" in entry
        return len(self.history) - chance

    def is_legal(self, seat: int, action: Action) -> bool:
        """Whether ``seat`` may make ``action`` now: never while another seat is to move (a seat
        probing moves out of turn would otherwise learn what the seat to move holds)."""
        player = self.current_player()
        if player == SIMULTANEOUS:
            if seat not in self.simultaneous_seats():
                return False
        elif seat != player:
            return False
        return action in self._legal_actions(seat)

    def why_illegal(self, seat: int, action: Action) -> str:
        return f"{action.name!r} is not a legal move now"

    # -- the public protocol ------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The legal actions of ``seat`` (default: the seat to move), in a stable order."""
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            outcomes = self._chance().outcomes()
            return [a for a, _ in outcomes] if outcomes is not None else []
        if seat is None:
            if player == SIMULTANEOUS:
                raise ValueError("name the seat at a simultaneous node")
            seat = player
        if player == SIMULTANEOUS and seat not in self.simultaneous_seats():
            return []
        if player >= 0 and seat != player:
            return []
        return self._legal_actions(seat)

    def chance_outcomes(self) -> Chance:
        """The distribution of the chance node (sample it with the match generator)."""
        if self.current_player() != CHANCE:
            raise ValueError("not a chance node")
        return self._chance()

    def apply_action(self, action: Action, known_legal: list[Action] | None = None) -> None:
        """Apply the move of the seat to act, or a chance outcome.

        ``known_legal`` lists moves the caller already knows to be legal here, which saves
        working them out again to check the move: the seat's legal-action list (the driver
        has it), or at a chance node the outcome the driver sampled from this node's own
        distribution.
        """
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalAction("the game is over")
        if player == SIMULTANEOUS:
            raise IllegalAction("this is a simultaneous node: use apply_actions")
        listed = known_legal is not None and is_listed(action, known_legal)
        if player == CHANCE:
            if not listed and not self._chance().is_possible(action):
                raise IllegalAction(f"{action.name!r} is not a possible chance outcome here")
            self.history.append({"chance": action.to_json()})
        else:
            if not listed and not self.is_legal(player, action):
                raise IllegalAction(self.why_illegal(player, action))
            self.history.append({"seat": player, "action": action.to_json()})
        self._apply_action(action)

    def apply_actions(self, actions: Mapping[int, Action]) -> None:
        """Apply one move per participating seat at a simultaneous node."""
        if self.current_player() != SIMULTANEOUS:
            raise IllegalAction("not a simultaneous node")
        seats = self.simultaneous_seats()
        if sorted(actions) != sorted(seats):
            raise IllegalAction(f"expected moves from seats {seats}, got {sorted(actions)}")
        for seat, action in actions.items():
            if not self.is_legal(seat, action):
                raise IllegalAction(f"seat {seat}: {self.why_illegal(seat, action)}")
        self.history.append({"joint": {str(s): actions[s].to_json() for s in sorted(actions)}})
        self._apply_actions(dict(actions))

    def say(self, text: str, to: int | list[int] | None = None) -> None:
        """Add a log line (to one seat, some seats, or everyone)."""
        if to is None:
            self.log.append(_public_line(text))
        else:
            seats = [to] if isinstance(to, int) else list(to)
            self.log.append(LogEntry(text, frozenset(seats)))

    def log_for(self, seat: int | None) -> list[str]:
        return [e.text for e in self.log if e.visible_to(seat)]

    def clone(self) -> State:
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        """``{game, version, params, seed, history}``: enough to restore this state exactly."""
        return {
            "game": self.game.name,
            "version": self.game.version,
            "format": FORMAT_VERSION,
            "params": self.params,
            "seed": self.seed,
            "history": copy.deepcopy(self.history),
        }

    def digest(self) -> str:
        """A checksum of the full state (hidden information included) and its seed.

        The seed is in it because a resumed match draws its future chance outcomes from it.
        """
        whole = {"state": self.full_state(), "seed": self.seed}
        blob = json.dumps(whole, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} after {len(self.history)} moves>"
