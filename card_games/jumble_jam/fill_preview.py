"""What filling a Jumble Jam order will give, worked out from what the filling seat sees.

Before each piece is added a person sees whether the fill stays exact or wastes pastries and
what the order will pay (its exact or waste coins, plus the die's bonus). Only the observation
and the card catalog are read: the rules (``state._complete``) stay the one place that scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from card_games.jumble_jam.cards import Catalog
from card_games.jumble_jam.fills import Pieces

DIE_BONUS = 1  # coins for an order showing the die's pastry type (rules: state._complete)


def kind_values(catalog: Catalog) -> dict[str, tuple[str, int]]:
    """A card kind as a person sees it (``2 cherry``) → (pastry type, pastries)."""
    return {c.kind: (c.type, c.pastries) for c in catalog.cards.values()}


@dataclass(frozen=True)
class FillOutlook:
    """An order being filled: what it needs, what it has so far and what it pays."""

    order: str
    needs: Mapping[str, int]
    got: Mapping[str, int]
    exact_pays: int
    waste_pays: int
    bonus: int

    @property
    def remaining(self) -> dict[str, int]:
        return {t: n - self.got.get(t, 0) for t, n in self.needs.items() if self.got.get(t, 0) < n}

    @property
    def wasted(self) -> int:
        return sum(max(0, self.got.get(t, 0) - n) for t, n in self.needs.items())

    def pays(self, exact: bool) -> int:
        return (self.exact_pays if exact else self.waste_pays) + self.bonus

    def add(self, as_type: str, value: int) -> FillOutlook:
        got = dict(self.got)
        got[as_type] = got.get(as_type, 0) + value
        return FillOutlook(
            self.order, self.needs, got, self.exact_pays, self.waste_pays, self.bonus
        )


def _order(obs: Mapping[str, Any], order_id: str) -> Mapping[str, Any]:
    return next(o for o in obs["orders"] if o["id"] == order_id)


def start(obs: Mapping[str, Any], order_id: str) -> FillOutlook:
    """The outlook of an order before any piece is added."""
    o = _order(obs, order_id)
    needs = dict(o["needs"])
    bonus = DIE_BONUS if obs.get("die") in needs else 0
    return FillOutlook(order_id, needs, {}, o["exact"], o["waste"], bonus)


def current(obs: Mapping[str, Any], catalog: Catalog) -> FillOutlook | None:
    """The outlook of the order the seat is filling now (None if none is being filled)."""
    building = obs.get("building")
    if not building:
        return None
    out = start(obs, building["order"])
    values = kind_values(catalog)
    for kind, as_type in building["cards"]:
        out = out.add(as_type, values[kind][1])
    for as_type, count in building["tokens"].items():
        out = out.add(as_type, count)
    return out


def piece(action_args: Mapping[str, Any], catalog: Catalog) -> tuple[str, int] | None:
    """(type it covers, pastries) of an ``add …`` move, or None for another move."""
    as_type = action_args.get("type")
    if as_type is None:
        return None
    if action_args.get("token"):
        return as_type, 1
    kind = action_args.get("kind")
    if kind is None:
        return None
    return as_type, kind_values(catalog)[kind][1]


def step_note(outlook: FillOutlook, as_type: str, value: int) -> str:
    """What adding a piece of ``value`` to ``as_type`` does to the fill, in words."""
    after = outlook.add(as_type, value)
    rest = after.remaining
    over = after.got.get(as_type, 0) - after.needs.get(as_type, 0)
    if not rest:
        if after.wasted:
            return (
                f"completes it with {after.wasted} wasted: pays {after.pays(False)} "
                f"(exact would pay {after.pays(True)})"
            )
        return f"completes it exactly: pays {after.pays(True)}"
    still = ", ".join(f"{n} {t}" for t, n in rest.items())
    if over > 0:
        return f"{as_type} covered, {over} wasted (pays {after.pays(False)}); still needs {still}"
    if over == 0:
        how = "waste" if after.wasted else "exact so far"
        return f"{as_type} covered exactly ({how}); still needs {still}"
    return f"still needs {still}"


def hand_pieces(obs: Mapping[str, Any], seat: int, catalog: Catalog) -> Pieces:
    """The seat's pieces for filling (hand cards and its pastry tokens), as the rules count."""
    values = kind_values(catalog)
    own: dict[str, list[int]] = {}
    jams: list[int] = []
    for kind in obs.get("hand") or ():
        card_type, pastries = values[kind]
        if card_type == catalog.wild:
            jams.append(pastries)
        elif pastries:
            own.setdefault(card_type, []).append(pastries)
    token = obs["token_type"][seat]
    if token is not None and obs["pastry_tokens"][seat]:
        own.setdefault(token, []).extend([1] * obs["pastry_tokens"][seat])
    return Pieces.of(own, jams)


def order_note(obs: Mapping[str, Any], seat: int, order_id: str, catalog: Catalog) -> str:
    """For ``fill …``: can the seat fill it exactly, and what it pays either way."""
    outlook = start(obs, order_id)
    pieces = hand_pieces(obs, seat, catalog)
    bonus = f", +{outlook.bonus} die bonus included" if outlook.bonus else ""
    if pieces.can_cover(outlook.needs.items(), exact=True):
        return f"exact possible: pays {outlook.pays(True)} (waste {outlook.pays(False)}{bonus})"
    return f"only with waste: pays {outlook.pays(False)}{bonus}"
