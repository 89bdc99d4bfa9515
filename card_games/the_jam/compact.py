"""The Jam table in the compact layout (an 80×24 terminal): one flowing line per seat with what
it made, the basket and the hand on flowing lines, the tasks by name (``board`` shows the full
table with each task written out), the score and any trade or auction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from card_games.terminal.table import Look, flow, flow_cut, heading, seat_label
from card_games.the_jam.cards import CardSet
from card_games.the_jam.render import (
    BREAKDOWN_PARTS,
    JamRules,
    _own_score,
    _showing,
    _status,
    _trade_lines,
    card_text,
)

SEAT_ROWS = 2  # rows of made recipes per seat at most (the full table lists them all)
BASKET_ROWS = 2  # rows of the basket at most (the moves name the cards they use)
HAND_ROWS = 5  # the hand whole, as a rule (its cards are what a person plays)


def _made(cs: CardSet, made: list[Mapping[str, Any]]) -> list[str]:
    """Made recipes by name, without their ingredient half (it no longer matters once made),
    copies counted (``cherry jam ×3``)."""
    names: dict[str, int] = {}
    for r in made:
        card = cs.cards.get(r["card"])
        name = (r["card"] if card is None else card.label.split(" (")[0]).replace(
            "fruit salad", "salad"
        )
        names[name] = names.get(name, 0) + 1
    return [f"{k} ×{v}" if v > 1 else k for k, v in names.items()]


def _card(cs: CardSet, card_id: str) -> str:
    return card_text(cs, card_id).replace("fruit salad", "salad")


def build(
    game: JamRules, obs: Mapping[str, Any], seat: int | None, look: Look
) -> list[RenderableType]:
    cs = game.cards
    n = obs["players"]
    to_move = obs["to_move"] if isinstance(obs["to_move"], int) and obs["to_move"] >= 0 else None
    title = heading(f" The Jam ({obs['variant']}) - {n}p ", look)
    title.append(" " + _status(obs))
    # the question under way (a trade offered, the auction) right under the title: never cut
    parts: list[RenderableType] = [title, *_trade_lines(cs, obs, seat)]
    for s in range(n):
        special = [
            name
            for name, holder in (("Young man", obs["young_man"]), ("Bear", obs["bear"]))
            if holder == s
        ]
        hidden = obs["made_counts"][s] - len(obs["made"][s])
        facts = f"hand {obs['hand_sizes'][s]}, {_showing(cs, obs, s)}pt showing"
        facts += "".join(f", {x}" for x in special) + (f", +{hidden} face down" if hidden else "")
        made = _made(cs, obs["made"][s]) or ["nothing made"]
        lead = f"{seat_label(s, seat, to_move, look).plain} ({facts}):"
        parts.append(flow_cut(lead, made, look, SEAT_ROWS))
    if obs.get("accessible") is not None:
        basket, title_text = obs["accessible"], f"Basket tops ({len(obs['basket'])} in all)"
    else:
        basket, title_text = obs["basket"], "Basket"
    lead = f"Deck {obs['deck']}. {title_text}:"
    parts.append(flow_cut(lead, [_card(cs, c) for c in basket] or ["empty"], look, BASKET_ROWS))
    if seat is not None and obs.get("hand") is not None:
        hand = [_card(cs, c) for c in obs["hand"]] or ["empty"]
        parts.append(flow_cut("Your hand:", hand, look, HAND_ROWS))
    own = _own_score(cs, obs, seat) if seat is not None else None
    if own is not None:
        progress = ", ".join(f"{k} {own[k]}" for k in BREAKDOWN_PARTS if own[k])
        tasks = " ".join(obs.get("tasks") or [])
        parts.append(
            flow(
                f"Tasks {tasks} ('full' writes them out).",
                [f"Score now: {own['total']} ({progress or 'nothing yet'})"],
                look,
            )
        )
    if obs.get("final"):
        f = obs["final"]
        scores = ", ".join(f"seat {s} {v:g}" for s, v in enumerate(f["scores"]))
        winners = " and ".join(f"seat {s}" for s in f["winners"])
        parts.append(Text(f"Final scores: {scores}; winner: {winners}"))
    return parts
