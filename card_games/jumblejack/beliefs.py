"""Deduction from public information: which pirates each player may still be.

Everything here reads an observation (never the state), so a bot knows only what its seat knows.
Outfits are bit masks over the observation's accessory order. Only truthful statements count as
evidence: set-up declarations and mismatch declarations. A Disguise declaration may be a lie, so
it is ignored, as are mirrors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

TRUTHFUL = ("setup", "mismatch")


def mask_of(worn: Iterable[str], accessories: list[str]) -> int:
    return sum(1 << accessories.index(a) for a in worn)


def hamming(a: int, b: int) -> int:
    return bin(a ^ b).count("1")


def consistent(mask: int, facts: list[tuple[int, bool]]) -> bool:
    return all(bool(mask >> i & 1) == has for i, has in facts)


def facts_by_seat(obs: Mapping[str, Any]) -> dict[int, list[tuple[int, bool]]]:
    """The truthful public facts about each seat: (accessory index, has it)."""
    accessories = obs["accessories"]
    facts: dict[int, list[tuple[int, bool]]] = {s: [] for s in range(obs["players"])}
    for d in obs["declarations"]:
        if d["kind"] in TRUTHFUL:
            facts[d["seat"]].append((accessories.index(d["accessory"]), bool(d["has"])))
    return facts


def candidates(obs: Mapping[str, Any]) -> dict[int, list[int]]:
    """For every other seat, the outfits still possible given what ``obs``'s seat knows.

    Pirate cards are unique, so the set-up card (on the Doll) and one's own card are excluded,
    and an outfit pinned on one player is removed from everyone else.
    """
    accessories = obs["accessories"]
    every = range(1 << len(accessories))
    excluded: set[int] = set()
    if obs["doll_card"] is not None:
        excluded.add(mask_of(obs["doll_card"], accessories))
    me = obs["seat"]
    if obs.get("my_pirate"):
        excluded.add(mask_of(obs["my_pirate"]["wears"], accessories))
    facts = facts_by_seat(obs)
    revealed = {int(s): mask_of(p["wears"], accessories) for s, p in obs["revealed"].items()}
    out: dict[int, list[int]] = {}
    for seat in range(obs["players"]):
        if seat == me:
            continue
        if seat in revealed:
            out[seat] = [revealed[seat]]
            continue
        out[seat] = [m for m in every if m not in excluded and consistent(m, facts[seat])]
    # pinned outfits belong to one player only (a few passes are enough in practice)
    for _ in range(obs["players"]):
        pinned = {seat: c[0] for seat, c in out.items() if len(c) == 1}
        changed = False
        for seat, cands in out.items():
            drop = {m for s, m in pinned.items() if s != seat}
            kept = [m for m in cands if m not in drop]
            if kept and len(kept) < len(cands):
                out[seat] = kept
                changed = True
        if not changed:
            break
    return out


def public_candidates(obs: Mapping[str, Any], seat: int) -> list[int]:
    """What the table can deduce about ``seat`` from public statements alone."""
    accessories = obs["accessories"]
    excluded = set()
    if obs["doll_card"] is not None:
        excluded.add(mask_of(obs["doll_card"], accessories))
    facts = facts_by_seat(obs)[seat]
    return [m for m in range(1 << len(accessories)) if m not in excluded and consistent(m, facts)]


def chance_of(cands: list[int], outfit: int) -> float:
    """The probability that a player with these candidates wears ``outfit`` (uniform belief)."""
    return 1.0 / len(cands) if cands and outfit in cands else 0.0


def best_one_change(cands: list[int], doll: int, accessories: int) -> float:
    """The best match chance after the Doll holder adds or removes one accessory."""
    return max(chance_of(cands, doll ^ (1 << i)) for i in range(accessories))
