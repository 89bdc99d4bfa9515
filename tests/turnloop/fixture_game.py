"""A tiny game that exercises every part of the turn loop (a test fixture, not a product game).

Each round: a die roll (chance), a deal from a shuffled deck (chance, hidden hands), a bidding
phase clockwise from the first player until everyone passes in a row, a simultaneous reveal,
and a counter-clockwise "tidy" phase starting at the first player's right. The first-player
token passes left; the game lasts as many rounds as players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jamsumo_sim.turnloop import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    Direction,
    Finite,
    Game,
    PhaseSpec,
    RandomAgent,
    Repeat,
    RoundSpec,
    Seating,
    Shuffle,
    State,
    TurnTracker,
)

DECK = tuple(f"c{v}{s}" for v in range(1, 7) for s in "ab")
MAX_BID = 4

ROUND = RoundSpec(
    phases=(
        PhaseSpec("bid", Direction.CLOCKWISE, Repeat.UNTIL_ALL_PASS),
        PhaseSpec("reveal", repeat=Repeat.SIMULTANEOUS),
        PhaseSpec("tidy", Direction.COUNTER_CLOCKWISE, Repeat.ONCE, start_offset=-1),
    ),
    rounds=None,  # set per player count
)


def card_value(card: str) -> int:
    return int(card[1])


class FixtureGame(Game):
    name = "fixture"
    title = "Fixture"
    min_players = 2
    max_players = 4
    variants = ("standard", "short")

    def bots(self) -> dict[str, type]:
        return {"random": RandomAgent}

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        n = params["players"]
        per_round = 2 + n * (MAX_BID + 2) + 1 + n
        return self.rounds(params) * per_round

    def rounds(self, params: Mapping[str, Any]) -> int:
        return 1 if params["variant"] == "short" else params["players"]

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0) -> FixtureState:
        return FixtureState(self, params, seed)


class FixtureState(State):
    def __init__(self, game: FixtureGame, params: Mapping[str, Any], seed: int = 0) -> None:
        super().__init__(game, params, seed)
        n = self.num_players
        spec = RoundSpec(ROUND.phases, rounds=game.rounds(params))
        self.turns = TurnTracker.start(Seating(n), spec, {"first_player": 0})
        self.pending: list[str] = ["roll", "deal"]
        self.bonus = 0
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.deck: list[str] = list(DECK)
        self.bid = 0
        self.bidder: int | None = None
        self.revealed: dict[int, str] = {}
        self.scores = [0] * n
        self.over = False

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending:
            return CHANCE
        if self.turns.is_simultaneous():
            return SIMULTANEOUS
        return self.turns.seat

    def simultaneous_seats(self) -> list[int]:
        return self.turns.participants() if self.turns.is_simultaneous() else []

    def _chance(self) -> Finite | Shuffle:
        if self.pending[0] == "roll":
            return Finite.uniform([Action.make(f"roll {v}", value=v) for v in range(1, 7)])
        return Shuffle("deal", tuple(DECK), take=2 * self.num_players)

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.turns.phase.name
        if phase == "bid":
            acts = [Action.make("pass")]
            if self.bid < MAX_BID:
                acts.append(Action.make(f"raise to {self.bid + 1}", bid=self.bid + 1))
            return acts
        if phase == "reveal":
            return [Action.make(f"play {c}", card=c) for c in sorted(self.hands[seat])]
        return [Action.make("keep"), Action.make("discard")]

    def _apply_action(self, action: Action) -> None:
        if self.pending:
            kind = self.pending.pop(0)
            if kind == "roll":
                self.bonus = action["value"]
                self.say(f"rolled {self.bonus}")
            else:
                order = list(action["order"])
                for s in range(self.num_players):
                    self.hands[s] = order[2 * s : 2 * s + 2]
                    self.say(f"you hold {' '.join(self.hands[s])}", to=s)
            return
        seat = self.turns.seat
        phase = self.turns.phase.name
        passed = action.name in ("pass",)
        if phase == "bid" and not passed:
            self.bid, self.bidder = action["bid"], seat
        if phase == "tidy" and action.name == "discard":
            self.scores[seat] -= 0  # tidying changes nothing but exercises the phase order
        self._advance(self.turns.advance(passed=passed))

    def _apply_actions(self, actions: Mapping[int, Action]) -> None:
        for seat, action in actions.items():
            self.hands[seat].remove(action["card"])
            self.revealed[seat] = action["card"]
        best = max(card_value(c) for c in self.revealed.values())
        for seat, card in self.revealed.items():
            if card_value(card) == best:
                self.scores[seat] += self.bonus + (self.bid if seat == self.bidder else 0)
        self.say(f"revealed {sorted(self.revealed.items())}")
        self._advance(self.turns.advance())

    def _advance(self, ended: str) -> None:
        if ended == "game":
            self.over = True
        elif ended == "round":
            self.pending = ["roll", "deal"]
            self.bid, self.bidder, self.revealed = 0, None, {}
            self.hands = [[] for _ in range(self.num_players)]

    def returns(self) -> list[float]:
        return [float(s) for s in self.scores]

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "turn": self.turns.to_dict(),
            "bonus": self.bonus,
            "bid": self.bid,
            "bidder": self.bidder,
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "revealed": {str(k): v for k, v in sorted(self.revealed.items())},
            "scores": list(self.scores),
            "log": self.log_for(seat),
        }

    def full_state(self) -> dict[str, Any]:
        return {
            "turn": self.turns.to_dict(),
            "pending": list(self.pending),
            "bonus": self.bonus,
            "hands": [sorted(h) for h in self.hands],
            "bid": self.bid,
            "bidder": self.bidder,
            "revealed": {str(k): v for k, v in sorted(self.revealed.items())},
            "scores": list(self.scores),
            "over": self.over,
        }

    def perturb_hidden(self, seat: int, rng: Any) -> FixtureState | None:
        others = [s for s in range(self.num_players) if s != seat and self.hands[s]]
        if not others:
            return None
        clone = self.clone()
        pool = [c for s in others for c in clone.hands[s]]
        pool += [c for c in DECK if not any(c in h for h in clone.hands)]
        order = [pool[i] for i in rng.permutation(len(pool))]
        for s in others:
            k = len(clone.hands[s])
            clone.hands[s], order = order[:k], order[k:]
        # the log lines addressed to those seats are theirs, not ``seat``'s: leave them as they are
        return clone


GAME = FixtureGame()
