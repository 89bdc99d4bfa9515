"""Jumble Jam rules on the shared turn loop.

A round is: new batch (deterministic draws from the shuffled pastry deck; reshuffling the
discard pile is a chance node), Grandma's die (a chance node), *get to work* (clockwise from
the Proactive Grandchild, one jar per move, four rounds of the table), card resolution and
hand-limit discards (each owner one card at a time), then *getting orders ready*
(counter-clockwise from the Efficient Grandchild until everybody passes in a row). Both
Grandchild cards pass left when the round ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from card_games.jumble_jam.cards import KITTY, Catalog, Order
from card_games.jumble_jam.chance import die_chance
from card_games.jumble_jam.fills import Pieces
from card_games.jumble_jam.grid import Grid, grid, slide_down
from jamsumo_sim.turnloop import (
    CHANCE,
    TERMINAL,
    Action,
    Direction,
    Finite,
    Game,
    LogEntry,
    PhaseSpec,
    Repeat,
    RoundSpec,
    Seating,
    Shuffle,
    State,
    TurnTracker,
)
from jamsumo_sim.turnloop.state import is_listed

WORK = "get to work"
ORDERS = "getting orders ready"

# A guard against a game nobody lets end (e.g. everyone always passes): after this many rounds
# the game ends and coins decide. Ordinary games end long before (see the rules notes).
MAX_ROUNDS = 40

# How a game ends: the code of its --json result (``end``) and the reason the log gives for it.
END_REASONS = {
    "four_exact_orders": "seat {seat} has completed {count} exact orders",
    "exact_orders": "seat {seat} has completed {count} exact orders",  # another catalog's count
    "orders_exhausted": "every order has been completed",
    "pastry_exhausted": "no pastry cards are left to bake",
    "round_limit": "the {limit}-round limit is reached",
}

# Chance steps waiting to be sampled.
SHUFFLE_PASTRIES = "shuffle pastries"
SHUFFLE_ORDERS = "shuffle orders"
RESHUFFLE = "reshuffle"
DIE = "die"
KITTY_DRAW = "kitty draw"


def round_spec(jars: int) -> RoundSpec:
    return RoundSpec(
        phases=(
            PhaseSpec(WORK, Direction.CLOCKWISE, Repeat.TIMES, start="first_player", times=jars),
            PhaseSpec(
                ORDERS, Direction.COUNTER_CLOCKWISE, Repeat.UNTIL_ALL_PASS, start="efficient"
            ),
        ),
        tokens_pass=(("first_player", Direction.CLOCKWISE), ("efficient", Direction.CLOCKWISE)),
    )


# Plain lists of the state that moves change in place (copied by ``clone``).
_LIST_FIELDS = (
    "setup_queue",
    "token_type",
    "pastry_tokens",
    "kitty_tokens",
    "pending",
    "deck",
    "discard",
    "layout",
    "jars",
    "order_deck",
    "display",
    "coins",
    "discard_queue",
)


# id(action) -> (the action, its name, its arguments) for the moves built once and shared below:
# every move needs a history entry (``Action.to_json``), and these recur all game long
_JSON: dict[int, tuple[Action, str, dict[str, Any] | None]] = {}


def _shared(action: Action) -> Action:
    """Remember the JSON form of a move that is built once (its arguments are never tuples)."""
    assert not any(isinstance(v, tuple) for _, v in action.args), action
    _JSON[id(action)] = (action, action.name, dict(action.args) if action.args else None)
    return action


def action_json(action: Action) -> dict[str, Any]:
    """``action.to_json()``: a new dict, copied from the remembered one for a shared move."""
    hit = _JSON.get(id(action))
    if hit is None or hit[0] is not action:
        return action.to_json()
    _, name, args = hit
    return {"name": name} if args is None else {"name": name, "args": dict(args)}


PASS = _shared(Action("pass"))


@cache
def fill_action(order: Order) -> Action:
    wants = " + ".join(f"{n} {t}" for t, n in order.needs)
    return _shared(Action(f"fill {order.id}: {wants}", (("order", order.id),)))


@cache
def add_action(kind: str, as_type: str, as_jam: bool) -> Action:
    """Adding a card of ``kind`` to the order being filled (a jam card names the type it covers)."""
    name = f"add {kind} as {as_type}" if as_jam else f"add {kind}"
    return _shared(Action(name, (("kind", kind), ("type", as_type))))


@cache
def token_action(as_type: str) -> Action:
    return _shared(Action.make(f"add {as_type} token", token=True, type=as_type))


@cache
def kitty_action(victim: int, token: bool) -> Action:
    name = f"kitty token on seat {victim}" if token else f"kitty on seat {victim}"
    return _shared(Action(name, (("token", token), ("victim", victim))))


# Hands whose fillable orders are remembered (see CatalogTables.can_fill): under 10 MB.
_HANDS_REMEMBERED = 1 << 14


@dataclass(frozen=True)
class CatalogTables:
    """What the rules look up all game long, made once per catalog: each order's fill action
    and log label by order id, the ids of the Kitty cards, each card's kind, which orders a seat's
    holdings (see ``JumbleJamState.holdings``) can fill, and the ways to add a piece to one."""

    fills: dict[str, Action]
    labels: dict[str, str]
    kitties: frozenset[str]
    kinds: dict[str, str]  # card id -> kind
    # holdings + (exact only,) -> {order id: can fill}, answered on first ask: the same holdings
    # recur all game long (a seat is asked at every turn of a round) and from game to game
    can_fill: dict[tuple[Any, ...], dict[str, bool]] = field(default_factory=dict)
    # (exact only, what the order still lacks, the useful pieces) -> the moves adding a piece
    adds: dict[tuple[Any, ...], tuple[Action, ...]] = field(default_factory=dict)

    def answers_for(self, key: tuple[Any, ...]) -> dict[str, bool]:
        answers = self.can_fill.get(key)
        if answers is None:
            if len(self.can_fill) >= _HANDS_REMEMBERED:
                self.can_fill.clear()
            answers = self.can_fill[key] = {}
        return answers


# keyed by id(): a Catalog holds dicts, so it cannot be hashed; the entry keeps it alive
_TABLES: dict[int, tuple[Catalog, CatalogTables]] = {}


def catalog_tables(catalog: Catalog) -> CatalogTables:
    entry = _TABLES.get(id(catalog))
    if entry is None or entry[0] is not catalog:
        orders = catalog.orders
        tables = CatalogTables(
            {oid: fill_action(o) for oid, o in orders.items()},
            {oid: o.label for oid, o in orders.items()},
            frozenset(cid for cid, card in catalog.cards.items() if card.type == KITTY),
            {cid: card.kind for cid, card in catalog.cards.items()},
        )
        entry = _TABLES[id(catalog)] = (catalog, tables)
    return entry[1]


@cache
def jar_actions(g: Grid) -> tuple[Action, ...]:
    """One action per edge of a grid, built once (legal-action lists are built very often)."""
    return tuple(
        _shared(Action(f"jar {name}", (("edge", e),))) for e, name in enumerate(g.edge_names)
    )


@cache
def jar_lines(g: Grid, players: int) -> tuple[tuple[LogEntry, ...], ...]:
    """The public log line of each seat's jar on each edge (log entries are immutable)."""
    return tuple(
        tuple(LogEntry(f"seat {seat} places a jar on {name}") for name in g.edge_names)
        for seat in range(players)
    )


def _copy_turns(turns: TurnTracker) -> TurnTracker:
    """A copy of the tracker: ``copy.copy`` without its generic (slow) reduce protocol."""
    new = object.__new__(type(turns))
    new.__dict__.update(turns.__dict__)
    new.tokens = dict(turns.tokens)
    new.order = list(turns.order)
    return new


def _strict_majority(seats: list[int]) -> int | None:
    """The seat holding more of ``seats`` than any other, or None (no seats, or a tie)."""
    best, most, tied = None, 0, False
    for seat in set(seats):
        count = seats.count(seat)
        if count > most:
            best, most, tied = seat, count, False
        elif count == most:
            tied = True
    return None if tied else best


class JumbleJamState(State):
    def __init__(
        self, game: Game, params: Mapping[str, Any], catalog: Catalog, seed: int = 0
    ) -> None:
        super().__init__(game, params, seed)
        n = self.num_players
        self.cat = catalog
        layout = catalog.layouts[n]
        self.grid: Grid = grid(layout.columns, layout.rows)
        # built once per grid: a jar move is most moves of a game
        self._jar_actions = jar_actions(self.grid)
        self._jar_lines = jar_lines(self.grid, n)
        self._tables = catalog_tables(catalog)
        self.display_size = layout.orders
        self.kickstarter = params.get("variant") == "kickstarter"
        seating = Seating(n)
        # The first player holds the Proactive Grandchild; the player on their right the Efficient.
        self.turns = TurnTracker.start(
            seating,
            round_spec(catalog.jars_per_player),
            {"first_player": 0, "efficient": seating.right_of(0)},
        )
        self.setup_queue: list[int] = seating.clockwise(0) if self.kickstarter else []
        self.token_type: list[str | None] = [None] * n
        self.pastry_tokens = [0] * n
        self.kitty_tokens = [catalog.kitty_tokens_per_player if self.kickstarter else 0] * n
        self.pending: list[str] = [SHUFFLE_PASTRIES, SHUFFLE_ORDERS]
        self.deck: list[str] = []  # top first
        self.discard: list[str] = []  # face up, oldest first
        self.layout: list[str | None] = [None] * (layout.columns * layout.rows)
        self.jars: list[int | None] = [None] * len(self.grid.edges)
        self.order_deck: list[str] = []
        self.display: list[str] = []
        self.die: str | None = None
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.completed: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        self.coins = [0] * n
        self.discard_queue: list[int] = []
        self.building: dict[str, Any] | None = None  # {"order", "cards": [[id, as]], "tokens"}
        self.kitty: tuple[int, int] | None = None  # (thief, victim) awaiting the random card
        self.over = False
        self.ended_by = ""  # the code of END_REASONS the game ended by
        self.end_reason = ""
        # caches, never part of the position: legal actions of the current node, the free jar
        # edges and their jar moves (kept up to date jar by jar), the log per seat
        self._legal: tuple[int, list[Action]] | None = None
        self._free: list[int] | None = None
        self._free_jars: list[Action] = []  # the jar move of each of _free, once it is known
        self._logs: dict[int | None, tuple[int, list[str]]] = {}

    def clone(self) -> JumbleJamState:
        """A fast copy (deepcopy is far too slow for the conformance kit and bots).

        History entries, log entries and completed-order records are never changed once made,
        so the copies share them; every container the rules change is copied.
        """
        new = object.__new__(type(self))
        fields = new.__dict__ = self.__dict__.copy()
        new.params = dict(self.params)
        new.history = list(self.history)
        new.log = list(self.log)
        new.turns = _copy_turns(self.turns)
        for name in _LIST_FIELDS:
            fields[name] = list(fields[name])
        new.hands = [list(h) for h in self.hands]
        new.completed = [list(c) for c in self.completed]
        if self.building is not None:
            new.building = {
                "order": self.building["order"],
                "cards": [list(p) for p in self.building["cards"]],
                "tokens": dict(self.building["tokens"]),
            }
        new._logs = dict(self._logs)
        if self._free is not None:
            new._free = list(self._free)
            new._free_jars = list(self._free_jars)
        return new

    # -- whose move ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.setup_queue:
            return self.setup_queue[0]
        if self.pending:
            return CHANCE
        if self.discard_queue:
            return self.discard_queue[0]
        turns = self.turns  # ``turns.seat`` written out: this is asked at every move
        return turns.order[turns.position]

    def phase_name(self) -> str:
        if self.over:
            return "game over"
        if self.setup_queue:
            return "set-up"
        if self.pending and self.pending[0] in (SHUFFLE_PASTRIES, SHUFFLE_ORDERS, RESHUFFLE):
            return "new batch"
        if self.pending and self.pending[0] == DIE:
            return "grandma"
        if self.discard_queue:
            return "hand limit"
        return self.turns.phase.name

    # -- helpers ---------------------------------------------------------------------------
    def kind(self, card_id: str) -> str:
        return self.cat.cards[card_id].kind

    def order(self, order_id: str) -> Order:
        return self.cat.orders[order_id]

    def free_edges(self) -> list[int]:
        """Edges between two cards with no jar yet (an edge next to an empty slot is no edge)."""
        return list(self._free_edges())

    def _free_edges(self) -> list[int]:
        """The cached free edges, in edge order (callers must not change the list).

        Worked out from the layout and jars when first needed after they were reset (a new
        batch, the end of *get to work*, :meth:`invalidate`); each jar then just removes its edge.
        """
        if self._free is None:
            layout, jars = self.layout, self.jars
            if None not in layout and jars.count(None) == len(jars):  # the usual new batch
                self._free = list(range(len(jars)))
                self._free_jars = list(self._jar_actions)
                return self._free
            self._free = [
                i
                for i, (a, b) in enumerate(self.grid.edges)
                if layout[a] is not None and layout[b] is not None and jars[i] is None
            ]
            every = self._jar_actions
            self._free_jars = [every[e] for e in self._free]
        return self._free

    def is_legal(self, seat: int, action: Action) -> bool:
        legal = self._legal
        if legal is not None and legal[0] == seat:  # the usual case: the list was just asked for
            return action in legal[1]
        # Replays check every jar move; answer those without building the whole list.
        if (
            legal is None
            and action.name.startswith("jar ")
            and not (self.setup_queue or self.pending or self.discard_queue)
            and self.turns.phase.name == WORK
        ):
            edge = action.get("edge")
            every = self._jar_actions
            return (
                seat == self.turns.seat
                and isinstance(edge, int)
                and 0 <= edge < len(every)
                and every[edge] == action
                and edge in self._free_edges()
            )
        return super().is_legal(seat, action)

    def exact_only(self) -> bool:
        return self.die == self.cat.grandma

    def exact_count(self, seat: int) -> int:
        return sum(1 for c in self.completed[seat] if c["exact"])

    def _first_of_kind(self, seat: int, kind: str) -> str:
        kinds = self._tables.kinds
        for cid in self.hands[seat]:  # hands stay sorted
            if kinds[cid] == kind:
                return cid
        raise ValueError(f"seat {seat} holds no {kind}")

    def holdings(self, seat: int) -> tuple[Any, ...]:
        """What decides which orders ``seat`` can fill: the kinds of its cards (cards of one
        kind are alike, so the ids do not matter), its token type and its token count."""
        kinds = sorted(map(self._tables.kinds.__getitem__, self.hands[seat]))
        return (tuple(kinds), self.token_type[seat], self.pastry_tokens[seat])

    def _pieces(self, seat: int) -> Pieces:
        """A hand's order pieces: values per pastry type (tokens included) and jam values.

        Worked out afresh when needed: remembered per hand they were seldom asked for again,
        and the garbage collector had to look through every one kept."""
        own: dict[str, list[int]] = {}
        jams: list[int] = []
        cards, wild = self.cat.cards, self.cat.wild
        for cid in self.hands[seat]:
            card = cards[cid]
            if card.type == wild:
                jams.append(card.pastries)
            elif card.type != KITTY:
                own.setdefault(card.type, []).append(card.pastries)
        if self.token_type[seat] is not None and self.pastry_tokens[seat]:
            own.setdefault(self.token_type[seat], []).extend([1] * self.pastry_tokens[seat])
        return Pieces.of(own, jams)

    def remaining_needs(self) -> dict[str, int]:
        """What the order being filled still lacks, per type (types already covered omitted)."""
        assert self.building is not None
        order = self.order(self.building["order"])
        got = dict(self.building["tokens"])
        cards = self.cat.cards
        for cid, as_type in self.building["cards"]:
            got[as_type] = got.get(as_type, 0) + cards[cid].pastries
        remaining = {}
        for t, n in order.needs:  # loops rather than comprehensions on the paths of every move:
            if n > got.get(t, 0):  # a comprehension is a function call of its own (Python 3.11)
                remaining[t] = n - got.get(t, 0)
        return remaining

    # -- legal actions -------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        # The driver asks several times per move; the position only changes in _apply_action.
        if self._legal is not None and self._legal[0] == seat:
            return list(self._legal[1])
        actions = self._compute_legal(seat)
        self._legal = (seat, actions)
        return list(actions)

    def invalidate(self) -> None:
        """Forget cached legal actions (after changing the position other than by a move)."""
        self._legal = None
        self._free = None

    def log_for(self, seat: int | None) -> list[str]:
        count, lines = self._logs.get(seat, (0, []))
        if count < len(self.log):
            lines = lines + [e.text for e in self.log[count:] if e.visible_to(seat)]
            self._logs[seat] = (len(self.log), lines)
        return list(lines)

    def _compute_legal(self, seat: int) -> list[Action]:
        if self.setup_queue:
            taken = set(self.token_type)
            return [
                Action.make(f"take {t} tokens", type=t)
                for t in self.cat.pastry_types
                if t not in taken
            ]
        if self.discard_queue:
            kinds = sorted({self.kind(c) for c in self.hands[seat]})
            return [Action(f"discard {k}", (("kind", k),)) for k in kinds]
        phase = self.turns.phase.name
        if phase == WORK:
            self._free_edges()
            return list(self._free_jars)  # a copy: the cached list changes jar by jar
        if self.building is not None:
            return self._build_actions(seat)
        return self._turn_actions(seat)

    def _turn_actions(self, seat: int) -> list[Action]:
        acts: list[Action] = []
        has_kitty = not self._tables.kitties.isdisjoint(self.hands[seat])
        if has_kitty or self.kitty_tokens[seat]:
            victims = [v for v in range(self.num_players) if v != seat and self.hands[v]]
            if has_kitty:
                acts += [kitty_action(v, False) for v in victims]
            if self.kitty_tokens[seat]:
                acts += [kitty_action(v, True) for v in victims]
        acts += self._fill_actions(seat)
        acts.append(PASS)
        return acts

    def _fill_actions(self, seat: int) -> list[Action]:
        """The orders on display that ``seat`` could fill, as actions in display order."""
        exact = self.exact_only()
        holdings = self.holdings(seat)
        answers = self._tables.answers_for((*holdings, exact))
        pieces = None
        fills = self._tables.fills
        acts = []
        for oid in self.display:
            can = answers.get(oid)
            if can is None:
                pieces = pieces or self._pieces(seat)
                can = answers[oid] = pieces.can_cover(self.cat.orders[oid].needs, exact)
            if can:
                acts.append(fills[oid])
        return acts

    def _build_actions(self, seat: int) -> list[Action]:
        """The pieces ``seat`` can add to the order it is filling, remembered per situation:
        what the order still lacks (types in the order's order) and the pieces that could go to
        it. Other cards play no part, so the same situations recur from hand to hand."""
        assert self.building is not None
        remaining = self.remaining_needs()
        exact = self.exact_only()
        key = (exact, tuple(remaining.items()), self.useful_pieces(seat, remaining))
        memo = self._tables.adds
        acts = memo.get(key)
        if acts is None:
            if len(memo) >= _HANDS_REMEMBERED:
                memo.clear()
            acts = memo[key] = tuple(self._work_out_adds(seat, remaining, exact))
        return list(acts)

    def useful_pieces(self, seat: int, wanted: Mapping[str, int]) -> tuple[Any, ...]:
        """What of ``seat``'s holdings could go to the pastry types ``wanted``: the kinds of its
        cards of those types and of its jam cards, and its tokens if they are of one of them."""
        cards, wild = self.cat.cards, self.cat.wild
        useful = []
        for cid in self.hands[seat]:
            card = cards[cid]
            if card.type in wanted or card.type == wild:
                useful.append(card.kind)
        useful.sort()
        token_type = self.token_type[seat]
        tokens = self.pastry_tokens[seat] if token_type in wanted else 0
        return (tuple(useful), token_type if tokens else None, tokens)

    def _work_out_adds(self, seat: int, remaining: dict[str, int], exact: bool) -> list[Action]:
        assert self.building is not None
        pieces = self._pieces(seat)
        acts: list[Action] = []

        def feasible(as_type: str, value: int, is_jam: bool) -> bool:
            if exact and remaining[as_type] - value < 0:
                return False
            return pieces.can_cover_after(remaining, as_type, value, is_jam, exact)

        # each kind in the hand once, by type, smallest first (cards of one kind are alike)
        by_type: dict[str, list[tuple[int, str]]] = {}
        cards = self.cat.cards
        for card_type, value, kind in sorted(
            {(cards[c].type, cards[c].pastries, cards[c].kind) for c in self.hands[seat]}
        ):
            by_type.setdefault(card_type, []).append((value, kind))
        jam_kinds = by_type.get(self.cat.wild, [])
        for as_type in self.order(self.building["order"]).types:
            if as_type not in remaining:
                continue
            for value, kind in by_type.get(as_type, ()):
                if feasible(as_type, value, False):
                    acts.append(add_action(kind, as_type, False))
            for value, kind in jam_kinds:
                if feasible(as_type, value, True):
                    acts.append(add_action(kind, as_type, True))
            has_token = self.token_type[seat] == as_type and self.pastry_tokens[seat] > 0
            if has_token and feasible(as_type, 1, False):
                acts.append(token_action(as_type))
        return acts

    # -- chance ------------------------------------------------------------------------------
    def _chance(self) -> Finite | Shuffle:
        step = self.pending[0]
        if step == SHUFFLE_PASTRIES:
            kitties = self.cat.kitty_ids[: self.num_players]
            return Shuffle("shuffle the pastry deck", (*self.cat.pastry_ids, *kitties))
        if step == SHUFFLE_ORDERS:
            return Shuffle("shuffle the orders deck", self.cat.order_ids)
        if step == RESHUFFLE:
            return Shuffle("reshuffle the discard pile", tuple(self.discard))
        if step == DIE:
            return die_chance(self.cat.die_faces)
        assert self.kitty is not None
        victim = self.kitty[1]
        return Shuffle("kitty takes a random card", tuple(sorted(self.hands[victim])), take=1)

    # -- applying moves -------------------------------------------------------------------
    def apply_action(self, action: Action, known_legal: list[Action] | None = None) -> None:
        """``State.apply_action``; a move from the cached legal list (the driver's usual case)
        skips working out again who moves (the list's seat), and a shared move's history entry
        is copied from its remembered JSON. Anything else takes the generic path."""
        cached = self._legal  # set only for the seat to move, dropped by every change
        if cached is None or known_legal is None or not is_listed(action, known_legal):
            super().apply_action(action, known_legal)
            return
        self.history.append({"seat": cached[0], "action": action_json(action)})
        self._apply_action(action)

    def _apply_action(self, action: Action) -> None:
        self._legal = None
        if self.setup_queue:
            self._take_tokens(action)
        elif self.pending:
            self._apply_chance(action)
        elif self.discard_queue:
            self._discard_one(action)
        elif self.turns.phase.name == WORK:
            if not self._place_jar(action):
                return  # still getting to work: nobody is asked to fill yet
        elif self.building is not None:
            self._add_piece(action)
        else:
            self._turn_move(action)
        self._auto_pass()

    def _auto_pass(self) -> None:
        """A player whose only move is to pass (no Kitty to use, no order they can fill) passes.

        It saves a forced prompt per player and round; passing is public either way.
        """
        while (
            not self.over
            and not (self.setup_queue or self.pending or self.discard_queue)
            and self.building is None
            and self.turns.phase.name == ORDERS
        ):
            seat = self.turns.seat
            actions = self._turn_actions(seat)
            if len(actions) > 1:
                self._legal = (seat, actions)  # computed anyway: keep them for the next ask
                return
            self.say(f"seat {seat} passes (nothing to do)")
            self._advance(self.turns.advance(passed=True))

    def _take_tokens(self, action: Action) -> None:
        seat = self.setup_queue.pop(0)
        self.token_type[seat] = action["type"]
        self.pastry_tokens[seat] = self.cat.pastry_tokens_per_type
        self.say(f"seat {seat} takes the {action['type']} tokens")

    def _apply_chance(self, action: Action) -> None:
        step = self.pending.pop(0)
        if step == SHUFFLE_PASTRIES:
            self.deck = list(action["order"])
            self.say("the pastry deck is shuffled")
        elif step == SHUFFLE_ORDERS:
            self.order_deck = list(action["order"])
            self.say("the orders deck is shuffled")
            self._new_batch()
        elif step == RESHUFFLE:
            self.deck = list(action["order"])
            self.discard = []
            self.say(
                f"the discard pile is shuffled into a new pastry deck of {len(self.deck)} cards"
            )
            self._new_batch()
        elif step == DIE:
            self.die = action["face"]
            if self.die == self.cat.grandma:
                self.say("Grandma's die shows Grandma: only exact orders this round")
            else:
                self.say(f"Grandma's die shows {self.die}: +1 coin per order with {self.die}")
            if not self._free_edges():
                self._after_work(self.turns.end_phase())
        else:
            self._kitty_draw(action)

    def _new_batch(self) -> None:
        """Slide, fill left to right, refill orders; stops at a reshuffle (a chance node)."""
        self.layout = slide_down(self.layout, self.grid)
        self._free = None
        for slot in self.grid.fill_order():
            if self.layout[slot] is not None:
                continue
            if not self.deck:
                if self.discard:
                    self.pending.append(RESHUFFLE)
                    return
                break  # nothing left anywhere: the layout stays short
            self.layout[slot] = self.deck.pop(0)
        while len(self.display) < self.display_size and self.order_deck:
            self.display.append(self.order_deck.pop(0))
        names, kinds = self.grid.slot_names, self._tables.kinds
        cells = ", ".join(f"{names[s]} {kinds[c]}" for s, c in enumerate(self.layout) if c)
        self.say(f"round {self.turns.round}: new batch — {cells or 'no cards'}")
        labels = self._tables.labels
        self.say("orders on display: " + ", ".join(labels[o] for o in self.display))
        if not self.display and not self.order_deck:
            self._end("orders_exhausted")  # (every order was completed: see _complete)
        elif not any(self.layout) and not self.deck and not self.discard:
            self._end("pastry_exhausted")
        else:
            self.pending.append(DIE)

    def _place_jar(self, action: Action) -> bool:
        """Place the seat's jar; True if that ended *get to work*."""
        seat = self.turns.seat
        edge = action["edge"]
        self.jars[edge] = seat
        free = self._free_edges()
        at = free.index(edge)
        del free[at], self._free_jars[at]
        self.log.append(self._jar_lines[seat][edge])
        ended = self.turns.advance()
        if ended == "turn" and not self._free:
            ended = self.turns.end_phase()  # a short layout can run out of edges
        if ended == "turn":
            # the next seat's moves are the free jars: ready for its ask (a copy, as they change)
            self._legal = (self.turns.seat, list(self._free_jars))
            return False
        self._after_work(ended)
        return True

    def _after_work(self, ended: str) -> None:
        """Give each card to the strict majority of jars around it, then the hand limit."""
        assert ended == "phase", ended
        jars, layout, slot_edges = self.jars, self.layout, self.grid.slot_edges
        names, kinds = self.grid.slot_names, self._tables.kinds
        for slot, cid in enumerate(layout):
            if cid is None:
                continue
            placed = []
            for edge in slot_edges[slot]:
                if jars[edge] is not None:
                    placed.append(jars[edge])
            winner = _strict_majority(placed)
            if winner is not None:  # a tie (or no jar) leaves the card on the table
                self.hands[winner].append(cid)
                self.hands[winner].sort()
                layout[slot] = None
                self.say(f"seat {winner} takes {kinds[cid]} from {names[slot]}")
        self.jars = [None] * len(self.grid.edges)
        self._free = None
        limit = self.cat.hand_limit
        first = self.turns.holder("first_player")
        self.discard_queue = [
            s for s in self.turns.seating.clockwise(first) if len(self.hands[s]) > limit
        ]
        sizes = ", ".join(f"seat {s}: {len(h)}" for s, h in enumerate(self.hands))
        self.say(f"hand sizes — {sizes}")

    def _discard_one(self, action: Action) -> None:
        seat = self.discard_queue[0]
        cid = self._first_of_kind(seat, action["kind"])
        self.hands[seat].remove(cid)
        self.discard.append(cid)
        self.say(f"seat {seat} discards {action['kind']} (hand limit)")
        if len(self.hands[seat]) <= self.cat.hand_limit:
            self.discard_queue.pop(0)

    def _turn_move(self, action: Action) -> None:
        seat = self.turns.seat
        if action.name == "pass":
            self.say(f"seat {seat} passes")
            self._advance(self.turns.advance(passed=True))
        elif action.get("victim") is not None:
            victim = action["victim"]
            if action["token"]:
                self.kitty_tokens[seat] -= 1
                self.say(f"seat {seat} uses a Kitty token on seat {victim}")
            else:
                cid = self._first_of_kind(seat, KITTY)
                self.hands[seat].remove(cid)
                self.discard.append(cid)
                self.say(f"seat {seat} plays a Kitty card on seat {victim}")
            self.kitty = (seat, victim)
            self.pending.append(KITTY_DRAW)
        else:
            self.building = {"order": action["order"], "cards": [], "tokens": {}}
            self.say(f"seat {seat} fills {self._tables.labels[action['order']]}")

    def _kitty_draw(self, action: Action) -> None:
        assert self.kitty is not None
        thief, victim = self.kitty
        cid = action["order"][0]
        self.hands[victim].remove(cid)
        self.hands[thief].append(cid)
        self.hands[thief].sort()
        self.kitty = None
        self.say(f"the Kitty brings seat {thief} a random card from seat {victim}")
        # only the two seats involved learn which card it was
        self.say(
            f"the Kitty moved {self.kind(cid)} from seat {victim} to seat {thief}",
            to=[thief, victim],
        )

    def _add_piece(self, action: Action) -> None:
        assert self.building is not None
        seat = self.turns.seat
        as_type = action["type"]
        if action.get("token"):
            self.pastry_tokens[seat] -= 1
            tokens = self.building["tokens"]
            tokens[as_type] = tokens.get(as_type, 0) + 1
            self.say(f"seat {seat} adds a {as_type} token")
        else:
            cid = self._first_of_kind(seat, action["kind"])
            self.hands[seat].remove(cid)
            self.building["cards"].append([cid, as_type])
            what = (
                action["kind"]
                if self.cat.cards[cid].type == as_type
                else f"{action['kind']} as {as_type}"
            )
            self.say(f"seat {seat} adds {what}")
        if not self.remaining_needs():
            self._complete(seat)

    def _complete(self, seat: int) -> None:
        assert self.building is not None
        order = self.order(self.building["order"])
        got = dict(self.building["tokens"])
        cards = self.cat.cards
        for cid, as_type in self.building["cards"]:
            got[as_type] = got.get(as_type, 0) + cards[cid].pastries
            self.discard.append(cid)
        exact = all(got.get(t, 0) == n for t, n in order.needs)
        bonus = 1 if any(self.die == t for t, _ in order.needs) else 0
        coins = (order.exact if exact else order.waste) + bonus
        self.coins[seat] += coins
        self.display.remove(order.id)
        self.completed[seat].append({"order": order.id, "exact": exact, "coins": coins})
        self.building = None
        how = "exactly" if exact else "with waste"
        extra = f" (+{bonus} for {self.die})" if bonus else ""
        self.say(f"seat {seat} completes {order.id} {how} for {coins} coins{extra}")
        to_win = self.cat.exact_orders_to_win
        if self.exact_count(seat) >= to_win:
            code = "four_exact_orders" if to_win == 4 else "exact_orders"
            self._end(code, seat=seat, count=to_win)
        elif not self.display and not self.order_deck:
            self._end("orders_exhausted")
        else:
            self._advance(self.turns.advance(passed=False))

    def _advance(self, ended: str) -> None:
        if ended != "round":
            return
        # the tracker has passed both Grandchild cards left and entered the next round
        self.say(
            f"round over; Proactive Grandchild to seat {self.turns.holder('first_player')}, "
            f"Efficient Grandchild to seat {self.turns.holder('efficient')}"
        )
        self.die = None
        if self.turns.round > MAX_ROUNDS:
            self._end("round_limit", limit=MAX_ROUNDS)
        else:
            self._new_batch()

    def end_code(self) -> str | None:
        """How the game ended, for ``--json``: a code of END_REASONS (None while it goes on)."""
        return self.ended_by if self.over else None

    def _end(self, code: str, **details: int) -> None:
        """End the game by one of END_REASONS (``details`` fill in its wording)."""
        self.over = True
        self.ended_by = code
        self.end_reason = reason = END_REASONS[code].format(**details)
        self.pending = []
        winners = self.winners()
        win = " and ".join(f"seat {s}" for s in winners)
        coins = ", ".join(f"seat {s} {c}" for s, c in enumerate(self.coins))
        who = "winner" if len(winners) == 1 else "shared win"
        self.say(f"game over: {reason}. Coins: {coins}; {who}: {win}")

    # -- results ---------------------------------------------------------------------------
    def returns(self) -> list[float]:
        return [float(c) for c in self.coins]

    def winners(self) -> list[int]:
        """Most coins; a tie goes to the most exact orders; a tie on both is shared."""
        best = max((c, self.exact_count(s)) for s, c in enumerate(self.coins))
        return [s for s, c in enumerate(self.coins) if (c, self.exact_count(s)) == best]

    # -- views -------------------------------------------------------------------------------
    def _order_view(self, oid: str) -> dict[str, Any]:
        o = self.order(oid)
        return {"id": oid, "needs": dict(o.needs), "exact": o.exact, "waste": o.waste}

    def observation(self, seat: int | None) -> dict[str, Any]:
        player = self.current_player()
        building = None
        if self.building is not None:
            building = {
                "seat": self.turns.seat,
                "order": self.building["order"],
                "cards": [[self.kind(c), t] for c, t in self.building["cards"]],
                "tokens": dict(sorted(self.building["tokens"].items())),
                "remaining": self.remaining_needs(),
            }
        return {
            "players": self.num_players,
            "variant": self.params.get("variant"),
            "round": self.turns.round,
            "phase": self.phase_name(),
            "to_move": player if player >= 0 else None,
            "first_player": self.turns.holder("first_player"),
            "efficient": self.turns.holder("efficient"),
            "die": self.die,
            "columns": self.grid.columns,
            "rows": self.grid.rows,
            "layout": [self.kind(c) if c else None for c in self.layout],
            "jars": {self.grid.edge_names[e]: s for e, s in enumerate(self.jars) if s is not None},
            "jars_placed": [sum(1 for j in self.jars if j == s) for s in range(self.num_players)],
            "orders": [self._order_view(o) for o in self.display],
            "orders_deck": len(self.order_deck),
            "pastry_deck": len(self.deck),
            "discard": [self.kind(c) for c in self.discard],
            "hand": [self.kind(c) for c in self.hands[seat]] if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "token_type": list(self.token_type),
            "pastry_tokens": list(self.pastry_tokens),
            "kitty_tokens": list(self.kitty_tokens),
            "completed": [list(c) for c in self.completed],
            "coins": list(self.coins),
            "exact_orders": [self.exact_count(s) for s in range(self.num_players)],
            "building": building,
            "over": self.over,
            "end_reason": self.end_reason,
            "log": self.log_for(seat),
        }

    def full_state(self) -> dict[str, Any]:
        return {
            "turn": self.turns.to_dict(),
            "setup_queue": list(self.setup_queue),
            "pending": list(self.pending),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "layout": list(self.layout),
            "jars": list(self.jars),
            "order_deck": list(self.order_deck),
            "display": list(self.display),
            "die": self.die,
            "hands": [list(h) for h in self.hands],
            "token_type": list(self.token_type),
            "pastry_tokens": list(self.pastry_tokens),
            "kitty_tokens": list(self.kitty_tokens),
            "completed": [list(c) for c in self.completed],
            "coins": list(self.coins),
            "discard_queue": list(self.discard_queue),
            "building": self.building,
            "kitty": list(self.kitty) if self.kitty else None,
            "over": self.over,
            "end_reason": self.end_reason,
        }

    def perturb_hidden(self, seat: int, rng: Any) -> JumbleJamState | None:
        """Deal the other hands and the pastry deck afresh from their pooled cards, sizes kept."""
        others = [s for s in range(self.num_players) if s != seat]
        clone = self.clone()
        # sorted first: the world drawn depends on the seat's information and rng only
        pool = sorted([c for s in others for c in clone.hands[s]] + clone.deck)
        if len(pool) < 2 and len(clone.order_deck) < 2:  # nothing left to re-deal
            return None
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for s in others:
            k = len(clone.hands[s])
            clone.hands[s], pool = sorted(pool[:k]), pool[k:]
        clone.deck = pool
        # the orders deck is face down too
        orders = sorted(clone.order_deck)
        clone.order_deck = [orders[i] for i in rng.permutation(len(orders))]
        clone.invalidate()
        return clone
