"""The terminal view of one seat's observation (only what that seat may know)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

RECENT_LOG_LINES = 12


def _outfit(worn: list[str] | None) -> str:
    if worn is None:
        return "?"
    return ", ".join(worn) if worn else "no accessories"


def _statement(d: Mapping[str, Any]) -> str:
    verb = "has" if d["has"] else "has no"
    mark = " (Disguise)" if d["kind"] == "disguise" else ""
    return f"{verb} {d['accessory']}{mark}"


def render(obs: Mapping[str, Any], seat: int | None) -> str:
    lines: list[str] = []
    who = "spectator" if seat is None else f"seat {seat}"
    lines.append(
        f"== JumbleJack — {who} — round {obs['round']}, {obs['centre_rings']} Rings in the centre =="
    )
    lines.append(
        f"Doll: {_outfit(obs['doll'])}   held by seat {obs['doll_holder']}"
        f"   (set-up pirate: {_outfit(obs['doll_card'])})"
    )
    if obs.get("my_pirate"):
        lines.append(f"Your secret pirate: {_outfit(obs['my_pirate']['wears'])}")
    if obs.get("my_token"):
        token = obs["my_token"]
        state = "used" if token["used"] else "unused"
        lines.append(f"Your Piece of Eight: {token['name']} ({token['kind']}, {state})")
    lines.append("Players:")
    said: dict[int, list[str]] = {}
    for d in obs["declarations"]:
        said.setdefault(d["seat"], []).append(_statement(d))
    for s in range(obs["players"]):
        tags = []
        if s == obs["doll_holder"]:
            tags.append("Doll")
        if s == obs["first_player"]:
            tags.append("First Player")
        if str(s) in obs["tokens_used"]:
            tags.append(f"used {obs['tokens_used'][str(s)]['name']}")
        if s == seat:
            tags.append("you")
        stack = obs["stacks"][s]
        top = stack["top"]
        top_text = (
            f"top card {'brown' if top['has'] else 'red'} {top['accessory']}" if top else "no cards"
        )
        tag_text = f" [{', '.join(tags)}]" if tags else ""
        lines.append(
            f"  seat {s}{tag_text}: {obs['fingers'][s]} Ring(s), {stack['cards']} card(s), {top_text}"
        )
        lines.append(f"      said: {'; '.join(said.get(s, [])) or '—'}")
    piles = ", ".join(f"{a} {k}" for a, k in obs["piles"].items())
    lines.append(f"Accessory piles: {piles}")
    if obs["target"] is not None and obs["stage"] not in ("over",):
        lines.append(f"Target: seat {obs['target']}")
    if obs["tied"]:
        lines.append(f"Tied: {', '.join(f'seat {s}' for s in obs['tied'])}")
    if obs["result"] is not None:
        result = obs["result"]
        if "cursed" in result:
            lines.append(f"Game over: seat {result['cursed']} is cursed; everyone else wins.")
        else:
            lines.append(f"Game over: seat {result['sole_winner']} alone wins.")
    log = obs["log"][-RECENT_LOG_LINES:]
    if log:
        lines.append("Recent:")
        lines.extend(f"  {line}" for line in log)
    return "\n".join(lines)
