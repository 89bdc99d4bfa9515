"""The Jelly Fish Toast & Jam :class:`Game`: player counts, bounds, bots and the text view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.jellyfish.cards import Deck, load_cards
from card_games.jellyfish.state import ENTRIES_PER_TURN, MAX_TURNS, JellyfishState
from jamsumo_sim.turnloop import Action, Game, RandomAgent


class JellyfishGame(Game):
    name = "jellyfish"
    title = "Jelly Fish Toast & Jam"
    version = 1
    min_players = 2
    max_players = 6
    variants = ("standard",)

    def __init__(self, deck: Deck | None = None) -> None:
        self.deck = deck if deck is not None else load_cards()
        # one Action per card for chance outcomes ("which card is on top"), built once
        self.outcome: dict[str, Action] = {c: Action.make(c, card=c) for c in self.deck.cards}
        self.card_order: dict[str, int] = {c: i for i, c in enumerate(self.deck.cards)}
        self._actions: dict[tuple[Any, ...], Action] = {}

    # Actions are built once and reused: legal actions are listed at every decision.
    def steal_action(self, what: str, victim: int, kind: str) -> Action:
        key = ("steal", what, victim, kind)
        action = self._actions.get(key)
        if action is None:
            label = self.deck.label(kind)
            name = (
                f"steal the Cover card on seat {victim}'s {label}"
                if what == "cover"
                else f"steal {label} from seat {victim}"
            )
            action = self._actions[key] = Action.make(name, what=what, victim=victim, kind=kind)
        return action

    def cover_action(self, kind: str) -> Action:
        key = ("cover", kind)
        action = self._actions.get(key)
        if action is None:
            name = f"cover your {self.deck.label(kind)}"
            action = self._actions[key] = Action.make(name, kind=kind)
        return action

    def give_action(self, card: str, to: int) -> Action:
        kind = self.deck.kind_of[card]
        key = ("give", kind, to)
        action = self._actions.get(key)
        if action is None:
            name = f"give {self.deck.label(kind)} to seat {to}"
            action = self._actions[key] = Action.make(name, to=to)
        return action

    def __deepcopy__(self, memo: dict[int, Any]) -> JellyfishGame:
        return self  # stateless apart from immutable data: clones share it

    def max_game_length(self, params: Mapping[str, Any]) -> int:
        n = int(params["players"])
        # the deal, every turn's entries, and one Cover give-away per completed set (a seat
        # completes at most to_win sets, the last ending the game)
        return n + MAX_TURNS * ENTRIES_PER_TURN + n * self.deck.to_win

    def new_initial_state(self, params: Mapping[str, Any], seed: int = 0) -> JellyfishState:
        return JellyfishState(self, self.validate_params(params), seed)

    def bots(self) -> dict[str, type]:
        from card_games.jellyfish.bots import SmartAgent

        return {"random": RandomAgent, "smart": SmartAgent}

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        from card_games.jellyfish.render import render

        return render(self.deck, observation, seat)
