"""The Jam's decisions: which moves are legal, and what each one does.

Identical copies of a card (same recipe and ingredient halves) are interchangeable, so each
decision lists one move per distinct card, never one per copy. Big choices are built step by
step (an auction bid jam by jam, a trade proposal recipe by recipe) so that no decision lists an
exploding number of subsets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from card_games.the_jam.cards import JAM, PIE, PINECONE, SALAD
from card_games.the_jam.rules import TRAVEL_MAX_SWAP
from jamsumo_sim.turnloop import Action

if TYPE_CHECKING:
    from card_games.the_jam.state import JamState


_ACTIONS: dict[tuple[Any, ...], Action] = {}


def _act(name: str, **args: Any) -> Action:
    """``Action.make`` for arguments that are already frozen (str, int, tuples of str), memoised:
    the same few thousand moves recur all game long, and building them dominated the profile."""
    key = (name, *args.items())
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action(name, tuple(sorted(args.items())))
    return action


def _distinct(state: JamState, ids: list[str]) -> list[str]:
    """First id of each distinct card label, in order."""
    seen: set[str] = set()
    out = []
    for cid in ids:
        label = state.cs.cards[cid].label
        if label not in seen:
            seen.add(label)
            out.append(cid)
    return out


# -- legal actions ---------------------------------------------------------------------------------
def legal_actions(state: JamState, seat: int) -> list[Action]:
    if state.auction is not None:
        return _auction_actions(state, seat)
    if state.bear_pick is not None:
        pies = [r["card"] for r in state.made[seat] if state.card(r["card"]).kind == PIE]
        return [_act(f"give back {state.label(c)}", pick=c) for c in _distinct(state, pies)]
    if state.ym_discard:
        jams = [r["card"] for r in state.made[seat] if state.card(r["card"]).kind == JAM]
        return [
            _act(f"discard {state.label(c)} to the basket", pick=c) for c in _distinct(state, jams)
        ]
    if state.trade is not None:
        return _trade_actions(state, seat)
    if state.step == "trade":
        return _trade_menu(state)
    if state.step == "play":
        return play_actions(state, seat)
    if state.step == "pay":
        return [
            _act(f"pay {state.label(c)} to the basket", pick=c)
            for c in _distinct(state, state.hands[seat])
        ]
    return []


def _auction_actions(state: JamState, seat: int) -> list[Action]:
    a = state.auction
    assert a is not None
    building = a["building"]
    total = sum(state.card(c).points for c in building)
    acts = [_act("pass" if not building else "pass (take my jams back)", bid="pass")]
    if total > a["high"]:
        acts.append(_act(f"bid {total} points of jam", bid="place"))
    jams = [
        r["card"]
        for r in state.made[seat]
        if state.card(r["card"]).kind == JAM and r["card"] not in building
    ]
    for cid in _distinct(state, jams):
        acts.append(
            _act(f"offer {state.label(cid)} ({state.card(cid).points})", bid="add", pick=cid)
        )
    return acts


def _trade_menu(state: JamState) -> list[Action]:
    acts = [_act("no trade", trade="none")]
    seat = state.active
    for partner in state._trade_partners():
        if state.travel:
            most = min(TRAVEL_MAX_SWAP, len(state.pile(seat)), len(state.pile(partner)))
            for k in range(1, most + 1):
                acts.append(
                    _act(f"blind swap {k} with seat {partner}", trade="blind", partner=partner, k=k)
                )
        else:
            acts.append(_act(f"propose a trade to seat {partner}", trade="start", partner=partner))
    return acts


def _trade_actions(state: JamState, seat: int) -> list[Action]:
    t = state.trade
    assert t is not None
    if state.travel:
        owner_ids = t["mine"] if t["stage"] == "give" else t["theirs"]
        pile = [r["card"] for r in state.pile(seat) if r["card"] not in owner_ids]
        return [
            _act(f"give {state.label(c)}", trade="give", pick=c) for c in _distinct(state, pile)
        ]
    if t["stage"] == "respond":
        return [_act("accept", trade="accept"), _act("refuse", trade="refuse")]
    partner = t["partner"]
    acts = []
    if t["mine"] or t["theirs"]:
        acts.append(_act("propose", trade="propose"))
    acts.append(_act("cancel the proposal", trade="cancel"))
    for cid in bundle_candidates(state, seat, t["mine"]):
        acts.append(_act(f"give my {state.label(cid)}", trade="mine", pick=cid))
    for cid in bundle_candidates(state, partner, t["theirs"]):
        acts.append(_act(f"ask for seat {partner}'s {state.label(cid)}", trade="theirs", pick=cid))
    return acts


def bundle_candidates(state: JamState, owner: int, chosen: list[str]) -> list[str]:
    """The recipes of ``owner`` that may join one side of a trade bundle, one per distinct card.

    A side is built in a fixed order (by card name, then id): only recipes after the last one
    added are offered. Every bundle (any number of recipes, copies included) is still reachable,
    in exactly one way, and the list shrinks as the bundle grows.
    """
    rank = state.cs_rank
    last = rank[chosen[-1]] if chosen else -1
    ids = sorted((c for r in state.made[owner] if rank[c := r["card"]] > last), key=rank.__getitem__)
    out: list[str] = []
    previous = None
    for cid in ids:
        label = state.label(cid)
        if label != previous:
            out.append(cid)
            previous = label
    return out


def play_actions(state: JamState, seat: int) -> list[Action]:
    """Every distinct way to play one card: jam, pie, fruit salad, or an ingredient to the basket."""
    cards = state.cs.cards
    hand = _distinct(state, state.hands[seat])
    basket = _distinct(state, state.accessible_basket())
    by_bottom: dict[str, list[str]] = {}
    for cid in basket:
        by_bottom.setdefault(cards[cid].bottom, []).append(cid)
    jams = _distinct(state, [r["card"] for r in state.made[seat] if cards[r["card"]].kind == JAM])
    acts: list[Action] = []
    for rid in hand:
        r = cards[rid]
        if r.kind == JAM:
            options = basket if r.top == PINECONE else by_bottom.get(r.top, [])
            for iid in options:
                acts.append(
                    _act(
                        f"make {r.label} from hand with {cards[iid].label} from the basket",
                        play="jam",
                        recipe=rid,
                        ingredient=iid,
                        source="hand",
                    )
                )
        elif r.kind == PIE:
            for jid in jams:
                if cards[jid].top in (r.top, PINECONE):
                    acts.append(
                        _act(
                            f"bake {r.label} from hand with my {cards[jid].label}",
                            play="pie",
                            recipe=rid,
                            jam=jid,
                            source="hand",
                        )
                    )
        elif r.kind == SALAD:
            for combo in _salad_combos(r.fruits, by_bottom):
                names = ", ".join(cards[c].label for c in combo)
                acts.append(
                    _act(
                        f"make {r.label} with {names} from the basket",
                        play="salad",
                        recipe=rid,
                        ingredients=tuple(combo),
                        source="hand",
                    )
                )
    for rid in basket:
        r = cards[rid]
        if r.kind == JAM:
            for iid in hand:
                bottom = cards[iid].bottom
                if bottom == r.top or (r.top == PINECONE and bottom):
                    acts.append(
                        _act(
                            f"make {r.label} from the basket with {cards[iid].label} from hand",
                            play="jam",
                            recipe=rid,
                            ingredient=iid,
                            source="basket",
                        )
                    )
        elif r.kind == PIE:
            for jid in jams:
                if cards[jid].top in (r.top, PINECONE):
                    acts.append(
                        _act(
                            f"bake {r.label} from the basket with my {cards[jid].label} (costs a card from hand)",
                            play="pie",
                            recipe=rid,
                            jam=jid,
                            source="basket",
                        )
                    )
    for cid in hand:
        acts.append(_act(f"put {cards[cid].label} in the basket", play="ingredient", pick=cid))
    return acts


def _salad_combos(
    fruits: tuple[str, ...], by_bottom: dict[str, list[str]]
) -> list[tuple[str, ...]]:
    combos: list[tuple[str, ...]] = [()]
    for fruit in fruits:
        options = by_bottom.get(fruit, [])
        combos = [c + (o,) for c in combos for o in options]
        if not combos:
            return []
    return combos


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
    elif state.trade is not None or state.step == "trade":
        _apply_trade(state, action)
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
        total = sum(state.card(c).points for c in a["building"])
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
    kind = action["trade"]
    seat = state.active
    if kind == "none":
        state._enter_play()
        return
    if kind == "start":
        state.proposals += 1
        state.trade = {"partner": action["partner"], "mine": [], "theirs": [], "stage": "build"}
        return
    if kind == "blind":
        state.traded_blind = True
        state.trade = {
            "partner": action["partner"],
            "k": action["k"],
            "mine": [],
            "theirs": [],
            "stage": "give",
        }
        state.say(f"Seat {seat} swaps {action['k']} recipe(s) blind with seat {action['partner']}.")
        _autofill_blind(state)
        return
    t = state.trade
    assert t is not None
    if kind == "give":
        (t["mine"] if t["stage"] == "give" else t["theirs"]).append(action["pick"])
        _autofill_blind(state)
    elif kind == "mine":
        t["mine"].append(action["pick"])
    elif kind == "theirs":
        t["theirs"].append(action["pick"])
    elif kind == "cancel":
        state.say(f"Seat {seat} withdraws the proposal.")
        state.trade = None
        state._enter_trade()
    elif kind == "propose":
        t["stage"] = "respond"
        state.say(
            f"Seat {seat} offers seat {t['partner']} "
            + ", ".join(state.label(c) for c in t["mine"])
            + " for "
            + ", ".join(state.label(c) for c in t["theirs"])
            + "."
        )
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
    for stage, owner, key in (("give", state.active, "mine"), ("answer", t["partner"], "theirs")):
        if t["stage"] != stage:
            continue
        pile = [r["card"] for r in state.pile(owner)]
        if len(pile) == k:
            t[key] = list(pile)
        if len(t[key]) == k:
            t["stage"] = "answer" if stage == "give" else "done"
    if t["stage"] == "answer":
        pile = [r["card"] for r in state.pile(t["partner"])]
        if len(pile) == k:
            t["theirs"] = list(pile)
            t["stage"] = "done"
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
    for recipe in moving_a:
        recipe["since"] = state.turn_no  # its ingredient stays until the receiver's next discard
        state.made[b].append(recipe)
    for recipe in moving_b:
        recipe["since"] = state.turn_no
        state.made[a].append(recipe)


def _apply_play(state: JamState, action: Action) -> None:
    seat = state.active
    kind = action["play"]
    hand = state.hands[seat]

    def take(cid: str, source: str) -> None:
        if source == "hand":
            hand.remove(cid)
        else:
            state.basket.remove(cid)

    if kind == "ingredient":
        cid = action["pick"]
        hand.remove(cid)
        state.to_basket(cid)
        state.say(f"Seat {seat} puts {state.label(cid)} in the basket.")
    elif kind == "jam":
        rid, iid, source = action["recipe"], action["ingredient"], action["source"]
        take(rid, source)
        take(iid, "basket" if source == "hand" else "hand")
        state.made[seat].append({"card": rid, "under": [iid], "since": state.turn_no})
        where = "from hand" if source == "hand" else "from the basket"
        state.say(f"Seat {seat} makes {state.label(rid)} {where} with {state.label(iid)}.")
    elif kind == "pie":
        rid, jid, source = action["recipe"], action["jam"], action["source"]
        take(rid, source)
        jam = state.take_made(seat, jid)
        state.clear_under(jam)  # the jam's own ingredient goes to the basket at once
        state.made[seat].append({"card": rid, "under": [jid], "since": state.turn_no})
        where = "from hand" if source == "hand" else "from the basket"
        state.say(f"Seat {seat} bakes {state.label(rid)} {where} with {state.label(jid)}.")
        if source == "basket":
            state.pie_debt += 1
    elif kind == "salad":
        rid = action["recipe"]
        ingredients = list(action["ingredients"])
        take(rid, "hand")
        for cid in ingredients:
            state.basket.remove(cid)
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
