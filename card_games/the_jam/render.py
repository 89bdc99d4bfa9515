"""The Jam table: one row per seat (hand size, points showing, specials), each seat's recipes
with their points, the basket, the viewer's hand and tasks with their progress, trades and
auctions, and the events since the viewer last looked; the end report (every task card, travel
pile and hand revealed, and each score broken down)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from card_games.terminal.report import end_report
from card_games.terminal.table import Look, flow, heading, seat_name, snapshot, table
from card_games.the_jam.cards import CardSet, load_cards
from card_games.the_jam.rules import FACE_DOWN_PREFIX
from card_games.the_jam.scoring import score_player

if TYPE_CHECKING:
    from card_games.the_jam.state import JamState


class JamRules(Protocol):
    """What the table reads of the game (a protocol: the game module imports this one)."""

    @property
    def cards(self) -> CardSet: ...


LEGEND = (
    "A card reads 'recipe (ingredient) Npt': the fruit in brackets is its ingredient half, "
    "N its points as a recipe."
)
DECIDED_BY = (
    "most points (recipes, Young man, Bear and tasks); a tie goes to the most Yum-yum points"
)
DECIDED_BY_KIDS = "most recipes made"
BREAKDOWN_PARTS = ("recipes", "young_man", "bear", "winter", "grandma", "party", "yumyum")


def card_text(cs: CardSet, card_id: str) -> str:
    """A card as a person reads it, with its points when it is a recipe."""
    card = cs.cards.get(card_id)
    if card is None:
        return card_id
    return f"{card.label} {card.points}pt" if card.is_recipe else card.label


def _ingredient(cs: CardSet, card_id: str) -> str:
    if card_id.startswith(FACE_DOWN_PREFIX):  # played face down from a hand: its fruit only
        return f"a face-down card ({card_id.removeprefix(FACE_DOWN_PREFIX)} ingredient)"
    card = cs.cards[card_id]
    return f"{card.label}"


def _recipe(cs: CardSet, r: Mapping[str, Any]) -> str:
    text = card_text(cs, r["card"])
    if r["under"]:
        text += " on " + " + ".join(_ingredient(cs, c) for c in r["under"])
    return text


def _showing(cs: CardSet, obs: Mapping[str, Any], s: int) -> int:
    """Points anyone can count on seat ``s``'s table: visible recipes, Young man and Bear."""
    points = sum(cs.cards[r["card"]].points for r in obs["made"][s])
    if obs["young_man"] == s:
        points += cs.young_man_points
    if obs["bear"] == s:
        points += cs.bear_points
    return points


def _own_score(cs: CardSet, obs: Mapping[str, Any], seat: int) -> dict[str, int] | None:
    """The viewer's score if the game ended now (their tasks are theirs to see)."""
    if obs["variant"] == "kids" or obs.get("tasks") is None:
        return None
    made = [cs.cards[r["card"]] for r in obs["made"][seat]]
    tasks = [cs.tasks[t] for t in obs["tasks"]]
    return score_player(cs, made, tasks, obs["young_man"] == seat, obs["bear"] == seat).to_json()


def _status(obs: Mapping[str, Any]) -> str:
    step = obs["step"]
    if step == "trade" and not obs.get("trade"):
        step = "trade, or play a card"  # the plays are listed beside the trades
    if step == "over":
        return f"Turn {obs['turn']}: game over."
    active = obs["active"]
    return f"Turn {obs['turn']}: seat {active} to play; step: {step}."


def build(
    game: JamRules, obs: Mapping[str, Any], seat: int | None, look: Look
) -> list[RenderableType]:
    """The table's parts, top to bottom (``terminal.table.view`` adds the events under them)."""
    cs = game.cards
    n = obs["players"]
    to_move = obs["to_move"] if isinstance(obs["to_move"], int) and obs["to_move"] >= 0 else None
    parts: list[RenderableType] = [
        heading(f" The Jam ({obs['variant']}) - {n} players ", look),
        Text(_status(obs)),
        Text(LEGEND),
    ]
    own = _own_score(cs, obs, seat) if seat is not None else None
    seats = table(look, "seat", "hand", "recipes", "points showing", "specials")
    made_lines: list[Text] = []
    for s in range(n):
        special = []
        if obs["young_man"] == s:
            special.append("Young man")
        if obs["bear"] == s:
            special.append("Bear")
        hidden = obs["made_counts"][s] - len(obs["made"][s])
        seats.add_row(
            seat_name(s, seat, to_move),
            str(obs["hand_sizes"][s]),
            str(obs["made_counts"][s]),
            str(_showing(cs, obs, s)) + (" + face-down pile" if hidden else ""),
            ", ".join(special) or "-",
        )
        made = [_recipe(cs, r) for r in obs["made"][s]] or ["none"]
        if hidden:
            made.append(f"+{hidden} face down in the travel pile")
        made_lines.append(flow(f"Seat {s} made:", made, look))
    parts.append(seats)
    parts.extend(made_lines)
    parts.append(Text(f"Deck: {obs['deck']} cards. Task cards stay secret until the end."))
    if obs.get("accessible") is not None:
        basket = obs["accessible"]
        title = f"Basket (the top of each stack; {len(obs['basket'])} cards in all)"
    else:
        basket = obs["basket"]
        title = "Basket"
    parts.append(flow(f"{title}:", [card_text(cs, c) for c in basket] or ["empty"], look))
    if seat is not None and obs.get("hand") is not None:
        hand = [card_text(cs, c) for c in obs["hand"]] or ["empty"]
        parts.append(flow("Your hand:", hand, look))
        tasks = Table.grid(padding=(0, 1))
        tasks.add_column(no_wrap=True)
        tasks.add_column()  # a long task wraps under itself
        for t in obs.get("tasks") or []:
            tasks.add_row("  task", cs.tasks[t].describe())
        parts.append(tasks)
    if own is not None:
        progress = ", ".join(f"{k} {own[k]}" for k in BREAKDOWN_PARTS if own[k])
        parts.append(
            Text(f"Your score if the game ended now: {own['total']} ({progress or 'nothing yet'})")
        )
    parts.extend(_trade_lines(cs, obs, seat))
    if obs.get("final"):
        f = obs["final"]
        parts.append(
            Text("Final scores: " + ", ".join(f"seat {s} {v:g}" for s, v in enumerate(f["scores"])))
        )
        parts.append(Text("Winner: " + " and ".join(f"seat {s}" for s in f["winners"])))
    return parts


def _trade_lines(cs: CardSet, obs: Mapping[str, Any], seat: int | None = None) -> list[Text]:
    """The auction and the trade under way, worded for ``seat`` (its own offer, or one made to it)."""
    lines: list[Text] = []
    if obs.get("auction"):
        a = obs["auction"]
        if a.get("high_seat") is None:
            high = "no bid yet"
        else:
            who = "you" if a["high_seat"] == seat else f"seat {a['high_seat']}"
            high = f"high bid {a['high']} by {who}"
        bidder = "you" if a["bidder"] == seat else f"seat {a['bidder']}"
        lines.append(Text(f"Young man auction: {high}; {bidder} to bid"))
        if a["building"]:
            offered = ", ".join(card_text(cs, c) for c in a["building"])
            lines.append(Text(f"  offered so far: {offered}"))
    if obs.get("trade"):
        t = obs["trade"]
        mine = t["mine"] if isinstance(t["mine"], list) else None
        theirs = t["theirs"] if isinstance(t["theirs"], list) else None

        def names(ids: list[str] | None, count: Any) -> str:
            if ids is None:
                return f"{count} hidden card(s)"
            return ", ".join(card_text(cs, c) for c in ids) or "nothing"

        gives, gets = names(mine, t["mine"]), names(theirs, t["theirs"])
        if seat is not None and seat == obs["active"]:
            text = f"Your trade with seat {t['partner']} ({t['stage']}): you give {gives}; you get {gets}"
        elif seat is not None and seat == t["partner"]:
            text = (
                f"Seat {obs['active']}'s trade with you ({t['stage']}): you would get {gives}; "
                f"you would give {gets}"
            )
        else:
            text = (
                f"Trade between seat {obs['active']} and seat {t['partner']} ({t['stage']}): "
                f"seat {obs['active']} gives {gives}; gets {gets}"
            )
        lines.append(Text(text))
    if obs.get("pie_debt"):
        lines.append(Text(f"Owed to the basket for a pie taken from it: {obs['pie_debt']} card(s)"))
    return lines


def render(game: JamRules, obs: Mapping[str, Any], seat: int | None, look: Look) -> str:
    return snapshot(build, game, obs, seat, look)


def report(state: JamState) -> dict[str, Any]:
    """Each score part by part, and every task card, recipe (travel piles and face-down
    ingredients included) and hand card, face up."""
    cs = load_cards()
    full = state.full_state()
    kids = state.params.get("variant") == "kids"
    returns = state.returns()
    breakdown, reveal = [], []
    for s in range(state.num_players):
        if kids:
            breakdown.append({"seat": s, "recipes made": len(full["made"][s]), "total": returns[s]})
        else:
            breakdown.append({"seat": s, **state.breakdown(s).to_json()})
        tasks = [
            cs.tasks[t].describe() for kind in full["tasks"][s] for t in full["tasks"][s][kind]
        ]
        reveal.append(
            {
                "seat": s,
                "tasks": tasks,
                "recipes": [_recipe(cs, r) for r in full["made"][s]],
                "hand": [card_text(cs, c) for c in full["hands"][s]],
            }
        )
    return end_report(DECIDED_BY_KIDS if kids else DECIDED_BY, state.winners(), breakdown, reveal)
