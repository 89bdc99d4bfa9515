"""The four card games' observation encoders (see :mod:`card_games.envs.features` for the rules:
the seat's own view only, fixed sizes, relative seats). Each field's meaning is its ``doc``;
``python -c "from card_games.envs.features import describe; print(describe('the_jam'))"`` prints
a game's whole layout. Free text (log, end reason) and ids repeated elsewhere are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

from card_games.envs.feature_builder import Builder, Encoder


# -- Jellyfish -----------------------------------------------------------------------------------
@cache
def _jf_kinds(game: Any) -> tuple[str, ...]:
    return tuple(sorted(game.label_of))


def _jf_kind(card: str, kinds: tuple[str, ...]) -> str:
    return card if card in kinds else card.rsplit(".", 1)[0]  # a card id is ``<kind>.<copy>``


JF_STEPS = ("deal", "draw", "cover_draw", "steal", "cover", "give")


def jellyfish(b: Builder, v: Mapping[str, Any], game: Any) -> None:
    kinds = _jf_kinds(game)
    k = len(kinds)
    b.onehot("variant", v["variant"], game.variants, "deck variant")
    b.num("players", v["players"], "number of players")
    b.num("set_size", v["set_size"], "cards that make a set")
    b.num("sets_to_win", v["sets_to_win"], "sets needed to win")
    b.num("turn", v["turn"], "turns played")
    b.seat("active", v["active"], "the seat whose turn it is")
    b.onehot("step", v["step"], JF_STEPS, "what the turn asks now")
    b.num("pile", v["pile"], "cards left in the pile")
    b.counts("pile_bottom", v["pile_bottom"], kinds, "known bottom cards by kind", _kind(kinds))
    rows = []
    for table in v["tables"]:
        row = np.zeros(4 * k)
        for group in table["partial"]:
            i = kinds.index(group["kind"])
            row[i] = group["cards"]
            row[k + i] = 1.0 if group["covered"] else 0.0
            if group["cover"] is not None:  # a public Cover card, by kind
                row[2 * k + kinds.index(_jf_kind(group["cover"], kinds))] += 1.0
        for kind in table["sets"]:
            row[3 * k + kinds.index(kind)] += 1.0
        rows.append(row)
    b.per_seat_rows(
        "tables",
        rows,
        4 * k,
        "per kind: cards in the unfinished group, group covered, public Cover card kind, "
        "completed sets",
    )
    giving = v["giving"] or {}
    b.seat("giving.seat", giving.get("seat"), "the seat that must give a card away")
    b.onehot("giving.why", giving.get("why"), ("drawn", "stolen", "cover"), "why it gives")
    card = giving.get("card")
    b.counts("giving.card", [card] if card else [], kinds, "the card given, if seen", _kind(kinds))
    b.seats("winners", v["winners"], "winners (at the end)")


def _kind(kinds: tuple[str, ...]) -> Any:
    return lambda card: _jf_kind(card, kinds)


# -- Jumble Jam -----------------------------------------------------------------------------------
@cache
def _jj_vocab(game: Any) -> dict[str, Any]:
    from card_games.jumble_jam.grid import grid

    cat = game.catalog
    layouts = list(cat.layouts.values())
    edges = sorted({e for lay in layouts for e in grid(lay.columns, lay.rows).edge_names})
    types = tuple(cat.pastry_types)
    return {
        "kinds": tuple(sorted({card.kind for card in cat.cards.values()})),
        "types": types,
        "token_types": (*types, cat.wild),
        "die": (*types, "grandma"),
        "orders": tuple(cat.order_ids),
        "edges": tuple(edges),
        "cells": max(lay.columns * lay.rows for lay in layouts),
    }


JJ_PHASES = (
    "set-up",
    "new batch",
    "grandma",
    "hand limit",
    "get to work",
    "getting orders ready",
    "game over",
)


def jumble_jam(b: Builder, v: Mapping[str, Any], game: Any) -> None:
    w = _jj_vocab(game)
    kinds, orders, edges = w["kinds"], w["orders"], w["edges"]
    b.onehot("variant", v["variant"], game.variants, "variant")
    b.num("players", v["players"], "number of players")
    b.num("round", v["round"], "round number")
    b.onehot("phase", v["phase"], JJ_PHASES, "phase")
    b.seat("to_move", v["to_move"], "seat to move")
    b.seat("first_player", v["first_player"], "first player")
    b.seat("efficient", v["efficient"], "holder of the efficiency token")
    b.onehot("die", v["die"], w["die"], "die face")
    b.num("columns", v["columns"], "layout columns")
    b.num("rows", v["rows"], "layout rows")
    cells = np.zeros((w["cells"], len(kinds)))
    for i, kind in enumerate(v["layout"]):
        if kind is not None:
            cells[i, kinds.index(kind)] = 1.0
    b.add("layout", cells.ravel(), f"per slot (column-major, {w['cells']} slots): card kind")
    jars = np.zeros((len(edges), b.max_players))
    for edge, seat in v["jars"].items():
        jars[edges.index(edge), b.rel(seat)] = 1.0
    b.add("jars", jars.ravel(), f"per edge name ({len(edges)}, sorted): jar owner, relative seat")
    b.per_seat("jars_placed", v["jars_placed"], "jars placed")
    b.counts("orders", [o["id"] for o in v["orders"]], orders, "orders on display")
    b.num("orders_deck", v["orders_deck"], "orders left in the deck")
    b.num("pastry_deck", v["pastry_deck"], "pastry cards left in the deck")
    b.counts("discard", v["discard"], kinds, "discard pile by kind")
    b.counts("hand", v["hand"], kinds, "my hand by kind")
    b.per_seat("hand_sizes", v["hand_sizes"], "hand sizes")
    types = w["token_types"]
    b.per_seat_rows(
        "token_type",
        [_onehot(t, types) for t in v["token_type"]],
        len(types),
        "pastry token type held",
    )
    b.per_seat("pastry_tokens", v["pastry_tokens"], "pastry tokens")
    b.per_seat("kitty_tokens", v["kitty_tokens"], "kitty tokens")
    b.per_seat("coins", v["coins"], "coins")
    b.per_seat("exact_orders", v["exact_orders"], "exact orders filled")
    b.per_seat_rows(
        "completed",
        [_count([o["order"] for o in c], orders) for c in v["completed"]],
        len(orders),
        "orders completed",
    )
    built = v["building"] or {}
    b.num("building", bool(built), "an order is being filled")
    b.onehot("building.order", built.get("order"), orders, "the order being filled")
    b.counts("building.cards", [c for c, _ in built.get("cards", ())], kinds, "cards put in")
    b.counts("building.as", [t for _, t in built.get("cards", ())], types, "as which type")
    b.add("building.tokens", _amounts(built.get("tokens"), types), "tokens put in, per type")
    b.add("building.remaining", _amounts(built.get("remaining"), types), "still needed, per type")
    b.num("over", v["over"], "the game is over")


# -- JumbleJack -----------------------------------------------------------------------------------
JK_STAGES = (
    "setup",
    "declare",
    "respond",
    "point",
    "tie",
    "dress",
    "final_cast",
    "final_dress",
    "over",
)


def jumblejack(b: Builder, v: Mapping[str, Any], game: Any) -> None:
    c = game.components
    acc = tuple(c.accessories)
    pirates = tuple(p for p, _ in c.pirates)
    tokens = tuple(t.id for t in c.tokens)
    a = len(acc)
    b.num("players", v["players"], "number of players")
    b.onehot("stage", v["stage"], JK_STAGES, "stage")
    b.num("round", v["round"], "round number")
    to_act = v["to_act"]
    b.seats("to_act", to_act if isinstance(to_act, list) else [to_act], "seats to act")
    b.counts("doll", v["doll"], acc, "accessories on the doll")
    b.counts("doll_card", v["doll_card"], acc, "accessories on the doll's card")
    for name in ("doll_holder", "round_holder", "first_player", "target"):
        b.seat(name, v[name], name.replace("_", " "))
    b.seats("tied", v["tied"], "tied seats")
    pointing = np.zeros((b.max_players, b.max_players))
    for s, t in v["pointing"].items():
        pointing[b.rel(int(s)), b.rel(int(t))] = 1.0
    b.add("pointing", pointing.ravel(), "who points at whom, relative seats (from x to)")
    mirrors = np.zeros((b.max_players, b.max_players))
    for m in v["mirrors"]:
        mirrors[b.rel(m["from"]), b.rel(m["to"])] += 1.0
    b.add("mirrors", mirrors.ravel(), "mirrors played, relative seats (from x to)")
    b.per_seat("fingers", v["fingers"], "fingers")
    b.num("centre_rings", v["centre_rings"], "rings in the centre")
    b.add("piles", np.array([float(v["piles"][x]) for x in acc]), "cards per accessory pile")
    stacks = []
    for st in v["stacks"]:
        row = np.zeros(1 + 2 * a)
        row[0] = st["cards"]
        if st["top"] is not None:
            row[1 + 2 * acc.index(st["top"]["accessory"]) + (0 if st["top"]["has"] else 1)] = 1.0
        stacks.append(row)
    b.per_seat_rows("stacks", stacks, 1 + 2 * a, "cards, top card (accessory x has/has not)")
    said = np.zeros((b.max_players, a, 2))
    for d in v["declarations"]:
        said[b.rel(d["seat"]), acc.index(d["accessory"]), 0 if d["has"] else 1] += 1.0
    b.add("declarations", said.ravel(), "statements made: relative seat x accessory x has/not")
    used = [np.zeros(len(tokens)) for _ in range(v["players"])]
    for s, tok in v["tokens_used"].items():
        used[int(s)] = _onehot(tok["id"], tokens)
    b.per_seat_rows("tokens_used", used, len(tokens), "token revealed")
    b.num("tokens_discarded", v["tokens_discarded"], "tokens discarded")
    shown = [np.zeros(len(pirates)) for _ in range(v["players"])]
    for s, p in v["revealed"].items():
        shown[int(s)] = _onehot(p["id"], pirates)
    b.per_seat_rows("revealed", shown, len(pirates), "pirate revealed")
    mine = v["my_pirate"] or {}
    b.onehot("my_pirate", mine.get("id"), pirates, "my pirate")
    b.counts("my_pirate.wears", mine.get("wears"), acc, "what my pirate wears")
    token = v["my_token"] or {}
    b.onehot("my_token", token.get("id"), tokens, "my token")
    b.num("my_token.used", token.get("used"), "my token is used")


# -- The Jam --------------------------------------------------------------------------------------
@cache
def _tj_vocab(game: Any) -> dict[str, Any]:
    cards = game.cards
    return {
        "cards": tuple(cards.cards),
        "fruits": tuple(sorted({c.bottom for c in cards.cards.values() if c.bottom})),
        "tasks": tuple(cards.tasks),
    }


TJ_STEPS = ("setup", "draw", "trade", "play", "pay", "discard", "over")
TJ_TRADE_STAGES = ("build", "give", "respond", "answer", "done")


def the_jam(b: Builder, v: Mapping[str, Any], game: Any) -> None:
    w = _tj_vocab(game)
    cards, fruits = w["cards"], w["fruits"]
    b.onehot("variant", v["variant"], game.variants, "variant")
    b.num("players", v["players"], "number of players")
    b.num("turn", v["turn"], "turn number")
    b.seat("active", v["active"], "the active seat")
    b.seat("to_move", v["to_move"], "seat to move")
    b.onehot("step", v["step"], TJ_STEPS, "step of the turn")
    b.num("deck", v["deck"], "cards left in the deck")
    b.counts("basket", v["basket"], cards, "basket by card")
    b.num("accessible?", v["accessible"] is not None, "travel: the accessible part is listed")
    b.counts("accessible", v["accessible"], cards, "travel: accessible basket cards")
    b.per_seat("hand_sizes", v["hand_sizes"], "hand sizes")
    b.counts("hand", v["hand"], cards, "my hand by card")
    made, under = [], []
    for recipes in v["made"]:
        made.append(_count([r["card"] for r in recipes], cards))
        seen = np.zeros(len(cards) + len(fruits))
        for r in recipes:
            for ing in r["under"]:
                if ing.startswith("face-down:"):  # only its fruit half is shown
                    seen[len(cards) + fruits.index(ing.split(":", 1)[1])] += 1.0
                else:
                    seen[cards.index(ing)] += 1.0
        under.append(seen)
    b.per_seat_rows("made", made, len(cards), "recipes made (shown), by card")
    b.per_seat_rows(
        "made.under",
        under,
        len(cards) + len(fruits),
        "ingredients on them: by card, then face-down ones by fruit",
    )
    b.per_seat("made_counts", v["made_counts"], "recipes made")
    b.counts("tasks", v["tasks"], w["tasks"], "my task cards")
    for name in ("young_man", "bear", "bear_pick"):
        b.seat(name, v[name], name.replace("_", " "))
    b.counts("held", v["held"], cards, "cards held aside")
    b.counts("removed", v["removed"], cards, "cards removed from the game")
    auction = v["auction"] or {}
    b.num("auction", bool(auction), "an auction is running")
    for name in ("drawer", "bidder", "high_seat"):
        b.seat(f"auction.{name}", auction.get(name), f"auction {name}")
    b.num("auction.high", auction.get("high"), "highest bid (points)")
    b.counts("auction.building", auction.get("building"), cards, "cards being auctioned")
    trade = v["trade"] or {}
    b.num("trade", bool(trade), "a trade is under way")
    b.seat("trade.partner", trade.get("partner"), "trade partner")
    b.onehot("trade.stage", trade.get("stage"), TJ_TRADE_STAGES, "trade stage")
    b.num("trade.k", trade.get("k"), "travel: cards to swap")
    for side in ("mine", "theirs"):
        got = trade.get(side)
        b.counts(f"trade.{side}", got if isinstance(got, list) else [], cards, f"{side}: cards")
        b.num(f"trade.{side}#", len(got) if isinstance(got, list) else got, f"{side}: how many")
    b.num("ym_discard", v["ym_discard"], "the young man's discard is due")
    b.num("proposals", v["proposals"], "trade proposals this turn")
    b.num("refused", len(v["refused"]), "trades refused this turn")
    b.num("pie_debt", v["pie_debt"], "pies owed")


# -- helpers --------------------------------------------------------------------------------------
def _onehot(value: Any, vocab: tuple[Any, ...]) -> np.ndarray:
    out = np.zeros(len(vocab))
    if value is not None:
        out[vocab.index(value)] = 1.0
    return out


def _count(items: Any, vocab: tuple[Any, ...]) -> np.ndarray:
    out = np.zeros(len(vocab))
    for x in items:
        out[vocab.index(x)] += 1.0
    return out


def _amounts(amounts: Mapping[str, Any] | None, vocab: tuple[Any, ...]) -> np.ndarray:
    out = np.zeros(len(vocab))
    for k, n in (amounts or {}).items():
        out[vocab.index(k)] = float(n)
    return out


ENCODERS: dict[str, Encoder] = {
    "jellyfish": jellyfish,
    "jumble_jam": jumble_jam,
    "jumblejack": jumblejack,
    "the_jam": the_jam,
}
