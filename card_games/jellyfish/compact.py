"""The Jelly Fish Toast & Jam table in the compact layout (an 80×24 terminal): the status and
the pile on one line, each seat on flowing lines (its counts, then its partial sets), no legend;
``full`` shows the full table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from card_games.jellyfish.render import STEP_WORDS, JellyfishRules, _partial, deck_of
from card_games.terminal.table import Look, flow_cut, heading, seat_label

SEAT_ROWS = 2  # rows per seat at most


def build(
    game: JellyfishRules, obs: Mapping[str, Any], seat: int | None, look: Look
) -> list[RenderableType]:
    deck = deck_of(game, obs)
    if obs["over"]:
        winners = " and ".join(f"seat {s}" for s in obs["winners"])
        status = f"Game over ({obs['end_reason']}). Winner: {winners}."
    else:
        step = str(obs["step"])
        status = f"Turn {obs['turn']}: seat {obs['active']}, {STEP_WORDS.get(step, step)}."
    title = heading(f" Jelly Fish - {obs['players']}p ", look)
    title.append(f" {status}")
    pile = f"Draw pile {obs['pile']}"
    bottom = obs.get("pile_bottom") or []
    if bottom:
        pile += f" (at the bottom: {', '.join(deck.label(c) for c in bottom)})"
    rules = f"; sets of {obs['set_size']}, first to {obs['sets_to_win']} sets wins."
    parts: list[RenderableType] = [title, Text(pile + rules)]
    to_move = None if obs["over"] else obs["active"]
    for s, t in enumerate(obs["tables"]):
        face_up = sum(e["cards"] for e in t["partial"])
        done = ", ".join(deck.label(k) for k in t["sets"]) or "none"
        lead = (
            f"{seat_label(s, seat, to_move, look).plain}: sets {len(t['sets'])}/{obs['sets_to_win']} ({done}), "
            f"face-up {face_up}:"
        )
        partial = [_partial(deck, e) for e in t["partial"]] or ["no cards"]
        parts.append(flow_cut(lead, partial, look, SEAT_ROWS))
    giving = obs.get("giving")
    if giving:
        card = deck.label(giving["card"]) if giving["card"] else "a Cover card only they have seen"
        parts.append(Text(f"Seat {giving['seat']} must give away {card}."))
    return parts
