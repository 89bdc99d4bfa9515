"""The Jam's decisions: which moves are legal, and what each one does.

Identical copies of a card (same recipe and ingredient halves) are interchangeable, so each
decision lists one move per distinct card, never one per copy. Big choices are built step by
step (an auction bid jam by jam, a trade proposal recipe by recipe, each side in one fixed order)
so that no decision lists an exploding number of subsets. The trade step lists the ways to open a
trade beside every play, as at the table, where declining to trade is simply playing a card.

Speed: every move is an immutable :class:`Action` built once per card set (``Tables``) and found
again by a small key, or in a row of moves sharing a key prefix (``_Row``: one recipe's plays),
so no name is formatted and few keys are built on the hot path; the state caches the
legal-action list per state version (``JamState.legal_actions``), and each side of a proposal
keeps its owner's recipes in bundle order, from which every "add a recipe" list is two slices
(``_side_table``). The play step reads the basket deduplicated and grouped from an index the
state keeps up to date card by card (``JamState.basket_index``, ``basket.BasketIndex``).
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import product
from typing import Any, Protocol

from card_games.the_jam.basket import BasketIndex, stack_tops
from card_games.the_jam.cards import JAM, PIE, PINECONE, SALAD, Card, CardSet, card_rank
from card_games.the_jam.rules import FACE_DOWN, SEEN_BY, TRAVEL_MAX_SWAP
from jamsumo_sim.turnloop import Action


class JamState(Protocol):
    """What the moves read and change of a game of The Jam (state.JamState is one): declared here
    so that this module, which the state's methods call, does not import the state back."""

    tb: Tables
    travel: bool
    hands: list[list[str]]
    basket: list[str]
    made: list[list[dict[str, Any]]]
    turn_no: int
    step: str
    auction: dict[str, Any] | None
    bear_pick: int | None
    ym_discard: bool
    trade: dict[str, Any] | None
    proposals: int
    refused: list[dict[str, Any]]
    traded_blind: bool
    pie_debt: int
    proposal_tables: tuple[SideTable, SideTable] | None
    side_tables: dict[tuple[str, int, tuple[str, ...]], SideTable]

    @property
    def active(self) -> int: ...
    def card(self, card_id: str) -> Card: ...
    def label(self, card_id: str) -> str: ...
    def say(self, text: str, to: int | list[int] | None = None) -> None: ...
    def pile(self, seat: int) -> list[dict[str, Any]]: ...
    def basket_index(self) -> BasketIndex: ...
    def to_basket(self, card_id: str) -> None: ...
    def take_from_basket(self, card_id: str) -> None: ...
    def take_made(self, seat: int, card_id: str) -> dict[str, Any]: ...
    def clear_under(self, recipe: dict[str, Any]) -> None: ...
    def _trade_partners(self) -> list[int]: ...
    def _enter_trade(self) -> None: ...
    def _enter_play(self) -> None: ...
    def _end_turn(self) -> None: ...
    def _draw(self) -> None: ...
    def _discard_jam(self, seat: int, cid: str) -> None: ...
    def _bear_returns(self, seat: int, cid: str) -> None: ...
    def _auction_skip(self) -> None: ...


_ACTIONS: dict[tuple[Any, ...], Action] = {}
# id -> (move, name, JSON args) of the memoised moves whose arguments are all plain values; the
# moves live as long as the memos, so their ids stay theirs (see action_json)
_JSON: dict[int, tuple[Action, str, dict[str, Any]]] = {}


def _act(name: str, **args: Any) -> Action:
    """``Action.make`` for arguments that are already frozen (str, int, tuples of str), memoised
    on the name (for the rarer moves; the frequent ones are looked up before any name is built)."""
    key = (name, *args.items())
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action(name, tuple(sorted(args.items())))
        _remember_json(action)
    return action


def _remember_json(action: Action) -> None:
    if action.args and not any(isinstance(v, tuple) for _, v in action.args):
        _JSON[id(action)] = (action, action.name, dict(action.args))


def action_json(action: Action) -> dict[str, Any]:
    """``action.to_json()``: a new dict, as a history entry must be, copied from a cached one for
    a memoised move (every history entry needs one, and moves recur many times a game)."""
    hit = _JSON.get(id(action))
    if hit is not None and hit[0] is action:
        return {"name": hit[1], "args": dict(hit[2])}
    return action.to_json()


class ActionList(list[Action]):
    """A list of legal actions whose membership test looks for the very object first.

    The driver checks twice per move that the chosen action is listed; the actions are shared,
    memoised objects, so identity almost always answers at once, without dataclass equality.
    """

    __slots__ = ()

    def __contains__(self, item: object) -> bool:
        for action in self:
            if action is item:
                return True
        return list.__contains__(self, item)


class Tables:
    """Per card set: each card's fields in flat dicts, and every move built once, by key.

    The hot moves (plays, trade building) are looked up by a small tuple key; the name is only
    formatted the first time a key is seen.
    """

    def __init__(self, cs: CardSet) -> None:
        self.cs = cs
        cards = cs.cards
        self.label = {c: k.label for c, k in cards.items()}
        self.kind = {c: k.kind for c, k in cards.items()}
        self.top = {c: k.top for c, k in cards.items()}
        self.bottom = {c: k.bottom for c, k in cards.items()}
        self.points = {c: k.points for c, k in cards.items()}
        self.fruits = {c: k.fruits for c, k in cards.items()}
        self.rank = card_rank(cs)
        # by rank: the card id, and the number of its distinct card (copies share it)
        self.by_rank = sorted(self.rank, key=self.rank.__getitem__)
        names = list(map(self.label.__getitem__, self.by_rank))
        self.card_of_rank = [names.index(name) for name in names]
        self.moves: dict[tuple[Any, ...], Action] = {}
        self.rows: dict[tuple[Any, ...], _Row] = {}
        # recipe id -> the row of its moves, played from the hand or from the basket
        self.rows_from_hand = _RecipeRows(self, "hand")
        self.rows_from_basket = _RecipeRows(self, "basket")
        self.puts = self.row(("put",))  # "put this card in the basket", by card
        self.starts = self.row(("start",))  # "propose a trade to seat ...", by seat
        self.gives = self.row(("give",))  # travel blind swap: "give this recipe", by card

    def row(self, prefix: tuple[Any, ...]) -> _Row:
        """The moves whose keys start with ``prefix``, by the key's last part (see ``_Row``)."""
        row = self.rows.get(prefix)
        if row is None:
            row = self.rows[prefix] = _Row(self, prefix)
        return row

    def move(self, key: tuple[Any, ...]) -> Action:
        action = self.moves.get(key)
        if action is None:
            action = self.moves[key] = self._build(key)
        return action

    def _build(self, key: tuple[Any, ...]) -> Action:
        label = self.label
        what = key[0]
        if what == "jam-hand":
            _, rid, iid = key
            name = f"make {label[rid]} from hand with {label[iid]} from the basket"
            return _act(name, play="jam", recipe=rid, ingredient=iid, source="hand")
        if what == "jam-basket":
            _, rid, iid = key
            name = f"make {label[rid]} from the basket with {label[iid]} from hand"
            return _act(name, play="jam", recipe=rid, ingredient=iid, source="basket")
        if what == "pie-hand":
            _, rid, jid = key
            name = f"bake {label[rid]} from hand with my {label[jid]}"
            return _act(name, play="pie", recipe=rid, jam=jid, source="hand")
        if what == "pie-basket":
            _, rid, jid = key
            name = (
                f"bake {label[rid]} from the basket with my {label[jid]} (costs a card from hand)"
            )
            return _act(name, play="pie", recipe=rid, jam=jid, source="basket")
        if what == "pay":
            return _act(f"pay {label[key[1]]} to the basket", pick=key[1])
        if what == "put":
            return _act(f"put {label[key[1]]} in the basket", play="ingredient", pick=key[1])
        if what == "mine":
            return _act(f"give my {label[key[1]]}", trade="mine", pick=key[1])
        if what == "theirs":
            _, partner, cid = key
            return _act(f"ask for seat {partner}'s {label[cid]}", trade="theirs", pick=cid)
        if what == "give":
            return _act(f"give {label[key[1]]}", trade="give", pick=key[1])
        if what == "blind":
            _, partner, k = key
            return _act(f"blind swap {k} with seat {partner}", trade="blind", partner=partner, k=k)
        if what == "start":
            partner = key[1]
            return _act(f"propose a trade to seat {partner}", trade="start", partner=partner)
        raise ValueError(key)  # pragma: no cover - a programming error


class _Row(dict[Any, Action]):
    """``Tables.move((*prefix, last))`` by ``last``, memoised: a hit is a plain dict lookup, with
    no key tuple to build and no method call."""

    def __init__(self, tb: Tables, prefix: tuple[Any, ...]) -> None:
        super().__init__()
        self.tb = tb
        self.prefix = prefix

    def __missing__(self, last: Any) -> Action:
        action = self[last] = self.tb.move((*self.prefix, last))
        return action


class _RecipeRows(dict[str, _Row]):
    """Recipe id -> ``Tables.row`` of its moves when played from ``source``, as a plain lookup."""

    def __init__(self, tb: Tables, source: str) -> None:
        super().__init__()
        self.tb = tb
        self.source = source

    def __missing__(self, rid: str) -> dict[Any, Action]:
        tb = self.tb
        kind = tb.kind[rid]
        row = self[rid] = (
            _SaladRow(tb.label, rid) if kind == SALAD else tb.row((f"{kind}-{self.source}", rid))
        )
        return row


class _SaladRow(dict[tuple[str, ...], Action]):
    """The moves making one fruit salad, by the basket cards it takes (one per fruit).

    Built here, not through ``Tables.move``: a salad has a move per choice of basket cards, so a
    key is often new, and this keeps the miss short (and the moves memoised only once).
    """

    def __init__(self, label: dict[str, str], rid: str) -> None:
        super().__init__()
        self.label = label
        self.rid = rid
        self.head = f"make {label[rid]} with "

    def __missing__(self, combo: tuple[str, ...]) -> Action:
        label = self.label
        name = self.head + ", ".join(map(label.__getitem__, combo)) + " from the basket"
        args = (("ingredients", combo), ("play", "salad"), ("recipe", self.rid), ("source", "hand"))
        action = self[combo] = Action(name, args)  # args in sorted order, as Action.make has them
        return action


_TABLES: dict[int, Tables] = {}


def tables(cs: CardSet) -> Tables:
    hit = _TABLES.get(id(cs))
    if hit is None or hit.cs is not cs:
        hit = _TABLES[id(cs)] = Tables(cs)
    return hit


def _distinct(label: dict[str, str], ids: list[str]) -> list[str]:
    """First id of each distinct card label, in order (built with C-level calls only)."""
    names = list(map(label.__getitem__, ids))
    if len(set(names)) == len(names):  # the common case
        return list(ids)
    # each label's first id (a later copy is overwritten by an earlier one, read backwards),
    # in the order the labels first appear
    first = dict(zip(reversed(names), reversed(ids), strict=True))
    return list(map(first.__getitem__, dict.fromkeys(names)))


NO_TRADE = _act("no trade", trade="none")
_ACCEPT_REFUSE = (_act("accept", trade="accept"), _act("refuse", trade="refuse"))
_PROPOSE = _act("propose", trade="propose")
_CANCEL = _act("cancel the proposal", trade="cancel")


# -- legal actions ---------------------------------------------------------------------------------
def legal_actions(state: JamState, seat: int) -> ActionList:
    if state.auction is not None:
        return ActionList(_auction_actions(state, seat))
    tb = state.tb
    if state.bear_pick is not None:
        pies = [c for r in state.made[seat] if tb.kind[c := r["card"]] == PIE]
        return ActionList(
            _act(f"give back {tb.label[c]}", pick=c) for c in _distinct(tb.label, pies)
        )
    if state.ym_discard:
        jams = [c for r in state.made[seat] if tb.kind[c := r["card"]] == JAM]
        return ActionList(
            _act(f"discard {tb.label[c]} to the basket", pick=c) for c in _distinct(tb.label, jams)
        )
    if state.trade is not None:
        return _trade_actions(state)
    step = state.step
    if step == "trade":
        return _trade_menu(state)
    if step == "play":
        return play_actions(state, seat)
    if step == "pay":
        pay = tb.row(("pay",))
        return ActionList(pay[c] for c in _distinct(tb.label, state.hands[seat]))
    return ActionList()


def _auction_actions(state: JamState, seat: int) -> list[Action]:
    a = state.auction
    assert a is not None
    tb = state.tb
    building = a["building"]
    total = sum(tb.points[c] for c in building)
    acts = [_act("pass" if not building else "pass (take my jams back)", bid="pass")]
    if total > a["high"]:
        acts.append(_act(f"bid {total} points of jam", bid="place"))
    jams = [c for r in state.made[seat] if tb.kind[c := r["card"]] == JAM and c not in building]
    for cid in _distinct(tb.label, jams):
        acts.append(_act(f"offer {tb.label[cid]} ({tb.points[cid]})", bid="add", pick=cid))
    return acts


def _trade_menu(state: JamState) -> ActionList:
    """The trade step's decision: open a trade (a proposal, or a travel blind swap), or play a
    card, which ends the trade step (the rulebook has no "pass": a player who does not trade
    simply plays). ``no trade`` is listed only when the hand is empty (there is no card to play);
    it stays legal, unlisted, otherwise (see ``is_unlisted_legal``)."""
    seat = state.active
    if not state.travel:
        acts = ActionList(map(state.tb.starts.__getitem__, state._trade_partners()))
    else:
        acts = ActionList()
        move = state.tb.move
        own = min(TRAVEL_MAX_SWAP, len(state.pile(seat)))
        for partner in state._trade_partners():
            for k in range(1, min(own, len(state.pile(partner))) + 1):
                acts.append(move(("blind", partner, k)))
    if state.hands[seat]:
        acts += play_actions(state, seat)
    else:
        acts.append(NO_TRADE)
    return acts


def is_unlisted_legal(state: JamState, action: Action) -> bool:
    """``no trade`` at a trade step where it is not listed: a person may still type it (to see
    the plays alone), and records made before the trade step listed the plays took it every turn,
    so they re-play unchanged. The caller has checked that the seat asking is to move; the rest
    is ``legal_actions``' way to the trade menu."""
    return (
        action == NO_TRADE
        and state.auction is None
        and state.bear_pick is None
        and not state.ym_discard
        and state.trade is None
        and state.step == "trade"
    )


def _trade_actions(state: JamState) -> ActionList:
    t = state.trade
    assert t is not None
    tb = state.tb
    # each side's cards come from its owner, whoever asks (the proposal's tables are kept for
    # the proposal, so they must never be built from another seat's recipes)
    if state.travel:
        giving = t["stage"] == "give"
        owner, owner_ids = (state.active, t["mine"]) if giving else (t["partner"], t["theirs"])
        # the pile (recipes with no ingredient on them) less what this side gives already
        pile = [
            c for r in state.made[owner] if not r["under"] and (c := r["card"]) not in owner_ids
        ]
        return ActionList(map(tb.gives.__getitem__, _distinct(tb.label, pile)))
    if t["stage"] == "respond":
        return ActionList(_ACCEPT_REFUSE)
    tables = state.proposal_tables
    if tables is None:  # the proposal's first step: no made recipe changes hands until it ends
        partner = t["partner"]
        tables = (_side_table(state, "mine", state.active), _side_table(state, "theirs", partner))
        state.proposal_tables = tables
    mine, theirs = t["mine"], t["theirs"]
    rank = state.tb.rank
    acts = ActionList((_PROPOSE, _CANCEL) if mine or theirs else (_CANCEL,))
    acts += _bundle_moves(tables[0], mine, rank)
    acts += _bundle_moves(tables[1], theirs, rank)
    return acts


def _bundle_moves(table: SideTable, chosen: list[str], rank: dict[str, int]) -> list[Action]:
    """The moves adding one recipe to a side of the proposal (what ``bundle_candidates`` lists).

    ``table`` holds the owner's recipes in bundle order (``_side_table``); the candidates after
    the last chosen recipe are that recipe's successor (the next copy, or the next card) followed
    by the first copy of every later card, which two list slices give without sorting or
    deduplicating.
    """
    ranks, acts, run, firsts = table
    if not chosen:
        return firsts
    i = bisect_right(ranks, rank[chosen[-1]])
    if i == len(ranks):
        return []
    return [acts[i], *firsts[run[i] + 1 :]]


SideTable = tuple[list[int], list[Action], list[int], list[Action]]


def _side_table(state: JamState, side: str, owner: int) -> SideTable:
    """(ranks, add moves, run index, first move of each run) of the owner's made recipes sorted
    in bundle order, a run being the copies of one card.

    Memoised for the game by the owner's made recipes: they change about once a turn, while a
    turn may build two proposals and each asks for both sides.
    """
    made = tuple([r["card"] for r in state.made[owner]])
    key = (side, owner, made)
    hit = state.side_tables.get(key)
    if hit is None:
        hit = state.side_tables[key] = _build_side_table(state.tb, side, owner, made)
    return hit


def _build_side_table(tb: Tables, side: str, owner: int, made: tuple[str, ...]) -> SideTable:
    row = tb.row(("mine",) if side == "mine" else ("theirs", owner))
    ranks = sorted(map(tb.rank.__getitem__, made))  # ints sort faster than ids by a key
    by_rank, card_of_rank = tb.by_rank, tb.card_of_rank
    acts = [row[by_rank[r]] for r in ranks]
    run: list[int] = []
    firsts: list[Action] = []
    previous = -1
    for r, action in zip(ranks, acts, strict=True):
        card = card_of_rank[r]
        if card != previous:
            firsts.append(action)
            previous = card
        run.append(len(firsts) - 1)
    return ranks, acts, run, firsts


def bundle_candidates(state: JamState, owner: int, chosen: list[str]) -> list[str]:
    """The recipes of ``owner`` that may join one side of a trade bundle, one per distinct card.

    A side is built in a fixed order (by card name, then id): only recipes after the last one
    added are offered. Every bundle (any number of recipes, copies included) is still reachable,
    in exactly one way, and the list shrinks as the bundle grows.
    """
    tb = state.tb
    rank = tb.rank
    last = rank[chosen[-1]] if chosen else -1
    ids = sorted(
        (c for r in state.made[owner] if rank[c := r["card"]] > last), key=rank.__getitem__
    )
    label = tb.label
    out: list[str] = []
    previous = None
    for cid in ids:
        name = label[cid]
        if name != previous:
            out.append(cid)
            previous = name
    return out


def play_actions(state: JamState, seat: int) -> ActionList:
    """Every distinct way to play one card: jam, pie, fruit salad, or an ingredient to the basket.

    Each recipe's moves come from its row of memoised moves (``Tables.rows_from_hand`` and
    ``rows_from_basket``), looked up once per recipe rather than by a key built per move; the
    basket comes deduplicated and grouped from its index (``JamState.basket_index``).
    """
    tb = state.tb
    label, kind, top, bottom = tb.label, tb.kind, tb.top, tb.bottom
    hand = _distinct(label, state.hands[seat])
    if state.travel:  # stack tops: listed afresh (a change can uncover any of them)
        basket, by_bottom, recipes = stack_tops(state.basket, kind, bottom)
    else:
        index = state.basket_index()
        basket, by_bottom, recipes = index.distinct, index.by_bottom, index.recipes
    jams = _distinct(label, [c for r in state.made[seat] if kind[c := r["card"]] == JAM])
    jam_tops = [(jid, top[jid]) for jid in jams]
    acts = ActionList()
    add = acts.append
    from_hand = tb.rows_from_hand
    for rid in hand:
        k = kind[rid]
        if k == JAM:
            t = top[rid]
            fits = basket if t == PINECONE else by_bottom.get(t)
            if fits:
                row = from_hand[rid]
                for iid in fits:
                    add(row[iid])
        elif k == PIE:
            if jam_tops:
                t = top[rid]
                row = from_hand[rid]
                for jid, jt in jam_tops:
                    if jt in (t, PINECONE):
                        add(row[jid])
        elif k == SALAD:
            groups = [by_bottom.get(f) for f in tb.fruits[rid]]
            if all(groups):
                row = from_hand[rid]
                # every choice of one basket card per fruit, the first fruit's varying slowest
                for combo in product(*groups):  # type: ignore[arg-type]
                    add(row[combo])
    hand_by_bottom: dict[str, list[str]] = {}
    for iid in hand:
        b = bottom[iid]
        group = hand_by_bottom.get(b)
        if group is None:
            hand_by_bottom[b] = [iid]
        else:
            group.append(iid)
    from_basket = tb.rows_from_basket
    for rid in recipes:  # the basket's jams and pies, in basket order
        t = top[rid]
        if kind[rid] == JAM:
            # pinecone jam: any hand card with an ingredient half, in hand order
            fits = hand_by_bottom.get(t) if t != PINECONE else [i for i in hand if bottom[i]]
            if fits:
                row = from_basket[rid]
                for iid in fits:
                    add(row[iid])
        elif jam_tops:
            row = from_basket[rid]
            for jid, jt in jam_tops:
                if jt in (t, PINECONE):
                    add(row[jid])
    put = tb.puts
    for cid in hand:
        add(put[cid])
    return acts


# -- applying moves --------------------------------------------------------------------------------
def apply(state: JamState, action: Action) -> None:
    if state.auction is not None:
        _apply_bid(state, action)
    elif state.bear_pick is not None:
        state._bear_returns(state.bear_pick, action["pick"])
    elif state.ym_discard:
        state.ym_discard = False
        state._discard_jam(state.active, action["pick"])
        state._draw()
    elif state.trade is not None:
        _apply_trade(state, action)
    elif state.step == "trade":
        if action.get("play") is None:
            _apply_trade(state, action)
        else:  # a card played from the trade step: the trade step is over
            state.step = "play"
            _apply_play(state, action)
    elif state.step == "play":
        _apply_play(state, action)
    elif state.step == "pay":
        seat = state.active
        cid = action["pick"]
        state.hands[seat].remove(cid)
        state.to_basket(cid)
        state.say(f"Seat {seat} puts {state.label(cid)} in the basket for the pie taken from it.")
        state.pie_debt -= 1
        if state.pie_debt <= 0 or not state.hands[seat]:
            state.pie_debt = 0
            state._end_turn()
    else:  # pragma: no cover - legality is checked before this is called
        raise ValueError(f"no move expected at step {state.step}")


def _apply_bid(state: JamState, action: Action) -> None:
    a = state.auction
    assert a is not None
    seat = a["order"][a["pos"]]
    kind = action["bid"]
    if kind == "add":
        a["building"].append(action["pick"])
        return
    if kind == "place":
        total = sum(state.tb.points[c] for c in a["building"])
        a["bids"][str(seat)] = list(a["building"])
        a["high"], a["high_seat"] = total, seat
        state.say(
            f"Seat {seat} bids {total}: " + ", ".join(state.label(c) for c in a["building"]) + "."
        )
    else:
        state.say(f"Seat {seat} passes.")
    a["building"] = []
    a["pos"] += 1
    state._auction_skip()


def _apply_trade(state: JamState, action: Action) -> None:
    args = dict(action.args)  # one conversion instead of a search of the arguments per name
    kind = args["trade"]
    t = state.trade
    if kind == "mine" or kind == "theirs":  # a recipe added to one side: most trade moves
        assert t is not None
        t[kind].append(args["pick"])
        return
    seat = state.active
    if kind == "none":
        state._enter_play()
        return
    if kind == "start":
        state.proposals += 1
        state.proposal_tables = None  # worked out on the proposal's first step
        state.trade = {"partner": args["partner"], "mine": [], "theirs": [], "stage": "build"}
        return
    if kind == "blind":
        state.traded_blind = True
        state.trade = {
            "partner": args["partner"],
            "k": args["k"],
            "mine": [],
            "theirs": [],
            "stage": "give",
        }
        state.say(f"Seat {seat} swaps {args['k']} recipe(s) blind with seat {args['partner']}.")
        _autofill_blind(state)
        return
    assert t is not None
    if kind == "give":
        (t["mine"] if t["stage"] == "give" else t["theirs"]).append(args["pick"])
        _autofill_blind(state)
    elif kind == "cancel":
        state.say(f"Seat {seat} withdraws the proposal.")
        state.trade = None
        state._enter_trade()
    elif kind == "propose":
        t["stage"] = "respond"
        gives = ", ".join(state.label(c) for c in t["mine"]) or "nothing"
        gets = ", ".join(state.label(c) for c in t["theirs"]) or "nothing"
        state.say(f"Seat {seat} offers seat {t['partner']} {gives} for {gets}.")
    elif kind == "accept":
        _swap(state, seat, t["partner"], t["mine"], t["theirs"])
        state.say(f"Seat {t['partner']} accepts.")
        state.trade = None
        state._enter_trade()
    elif kind == "refuse":
        state.say(f"Seat {t['partner']} refuses.")
        state.refused.append(
            {
                "partner": t["partner"],
                "mine": sorted(state.label(c) for c in t["mine"]),
                "theirs": sorted(state.label(c) for c in t["theirs"]),
            }
        )
        state.trade = None
        state._enter_trade()


def _autofill_blind(state: JamState) -> None:
    """Travel swap: when a side's choice is forced (its whole pile), take it; swap when both chose."""
    t = state.trade
    assert t is not None
    k = t["k"]
    # the give side first: once it has chosen, the answer is looked at in the same call (so the
    # answering side's forced choice is never missed)
    for stage, owner, key in (("give", state.active, "mine"), ("answer", t["partner"], "theirs")):
        if t["stage"] != stage:
            continue
        pile = state.pile(owner)
        if len(pile) == k:
            t[key] = [r["card"] for r in pile]
        if len(t[key]) == k:
            t["stage"] = "answer" if stage == "give" else "done"
    if t["stage"] == "done":
        active, partner = state.active, t["partner"]
        _swap(state, active, partner, t["mine"], t["theirs"])
        state.say("You receive " + ", ".join(state.label(c) for c in t["theirs"]) + ".", to=active)
        state.say("You receive " + ", ".join(state.label(c) for c in t["mine"]) + ".", to=partner)
        state.trade = None
        state._enter_trade()


def _swap(state: JamState, a: int, b: int, from_a: list[str], from_b: list[str]) -> None:
    moving_a = [state.take_made(a, c) for c in from_a]
    moving_b = [state.take_made(b, c) for c in from_b]
    for moving, receiver in ((moving_a, b), (moving_b, a)):
        for recipe in moving:
            recipe["since"] = (
                state.turn_no
            )  # its ingredient stays until the receiver's next discard
            if FACE_DOWN in recipe:  # the receiver holds the stack and may see its face-down card
                recipe[SEEN_BY] = sorted({*recipe[SEEN_BY], receiver})
            state.made[receiver].append(recipe)


def _apply_play(state: JamState, action: Action) -> None:
    seat = state.active
    args = dict(action.args)  # one conversion instead of a search of the arguments per name
    kind = args["play"]
    hand = state.hands[seat]

    def take(cid: str, source: str) -> None:
        if source == "hand":
            hand.remove(cid)
        else:
            state.take_from_basket(cid)

    if kind == "ingredient":
        cid = args["pick"]
        hand.remove(cid)
        state.to_basket(cid)
        state.say(f"Seat {seat} puts {state.label(cid)} in the basket.")
    elif kind == "jam":
        rid, iid, source = args["recipe"], args["ingredient"], args["source"]
        take(rid, source)
        take(iid, "basket" if source == "hand" else "hand")
        recipe: dict[str, Any] = {"card": rid, "under": [iid], "since": state.turn_no}
        if source == "hand":  # the ingredient came face up from the basket: everyone saw it
            state.made[seat].append(recipe)
            state.say(f"Seat {seat} makes {state.label(rid)} from hand with {state.label(iid)}.")
        else:
            # from hand, the ingredient goes face down: others see only its fruit half (rulebook:
            # "the ingredient card is placed face down") until it is discarded to the basket
            recipe[FACE_DOWN] = [iid]
            recipe[SEEN_BY] = [seat]
            state.made[seat].append(recipe)
            fruit = state.card(iid).bottom
            state.say(
                f"Seat {seat} makes {state.label(rid)} from the basket with a face-down {fruit} "
                "ingredient from hand."
            )
            state.say(f"(Your face-down card: {state.label(iid)}.)", to=seat)
    elif kind == "pie":
        rid, jid, source = args["recipe"], args["jam"], args["source"]
        take(rid, source)
        jam = state.take_made(seat, jid)
        state.clear_under(jam)  # the jam's own ingredient goes to the basket at once
        state.made[seat].append({"card": rid, "under": [jid], "since": state.turn_no})
        where = "from hand" if source == "hand" else "from the basket"
        state.say(f"Seat {seat} bakes {state.label(rid)} {where} with {state.label(jid)}.")
        if source == "basket":
            state.pie_debt += 1
    elif kind == "salad":
        rid = args["recipe"]
        ingredients = list(args["ingredients"])
        take(rid, "hand")
        for cid in ingredients:
            state.take_from_basket(cid)
        state.made[seat].append({"card": rid, "under": ingredients, "since": state.turn_no})
        state.say(f"Seat {seat} makes {state.label(rid)}.")
    state.trade = None
    if state.pie_debt and state.hands[seat]:
        state.step = "pay"
        return
    state.pie_debt = 0
    state._end_turn()


def describe(action: Action) -> dict[str, Any]:
    """The action's arguments as a plain dict (for bots)."""
    return dict(action.args)
