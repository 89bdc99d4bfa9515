"""The terminal view of one seat's Jumble Jam observation (public table, own hand, recent log)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from card_games.jumble_jam.grid import grid

LOG_LINES = 12


def _order_text(order: Mapping[str, Any]) -> str:
    wants = " + ".join(f"{n} {t}" for t, n in order["needs"].items())
    return f"{order['id']}: {wants}  (exact {order['exact']} / waste {order['waste']} coins)"


def _layout_lines(obs: Mapping[str, Any]) -> list[str]:
    g = grid(obs["columns"], obs["rows"])
    layout = obs["layout"]
    jars = obs["jars"]
    width = 14
    lines = ["       " + "".join(f"{chr(ord('A') + c):^{width}}   " for c in range(g.columns))]
    for r in range(g.rows):
        cells, below = [], []
        for c in range(g.columns):
            s = g.slot(c, r)
            cells.append(f"[{layout[s] or '':^{width - 2}}]")
            right = (
                jars.get(f"{g.slot_names[s]}|{g.slot_names[g.slot(c + 1, r)]}")
                if c + 1 < g.columns
                else None
            )
            cells.append(f" {right if right is not None else ' '} ")
            down = jars.get(f"{g.slot_names[s]}|{g.slot_names[s + 1]}") if r + 1 < g.rows else None
            below.append(f"{down if down is not None else '':^{width}}   ")
        lines.append(f"  {r + 1:>2}   " + "".join(cells))
        if r + 1 < g.rows:
            lines.append("       " + "".join(below))
    return lines


def render(obs: Mapping[str, Any], seat: int | None) -> str:
    n = obs["players"]
    out = [
        f"=== Jumble Jam — round {obs['round']}, {obs['phase']}"
        + (f" ({obs['variant']})" if obs["variant"] != "standard" else "")
        + " ===",
        f"Proactive Grandchild (places first): seat {obs['first_player']}; "
        f"Efficient Grandchild (fills first): seat {obs['efficient']}",
        f"Grandma's die: {obs['die'] or '—'}"
        + ("  (only exact orders this round)" if obs["die"] == "grandma" else ""),
        "",
        "Oven ↓ (jars: the seat number between two cards)",
        *_layout_lines(obs),
        "",
        "Orders on display:",
        *[f"  {_order_text(o)}" for o in obs["orders"]],
        f"Orders deck: {obs['orders_deck']}   Pastry deck: {obs['pastry_deck']}   "
        f"Discard pile: {len(obs['discard'])}",
        "",
    ]
    for s in range(n):
        done = ", ".join(
            f"{c['order']}{'' if c['exact'] else ' (waste)'}" for c in obs["completed"][s]
        )
        extras = []
        if obs["token_type"][s]:
            extras.append(f"{obs['pastry_tokens'][s]} {obs['token_type'][s]} tokens")
        if obs["kitty_tokens"][s]:
            extras.append(f"{obs['kitty_tokens'][s]} Kitty token")
        you = " (you)" if s == seat else ""
        size = obs["hand_sizes"][s]
        out.append(
            f"seat {s}{you}: {obs['coins'][s]} coins, {size} card{'' if size == 1 else 's'} in hand"
            + (f", {', '.join(extras)}" if extras else "")
            + (f"; orders: {done}" if done else "")
        )
    if seat is not None and obs["hand"] is not None:
        counts = Counter(obs["hand"])
        hand = ", ".join(f"{k} ×{c}" if c > 1 else k for k, c in sorted(counts.items()))
        out.append(f"Your hand: {hand or 'empty'}")
    if obs["building"]:
        b = obs["building"]
        added = ", ".join(f"{k} as {t}" if not k.endswith(t) else k for k, t in b["cards"])
        still = ", ".join(f"{v} {t}" for t, v in b["remaining"].items())
        out.append(
            f"Filling {b['order']} (seat {b['seat']}): added {added or 'nothing'}; still needs {still}"
        )
    if obs["over"]:
        out.append(f"Game over: {obs['end_reason']}.")
    out.append("")
    out.append("Recent log:")
    out.extend(f"  {line}" for line in obs["log"][-LOG_LINES:])
    return "\n".join(out)
