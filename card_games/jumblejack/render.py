"""The JumbleJack table: the Doll, one row per seat (Rings, cards, the top card, tokens) and the
events since the viewer last looked; the end report (every secret pirate and token revealed).

The rulebook shows only the top card of each stack: players remember earlier statements. That is
the default here; ``look.aid`` (``--aid``) adds every earlier statement, as a memory aid.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.console import RenderableType
from rich.text import Text

from card_games.terminal.report import end_report
from card_games.terminal.table import Look, heading, seat_label, snapshot, table

if TYPE_CHECKING:
    from card_games.jumblejack.state import JumbleJackState

# What each stage asks for, in a person's words.
STAGE_WORDS = {
    "setup": "set-up",
    "declare": "each player makes a statement",
    "point": "JumbleJACK! everyone points at a player",
    "tie": "the Doll holder breaks a tie",
    "dress": "the Doll holder changes the Doll",
    "respond": "the target answers (match, mismatch or a token)",
    "final_dress": "final ritual: dress the Doll",
    "final_cast": "final ritual: the curse",
    "over": "game over",
}
DECIDED_BY = (
    "an exact match curses that player and everyone else wins; "
    "otherwise the final ritual names one sole winner"
)


def _outfit(worn: list[str] | None) -> str:
    if worn is None:
        return "?"
    return ", ".join(worn) if worn else "no accessories"


def _wears(worn: list[str]) -> str:
    """``wears exactly: hook (nothing else)``: "pirate: hook" read as "has a hook" or "only a hook"."""
    if not worn:
        return "wears no accessories"
    return f"wears exactly: {', '.join(worn)} (nothing else)"


def _statement(d: Mapping[str, Any]) -> str:
    verb = "has" if d["has"] else "has no"
    mark = " (Disguise)" if d["kind"] == "disguise" else ""
    return f"r{d['round']}: {verb} {d['accessory']}{mark}"


def _to_act(obs: Mapping[str, Any]) -> tuple[str, int | list[int] | None]:
    to_act = obs["to_act"]
    if isinstance(to_act, list):  # everyone at once (JumbleJACK!: pointing)
        return "seats " + ", ".join(str(s) for s in to_act) + " to act", list(to_act)
    if isinstance(to_act, int) and to_act >= 0:
        return f"seat {to_act} to act", to_act
    return "", None


def build(game: Any, obs: Mapping[str, Any], seat: int | None, look: Look) -> list[RenderableType]:
    """The table's parts, top to bottom (``terminal.table.view`` adds the events under them)."""
    who, to_move = _to_act(obs)
    stage = STAGE_WORDS.get(obs["stage"], obs["stage"])
    status = f"Round {obs['round']}: {stage}" + (f"; {who}" if who else "") + "."
    head = heading(f" JumbleJack - {obs['players']} players ", look)
    if look.compact:  # an 80×24 terminal: the status beside the title, no legend
        head.append(f" {status}")
    parts: list[RenderableType] = [
        *([head] if look.compact else [head, Text(status)]),
        Text(
            f"Doll: {_outfit(obs['doll'])} - held by seat {obs['doll_holder']} "
            f"(set-up pirate: {_outfit(obs['doll_card'])}). "
            f"Rings left in the centre: {obs['centre_rings']}."
        ),
    ]
    if obs.get("my_pirate"):
        parts.append(Text(f"Your secret pirate {_wears(obs['my_pirate']['wears'])}"))
    if obs.get("my_token"):
        token = obs["my_token"]
        state = "used" if token["used"] else "unused"
        parts.append(Text(f"Your Piece of Eight: {token['name']} ({token['kind']}, {state})"))
    said: dict[int, list[str]] = {}
    for d in obs["declarations"]:
        said.setdefault(d["seat"], []).append(_statement(d))
    top_card = "top card" if look.compact else "top card (its statement)"
    columns = ["seat", "Rings", "cards", top_card, "tags"]
    if look.aid:
        columns.append("every statement (memory aid)")
    rows = table(look, *columns)
    for s in range(obs["players"]):
        tags = []
        if s == obs["doll_holder"]:
            tags.append("Doll")
        if s == obs["first_player"]:
            tags.append("First Player")
        if s == obs["target"] and obs["stage"] != "over":
            tags.append("target")
        if str(s) in obs["tokens_used"]:
            tags.append(f"used {obs['tokens_used'][str(s)]['name']}")
        if str(s) in obs["revealed"]:
            tags.append(f"revealed: {_outfit(obs['revealed'][str(s)]['wears'])}")
        stack = obs["stacks"][s]
        top = stack["top"]
        top_text = (
            f"{'brown' if top['has'] else 'red'}: {'has' if top['has'] else 'has no'} "
            f"{top['accessory']}"
            if top
            else "no cards"
        )
        row = [
            seat_label(s, seat, to_move, look),
            str(obs["fingers"][s]),
            str(stack["cards"]),
            top_text,
            ", ".join(tags) or "-",
        ]
        if look.aid:
            row.append("; ".join(said.get(s, [])) or "-")
        rows.add_row(*row)
    parts.append(rows)
    piles = ", ".join(f"{a} {k}" for a, k in obs["piles"].items())
    parts.append(Text(f"Accessory piles: {piles}"))
    if obs["tied"]:
        parts.append(Text(f"Tied: {', '.join(f'seat {s}' for s in obs['tied'])}"))
    if obs["result"] is not None:
        result = obs["result"]
        if "cursed" in result:
            parts.append(Text(f"Game over: seat {result['cursed']} is cursed; everyone else wins."))
        else:
            parts.append(Text(f"Game over: seat {result['sole_winner']} alone wins."))
    if not look.aid and not look.compact:
        parts.append(
            Text("Only the top cards show: remember what was said (--aid lists every statement).")
        )
    return parts


def render(game: Any, obs: Mapping[str, Any], seat: int | None, look: Look) -> str:
    return snapshot(build, game, obs, seat, look)


def report(state: JumbleJackState) -> dict[str, Any]:
    """Every secret pirate and Piece of Eight, and each seat's result."""
    full = state.full_state()
    c = state.c
    returns = state.returns()
    result = full["result"] or {}
    breakdown, reveal = [], []
    for s in range(state.num_players):
        if result.get("cursed") == s:
            why = "cursed"
        elif "cursed" in result or result.get("sole_winner") == s:
            why = "wins"
        else:
            why = "loses"
        breakdown.append(
            {"seat": s, "outcome": why, "Rings": full["fingers"][s], "total": returns[s]}
        )
        pid, tid = full["pirates"][s], full["tokens"][s]
        row: dict[str, Any] = {
            "seat": s,
            "pirate": f"{pid} {_wears(c.outfit_list(c.pirate_mask(pid)))}" if pid else "none",
        }
        if tid:  # none left (e.g. after a Final Ritual): nothing to reveal, no "none" line
            used = "used" if full["token_used"][s] else "unused"
            row["Piece of Eight"] = f"{c.token(tid).name} ({used})"
        reveal.append(row)
    doll = full["doll_card"]
    shared = {"Doll's set-up pirate": f"{doll}: {c.outfit_text(c.pirate_mask(doll))}"}
    return end_report(DECIDED_BY, state.winners(), breakdown, reveal, shared)
