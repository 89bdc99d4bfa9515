"""The Jelly Fish Toast & Jam table: one row per seat (sets, face-up cards, partial sets), the
pile, what is being given away, and the events since the viewer last looked; the end report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from card_games.jellyfish.cards import Deck
from card_games.terminal.report import end_report
from card_games.terminal.table import Look, fits, heading, seat_name, snapshot, table

if TYPE_CHECKING:
    from card_games.jellyfish.state import JellyfishState

# What each step of a turn asks for, in a person's words.
STEP_WORDS = {
    "deal": "deal",
    "draw": "draw",
    # a person is asked only when a move exists, and then it is compulsory (rulebook: the step
    # is skipped only when nothing may be stolen / nothing is left to cover)
    "steal": "steal a card (compulsory when one may be stolen)",
    "cover": "cover one of your partial sets (compulsory while one is uncovered)",
    "give": "give a card away",
    "cover_draw": "draw a Cover card",
}
DECIDED_BY = (
    "3 completed sets win at once; if the pile runs out, most sets, then most face-up cards"
)


def _partial(deck: Deck, entry: Mapping[str, Any]) -> str:
    text = f"{deck.label(entry['kind'])} x{entry['cards']}"
    if entry["covered"]:
        cover = entry.get("cover")
        text += f" [covered: {deck.label(cover)}]" if cover else " [covered]"
    return text


def _seat_table(
    deck: Deck, obs: Mapping[str, Any], seat: int | None, to_move: int | None, look: Look
) -> Table:
    rows = table(look, "seat", "sets", "face-up", "completed sets", "partial sets (one a line)")
    for s, t in enumerate(obs["tables"]):
        face_up = sum(e["cards"] for e in t["partial"])
        rows.add_row(
            seat_name(s, seat, to_move),
            f"{len(t['sets'])}/{obs['sets_to_win']}",
            str(face_up),
            "\n".join(deck.label(k) for k in t["sets"]) or "none",
            "\n".join(_partial(deck, e) for e in t["partial"]) or "no cards",
        )
    return rows


def _seat_blocks(
    deck: Deck, obs: Mapping[str, Any], seat: int | None, to_move: int | None
) -> Group:
    """The seats for a terminal too narrow for the table: a seat's line with its counts, then
    its partial sets one a line under it (a long one wraps under itself, not one word a line)."""
    blocks: list[RenderableType] = []
    for s, t in enumerate(obs["tables"]):
        face_up = sum(e["cards"] for e in t["partial"])
        done = ", ".join(deck.label(k) for k in t["sets"]) or "none"
        line = seat_name(s, seat, to_move)
        line.append(
            f": sets {len(t['sets'])}/{obs['sets_to_win']}, face-up {face_up}; completed: {done}"
        )
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        for entry in t["partial"]:
            grid.add_row("  -", _partial(deck, entry))
        if not t["partial"]:
            grid.add_row("  -", "no cards")
        blocks += [line, grid]
    return Group(*blocks)


class JellyfishRules(Protocol):
    """What the table reads of the game (a protocol: the game module imports this one)."""

    decks: dict[str, Deck]
    deck: Deck


def deck_of(game: JellyfishRules, obs: Mapping[str, Any]) -> Deck:
    return game.decks.get(str(obs.get("variant")), game.deck)


def build(
    game: JellyfishRules, obs: Mapping[str, Any], seat: int | None, look: Look
) -> list[RenderableType]:
    """The table's parts, top to bottom (``terminal.table.view`` adds the events under them)."""
    deck = deck_of(game, obs)
    to_move = None if obs["over"] else obs["active"]
    if obs["over"]:
        winners = " and ".join(f"seat {s}" for s in obs["winners"])
        status = f"Game over ({obs['end_reason']}). Winner: {winners}."
    else:
        step = STEP_WORDS.get(str(obs["step"]), str(obs["step"]))
        status = f"Turn {obs['turn']}: seat {obs['active']} plays, step: {step}."
    head = heading(
        f" Jelly Fish Toast & Jam - {obs['players']} players, sets of {obs['set_size']}, "
        f"first to {obs['sets_to_win']} sets wins ",
        look,
    )
    pile = f"Draw pile: {obs['pile']} cards"
    bottom = obs.get("pile_bottom") or []
    if bottom:
        pile += f" (known at the bottom: {', '.join(deck.label(c) for c in bottom)})"
    rows: RenderableType = _seat_table(deck, obs, seat, to_move, look)
    if not fits(rows, look):  # a narrow terminal: one block per seat, a partial set a line
        rows = _seat_blocks(deck, obs, seat, to_move)
    parts: list[RenderableType] = [head, Text(status), Text(pile + "."), rows]
    giving = obs.get("giving")
    if giving:
        card = deck.label(giving["card"]) if giving["card"] else "a Cover card only they have seen"
        parts.append(Text(f"Seat {giving['seat']} must give away {card}."))
    parts.append(
        Text(
            "sets: completed / needed to win. face-up: cards in partial sets (the tie-break). "
            "[covered]: a face-down Cover card lies on that set (named once it is known)."
        )
    )
    return parts


def render(game: JellyfishRules, obs: Mapping[str, Any], seat: int | None, look: Look) -> str:
    return snapshot(build, game, obs, seat, look)


def report(state: JellyfishState) -> dict[str, Any]:
    """Sets and face-up counts per seat; every face-down Cover card and the pile left."""
    full = state.full_state()
    deck = state.deck
    breakdown, reveal = [], []
    for s in range(state.num_players):
        sets, face_up = state.ranking_key(s)
        breakdown.append({"seat": s, "sets": sets, "face-up cards": face_up, "total": sets})
        covers = full["covers"][s].items()
        reveal.append(
            {
                "seat": s,
                "cover cards": [f"{deck.label(c['card'])} on {deck.label(k)}" for k, c in covers],
                "completed sets": [deck.label(k) for k in full["completed"][s]],
            }
        )
    return end_report(DECIDED_BY, state.winners(), breakdown, reveal)
