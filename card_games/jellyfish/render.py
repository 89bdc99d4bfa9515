"""The text view a terminal player sees: every table, the pile, what is being given, recent log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.jellyfish.cards import Deck

RECENT_LINES = 12


def _partial(deck: Deck, entry: Mapping[str, Any]) -> str:
    text = f"{deck.label(entry['kind'])} x{entry['cards']}"
    if entry["covered"]:
        cover = entry.get("cover")
        text += f" [covered by {deck.label(cover)}]" if cover else " [covered by a face-down card]"
    return text


def render(deck: Deck, obs: Mapping[str, Any], seat: int | None) -> str:
    lines = [
        f"Jelly Fish Toast & Jam — {obs['players']} players, sets of {obs['set_size']}, "
        f"first to {obs['sets_to_win']} sets wins"
    ]
    bottom = obs.get("pile_bottom") or []
    pile = f"Draw pile: {obs['pile']} cards"
    if bottom:
        pile += f" (known at the bottom: {', '.join(deck.label(c) for c in bottom)})"
    if obs["over"]:
        winners = " and ".join(f"seat {s}" for s in obs["winners"])
        lines.append(f"Game over ({obs['end_reason']}). Winner: {winners}. {pile}.")
    else:
        lines.append(
            f"Turn {obs['turn']}: seat {obs['active']} plays (step: {obs['step']}). {pile}."
        )
    for s, table in enumerate(obs["tables"]):
        who = f"Seat {s}{' (you)' if s == seat else ''}"
        sets = ", ".join(deck.label(k) for k in table["sets"]) or "none"
        partial = "; ".join(_partial(deck, e) for e in table["partial"]) or "no cards"
        lines.append(f"  {who}: sets {len(table['sets'])} [{sets}] | {partial}")
    giving = obs.get("giving")
    if giving:
        card = deck.label(giving["card"]) if giving["card"] else "a Cover card only they have seen"
        lines.append(f"Seat {giving['seat']} must give away {card}.")
    recent = obs["log"][-RECENT_LINES:]
    if recent:
        lines.append("Recent:")
        lines.extend(f"  {line}" for line in recent)
    return "\n".join(lines)
