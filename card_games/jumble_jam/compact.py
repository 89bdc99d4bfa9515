"""The Jumble Jam table in the compact layout (an 80×24 terminal): the same facts as
``render.build`` in fewer rows — no legends, the orders and decks on flowing lines, a seat table
without borders — so the oven, the orders and the move menu stay on one screen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from card_games.jumble_jam.render import (
    JumbleJamRules,
    _layout_lines,
    _order_text,
    _status,
    seat_tokens,
)
from card_games.terminal.table import Look, flow, heading, seat_label, table


def build(
    game: JumbleJamRules, obs: Mapping[str, Any], seat: int | None, look: Look
) -> list[RenderableType]:
    n = obs["players"]
    variant = f" ({obs['variant']})" if obs["variant"] != "standard" else ""
    title = heading(f" Jumble Jam{variant} - {n}p ", look)
    title.append(" " + _status(obs))
    die = obs["die"] or "-"
    exact_only = " (exact only)" if obs["die"] == "grandma" else ""
    facts = [
        f"places 1st: seat {obs['first_player']}",
        f"fills 1st: seat {obs['efficient']}",
        f"die: {die}{exact_only}",
        f"pastry {obs['pastry_deck']}",
        f"discard {len(obs['discard'])}",
    ]
    parts: list[RenderableType] = [
        title,
        flow("", facts, look, sep=" ·"),
    ]
    if seat is not None and obs["hand"] is not None:  # above the oven: never cut off
        counts = Counter(obs["hand"])
        hand = [f"{k} ×{c}" if c > 1 else k for k, c in sorted(counts.items())]
        parts.append(flow("Your hand:", hand or ["empty"], look, sep=","))
    # the rows between oven rows hold the jars placed across them; empty ones are left out
    oven = [line[1:] for line in _layout_lines(obs, look)]
    legend = "  (a number between cards: that seat's jar)"
    if len(oven[0]) + len(legend) <= look.width:
        oven[0] += legend
    parts.append(Text("\n".join(line for line in oven if line.strip())))
    orders = [
        f"{o['id']} {_order_text(o).replace(' + ', '+')} {o['exact']}/{o['waste']}"
        for o in obs["orders"]
    ]
    lead = f"Orders (coins exact/waste, deck {obs['orders_deck']}):"
    parts.append(flow(lead, orders, look, sep=" ·"))
    jars_each = game.catalog.jars_per_player
    to_win = game.catalog.exact_orders_to_win
    seats = table(look, "seat", "coins", "exact", "jars", "hand", "tokens", "filled")
    for s in range(n):
        tokens = seat_tokens(obs, s)
        done = " ".join(
            f"{c['order']}:{c['coins']}{'' if c['exact'] else 'w'}" for c in obs["completed"][s]
        )
        seats.add_row(
            seat_label(s, seat, obs["to_move"], look),
            str(obs["coins"][s]),
            f"{obs['exact_orders'][s]}/{to_win}",
            f"{jars_each - obs['jars_placed'][s]}/{jars_each}",
            str(obs["hand_sizes"][s]),
            ", ".join(tokens) or "-",
            done or "-",
        )
    parts.append(seats)
    if obs["building"]:
        b = obs["building"]
        added = ", ".join(f"{k} as {t}" if not k.endswith(t) else k for k, t in b["cards"])
        still = ", ".join(f"{v} {t}" for t, v in b["remaining"].items())
        parts.append(
            Text(f"Filling {b['order']} (seat {b['seat']}): {added or 'nothing'}; needs {still}")
        )
    return parts
