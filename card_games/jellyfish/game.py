"""The Jelly Fish Toast & Jam :class:`Game`: player counts, bounds, bots and the text view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.jellyfish.cards import Deck, load_decks
from card_games.jellyfish.state import ENTRIES_PER_TURN, MAX_TURNS, JellyfishState
from jamsumo_sim.turnloop import Action, Game, RandomAgent


class JellyfishGame(Game):
    name = "jellyfish"
    title = "Jelly Fish Toast & Jam"
    # 2: the deck's split (characters x colours x copies) is data, one variant per candidate; the
    # standard deck changed from 10 x 2 x 4 (now variant "10x2x4") to the measured choice, so a
    # version-1 record (whose cards and variant meant the old deck) is refused in one line
    version = 2
    min_players = 2
    max_players = 6

    def __init__(self, decks: Deck | Mapping[str, Deck] | None = None) -> None:
        if decks is None:
            decks = load_decks()
        elif isinstance(decks, Deck):
            decks = {decks.variant: decks}
        self.decks: dict[str, Deck] = dict(decks)
        self.deck = next(iter(self.decks.values()))  # the default variant's
        self.variants = tuple(self.decks)  # type: ignore[misc]  # per card data, not per class
        # one Action per card for chance outcomes ("which card is on top"), built once; a card's
        # name means the same card in every split
        self.outcome: dict[str, Action] = {
            c: Action.make(c, card=c) for deck in self.decks.values() for c in deck.cards
        }
        # kind -> label, over every split (a kind is labelled alike in each)
        self.label_of = {k: v for deck in self.decks.values() for k, v in deck.label_of.items()}
        self._actions: dict[tuple[Any, ...], Action] = {}

    # Actions are built once and reused: legal actions are listed at every decision.
    def steal_action(self, what: str, victim: int, kind: str) -> Action:
        key = ("steal", what, victim, kind)
        action = self._actions.get(key)
        if action is None:
            label = self.label_of[kind]
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
            name = f"cover your {self.label_of[kind]}"
            action = self._actions[key] = Action.make(name, kind=kind)
        return action

    def give_action(self, card: str, to: int) -> Action:
        kind = card.rsplit(".", 1)[0]  # <character>.<colour>.<n>
        key = ("give", kind, to)
        action = self._actions.get(key)
        if action is None:
            name = f"give {self.label_of[kind]} to seat {to}"
            action = self._actions[key] = Action.make(name, to=to)
        return action

    def card_labels(self, params: Mapping[str, Any]) -> dict[str, str]:
        """Card and kind -> what a person reads (``"Toast (blue)"``): the browser page's names for
        the ids in an observation (net/web_cards.py)."""
        deck = self.decks.get(str(params.get("variant")), self.deck)
        return {**self.label_of, **{c: deck.label(c) for c in deck.cards}}

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

    def input_helper(self) -> Any:
        from card_games.terminal.input_games import card_input

        return card_input(self)

    def render(self, observation: Mapping[str, Any], seat: int | None) -> str:
        from card_games.jellyfish.render import render
        from card_games.terminal.table import Look

        return render(self, observation, seat, Look())
