"""The Jumble Jam table: the oven layout with its jars, the orders, one row per seat (coins,
exact orders, jars left, hand size, tokens) and the events since the viewer last looked; the
end report (coins per order, every hand revealed)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import RenderableType
from rich.text import Text

from card_games.jumble_jam.grid import grid
from card_games.terminal.report import end_report
from card_games.terminal.table import Look, heading, seat_name, snapshot, table

if TYPE_CHECKING:
    from card_games.jumble_jam.cards import Catalog
    from card_games.jumble_jam.state import JumbleJamState


class JumbleJamRules(Protocol):
    """What the table reads of the game (a protocol: the game module imports this one)."""

    catalog: Catalog


# Widest a card cell of the oven gets ("1 croissant" fits); narrower when the terminal is.
CELL_WIDTH = 14
DECIDED_BY = "most coins; a tie goes to the most exact orders"


def seat_tokens(obs: Mapping[str, Any], s: int) -> list[str]:
    """Seat ``s``'s tokens as written in its row: its pastry tokens, its Kitty tokens."""
    tokens = []
    if obs["token_type"][s]:
        tokens.append(f"{obs['pastry_tokens'][s]} {obs['token_type'][s]}")
    if obs["kitty_tokens"][s]:
        tokens.append(f"{obs['kitty_tokens'][s]} Kitty")
    return tokens


def _order_text(order: Mapping[str, Any]) -> str:
    return " + ".join(f"{n} {t}" for t, n in order["needs"].items())


def _layout_lines(obs: Mapping[str, Any], look: Look) -> list[str]:
    g = grid(obs["columns"], obs["rows"])
    layout = obs["layout"]
    jars = obs["jars"]
    width = max(8, min(CELL_WIDTH, (look.width - 8) // g.columns - 3))
    lines = ["       " + "".join(f"{chr(ord('A') + c):^{width}}   " for c in range(g.columns))]
    for r in range(g.rows):
        cells, below = [], []
        for c in range(g.columns):
            s = g.slot(c, r)
            cells.append(f"[{(layout[s] or '')[: width - 2]:^{width - 2}}]")
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


def _status(obs: Mapping[str, Any]) -> str:
    if obs["over"]:
        return f"Game over: {obs['end_reason']}."
    who = f"seat {obs['to_move']} to move" if obs["to_move"] is not None else "dealing"
    return f"Round {obs['round']}, {obs['phase']}: {who}."


def build(
    game: JumbleJamRules, obs: Mapping[str, Any], seat: int | None, look: Look
) -> list[RenderableType]:
    """The table's parts, top to bottom (``terminal.table.view`` adds the events under them)."""
    n = obs["players"]
    variant = f" ({obs['variant']})" if obs["variant"] != "standard" else ""
    die = obs["die"] or "-"
    parts: list[RenderableType] = [
        heading(f" Jumble Jam{variant} - {n} players ", look),
        Text(_status(obs)),
        Text(
            f"Proactive Grandchild (places first): seat {obs['first_player']}; "
            f"Efficient Grandchild (fills first): seat {obs['efficient']}; Grandma's die: {die}"
            + (" (only exact orders this round)" if obs["die"] == "grandma" else "")
        ),
        Text("Oven (top) - a number between two cards is the seat whose jar sits there"),
        Text("\n".join(_layout_lines(obs, look))),
    ]
    orders = table(look, "order", "needs", "exact pays", "waste pays", title="Orders on display")
    for o in obs["orders"]:
        orders.add_row(o["id"], _order_text(o), f"{o['exact']} coins", f"{o['waste']} coins")
    parts.append(orders)
    parts.append(
        Text(
            f"Orders deck: {obs['orders_deck']}   Pastry deck: {obs['pastry_deck']}   "
            f"Discard pile: {len(obs['discard'])}"
        )
    )
    jars_each = game.catalog.jars_per_player
    to_win = game.catalog.exact_orders_to_win
    seats = table(look, "seat", "coins", "exact", "jars left", "hand", "tokens", "orders filled")
    for s in range(n):
        tokens = seat_tokens(obs, s)
        done = ", ".join(
            f"{c['order']} {c['coins']}{'' if c['exact'] else ' (waste)'}"
            for c in obs["completed"][s]
        )
        seats.add_row(
            seat_name(s, seat, obs["to_move"]),
            str(obs["coins"][s]),
            f"{obs['exact_orders'][s]}/{to_win}",
            f"{jars_each - obs['jars_placed'][s]}/{jars_each}",
            str(obs["hand_sizes"][s]),
            ", ".join(tokens) or "-",
            done or "-",
        )
    parts.append(seats)
    parts.append(
        Text(
            "exact: orders filled exactly / needed to end the game. "
            "orders filled: order and the coins it paid."
        )
    )
    if seat is not None and obs["hand"] is not None:
        counts = Counter(obs["hand"])
        hand = ", ".join(f"{k} ×{c}" if c > 1 else k for k, c in sorted(counts.items()))
        parts.append(Text(f"Your hand: {hand or 'empty'}   (a card's number is its pastries)"))
    if obs["building"]:
        b = obs["building"]
        added = ", ".join(f"{k} as {t}" if not k.endswith(t) else k for k, t in b["cards"])
        still = ", ".join(f"{v} {t}" for t, v in b["remaining"].items())
        parts.append(
            Text(
                f"Filling {b['order']} (seat {b['seat']}): added {added or 'nothing'}; "
                f"still needs {still or 'nothing'}"
            )
        )
    return parts


def render(game: JumbleJamRules, obs: Mapping[str, Any], seat: int | None, look: Look) -> str:
    return snapshot(build, game, obs, seat, look)


def report(state: JumbleJamState) -> dict[str, Any]:
    """Coins order by order and every hand, face up."""
    full = state.full_state()
    cards = state.game.catalog.cards
    breakdown, reveal = [], []
    for s in range(state.num_players):
        done = full["completed"][s]
        breakdown.append(
            {
                "seat": s,
                "orders": [
                    f"{c['order']} {'exact' if c['exact'] else 'waste'} {c['coins']}" for c in done
                ],
                "exact orders": sum(1 for c in done if c["exact"]),
                "total": full["coins"][s],
            }
        )
        reveal.append({"seat": s, "hand": sorted(cards[c].kind for c in full["hands"][s])})
    return end_report(DECIDED_BY, state.winners(), breakdown, reveal)
