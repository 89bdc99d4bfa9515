"""The ``smart`` bot: a heuristic scoring every legal move from the seat's observation only.

It steals what advances its nearest set or breaks up an opponent's nearly complete set, covers
its most valuable partial set, and gives unwanted cards where they help least.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jamsumo_sim.turnloop import Action, HeuristicAgent, SeatView

COMPLETE = 1000.0  # completing a set (for me: gain; for a recipient of my gift: harm)
WIN = 100_000.0  # a third set ends the game


def _character(kind: str) -> str:
    return kind.split(".", 1)[0]


@dataclass(frozen=True)
class Table:
    """One seat's public position, as the bot reads it."""

    counts: dict[str, int]  # kind -> face-up cards in the partial set
    covered: frozenset[str]
    sets: int
    done: frozenset[str]  # characters completed


@dataclass(frozen=True)
class Context:
    me: int
    size: int
    to_win: int
    tables: tuple[Table, ...]
    giving: str | None  # the card I must give away, when I know it


def _read(obs: dict[str, Any], me: int) -> Context:
    tables = []
    for t in obs["tables"]:
        tables.append(
            Table(
                counts={e["kind"]: e["cards"] for e in t["partial"]},
                covered=frozenset(e["kind"] for e in t["partial"] if e["covered"]),
                sets=len(t["sets"]),
                done=frozenset(_character(k) for k in t["sets"]),
            )
        )
    giving = obs.get("giving")
    return Context(
        me=me,
        size=obs["set_size"],
        to_win=obs["sets_to_win"],
        tables=tuple(tables),
        giving=giving["card"] if giving else None,
    )


def progress(ctx: Context, seat: int, kind: str, count: int) -> float:
    """How much ``count`` cards of ``kind`` are worth to ``seat`` (0 for a dead character)."""
    table = ctx.tables[seat]
    if _character(kind) in table.done or count <= 0:
        return 0.0
    if count >= ctx.size:
        return WIN if table.sets + 1 >= ctx.to_win else COMPLETE * (1 + table.sets)
    # nearer sets are worth disproportionately more; a seat with more sets is more dangerous
    return 10.0 * count * count * (1 + 0.5 * table.sets)


def _kind_of_card(card: str) -> str:
    return card.rsplit(".", 1)[0]


class SmartAgent(HeuristicAgent):
    """Steal to build or block, cover the best partial set, give where it helps least."""

    kind = "smart"

    def prepare(self, view: SeatView) -> Context:
        return _read(view.observation, view.seat)

    def score(self, view: SeatView, action: Action, context: Any) -> float:
        ctx: Context = context
        if action.name.startswith("steal"):
            return self._steal(ctx, action)
        if action.name.startswith("cover"):
            return self._cover(ctx, action["kind"])
        if action.name.startswith("give"):
            return self._give(ctx, int(action["to"]))
        return 0.0

    def _steal(self, ctx: Context, action: Action) -> float:
        me, victim, kind = ctx.me, int(action["victim"]), action["kind"]
        theirs = ctx.tables[victim].counts.get(kind, 0)
        if action["what"] == "cover":
            # an unknown card (rarely useful) that uncovers their set for a later steal
            return 12.0 + 0.25 * progress(ctx, victim, kind, theirs)
        mine = ctx.tables[me].counts.get(kind, 0)
        gain = progress(ctx, me, kind, mine + 1) - progress(ctx, me, kind, mine)
        block = progress(ctx, victim, kind, theirs + 1) - progress(ctx, victim, kind, theirs - 1)
        return gain + 0.5 * block

    def _cover(self, ctx: Context, kind: str) -> float:
        me = ctx.me
        count = ctx.tables[me].counts.get(kind, 0)
        # only worth protecting if someone may steal it (they lack that character's set)
        thieves = [
            s for s, t in enumerate(ctx.tables) if s != me and _character(kind) not in t.done
        ]
        if not thieves:
            return 0.0
        value = progress(ctx, me, kind, count)
        # a card nobody needs still denies it to opponents a little
        return value if value else 0.1 * count

    def _give(self, ctx: Context, to: int) -> float:
        if ctx.giving is None:
            return 0.0
        kind = _kind_of_card(ctx.giving)
        table = ctx.tables[to]
        have = table.counts.get(kind, 0)
        harm = progress(ctx, to, kind, have + 1) - progress(ctx, to, kind, have)
        # a card landing on a covered set can never be stolen back
        if kind in table.covered:
            harm *= 1.5
        return -harm - 5.0 * table.sets
