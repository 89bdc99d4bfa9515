"""The text view a terminal player sees: the public table, their own hand and tasks, recent log."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from card_games.the_jam.cards import CardSet
from card_games.the_jam.rules import FACE_DOWN_PREFIX

LOG_LINES = 12


def _recipe(cs: CardSet, r: Mapping[str, Any]) -> str:
    text = f"{cs.cards[r['card']].label} [{cs.cards[r['card']].points}]"
    if r["under"]:
        text += " on " + " + ".join(_ingredient(cs, c) for c in r["under"])
    return text


def _ingredient(cs: CardSet, card_id: str) -> str:
    if card_id.startswith(FACE_DOWN_PREFIX):  # played face down from a hand: its fruit only
        return f"a face-down card ({card_id.removeprefix(FACE_DOWN_PREFIX)} ingredient)"
    return cs.cards[card_id].label


def render(cs: CardSet, obs: Mapping[str, Any], seat: int | None) -> str:
    lines: list[str] = []
    who = "spectator" if seat is None else f"seat {seat}"
    step = obs["step"]
    if step == "trade" and not obs.get("trade"):
        step = "trade, or play a card"  # the plays are listed beside the trades
    lines.append(
        f"=== The Jam ({obs['variant']}, {obs['players']} players) — {who} — turn {obs['turn']}, "
        f"seat {obs['active']} to play; step: {step} ==="
    )
    lines.append(
        f"Deck: {obs['deck']} cards.  Hands: "
        + ", ".join(f"seat {s} {n}" for s, n in enumerate(obs["hand_sizes"]))
    )
    basket = obs["accessible"] if obs.get("accessible") is not None else obs["basket"]
    extra = (
        f" (top of {len(obs['basket'])} cards in stacks)"
        if obs.get("accessible") is not None
        else ""
    )
    lines.append(f"Basket{extra}: " + ("; ".join(cs.cards[c].label for c in basket) or "empty"))
    for s, made in enumerate(obs["made"]):
        owner = "you" if s == seat else f"seat {s}"
        special = []
        if obs["young_man"] == s:
            special.append("Young man")
        if obs["bear"] == s:
            special.append("Bear")
        tag = f" + {' and '.join(special)}" if special else ""
        hidden = obs["made_counts"][s] - len(made)
        pile = f" (+{hidden} face down)" if hidden else ""
        lines.append(
            f"  {owner}{tag}: " + ("; ".join(_recipe(cs, r) for r in made) or "no recipes") + pile
        )
    if seat is not None and obs.get("hand") is not None:
        lines.append("Your hand: " + ("; ".join(cs.cards[c].label for c in obs["hand"]) or "empty"))
        for t in obs.get("tasks") or []:
            lines.append(f"  task {cs.tasks[t].describe()}")
    if obs.get("auction"):
        a = obs["auction"]
        lines.append(
            f"Young man auction: high bid {a['high']} by seat {a['high_seat']}; seat {a['bidder']} to bid"
        )
        if a["building"]:
            lines.append("  offered so far: " + ", ".join(cs.cards[c].label for c in a["building"]))
    if obs.get("trade"):
        t = obs["trade"]
        mine = t["mine"] if isinstance(t["mine"], list) else [f"{t['mine']} hidden"]
        theirs = t["theirs"] if isinstance(t["theirs"], list) else [f"{t['theirs']} hidden"]

        def names(ids: list[str]) -> str:
            return ", ".join(cs.cards[c].label if c in cs.cards else c for c in ids) or "nothing"

        lines.append(
            f"Trade with seat {t['partner']} ({t['stage']}): seat {obs['active']} gives {names(mine)}; gets {names(theirs)}"
        )
    if obs.get("pie_debt"):
        lines.append(f"Owed to the basket for a pie taken from it: {obs['pie_debt']} card(s)")
    if obs.get("final"):
        f = obs["final"]
        lines.append(
            "Final scores: " + ", ".join(f"seat {s} {v:g}" for s, v in enumerate(f["scores"]))
        )
        if f.get("breakdown"):
            for s, b in enumerate(f["breakdown"]):
                lines.append(f"  seat {s}: " + ", ".join(f"{k} {v}" for k, v in b.items()))
        lines.append("Winner: " + " and ".join(f"seat {s}" for s in f["winners"]))
    lines.append("Recent:")
    lines += [f"  {line}" for line in obs["log"][-LOG_LINES:]]
    return "\n".join(lines)
