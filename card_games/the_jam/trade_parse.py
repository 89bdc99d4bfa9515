"""A whole trade offer typed in one line, turned into the moves the rules already accept.

``offer 2 cards: raspberry-jam, apple-pie for seat 3's cherry`` reads as: propose to seat 3,
giving my Raspberry jam and Apple pie, asking for seat 3's cherry recipe. The sides may come in
either order (the side naming ``seat N`` or ``seat N's`` is the partner's, ``my`` marks mine;
otherwise what comes before ``for`` is given), the cards in any order, a card as any unambiguous
part of its name (``cherry``, ``peach pie``), copies as ``2x cherry jam``, an empty side as
``nothing``. ``N cards:`` before a side is a check that the side lists N cards.

The rules build a proposal one recipe at a time, each side in a fixed order (see
``moves.bundle_candidates``); :func:`plan_offer` finds that order by asking the legal moves of a
preview after each step, so the moves sent are exactly those a step-by-step proposal makes and
records and replays are unchanged. Nothing here changes the rules: an offer is only sent (and a
proposal only counted) once the person confirms it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from jamsumo_sim.turnloop.actions import Action

_VERBS = ("offer", "trade")  # not "propose": the start of listed moves
_SPLIT = re.compile(r"\s+(?:in\s+(?:exchange|return)\s+)?for\s+|\s+get\s+|\s+wanting\s+")
_SEAT = re.compile(r"\bseat\s*(\d+)")
_THEIRS = re.compile(r"\bseat\s*\d+\s*(?:'s|’s|s\b)|\btheirs?\b")
_MARKERS = re.compile(
    r"\b(?:to|with|from)?\s*seat\s*\d+(?:'s|’s|s\b)?\s*:?|\b(?:my|theirs?|of|the)\b"
)
_COUNT = re.compile(r"^\s*(\d+)\s+cards?\s*:?\s*")
_QUANTITY = re.compile(r"^(\d+)\s*x?\s+(.+)$")
_ITEMS = re.compile(r",|;|\s+and\s+|&")
_NOTHING = ("nothing", "none", "")
MAX_COPIES = 20  # more copies of a card than exist in the game: a typing error


class OfferError(ValueError):
    """An offer line that cannot be read or does not fit the table; the text says why."""


@dataclass(frozen=True)
class OfferText:
    """An offer as typed: the partner (if named) and each side's card descriptions, one per
    copy, in the order typed."""

    partner: int | None
    give: tuple[str, ...]
    get: tuple[str, ...]


@dataclass(frozen=True)
class Bundle:
    """An offer resolved against the table: each side's card labels, one per copy."""

    partner: int
    give: tuple[str, ...]
    get: tuple[str, ...]


def is_offer(text: str) -> bool:
    first = text.strip().lower().split(maxsplit=1)
    return bool(first) and first[0] in _VERBS


def _side(text: str) -> tuple[str, list[str]]:
    """(owner mark: "mine", "theirs" or "", items one per copy) of one side's text."""
    mark = "theirs" if _THEIRS.search(text) else "mine" if re.search(r"\bmy\b", text) else ""
    body = _MARKERS.sub(" ", text)
    count_match = _COUNT.match(body)
    expected = None
    if count_match:
        expected = int(count_match.group(1))
        body = body[count_match.end() :]
    items: list[str] = []
    for raw in _ITEMS.split(body):
        item = " ".join(raw.replace("-", " ").replace("_", " ").split())
        if item in _NOTHING:
            continue
        quantity = _QUANTITY.match(item)
        copies = 1
        if quantity:
            copies, item = int(quantity.group(1)), quantity.group(2)
            if not 1 <= copies <= MAX_COPIES:
                raise OfferError(f"{copies} copies of {item!r}: at most {MAX_COPIES}")
        items += [item] * copies
    if expected is not None and expected != len(items):
        raise OfferError(f"the offer says {expected} cards but lists {len(items)}")
    return mark, items


def parse_offer(text: str) -> OfferText:
    """Read an offer line (see the module notes); raises :class:`OfferError`."""
    lowered = " ".join(text.strip().lower().split())
    verb, _, rest = lowered.partition(" ")
    if verb not in _VERBS:
        raise OfferError("an offer starts with 'offer'")
    seats = {int(n) for n in _SEAT.findall(rest)}
    if len(seats) > 1:
        raise OfferError("an offer names one partner; it names seats " + ", ".join(map(str, seats)))
    parts = _SPLIT.split(" " + rest, maxsplit=1)
    left, right = (parts[0], parts[1]) if len(parts) == 2 else (parts[0], "")
    left_mark, left_items = _side(left)
    right_mark, right_items = _side(right)
    # the side marked as the partner's ("seat 3's", "their") or the other side marked "my"
    swap = (left_mark == "theirs" and right_mark != "theirs") or right_mark == "mine"
    give, get = (right_items, left_items) if swap else (left_items, right_items)
    return OfferText(next(iter(seats)) if seats else None, tuple(give), tuple(get))


def _tier(item: str, label: str) -> int:
    """How well ``item`` names a card ``label`` (0: not at all; higher is better)."""
    want = re.findall(r"[a-z0-9]+", item.lower())
    full = re.findall(r"[a-z0-9]+", label.lower())
    recipe = re.findall(r"[a-z0-9]+", label.split("(")[0].lower())
    if not want:
        return 0
    if want == full:
        return 4
    if want == recipe:
        return 3
    if all(any(w.startswith(q) for w in recipe) for q in want):
        return 2
    if all(any(w.startswith(q) for w in full) for q in want):
        return 1
    return 0


def match_card(item: str, labels: Sequence[str], whose: str) -> str:
    """The one label of ``labels`` that ``item`` names best; raises :class:`OfferError`."""
    distinct = list(dict.fromkeys(labels))
    scored = [(t, label) for label in distinct if (t := _tier(item, label))]
    if not scored:
        held = "; ".join(distinct) or "no recipes"
        raise OfferError(f"{whose} no recipe matching {item!r} (held: {held})")
    best = max(t for t, _ in scored)
    top = [label for t, label in scored if t == best]
    if len(top) > 1:
        raise OfferError(f"{item!r} could be {' or '.join(top)}: name more of it")
    return top[0]


def _resolve_side(items: Sequence[str], labels: Sequence[str], whose: str) -> tuple[str, ...]:
    chosen = [match_card(item, labels, whose) for item in items]
    held = Counter(labels)
    for label, count in Counter(chosen).items():
        if count > held[label]:
            raise OfferError(f"{whose} only {held[label]} × {label}, not {count}")
    return tuple(chosen)


def resolve_offer(
    offer: OfferText, me: int, made_labels: Sequence[Sequence[str]], default_partner: int | None
) -> Bundle:
    """Match an offer's cards against the made recipes on the table (``made_labels[seat]``)."""
    partner = offer.partner if offer.partner is not None else default_partner
    if partner is None:
        raise OfferError("name the seat you offer to, e.g. 'for seat 2's cherry jam'")
    if partner == me or not 0 <= partner < len(made_labels):
        raise OfferError(f"seat {partner} cannot be your trade partner")
    give = _resolve_side(offer.give, made_labels[me], "you have")
    get = _resolve_side(offer.get, made_labels[partner], f"seat {partner} has")
    if not give and not get:
        raise OfferError("an offer needs at least one recipe on one side")
    return Bundle(partner, give, get)


Preview = Callable[[Sequence[Action]], "Sequence[Action] | None"]


def plan_offer(
    bundle: Bundle, legal: Sequence[Action], preview: Preview, label: Callable[[str], str]
) -> list[Action]:
    """The moves that make this proposal: start, each recipe in the order the rules list them,
    propose. ``preview(moves)`` gives the legal moves after ``moves`` (None if they cannot be
    made); ``label(card_id)`` a card's label. Raises :class:`OfferError`."""
    if not bundle.give and not bundle.get:
        raise OfferError("an offer needs at least one recipe on one side")
    start = next(
        (a for a in legal if a.get("trade") == "start" and a.get("partner") == bundle.partner),
        None,
    )
    if start is None:
        raise OfferError(f"you cannot propose a trade to seat {bundle.partner} now")
    plan = [start]
    wanted = {"mine": Counter(bundle.give), "theirs": Counter(bundle.get)}
    while any(wanted["mine"].values()) or any(wanted["theirs"].values()):
        moves = preview(plan)
        if moves is None:  # pragma: no cover - the rules list every bundle (moves notes)
            raise OfferError("the offer could not be built")
        # each side's moves come in bundle order: the first wanted one is the one to add now
        step = next(
            (
                a
                for a in moves
                if a.get("trade") in wanted and wanted[a.get("trade")][label(a.get("pick"))] > 0
            ),
            None,
        )
        if step is None:
            missing = [k for side in wanted.values() for k, n in side.items() if n > 0]
            raise OfferError(f"{', '.join(missing)} cannot be added to this offer")
        wanted[step.get("trade")][label(step.get("pick"))] -= 1
        plan.append(step)
    moves = preview(plan)
    propose = next((a for a in moves or () if a.get("trade") == "propose"), None)
    if propose is None:  # pragma: no cover - a bundle with a recipe may be proposed
        raise OfferError("the offer could not be proposed")
    return [*plan, propose]


def describe_offer(bundle: Bundle, points: Mapping[str, int]) -> list[str]:
    """What each side gets, with points: the preview shown before sending."""

    def side(labels: Sequence[str]) -> str:
        if not labels:
            return "nothing"
        counted = Counter(labels)
        # points written as the table writes them ("3pt"): brackets hold a recipe's ingredient
        parts = [
            (f"{n} × " if n > 1 else "") + f"{lab} {points.get(lab, 0)}pt"
            for lab, n in counted.items()
        ]
        if len(labels) == 1:  # one card: its points are the side's, said once
            return parts[0]
        total = sum(points.get(lab, 0) for lab in labels)
        return ", ".join(parts) + f" ({total} point{'s' if total != 1 else ''} in all)"

    return [
        f"Seat {bundle.partner} gets from you: {side(bundle.give)}",
        f"You get from seat {bundle.partner}: {side(bundle.get)}",
    ]
