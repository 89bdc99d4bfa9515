"""The ``smart`` bot: a heuristic scoring every legal move from the seat's observation only.

It pursues its own sets (per character only its best colour counts fully, and only as many
characters as it still needs sets), steals and covers to finish them, breaks up an opponent's
set only when that set would win the game (otherwise merely as a tie-break), and gives unwanted
cards where they help least.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jamsumo_sim.turnloop import Action, HeuristicAgent, SeatView

COMPLETE = 1000.0  # completing a set (for me: gain; for a recipient of my gift: harm)
WIN = 100_000.0  # a third set ends the game
# Weight of an opponent's loss in a steal. Blocking every nearly complete set stalls the whole
# table (cards end up with thieves that cannot use them and the pile runs out first: measured in
# docs/rules/jellyfish.md), so only a set that would win the game is blocked in earnest.
BLOCK_WIN = 1.0
BLOCK_TIE = 0.01  # otherwise, among equally useful steals, take the one that hurts most
SPARE = 0.3  # a second colour of a character, or a character beyond the sets still needed
# Stealing a Cover card: an unknown card, plus the set it opens (a later steal for me from a
# kind I collect; the victim's lost protection).
COVER_CARD = 12.0
COVER_OPENS_MINE = 0.5
COVER_OPENS_THEIRS = 0.25


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


def position(ctx: Context, seat: int, counts: dict[str, int]) -> float:
    """What partial sets ``counts`` are worth to ``seat``, focused on the sets it can still use.

    One set per character: a character's best colour counts fully, its other colours as spares;
    only the ``to_win - sets`` best characters count fully (the rest are spares too).
    """
    by_character: dict[str, list[float]] = {}
    for kind, count in counts.items():
        worth = progress(ctx, seat, kind, count)
        if worth:
            by_character.setdefault(_character(kind), []).append(worth)
    values = []
    for worths in by_character.values():
        worths.sort(reverse=True)
        values.append(worths[0] + SPARE * sum(worths[1:]))
    values.sort(reverse=True)
    need = ctx.to_win - ctx.tables[seat].sets
    return sum(v if i < need else SPARE * v for i, v in enumerate(values))


def _moved(counts: dict[str, int], kind: str, delta: int) -> dict[str, int]:
    out = dict(counts)
    out[kind] = out.get(kind, 0) + delta
    if out[kind] <= 0:
        del out[kind]
    return out


def _kind_of_card(card: str) -> str:
    return card.rsplit(".", 1)[0]


class SmartAgent(HeuristicAgent):
    """Steal to build (or stop a win), cover the best partial set, give where it helps least."""

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

    def _gain(self, ctx: Context, seat: int, kind: str, delta: int) -> float:
        counts = ctx.tables[seat].counts
        return position(ctx, seat, _moved(counts, kind, delta)) - position(ctx, seat, counts)

    def _steal(self, ctx: Context, action: Action) -> float:
        me, victim, kind = ctx.me, int(action["victim"]), action["kind"]
        table = ctx.tables[victim]
        theirs = table.counts.get(kind, 0)
        if action["what"] == "cover":
            # the card itself is unknown; what counts is the set it leaves open
            opens_theirs = -self._gain(ctx, victim, kind, -theirs)
            return (
                COVER_CARD
                + COVER_OPENS_MINE * self._gain(ctx, me, kind, 1)
                + COVER_OPENS_THEIRS * opens_theirs
            )
        gain = self._gain(ctx, me, kind, 1)
        # what the victim loses: the card, and the card it would have added next
        loss = self._gain(ctx, victim, kind, 1) - self._gain(ctx, victim, kind, -1)
        wins = table.sets + 1 >= ctx.to_win and theirs + 1 >= ctx.size
        return gain + (BLOCK_WIN if wins else BLOCK_TIE) * loss

    def _cover(self, ctx: Context, kind: str) -> float:
        me = ctx.me
        count = ctx.tables[me].counts.get(kind, 0)
        # only worth protecting if someone may steal it (they lack that character's set)
        thieves = [
            s for s, t in enumerate(ctx.tables) if s != me and _character(kind) not in t.done
        ]
        if not thieves:
            return 0.0
        value = -self._gain(ctx, me, kind, -1)  # what one steal from it would cost me
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
