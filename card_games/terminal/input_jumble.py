"""Jumble Jam at the terminal: an order's fill built piece by piece, previewed, undoable.

The rules commit a fill at ``fill …`` and every piece as it is added; so the person's pieces
are kept here (each step shown on a preview copy, with what the fill will pay) and sent only
when the last piece completes the order and the person commits. Undo takes back pieces (and
the choice of order) until then; nothing of an uncommitted fill ever reaches the rules.
"""

from __future__ import annotations

from card_games.jumble_jam import fill_preview
from card_games.jumble_jam.cards import Catalog, load_catalog
from card_games.terminal.input import (
    Annotate,
    Console,
    Extension,
    Guarded,
    Menu,
    Plan,
    pseudo,
    run_dialogue,
)
from jamsumo_sim.turnloop.actions import Action
from jamsumo_sim.turnloop.agents import SeatView

UNDO = pseudo("undo the last piece")
CANCEL = pseudo("cancel this fill (nothing is sent)")
COMMIT = pseudo("commit: send the fill")


class JumbleInput(Extension):
    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or load_catalog()

    def note(self, view: SeatView, action: Action) -> str:
        order = action.get("order")
        if isinstance(order, str) and action.name.startswith("fill "):
            return fill_preview.order_note(view.observation, view.seat, order, self.catalog)
        outlook = fill_preview.current(view.observation, self.catalog)
        added = fill_preview.piece(dict(action.args), self.catalog)
        if outlook is not None and added is not None:
            return fill_preview.step_note(outlook, *added)
        return ""

    def expand(self, view: SeatView, action: Action, console: Console) -> Plan | None:
        if not (action.name.startswith("fill ") and isinstance(action.get("order"), str)):
            return [action]
        return FillEditor(self.catalog, view, console, action).run()


class FillEditor:
    """The pieces of one fill, kept until the order is complete and the person commits."""

    def __init__(self, catalog: Catalog, view: SeatView, console: Console, fill: Action) -> None:
        self.catalog = catalog
        self.view = view
        self.console = Guarded(console, "your unsent fill")
        self.steps: list[Action] = [fill]
        self.menu = Menu()

    def _status(self, outlook: fill_preview.FillOutlook, hand: list[str]) -> str:
        needs = " + ".join(f"{n} {t}" for t, n in outlook.needs.items())
        got = ", ".join(f"{t} {n}" for t, n in outlook.got.items()) or "nothing yet"
        rest = ", ".join(f"{n} {t}" for t, n in outlook.remaining.items())
        how = f"{outlook.wasted} wasted so far" if outlook.wasted else "exact so far"
        return (
            f"Filling {outlook.order} ({needs}; exact pays {outlook.pays(True)}, waste pays "
            f"{outlook.pays(False)}): placed {got} ({how}); still needs {rest}.\n"
            f"Left in your hand: {', '.join(hand) or 'nothing'}."
        )

    def run(self) -> Plan | None:
        console = self.console
        console.say(
            "Nothing is sent until the order is complete and you commit; 'undo' takes back a "
            "piece, 'cancel' the whole fill."
        )
        continuing = False
        while True:
            after = self.view.preview(self.steps)
            if after is None:  # pragma: no cover - a fill in progress is the seat's own move
                # never back to the menu (its first move would open this again): the steps go
                # to the rules, which ask for each further piece as this seat's next decision
                return list(self.steps)
            outlook = fill_preview.current(after.observation, self.catalog)
            assert outlook is not None
            console.say(self._status(outlook, list(after.observation.get("hand") or ())))
            choices = [*after.legal_actions, UNDO, CANCEL]

            def note(action: Action, outlook: fill_preview.FillOutlook = outlook) -> str:
                added = fill_preview.piece(dict(action.args), self.catalog)
                return fill_preview.step_note(outlook, *added) if added else ""

            picked = self._pick(choices, continuing, note)
            continuing = True
            if picked == CANCEL:
                return None
            if picked == UNDO:
                self.steps.pop()
                if not self.steps:  # the order's choice taken back too
                    return None
                continue
            added = fill_preview.piece(dict(picked.args), self.catalog)
            assert added is not None
            if outlook.add(*added).remaining:
                self.steps.append(picked)
                continue
            # the last piece: the rules would score it at once, so confirm first
            console.say(f"{picked.name}: {fill_preview.step_note(outlook, *added)}.")
            # commit first (the first listed move goes forward); cancel is always listed too
            confirm = self._pick([COMMIT, UNDO, CANCEL], False, None)
            if confirm == COMMIT:
                return [*self.steps, picked]
            if confirm == CANCEL:
                return None

    def _pick(self, choices: list[Action], continuing: bool, note: Annotate | None) -> Action:
        # the commit question has a menu of its own: its two numbers never shift the pieces'
        menu = self.menu if note is not None else Menu()
        answer = run_dialogue(
            self.console,
            menu,
            f"seat {self.view.seat} fill> ",
            choices,
            continuing,
            annotate=note,
            typed=lambda t: [UNDO] if t.lower() == "undo" else None,
        )
        return answer[0] if isinstance(answer, list) else answer
