"""The Jam at the terminal: a trade offer typed in one line or built in an editor, previewed,
edited and only then sent.

Choosing ``propose a trade to seat N`` (or typing ``offer …``) opens the offer editor; nothing
reaches the rules until ``send``, so cancelling there uses none of the turn's proposals. A sent
offer is exactly the step-by-step moves the rules accept (``trade_parse.plan_offer``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from card_games.terminal.input import (
    Console,
    Extension,
    Guarded,
    Menu,
    Plan,
    is_pseudo,
    pseudo,
    run_dialogue,
)
from card_games.the_jam.cards import CardSet, load_cards
from card_games.the_jam.rules import MAX_PROPOSALS
from card_games.the_jam.trade_parse import (
    Bundle,
    OfferError,
    describe_offer,
    is_offer,
    parse_offer,
    plan_offer,
    resolve_offer,
)
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.agents import SeatView

SEND = pseudo("send the offer")
# ``0`` always sends: listed first once the offer holds a card (the first listed move goes
# forward), never listed while it is empty (typed, it says why)
SEND_NUMBER = 0
EMPTY = "Nothing to send yet: add a card to give or to ask for first (or cancel)."
CANCEL = pseudo("cancel: send nothing (no proposal is used)")
UNDO = pseudo("undo the last change")
NOTHING_TO_UNDO = "Nothing to undo: the offer is as it was opened."
CANCELLED = "Offer cancelled: nothing was sent, no proposal used."
OFFER_HELP = (
    "Pick by number or name; 'undo'; or type a whole offer, e.g. "
    "offer 2 cards: raspberry-jam, apple-pie for seat 3's cherry"
)


def _labels(cs: CardSet, view: SeatView) -> list[list[str]]:
    """Each seat's made recipes on the table, as card labels (face-down travel piles hidden)."""
    return [[cs.cards[r["card"]].label for r in made] for made in view.observation["made"]]


def _starts(view: SeatView) -> dict[int, Action]:
    return {
        a.get("partner"): a
        for a in view.legal_actions
        if a.get("trade") == "start" and not is_pseudo(a)
    }


def no_trade_reason(view: SeatView) -> str:
    """Why no trade can be opened now, in the rules' words (``_trade_partners``)."""
    obs = view.observation
    made = obs.get("made_counts") or [len(m) for m in obs["made"]]
    if obs.get("variant") == "kids":
        return "the kids variant has no trading"
    if obs.get("trade"):
        return "a proposal is under way; answer or finish it first"
    if obs.get("step") not in ("trade", "play") or obs.get("active") != view.seat:
        return "trades are proposed at the start of your own turn"
    if obs.get("variant") == "travel":
        return "in the travel variant a trade is a blind swap, listed at the trade step"
    if not made[view.seat]:
        return "trades are of made recipes and you have none on the table yet"
    if not any(n for s, n in enumerate(made) if s != view.seat):
        return "trades are of made recipes and no other seat has one on the table yet"
    if obs.get("proposals", 0) >= MAX_PROPOSALS:
        return f"you have made the {MAX_PROPOSALS} proposals a turn allows"
    return "trades come at the start of your turn, before you play a card"


class JamInput(Extension):
    def __init__(self, cards: CardSet | None = None) -> None:
        self.cards = cards or load_cards()

    def order(self, view: SeatView, actions: Sequence[Action]) -> list[Action]:
        """Plays before the ways to open a trade: the first number always plays a card, as a
        person who does not trade simply plays (and a trade opens a dialogue)."""
        opening = [a for a in actions if a.get("trade") in ("start", "blind")]
        return [a for a in actions if a.get("trade") not in ("start", "blind")] + opening

    def note(self, view: SeatView, action: Action) -> str:
        trade = action.get("trade")
        if trade == "start":
            return "opens an offer: preview and edit before sending"
        if trade in ("accept", "refuse"):
            t = view.observation.get("trade") or {}
            mine, theirs = t.get("mine"), t.get("theirs")
            if not isinstance(mine, list) or not isinstance(theirs, list):
                return ""
            label = self.cards.cards
            gets = ", ".join(label[c].label for c in mine) or "nothing"
            gives = ", ".join(label[c].label for c in theirs) or "nothing"
            return f"you would get {gets}; give {gives}" if trade == "accept" else ""
        return ""

    def typed(self, view: SeatView, text: str, console: Console) -> Plan | str | None:
        if not is_offer(text):
            return None
        starts = _starts(view)
        if not starts:
            verb = text.split()[0].lower()
            if any(a.name.startswith(verb) for a in view.legal_actions):
                return None  # an auction's "offer …" bid: the menu reads it
            return f"No trade now: {no_trade_reason(view)}."
        try:
            bundle = self._bundle(view, text, starts)
        except OfferError as exc:
            return f"Offer not understood: {exc}."
        # typing the offer is its first change: 'undo' goes back to the empty offer
        empty = Bundle(bundle.partner, (), ())
        plan = OfferEditor(self.cards, view, console, bundle, [empty]).run()
        return plan if plan else CANCELLED

    def _bundle(self, view: SeatView, text: str, starts: dict[int, Action]) -> Bundle:
        default = next(iter(starts)) if len(starts) == 1 else None
        bundle = resolve_offer(parse_offer(text), view.seat, _labels(self.cards, view), default)
        if bundle.partner not in starts:
            raise OfferError(f"you cannot propose a trade to seat {bundle.partner} now")
        return bundle

    def expand(self, view: SeatView, action: Action, console: Console) -> Plan | None:
        if action.get("trade") != "start":
            return [action]
        empty = Bundle(action.get("partner"), (), ())
        plan = OfferEditor(self.cards, view, console, empty).run()
        if plan is None:
            console.say(CANCELLED)
        return plan


class OfferEditor:
    """Build an offer locally: add or take back recipes, retype it whole, preview, send."""

    def __init__(
        self,
        cards: CardSet,
        view: SeatView,
        console: Console,
        bundle: Bundle,
        history: Sequence[Bundle] = (),
    ) -> None:
        self.cards = cards
        self.view = view
        self.console = Guarded(console, "your unsent offer")
        self.bundle = bundle
        self.history: list[Bundle] = list(history)  # earlier versions, for undo
        self.menu = Menu(reserved={SEND.name: SEND_NUMBER})
        self.points = {c.label: c.points for c in cards.cards.values()}

    def _set(self, bundle: Bundle) -> None:
        self.history.append(self.bundle)
        self.bundle = bundle

    def _entries(self) -> dict[Action, Bundle | None]:
        """The editor's choices, each with the offer it leads to (None: send or cancel)."""
        b, me = self.bundle, self.view.seat
        labels = _labels(self.cards, self.view)
        empty = not (b.give or b.get)
        out: dict[Action, Bundle | None] = {} if empty else {SEND: None}
        self.menu.held = {SEND.name: EMPTY} if empty else {}
        left = Counter(labels[me]) - Counter(b.give)
        for label in left:
            out[pseudo(f"give my {label}")] = Bundle(b.partner, (*b.give, label), b.get)
        left = Counter(labels[b.partner]) - Counter(b.get)
        for label in left:
            out[pseudo(f"ask for seat {b.partner}'s {label}")] = Bundle(
                b.partner, b.give, (*b.get, label)
            )
        for label in dict.fromkeys(b.give):
            out[pseudo(f"take back my {label}")] = Bundle(b.partner, _less(b.give, label), b.get)
        for label in dict.fromkeys(b.get):
            out[pseudo(f"stop asking for {label}")] = Bundle(b.partner, b.give, _less(b.get, label))
        if self.history:
            out[UNDO] = self.history[-1]
        out[CANCEL] = None
        return out

    def _plan(self) -> Plan:
        view = self.view

        def preview(moves: Sequence[Action]) -> list[Action] | None:
            after = view.preview(moves)
            return after.legal_actions if after is not None else None

        def label(card_id: Any) -> str:
            return self.cards.cards[card_id].label

        return plan_offer(self.bundle, view.legal_actions, preview, label)

    def _typed(self, text: str) -> Plan | str | None:
        if text.lower() == "undo":
            return [UNDO]
        if not is_offer(text):
            return None
        starts = _starts(self.view)
        try:
            default = self.bundle.partner
            offer = parse_offer(text)
            bundle = resolve_offer(offer, self.view.seat, _labels(self.cards, self.view), default)
            if bundle.partner not in starts:
                raise OfferError(f"you cannot propose a trade to seat {bundle.partner} now")
        except OfferError as exc:
            return f"Offer not understood: {exc}."
        self._set(bundle)
        return [pseudo("retyped")]

    def run(self) -> Plan | None:
        console = self.console
        used = self.view.observation.get("proposals", 0)
        console.say(
            f"Offer to seat {self.bundle.partner} (proposal {used + 1} of {MAX_PROPOSALS} this "
            "turn once sent; nothing is sent until 'send'). " + OFFER_HELP
        )
        continuing = False
        while True:
            console.say("\n".join(describe_offer(self.bundle, self.points)))
            entries = self._entries()
            choice = run_dialogue(
                console, self.menu, "offer> ", list(entries), continuing, typed=self._typed
            )
            continuing = True
            picked = choice[0] if isinstance(choice, list) else choice
            if picked == CANCEL:
                return None
            if picked == SEND:
                try:
                    return self._plan()
                except OfferError as exc:
                    console.say(f"Not sent: {exc}.")
                    continue
            if picked == UNDO:
                if self.history:
                    self.bundle = self.history.pop()
                else:
                    console.say(NOTHING_TO_UNDO)
                continue
            if picked in entries:
                target = entries[picked]
                assert target is not None
                self._set(target)


def _less(labels: tuple[str, ...], label: str) -> tuple[str, ...]:
    out = list(labels)
    out.reverse()
    out.remove(label)  # the last copy added goes first
    out.reverse()
    return tuple(out)
