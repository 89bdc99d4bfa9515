"""Helpers for The Jam tests: pick cards by their properties (never by assumed names), build positions."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from card_games.the_jam import GAME
from card_games.the_jam.cards import JAM, PIE, PINECONE, SALAD, SPECIAL, Card
from card_games.the_jam.state import JamState
from jamsumo_sim.turnloop import Action, RandomAgent, SeatView

CS = GAME.cards
CARDS = CS.cards


def pick(pred: Callable[[Card], bool], exclude: Sequence[str] = ()) -> str:
    """The first card id satisfying ``pred`` that is not in ``exclude``."""
    for card in CARDS.values():
        if card.id not in exclude and pred(card):
            return card.id
    raise LookupError("no such card in the data")


def jam_of(fruit: str | None = None, exclude: Sequence[str] = ()) -> str:
    return pick(
        lambda c: c.kind == JAM and c.top != PINECONE and (fruit is None or c.top == fruit), exclude
    )


def pie_of(fruit: str | None = None, exclude: Sequence[str] = ()) -> str:
    return pick(lambda c: c.kind == PIE and (fruit is None or c.top == fruit), exclude)


def pinecone_jam(exclude: Sequence[str] = ()) -> str:
    return pick(lambda c: c.kind == JAM and c.top == PINECONE, exclude)


def salad(exclude: Sequence[str] = ()) -> str:
    return pick(lambda c: c.kind == SALAD, exclude)


def bottom(fruit: str, exclude: Sequence[str] = (), kind: str | None = None) -> str:
    """A card whose ingredient half is ``fruit`` (optionally of one recipe kind)."""
    return pick(lambda c: c.bottom == fruit and (kind is None or c.kind == kind), exclude)


def filler(n: int, exclude: Sequence[str], avoid: Sequence[str] = ()) -> list[str]:
    """``n`` ordinary cards not in ``exclude``, salads first (they need three basket cards, so they
    rarely open a play by accident), none with an ingredient half in ``avoid``."""
    order = sorted(CARDS.values(), key=lambda c: (c.kind != SALAD, c.kind != PIE))
    out: list[str] = []
    for card in order:
        if len(out) == n:
            break
        if card.kind != SPECIAL and card.id not in exclude and card.bottom not in avoid:
            out.append(card.id)
    return out


def position(
    players: int = 2,
    variant: str = "standard",
    *,
    hands: Sequence[Sequence[str]],
    basket: Sequence[str] = (),
    deck: Sequence[str] = (),
    made: Sequence[Sequence[str]] | None = None,
    tasks: Sequence[dict[str, list[str]]] | None = None,
    active: int = 0,
    turn_no: int = 5,
) -> JamState:
    """A state at the start of ``active``'s turn (the draw is made at once: top of ``deck`` is its end)."""
    st: JamState = GAME.new_initial_state(
        GAME.validate_params({"players": players, "variant": variant})
    )
    st.pending = []
    st.turns.give_token("first_player", active)
    st.turns.refresh_order()
    st.hands = [list(h) for h in hands]
    st.basket = list(basket)
    st.deck = list(deck)
    st.made = [[{"card": c, "under": [], "since": 0} for c in m] for m in (made or [[]] * players)]
    if tasks is not None:
        st.tasks = [dict(t) for t in tasks]
    st.turn_no = turn_no - 1
    st._start_turn()
    return st


def act(st: JamState, prefix: str) -> None:
    """Apply the one legal action whose name starts with ``prefix``."""
    matches = [a for a in st.legal_actions() if a.name.startswith(prefix)]
    assert len(matches) == 1, f"{prefix!r} matches {[a.name for a in matches]} of {names(st)}"
    st.apply_action(matches[0])


def names(st: JamState) -> list[str]:
    return [a.name for a in st.legal_actions()]


def find(st: JamState, **args: Any) -> Action:
    for a in st.legal_actions():
        if all(a.get(k) == v for k, v in args.items()):
            return a
    raise AssertionError(f"no legal action with {args}: {names(st)}")


def label(cid: str) -> str:
    return CARDS[cid].label


class TradingAgent(RandomAgent):
    """A random agent that opens a trade whenever it may, then builds and answers at random.

    A trade step lists every play beside the one or two ways to open a trade, so a uniform
    agent rarely trades; playouts that must cover trading seat this one.
    """

    kind = "trading"

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions
        trades = [a for a in legal if a.get("trade") is not None]
        pool = trades or legal
        return pool[view.random_index(len(pool))]
