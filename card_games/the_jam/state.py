"""The rules of The Jam as a turn-loop State.

A turn is the data-driven sequence draw → trade → play → discard (``TURN_STEPS``). Drawing is
automatic (the deck's order is fixed by shuffle chance nodes), so the player decisions are: the
Young man's auction bids, the Bear's pie, trade proposals and answers, the card to play, and the
card owed to the basket for a pie taken from it. Every random event (who starts, the task cards,
each shuffle of the deck) is a chance node in the history.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from card_games.the_jam import moves
from card_games.the_jam.basket import BasketIndex
from card_games.the_jam.cards import (
    BEAR,
    JAM,
    PIE,
    SALAD,
    SPECIAL,
    TASK_TYPES,
    YOUNG_MAN,
    Card,
    CardSet,
)
from card_games.the_jam.rules import (
    BASKET_SIZE,
    FACE_DOWN,
    FACE_DOWN_PREFIX,
    HAND_SIZE,
    MAX_PROPOSALS,
    SEEN_BY,
)
from card_games.the_jam.scoring import Breakdown, score_player
from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.turnloop import (
    CHANCE,
    TERMINAL,
    Action,
    Direction,
    Finite,
    LogEntry,
    PhaseSpec,
    Repeat,
    RoundSpec,
    Seating,
    Shuffle,
    State,
    TurnTracker,
)

_ONLY = tuple(frozenset((seat,)) for seat in range(8))  # one-seat log audiences
# audience (None: everyone, or a seat) -> text -> its shared log line (see JamState.say)
_LINES: dict[int | None, dict[str, LogEntry]] = {to: {} for to in (None, *range(8))}
_MAX_LINES = 10_000

LOG_TAIL = 40  # log lines in an observation (the whole log is in the state and the replay)

# One round = every seat takes one turn, clockwise from the first player; the game's end
# condition (deck empty, hands played out) ends it. Inside a turn the steps run in this order.
ROUND = RoundSpec(
    phases=(PhaseSpec("turn", Direction.CLOCKWISE, Repeat.ONCE),), rounds=None, tokens_pass=()
)
TURN_STEPS = ("draw", "trade", "play", "discard")


class DeckShuffle(Shuffle):
    """A whole-deck shuffle whose outcome check compares sorted lists (the generic check removes
    the items one by one, quadratic in the 72 cards)."""

    def is_possible(self, action: Action) -> bool:
        if action.name != self.label or self.take is not None:
            return super().is_possible(action)
        order = action.get("order")
        return isinstance(order, tuple) and sorted(order) == sorted(self.items)


def _outcome_json(action: Action) -> dict[str, Any]:
    """``action.to_json()`` for one of this game's chance outcomes, which is_possible has checked:
    its arguments are a seat number or a tuple of card ids (strings), never nested tuples."""
    if not action.args:
        return {"name": action.name}
    args = {k: list(v) if isinstance(v, tuple) else v for k, v in action.args}
    return {"name": action.name, "args": args}


class JamState(State):
    def __init__(self, game: Any, params: Mapping[str, Any], seed: int = 0) -> None:
        super().__init__(game, params, seed)
        self.cs: CardSet = game.cards
        self.tb = moves.tables(self.cs)
        self.cs_rank: dict[str, int] = self.tb.rank
        n = self.num_players
        self.variant: str = self.params["variant"]
        self.kids = self.variant == "kids"
        self.travel = self.variant == "travel"
        self.turns = TurnTracker.start(Seating(n), ROUND, {"first_player": 0})
        self.deck: list[str] = []  # the last card is the top
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.basket: list[str] = []
        # made recipes: {"card": id, "under": [ingredient ids], "since": turn it arrived}
        self.made: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.tasks: list[dict[str, list[str]]] = [{t: [] for t in TASK_TYPES} for _ in range(n)]
        self.task_rest: dict[str, list[str]] = {t: [] for t in TASK_TYPES}
        self.young_man: int | None = None
        self.bear: int | None = None
        self.held: list[str] = []  # unclaimed specials, shuffled back at the end of the turn
        self.removed: list[str] = []  # unclaimed specials with no other card left to draw
        self.incoming: list[str] = []  # cards waiting to be shuffled into the deck
        self.pending: list[str] = ["first"]
        if not self.kids:
            self.pending += [f"tasks:{t}" for t in TASK_TYPES]
        self.pending.append("deal")
        self.then = "start"  # what follows when the pending chance nodes are done
        self.turn_no = 0
        self.step = "setup"
        self.auction: dict[str, Any] | None = None
        self.bear_pick: int | None = None
        self.ym_discard = False
        self.trade: dict[str, Any] | None = None
        self.proposals = 0
        self.refused: list[dict[str, Any]] = []
        self.traded_blind = False
        self.pie_debt = 0
        self.over = False
        # caches, valid for one state version: every move (and perturb_hidden) bumps the version;
        # the legal-action cache is only ever filled for the seat to move
        self._version = 0
        self._legal_cache: tuple[int, int, list[Action]] | None = None
        self._chance_cache: tuple[int, Finite | Shuffle] | None = None
        self._score_cache: tuple[int, list[Breakdown]] | None = None
        self._clockwise = [Seating(n).clockwise(s) for s in range(n)]
        # the current proposal's two sides (see moves._trade_actions), and every side worked out
        # in this game by its key (see moves._side_table: a pure function of it, so clones share it)
        self.proposal_tables: tuple[moves.SideTable, moves.SideTable] | None = None
        self.side_tables: dict[tuple[str, int, tuple[str, ...]], moves.SideTable] = {}
        # the basket as the play step reads it, kept up to date card by card (see basket_index)
        self._basket_index: BasketIndex | None = None

    # -- helpers ----------------------------------------------------------------------------
    def card(self, card_id: str) -> Card:
        return self.cs.cards[card_id]

    def label(self, card_id: str) -> str:
        return self.tb.label[card_id]

    def say(self, text: str, to: int | list[int] | None = None) -> None:
        """``State.say`` for everyone or one seat, sharing one (immutable) LogEntry per line and
        audience: most lines recur ("Seat 1 draws a card."), and building one is slow."""
        if to is not None and not isinstance(to, int):
            super().say(text, to)
            return
        lines = _LINES[to]
        entry = lines.get(text)
        if entry is None:
            if len(lines) >= _MAX_LINES:  # a bound: offers and scores make ever new lines
                lines.clear()
            entry = lines[text] = LogEntry(text, None if to is None else _ONLY[to])
        self.log.append(entry)

    @property
    def active(self) -> int:
        turns = self.turns
        return turns.order[turns.position]  # TurnTracker.seat, without a second property call

    def pile(self, seat: int) -> list[dict[str, Any]]:
        """Travel: the face-down recipe pile (made recipes with no ingredient lying on them)."""
        return [r for r in self.made[seat] if not r["under"]]

    def accessible_basket(self) -> list[str]:
        """Basket cards a player may take: all of them, or in travel the top of each stack."""
        if not self.travel:
            return self.basket
        tops: dict[str, str] = {}
        bottom = self.tb.bottom
        for cid in self.basket:  # later cards lie on top of earlier ones
            tops[bottom[cid]] = cid
        return [cid for cid in self.basket if tops[bottom[cid]] == cid]

    def basket_index(self) -> BasketIndex:
        """The index of the accessible basket, rebuilt if it no longer describes the basket."""
        tb = self.tb
        if self.travel:  # a change can uncover stack tops: listed afresh each time, never kept
            return BasketIndex.of_stack_tops(self.basket, tb.kind, tb.bottom)
        index = self._basket_index
        if index is None or index.stale or index.cards != self.basket:
            index = self._basket_index = BasketIndex(
                self.basket, self.basket, tb.label, tb.kind, tb.bottom
            )
        return index

    def _index_to_update(self) -> BasketIndex | None:
        """The kept basket index, if it can follow the next change card by card (it describes the
        basket); otherwise it is dropped, to be rebuilt when next asked for."""
        index = self._basket_index
        if index is not None and (index.stale or index.cards != self.basket):
            index = self._basket_index = None
        return index

    def to_basket(self, card_id: str) -> None:
        # no call when no index is kept (always so in the travel variant): this runs per card
        index = None if self._basket_index is None else self._index_to_update()
        # travel: a fruit salad goes to the bottom of its ingredient's stack
        if self.travel and self.tb.kind[card_id] == SALAD:
            self.basket.insert(0, card_id)
        else:
            self.basket.append(card_id)
        if index is not None:
            tb = self.tb
            index.append(card_id, tb.label, tb.kind, tb.bottom)

    def take_from_basket(self, card_id: str) -> None:
        index = None if self._basket_index is None else self._index_to_update()
        self.basket.remove(card_id)
        if index is not None:
            tb = self.tb
            index.remove(card_id, tb.label, tb.kind, tb.bottom)

    def made_cards(self, seat: int) -> list[Card]:
        return [self.card(r["card"]) for r in self.made[seat]]

    def jam_points(self, seat: int) -> int:
        return sum(
            self.tb.points[c] for r in self.made[seat] if self.tb.kind[c := r["card"]] == JAM
        )

    def take_made(self, seat: int, card_id: str) -> dict[str, Any]:
        for i, r in enumerate(self.made[seat]):
            if r["card"] == card_id:
                return self.made[seat].pop(i)
        raise KeyError(card_id)

    def clear_under(self, recipe: dict[str, Any]) -> None:
        """Ingredients lying on a recipe go to the basket, each card on its own."""
        for cid in recipe["under"]:
            self.to_basket(cid)
        recipe["under"] = []
        recipe.pop(FACE_DOWN, None)  # face up in the basket now
        recipe.pop(SEEN_BY, None)

    # -- whose move -------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.pending:
            return CHANCE
        auction = self.auction
        if auction is not None:
            return auction["order"][auction["pos"]]
        if self.bear_pick is not None:
            return self.bear_pick
        trade = self.trade
        if trade is not None and trade["stage"] in ("respond", "answer"):
            return trade["partner"]
        turns = self.turns
        return turns.order[turns.position]

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """``State.legal_actions``; the seat to move asking goes straight to the cached list."""
        player = self.current_player()
        if player < 0 or (seat is not None and seat != player):  # chance, the end, not its turn
            return super().legal_actions(seat)
        cache = self._legal_cache  # what _legal_actions does, written out (asked every move)
        if cache is not None and cache[0] == self._version and cache[1] == player:
            return cache[2]
        acts = moves.legal_actions(self, player)
        self._legal_cache = (self._version, player, acts)
        return acts

    def is_terminal(self) -> bool:
        return self.over  # what current_player() == TERMINAL says, without working out the rest

    def apply_action(self, action: Action, known_legal: list[Action] | None = None) -> None:
        """``State.apply_action``, with cheaper history entries: a seat's move copies the move's
        cached JSON (``moves.action_json``), a chance outcome turns its tuple of card ids into a
        list in one call (``Action.to_json`` makes a call per card). The end: the generic path."""
        if self.over:
            super().apply_action(action, known_legal)
            return
        if self.pending:
            if not self._chance().is_possible(action):
                raise IllegalAction(f"{action.name!r} is not a possible chance outcome here")
            self.history.append({"chance": _outcome_json(action)})
            self._version += 1
            self._apply_chance(action)
            return
        # the seat to move: known from the legal-action cache when the move was chosen from it
        cache = self._legal_cache
        player = (
            cache[1] if cache is not None and cache[0] == self._version else self.current_player()
        )
        listed = known_legal is not None and action in known_legal
        if not listed and not self.is_legal(player, action):
            raise IllegalAction(self.why_illegal(player, action))
        self.history.append({"seat": player, "action": moves.action_json(action)})
        self._version += 1
        moves.apply(self, action)

    # -- chance -----------------------------------------------------------------------------
    def _chance(self) -> Finite | Shuffle:
        cache = self._chance_cache
        if cache is not None and cache[0] == self._version:
            return cache[1]
        chance = self._make_chance()
        self._chance_cache = (self._version, chance)
        return chance

    def _make_chance(self) -> Finite | Shuffle:
        kind = self.pending[0]
        if kind == "first":
            return Finite.uniform(
                [Action.make(f"seat {s} starts", seat=s) for s in range(self.num_players)]
            )
        if kind.startswith("tasks:"):
            t = kind.split(":", 1)[1]
            per = 2 if self.num_players == 2 else 1
            return Shuffle(
                f"deal {t} tasks", tuple(self.cs.tasks_of_type(t)), take=per * self.num_players
            )
        if kind == "deal":
            return DeckShuffle("shuffle the deck", tuple(self.cs.game_card_ids(kids=self.kids)))
        return DeckShuffle("shuffle the deck", tuple(sorted(self.deck + self.incoming)))

    def _apply_chance(self, action: Action) -> None:
        kind = self.pending.pop(0)
        if kind == "first":
            seat = action["seat"]
            self.turns.give_token("first_player", seat)
            self.turns.refresh_order()
            self.say(f"Seat {seat} starts (chosen at random).")
        elif kind.startswith("tasks:"):
            t = kind.split(":", 1)[1]
            order = list(action["order"])
            per = len(order) // self.num_players
            for s in range(self.num_players):
                self.tasks[s][t] = order[s * per : (s + 1) * per]
            self.task_rest[t] = sorted(set(self.cs.tasks_of_type(t)) - set(order))
        elif kind == "deal":
            self.deck = list(reversed(action["order"]))
            self._deal()
        else:
            self.deck = list(reversed(action["order"]))
            self.incoming = []
            self.say("The deck is shuffled.")
        if not self.pending:
            self._continue(self.then)

    def _deal(self) -> None:
        # The Young man and the Bear only act when drawn in a turn: one dealt into a starting hand
        # is set aside like the basket's and shuffled back with them.
        aside: list[str] = []
        for _ in range(HAND_SIZE):
            for s in range(self.num_players):
                while self.card(self.deck[-1]).kind == SPECIAL:
                    aside.append(self.deck.pop())
                self.hands[s].append(self.deck.pop())
        for s in range(self.num_players):
            self.say("Your hand: " + ", ".join(self.label(c) for c in self.hands[s]), to=s)
        seen: set[str] = set()
        while len(self.basket) < BASKET_SIZE and self.deck:
            cid = self.deck.pop()
            card = self.card(cid)
            if card.kind == SPECIAL or card.bottom in seen:
                aside.append(cid)  # set aside and shuffled back once the basket is full
                continue
            seen.add(card.bottom)
            self.basket.append(cid)  # as dealt (the index is built when first asked for)
        self.say("The basket: " + ", ".join(self.label(c) for c in self.basket))
        if aside:
            self.say(f"{len(aside)} set-aside card(s) are shuffled back into the deck.")
            self.incoming = aside
            self.pending.append("reshuffle")

    def _continue(self, then: str) -> None:
        if then == "start":
            self._start_turn()
        elif then == "draw":
            self._draw()
        elif then == "end":
            self._end_turn()
        elif then == "next":
            self._next_turn()
        else:  # pragma: no cover - a programming error
            raise ValueError(then)

    # -- the turn ---------------------------------------------------------------------------
    def _start_turn(self) -> None:
        """Begin the active seat's turn, skipping seats with nothing left to do."""
        for _ in range(self.num_players + 1):
            if not self.deck and not any(self.hands):
                self._game_over()
                return
            if self.deck or self.hands[self.active]:
                break
            self.turns.advance()  # deck empty and this hand played out: nothing to do
        self.turn_no += 1
        self.proposals = 0
        self.refused = []
        self.traded_blind = False
        self.pie_debt = 0
        self.step = "draw"
        self.say(f"— Turn {self.turn_no}: seat {self.active} —")
        self._draw()

    def _draw(self) -> None:
        self.step = "draw"
        seat = self.active
        if not self.deck:
            self._enter_trade()
            return
        cid = self.deck.pop()
        if cid == YOUNG_MAN:
            self.say(
                f"Seat {seat} draws the Young man! He goes to whoever offers him the most jam."
            )
            self._start_auction(seat)
        elif cid == BEAR:
            self.say(f"Seat {seat} draws the Bear! He goes to whoever has baked the most pies.")
            self._resolve_bear(seat)
        else:
            self.hands[seat].append(cid)
            self.say(f"Seat {seat} draws a card.")
            self.say(f"You draw {self.label(cid)}.", to=seat)
            self._enter_trade()

    def _unclaimed(self, cid: str) -> None:
        """An unclaimed special goes back into the deck (after this turn's draws), or out of the game
        when no other card is left to draw (else the game could loop on it forever)."""
        if any(self.tb.kind[c] != SPECIAL for c in self.deck):
            self.held.append(cid)
            self.say(
                f"{self.label(cid)} will be shuffled back into the deck at the end of the turn."
            )
        else:
            self.removed.append(cid)
            self.say(f"No other card is left to draw: {self.label(cid)} leaves the game.")

    # Young man ---------------------------------------------------------------------------
    def _start_auction(self, drawer: int) -> None:
        order = list(self._clockwise[drawer])
        self.auction = {
            "drawer": drawer,
            "order": order,
            "pos": 0,
            "high": 0,
            "high_seat": None,
            "bids": {},
            "building": [],
        }
        self._auction_skip()

    def _auction_skip(self) -> None:
        """Seats whose jams cannot beat the high bid pass automatically."""
        a = self.auction
        assert a is not None
        while a["pos"] < len(a["order"]):
            seat = a["order"][a["pos"]]
            if self.jam_points(seat) > a["high"]:
                return
            self.say(f"Seat {seat} passes (no jams worth more than {a['high']}).")
            a["pos"] += 1
        self._finish_auction()

    def _finish_auction(self) -> None:
        a = self.auction
        assert a is not None
        self.auction = None
        drawer = a["drawer"]
        winner = a["high_seat"]
        if winner is None:
            self.say("Everybody passes: nobody takes the Young man.")
            self._unclaimed(YOUNG_MAN)
            jams = [r for r in self.made[drawer] if self.tb.kind[r["card"]] == JAM]
            if len({self.label(r["card"]) for r in jams}) > 1:
                self.ym_discard = True  # the drawer chooses which made jam goes to the basket
                return
            if jams:
                self._discard_jam(drawer, jams[0]["card"])
            self._draw()
            return
        self.young_man = winner
        bid = a["bids"][str(winner)]
        for cid in bid:
            recipe = self.take_made(winner, cid)
            self.clear_under(recipe)
            self.incoming.append(cid)
        self.say(
            f"Seat {winner} wins the Young man (7 points) with {a['high']} points of jam: "
            + ", ".join(self.label(c) for c in bid)
            + "; those jams are shuffled into the deck."
        )
        self.pending.append("reshuffle")
        self.then = "end" if winner == drawer else "draw"

    def _discard_jam(self, seat: int, cid: str) -> None:
        recipe = self.take_made(seat, cid)
        self.clear_under(recipe)
        self.to_basket(cid)
        self.say(f"Seat {seat} discards {self.label(cid)} to the basket.")

    # Bear --------------------------------------------------------------------------------
    def _pies(self, seat: int) -> list[dict[str, Any]]:
        return [r for r in self.made[seat] if self.tb.kind[r["card"]] == PIE]

    def _resolve_bear(self, drawer: int) -> None:
        counts = [len(self._pies(s)) for s in range(self.num_players)]
        if self.travel:
            self.say("Baked pies: " + ", ".join(f"seat {s} {c}" for s, c in enumerate(counts)))
        best = max(counts)
        if best == 0:
            self.say("Nobody has baked a pie; the Bear hangs his head.")
            self._unclaimed(BEAR)
            self._draw()
            return
        winner = next(s for s in self._clockwise[drawer] if counts[s] == best)
        self.bear = winner
        self.say(f"The Bear goes to seat {winner} (10 points), who gives back one baked pie.")
        pies = self._pies(winner)
        if len({self.label(r["card"]) for r in pies}) > 1:
            self.bear_pick = winner
            return
        self._bear_returns(winner, pies[0]["card"])

    def _bear_returns(self, seat: int, cid: str) -> None:
        self.bear_pick = None
        recipe = self.take_made(seat, cid)
        self.clear_under(recipe)
        self.incoming.append(cid)
        self.say(f"Seat {seat} shuffles {self.label(cid)} back into the deck.")
        self.pending.append("reshuffle")
        self.then = "end" if seat == self.active else "draw"

    # trade -------------------------------------------------------------------------------
    def _trade_partners(self) -> list[int]:
        if self.kids:
            return []
        seat = self.active
        others = self._clockwise[seat][1:]
        if self.travel:
            if self.traded_blind or not self.pile(seat):
                return []
            return [s for s in others if self.pile(s)]
        if self.proposals >= MAX_PROPOSALS or not self.made[seat]:
            return []
        return [s for s in others if self.made[s]]

    def _enter_trade(self) -> None:
        if self._trade_partners():
            self.step = "trade"
        else:
            self._enter_play()

    def _enter_play(self) -> None:
        self.trade = None
        if self.hands[self.active]:
            self.step = "play"
        else:
            self.say(f"Seat {self.active} has no card to play.")
            self._end_turn()

    # end of turn ---------------------------------------------------------------------------
    def _end_turn(self) -> None:
        self.step = "discard"
        seat = self.active
        for recipe in self.made[seat]:
            if recipe["under"] and recipe["since"] < self.turn_no:
                self.clear_under(recipe)
        if self.held:
            self.incoming += self.held
            self.held = []
            self.pending.append("reshuffle")
            self.then = "next"
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.turns.advance()
        self._start_turn()

    def end_code(self) -> str | None:
        """How the game ended, for ``--json``: the deck ran out and every hand was played out
        (the rulebook's only end)."""
        return "deck_out" if self.over else None

    def _game_over(self) -> None:
        self.over = True
        self.step = "over"
        scores = self.returns()
        self.say(
            "The game is over. Scores: "
            + ", ".join(f"seat {s} {v:g}" for s, v in enumerate(scores))
        )

    # -- legal actions ----------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        cache = self._legal_cache
        if cache is not None and cache[0] == self._version and cache[1] == seat:
            return cache[2]
        acts = moves.legal_actions(self, seat)
        if seat == self.current_player():  # the cache holds the seat to move (see apply_action)
            self._legal_cache = (self._version, seat, acts)
        return acts

    def _apply_action(self, action: Action) -> None:
        self._version += 1
        if self.pending:
            self._apply_chance(action)
            return
        moves.apply(self, action)

    # -- results ----------------------------------------------------------------------------
    def breakdown(self, seat: int) -> Breakdown:
        if not self.over:  # scores are cached once the game is over (asked for several times)
            return self._breakdown(seat)
        cache = self._score_cache
        if cache is None or cache[0] != self._version:
            scores = [self._breakdown(s) for s in range(self.num_players)]
            cache = self._score_cache = (self._version, scores)
        return cache[1][seat]

    def _breakdown(self, seat: int) -> Breakdown:
        tasks = [self.cs.tasks[t] for kind in TASK_TYPES for t in self.tasks[seat][kind]]
        return score_player(
            self.cs, self.made_cards(seat), tasks, self.young_man == seat, self.bear == seat
        )

    def turns_played(self) -> int:
        """Whole turns taken (a turn is several decisions), as the log numbers them."""
        return self.turn_no

    def returns(self) -> list[float]:
        if self.kids:
            return [float(len(self.made[s])) for s in range(self.num_players)]
        return [float(self.breakdown(s).total) for s in range(self.num_players)]

    def winners(self) -> list[int]:
        returns = self.returns()
        best = max(returns)
        tied = [s for s, r in enumerate(returns) if r == best]
        if self.kids or len(tied) == 1:
            return tied
        yum = {s: self.breakdown(s).yumyum for s in tied}
        top = max(yum.values())
        return [s for s in tied if yum[s] == top]

    # -- views ------------------------------------------------------------------------------
    def _made_view(self, owner: int, viewer: int | None) -> list[dict[str, Any]]:
        hidden = self.travel and viewer != owner
        return [
            {"card": r["card"], "under": self._under_view(r, viewer), "since": r["since"]}
            for r in self.made[owner]
            if not (hidden and not r["under"])
        ]

    def _under_view(self, recipe: Mapping[str, Any], viewer: int | None) -> list[str]:
        """The ingredients on a recipe; one played face down from a hand shows others only its
        fruit half, as ``face-down:<fruit>``."""
        if FACE_DOWN not in recipe or viewer in recipe[SEEN_BY]:
            return list(recipe["under"])
        secret = recipe[FACE_DOWN]
        return [
            f"{FACE_DOWN_PREFIX}{self.card(c).bottom}" if c in secret else c
            for c in recipe["under"]
        ]

    def observation(self, seat: int | None) -> dict[str, Any]:
        n = self.num_players
        obs: dict[str, Any] = {
            "game": "the_jam",
            "variant": self.variant,
            "players": n,
            "seat": seat,
            "turn": self.turn_no,
            "active": self.active if self.step != "setup" else None,
            "to_move": self.current_player(),
            "step": self.step,
            "deck": len(self.deck),
            "basket": list(self.basket),
            "accessible": list(self.accessible_basket()) if self.travel else None,
            "hand_sizes": [len(h) for h in self.hands],
            "hand": list(self.hands[seat]) if seat is not None else None,
            "made": [self._made_view(s, seat) for s in range(n)],
            "made_counts": [len(self.made[s]) for s in range(n)],
            "tasks": (
                [t for kind in TASK_TYPES for t in self.tasks[seat][kind]]
                if seat is not None
                else None
            ),
            "young_man": self.young_man,
            "bear": self.bear,
            "held": list(self.held),
            "removed": list(self.removed),
            "auction": self._auction_view(),
            "bear_pick": self.bear_pick,
            "ym_discard": self.ym_discard,
            "trade": self._trade_view(seat),
            "proposals": self.proposals,
            "refused": [dict(r) for r in self.refused],
            "pie_debt": self.pie_debt,
            "log": self._log_tail(seat),
        }
        if self.over:
            obs["final"] = {
                "scores": self.returns(),
                "winners": self.winners(),
                "breakdown": None if self.kids else [self.breakdown(s).to_json() for s in range(n)],
                "tasks": [
                    [t for kind in TASK_TYPES for t in self.tasks[s][kind]] for s in range(n)
                ],
            }
        return obs

    def _log_tail(self, seat: int | None) -> list[str]:
        out: list[str] = []
        for entry in reversed(self.log):
            if entry.to is None or seat in entry.to:
                out.append(entry.text)
                if len(out) >= LOG_TAIL:
                    break
        out.reverse()
        return out

    def _auction_view(self) -> dict[str, Any] | None:
        a = self.auction
        if a is None:
            return None
        return {
            "drawer": a["drawer"],
            "bidder": a["order"][a["pos"]],
            "high": a["high"],
            "high_seat": a["high_seat"],
            "bids": {k: list(v) for k, v in sorted(a["bids"].items())},
            "building": list(a["building"]),
        }

    def _trade_view(self, seat: int | None) -> dict[str, Any] | None:
        t = self.trade
        if t is None:
            return None
        view = {"partner": t["partner"], "stage": t["stage"]}
        if self.travel:
            view["k"] = t["k"]
            view["mine"] = list(t["mine"]) if seat == self.active else len(t["mine"])
            view["theirs"] = list(t["theirs"]) if seat == t["partner"] else len(t["theirs"])
        else:
            view["mine"] = list(t["mine"])
            view["theirs"] = list(t["theirs"])
        return view

    def full_state(self) -> dict[str, Any]:
        return {
            "turn": self.turns.to_dict(),
            "turn_no": self.turn_no,
            "step": self.step,
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "basket": list(self.basket),
            # who may see a face-down ingredient follows from the history; it is left out of
            # the state compared by digests so that records of rules version 2 still verify
            "made": [
                [{"card": r["card"], "under": list(r["under"]), "since": r["since"]} for r in m]
                for m in self.made
            ],
            "tasks": [{k: list(v) for k, v in t.items()} for t in self.tasks],
            "task_rest": {k: list(v) for k, v in self.task_rest.items()},
            "young_man": self.young_man,
            "bear": self.bear,
            "held": list(self.held),
            "removed": list(self.removed),
            "incoming": list(self.incoming),
            "pending": list(self.pending),
            "then": self.then,
            "auction": self.auction,
            "bear_pick": self.bear_pick,
            "ym_discard": self.ym_discard,
            "trade": self.trade,
            "proposals": self.proposals,
            "refused": self.refused,
            "traded_blind": self.traded_blind,
            "pie_debt": self.pie_debt,
            "over": self.over,
        }

    def all_cards(self) -> list[str]:
        """Every game card in every zone (for the no-card-lost property)."""
        out = (
            list(self.deck)
            + list(self.basket)
            + list(self.held)
            + list(self.removed)
            + list(self.incoming)
        )
        for h in self.hands:
            out += h
        for m in self.made:
            for r in m:
                out.append(r["card"])
                out += r["under"]
        if self.young_man is not None or self.auction is not None:
            out.append(YOUNG_MAN)  # owned, or in the centre of the table during the auction
        if self.bear is not None:
            out.append(BEAR)
        if "deal" in self.pending:
            return list(self.cs.game_card_ids(kids=self.kids))  # not dealt yet
        return out

    def perturb_hidden(self, seat: int, rng: Any) -> JamState | None:
        others = [s for s in range(self.num_players) if s != seat]
        clone: JamState = self.clone()  # type: ignore[assignment]
        changed = False
        # pools in a fixed order before dealing: the world drawn depends on the seat's information
        # and ``rng`` only, never on where the hidden cards really lie
        # face-down ingredients the seat has not seen show only their fruit: re-dealt too, each
        # from the pool's cards of that fruit (else a searched world could hold the true card)
        unseen = [
            (r, [i for i, c in enumerate(r["under"]) if c in r[FACE_DOWN]])
            for m in clone.made
            for r in m
            if FACE_DOWN in r and seat not in r[SEEN_BY]
        ]
        pool = sorted(
            list(clone.deck)
            + [c for s in others for c in clone.hands[s]]
            + [r["under"][i] for r, slots in unseen for i in slots]
        )
        if len(pool) > 1:
            order = [pool[i] for i in rng.permutation(len(pool))]
            for r, slots in unseen:
                for i in slots:
                    fruit = self.card(r["under"][i]).bottom
                    pick = next(k for k, c in enumerate(order) if self.card(c).bottom == fruit)
                    r["under"][i] = order.pop(pick)
                r[FACE_DOWN] = [r["under"][i] for i in slots]
            clone.deck, order = order[: len(clone.deck)], order[len(clone.deck) :]
            for s in others:
                k = len(clone.hands[s])
                clone.hands[s], order = order[:k], order[k:]
            changed = True
        if not self.over:
            for kind in TASK_TYPES:
                tpool = sorted(
                    [t for s in others for t in clone.tasks[s][kind]] + clone.task_rest[kind]
                )
                if len(tpool) > 1:
                    torder = [tpool[i] for i in rng.permutation(len(tpool))]
                    for s in others:
                        k = len(clone.tasks[s][kind])
                        clone.tasks[s][kind], torder = torder[:k], torder[k:]
                    clone.task_rest[kind] = sorted(torder)
                    changed = True
        clone._version += 1
        return clone if changed else None

    def parse_action(self, seat: int, text: str) -> Action | None:
        """``no trade``, typed at a trade step where it is not listed (see ``is_legal``)."""
        action = moves.NO_TRADE
        if text.strip().lower() == action.name and self.is_legal(seat, action):
            return action
        return None

    def is_legal(self, seat: int, action: Action) -> bool:
        if seat != self.current_player():  # see State.is_legal (no simultaneous moves here)
            return False
        return action in self._legal_actions(seat) or moves.is_unlisted_legal(self, action)

    def clone(self) -> JamState:
        """An independent copy: the containers are copied, the card data and the (immutable)
        actions, log lines and history entries are shared; the caches stay valid."""
        new = copy.copy(self)
        new.params = dict(self.params)
        new.history = list(self.history)
        new.log = list(self.log)
        turns = new.turns = copy.copy(self.turns)
        turns.tokens = dict(self.turns.tokens)
        turns.order = list(self.turns.order)
        new.deck = list(self.deck)
        new.hands = [list(h) for h in self.hands]
        new.basket = list(self.basket)
        if self._basket_index is not None:  # never shared: each state updates its own
            new._basket_index = self._basket_index.copy()
        new.made = [[dict(r, under=list(r["under"])) for r in m] for m in self.made]
        new.tasks = [{k: list(v) for k, v in t.items()} for t in self.tasks]
        new.task_rest = {k: list(v) for k, v in self.task_rest.items()}
        new.held = list(self.held)
        new.removed = list(self.removed)
        new.incoming = list(self.incoming)
        new.pending = list(self.pending)
        new.auction = copy.deepcopy(self.auction)
        new.trade = copy.deepcopy(self.trade)
        new.refused = copy.deepcopy(self.refused)
        return new
