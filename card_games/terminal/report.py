"""The end-of-game report: every hidden card that counts, revealed, and each player's score
broken down so anyone can check the result.

Each game's ``render.report(state)`` returns the same JSON-able shape (also printed by
``--json`` as ``"breakdown"`` and ``"reveal"``)::

    {"decided_by": "how the winner is chosen",
     "breakdown": [{"seat": 0, "<part>": number, ..., "total": number}, ...],
     "reveal": [{"seat": 0, "<what>": ["card", ...] or "text", ...}, ...],
     "shared": {"<what>": [...]}}          # hidden cards that belong to no seat (optional)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from card_games.terminal.table import Look, heading, table


def _cell(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value) or "none"
    return str(value)


def breakdown_table(rows: Sequence[Mapping[str, Any]], winners: Sequence[int], look: Look) -> Any:
    columns = list(dict.fromkeys(k for row in rows for k in row if k != "seat"))
    # "young_man" -> "young man": a header of several words can wrap in a narrow column
    out = table(look, "seat", *(c.replace("_", " ") for c in columns), title="Score breakdown")
    for row in rows:
        seat = Text(f"seat {row['seat']}")
        if row["seat"] in winners:
            seat.append(" WINNER", style="" if look.plain else "bold green")
        out.add_row(seat, *(_cell(row.get(c, "")) for c in columns))
    return out


def reveal_table(rows: Sequence[Mapping[str, Any]], look: Look) -> Any:
    out = table(look, "seat", "revealed", title="Hidden cards revealed")
    for row in rows:
        parts = [f"{k}: {_cell(v)}" for k, v in row.items() if k != "seat"]
        out.add_row(f"seat {row['seat']}", "\n".join(parts) or "nothing hidden")
    return out


def end_report(
    decided_by: str,
    winners: Sequence[int],
    breakdown: list[dict[str, Any]],
    reveal: list[dict[str, Any]],
    shared: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A game's report in the shape above (``shared`` only when it has such cards)."""
    out: dict[str, Any] = {
        "decided_by": decided_by,
        "winners": winners,
        "breakdown": breakdown,
        "reveal": reveal,
    }
    if shared is not None:
        out["shared"] = shared
    return out


def report_renderable(final_table: RenderableType, report: Mapping[str, Any], look: Look) -> Any:
    winners = report.get("winners", [])
    names = " and ".join(f"seat {s}" for s in winners) or "nobody"
    parts: list[RenderableType] = [
        final_table,
        Text(""),
        heading(f" GAME OVER - winner: {names} ", look),
        Text(f"Decided by: {report['decided_by']}"),
        breakdown_table(report["breakdown"], winners, look),
        reveal_table(report["reveal"], look),
    ]
    for what, cards in (report.get("shared") or {}).items():
        parts.append(Text(f"{what}: {_cell(cards)}"))
    return Group(*parts)
