"""The rules of Jelly Fish Toast & Jam as a turn-loop :class:`State`.

Zones (every card is in exactly one): the draw pile (an unknown part — the shuffled deck, whose
order nobody knows, so every draw from it is a chance node — and a known part at the bottom, the
cards put back there in order), each seat's face-up partial sets, each seat's face-down Cover
cards (one per covered partial set) and each seat's completed sets. A card being given away sits
in a pending "give" task until it lands.

Work inside a turn is a queue of small tasks: the turn's steps (``TURN_STEPS``, in rulebook order)
plus the give-aways and Cover draws they cause. ``_settle`` resolves every task that needs no
decision (skips, forced gives, draws of known cards), so the head of the queue is always a real
decision or chance node.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Protocol

from card_games.jellyfish.cards import Deck
from card_games.jellyfish.draws import CardDraw
from jamsumo_sim.turnloop import (
    CHANCE,
    TERMINAL,
    Action,
    PhaseSpec,
    Repeat,
    RoundSpec,
    Seating,
    State,
    TurnTracker,
)

# A turn is these steps, in this order (rulebook: "DRAW, STEAL, COVER").
TURN_STEPS: tuple[str, ...] = ("draw", "steal", "cover")
# One phase in which seats take whole turns, going left from the youngest (seat 0), until the game
# ends; the steps of a turn are the task queue above, not phases (every seat does all three).
ROUND = RoundSpec(
    phases=(PhaseSpec("turn", repeat=Repeat.UNTIL_ENDED),),
    rounds=None,
    tokens_pass=(),
)
# Safety net (rules note): a pile made only of cards nobody may keep can bounce to the bottom for
# ever; no normal game comes near this many turns (a turn normally takes one or two cards off
# the pile for good, and there are 80).
MAX_TURNS = 200

# How a game ends: the code of its --json result (``end``) and the reason the log gives for it.
END_REASONS = {
    "three_sets": "seat {seat} completed {count} sets",
    "pile_exhausted": "the draw pile ran out",
    "turn_limit": "{limit} turns were played (safety limit)",
}

# History entries one turn can add: draw, give it, steal, give a stolen Cover, cover, Cover draw.
ENTRIES_PER_TURN = 6

CHANCE_TASKS = frozenset({"deal", "draw", "cover_draw"})


class JellyfishActions(Protocol):
    """The game's cached action builders the rules list moves with (a protocol: the game module
    imports this one)."""

    outcome: dict[str, Action]

    def steal_action(self, what: str, victim: int, kind: str) -> Action: ...

    def cover_action(self, kind: str) -> Action: ...

    def give_action(self, card: str, to: int) -> Action: ...


class JellyfishState(State):
    game: JellyfishActions

    def __init__(self, game: JellyfishActions, params: Mapping[str, Any], seed: int = 0) -> None:
        super().__init__(game, params, seed)
        n = self.num_players
        self.deck: Deck = game.decks[self.params["variant"]]
        self.set_size = self.deck.set_size(n)
        self.turns = TurnTracker.start(Seating(n), ROUND, {"first_player": 0})
        # the unknown part, held in deck order: its real order is unknown, so a draw is a uniform
        # chance node over it
        self.pile: list[str] = list(self.deck.cards)
        self.bottom: list[str] = []  # known cards under it; bottom[0] is drawn first
        self.groups: list[dict[str, list[str]]] = [{} for _ in range(n)]  # kind -> face-up cards
        self.covers: list[dict[str, dict[str, Any]]] = [{} for _ in range(n)]  # kind -> cover
        self.completed: list[dict[str, list[str]]] = [{} for _ in range(n)]  # kind -> set cards
        # Set-up: one face-up card to each player, dealt from the shuffled deck.
        self.tasks: list[dict[str, Any]] = [{"kind": "deal", "seat": s} for s in range(n)]
        self.turn_count = 0
        self.over = False
        self.ended_by = ""  # the code of END_REASONS the game ended by
        self.end_reason = ""
        self._draw: tuple[int, CardDraw] | None = None  # cache of _chance()

    # -- whose move ------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        task = self.tasks[0]
        kind = task["kind"]
        if kind in CHANCE_TASKS:
            return CHANCE
        if kind == "give":
            return int(task["seat"])
        return self.turns.seat

    @property
    def active(self) -> int:
        """The seat whose turn it is."""
        return self.turns.seat

    # -- queries ---------------------------------------------------------------------------------
    def done_characters(self, seat: int) -> set[str]:
        """Characters of which ``seat`` has completed a set."""
        character_of = self.deck.character_of
        return {character_of[k] for k in self.completed[seat]}

    def eligible(self, giver: int, card: str) -> list[int]:
        """Who may be given ``card``: any other seat without a completed set of its character."""
        character = self.deck.character_of[self.deck.kind_of[card]]
        seats = self.turns.seating.clockwise(giver)[1:]
        return [s for s in seats if character not in self.done_characters(s)]

    def steal_options(self, thief: int) -> list[Action]:
        """Legal steals, seats in turn order from the thief's left, kinds in deck order."""
        done = self.done_characters(thief)
        deck = self.deck
        out: list[Action] = []
        for victim in self.turns.seating.clockwise(thief)[1:]:
            covers = self.covers[victim]
            for kind in sorted(self.groups[victim], key=deck.kind_index.__getitem__):
                cover = covers.get(kind)
                if cover is not None:
                    # covered cards are safe, the Cover card is not (unless it is known and of a
                    # character the thief completed: "cannot steal a card the same as their set")
                    known = cover["public"]
                    if known and deck.character_of[deck.kind_of[cover["card"]]] in done:
                        continue
                    out.append(self.game.steal_action("cover", victim, kind))
                elif deck.character_of[kind] not in done:
                    out.append(self.game.steal_action("card", victim, kind))
        return out

    def cover_targets(self, seat: int) -> list[str]:
        """Own partial sets not yet under a Cover card (completed sets are gone from the table)."""
        covers = self.covers[seat]
        kinds = [k for k in self.groups[seat] if k not in covers]
        return sorted(kinds, key=self.deck.kind_index.__getitem__)

    def pile_size(self) -> int:
        return len(self.pile) + len(self.bottom)

    def partial_count(self, seat: int) -> int:
        """Face-up cards in partial sets (the second end-of-pile ranking)."""
        return sum(len(cards) for cards in self.groups[seat].values())

    # -- legal actions -------------------------------------------------------------------------
    def _chance(self) -> CardDraw:
        # the pile only ever shrinks between draws (perturb_hidden resets this), so its length
        # identifies the cached distribution
        cached = self._draw
        if cached is None or cached[0] != len(self.pile):
            outcomes = self.game.outcome
            cached = self._draw = (len(self.pile), CardDraw(tuple(outcomes[c] for c in self.pile)))
        return cached[1]

    def _legal_actions(self, seat: int) -> list[Action]:
        task = self.tasks[0]
        kind = task["kind"]
        if kind == "steal":
            return self.steal_options(seat)
        if kind == "cover":
            return [self.game.cover_action(k) for k in self.cover_targets(seat)]
        if kind == "give":
            card = task["card"]
            return [self.game.give_action(card, s) for s in self.eligible(seat, card)]
        return []

    # -- moves -----------------------------------------------------------------------------------
    def _apply_action(self, action: Action) -> None:
        task = self.tasks.pop(0)
        kind = task["kind"]
        if kind == "deal":
            card = self._take(action["card"])
            self.say(f"Seat {task['seat']} is dealt {self.deck.label(card)}.")
            self._add(task["seat"], card)
        elif kind == "draw":
            self._drawn(self._take(action["card"]))
        elif kind == "cover_draw":
            self._place_cover(
                task["seat"], task["target"], self._take(action["card"]), public=False
            )
        elif kind == "steal":
            self._steal(action)
        elif kind == "cover":
            target = action["kind"]
            self.say(
                f"Seat {self.active} covers its {self.deck.label(target)} with a face-down card."
            )
            self.tasks.insert(0, {"kind": "cover_draw", "seat": self.active, "target": target})
        elif kind == "give":
            self._give(task, int(action["to"]))
        self._settle()

    def _take(self, card: str) -> str:
        self.pile.remove(card)
        return card

    def _settle(self) -> None:
        """Resolve every task that needs nobody's decision; stop at a decision or chance node."""
        while not self.over:
            if not self.tasks:
                self._next_turn()
                continue
            resolve = self._AUTOMATIC.get(self.tasks[0]["kind"])
            if resolve is None or not resolve(self):
                return

    # Each returns True when it resolved (or ended) the task at the head of the queue itself, and
    # False when the task needs a decision or a chance outcome.
    def _auto_draw(self) -> bool:
        if not self.pile_size():
            self._end("pile_exhausted")
            return True
        if self.pile:
            return False  # a chance node
        self.tasks.pop(0)  # only known cards left: no chance involved
        self._drawn(self.bottom.pop(0))
        return True

    def _auto_steal(self) -> bool:
        if self.steal_options(self.active):
            return False
        self.tasks.pop(0)
        self.say(f"Seat {self.active} has nothing it may steal and skips Steal.")
        return True

    def _auto_cover(self) -> bool:
        if not self.cover_targets(self.active):
            self.tasks.pop(0)
            self.say(f"Seat {self.active} has nothing left to cover and skips Cover.")
            return True
        if not self.pile_size():
            self._end("pile_exhausted")
            return True
        return False

    def _auto_cover_draw(self) -> bool:
        if self.pile:
            return False  # a chance node
        task = self.tasks.pop(0)
        self._place_cover(task["seat"], task["target"], self.bottom.pop(0), public=True)
        return True

    def _auto_give(self) -> bool:
        task = self.tasks[0]
        eligible = self.eligible(task["seat"], task["card"])
        if len(eligible) > 1:
            return False  # the giver chooses
        self.tasks.pop(0)
        if eligible:
            self._give(task, eligible[0])
        else:
            self.bottom.append(task["card"])
            label = self.deck.label(task["card"])
            self.say(f"Nobody may take {label}: it goes to the bottom of the draw pile.")
        return True

    _AUTOMATIC: ClassVar[dict[str, Callable[[JellyfishState], bool]]] = {
        "draw": _auto_draw,
        "steal": _auto_steal,
        "cover": _auto_cover,
        "cover_draw": _auto_cover_draw,
        "give": _auto_give,
    }

    def _next_turn(self) -> None:
        if self.turn_count:
            self.turns.advance()
        if self.turn_count >= MAX_TURNS:
            self._end("turn_limit", limit=MAX_TURNS)
            return
        self.turn_count += 1
        self.tasks.extend({"kind": step} for step in TURN_STEPS)
        self.say(f"Turn {self.turn_count}: seat {self.active}.")

    def _drawn(self, card: str) -> None:
        seat = self.active
        label = self.deck.label(card)
        self.say(f"Seat {seat} draws {label}.")
        if self.deck.character_of[self.deck.kind_of[card]] in self.done_characters(seat):
            name = self.deck.character_name(self.deck.character_of[self.deck.kind_of[card]])
            self.say(f"Seat {seat} already has a {name} set and must give it away.")
            self.tasks.insert(0, {"kind": "give", "seat": seat, "card": card, "why": "drawn"})
        else:
            self._add(seat, card)

    def _steal(self, action: Action) -> None:
        thief, victim, kind = self.active, int(action["victim"]), action["kind"]
        label = self.deck.label(kind)
        if action["what"] == "cover":
            card = self.covers[victim].pop(kind)["card"]
            self.say(
                f"Seat {thief} steals the Cover card on seat {victim}'s {label} and turns it up: "
                f"{self.deck.label(card)}."
            )
            if self.deck.character_of[self.deck.kind_of[card]] in self.done_characters(thief):
                self.say(f"It matches a set seat {thief} completed: it must be given away.")
                self.tasks.insert(0, {"kind": "give", "seat": thief, "card": card, "why": "stolen"})
                return
        else:
            cards = self.groups[victim][kind]
            card = cards.pop()
            if not cards:
                del self.groups[victim][kind]
            self.say(f"Seat {thief} steals {label} from seat {victim}.")
        self._add(thief, card)

    def _give(self, task: Mapping[str, Any], to: int) -> None:
        card = self.deck.label(task["card"])
        what = f"the Cover card ({card})" if task["why"] == "cover" else card
        self.say(f"Seat {task['seat']} gives {what} to seat {to}.")
        self._add(to, card=task["card"])

    def _place_cover(self, seat: int, target: str, card: str, public: bool) -> None:
        self.covers[seat][target] = {"card": card, "public": public}
        if public:  # drawn from the known bottom of the pile: everyone knows what it is
            self.say(
                f"(The Cover card is the {self.deck.label(card)} everyone saw go to the bottom.)"
            )

    def _add(self, seat: int, card: str) -> None:
        """``card`` joins ``seat``'s partial set of its kind (a new one if none); maybe completing it."""
        kind = self.deck.kind_of[card]
        cards = self.groups[seat].setdefault(kind, [])
        cards.append(card)
        if len(cards) >= self.set_size:
            self._complete(seat, kind)

    def _complete(self, seat: int, kind: str) -> None:
        self.completed[seat][kind] = self.groups[seat].pop(kind)
        count = len(self.completed[seat])
        self.say(
            f"Seat {seat} completes a {self.deck.label(kind)} set ({count} of {self.deck.to_win})."
        )
        if count >= self.deck.to_win:
            # the game is won at once; a Cover card on the winning set just stays where it lies
            self._end("three_sets", seat=seat, count=count)
            return
        cover = self.covers[seat].pop(kind, None)
        if cover is not None:
            card = cover["card"]
            self.say(f"You look at the Cover card on it: {self.deck.label(card)}.", to=seat)
            self.say(f"Seat {seat} looks at the Cover card on it and must give it away.")
            self.tasks.insert(
                0, {"kind": "give", "seat": seat, "card": card, "why": "cover", "secret": True}
            )

    def _end(self, code: str, **details: int) -> None:
        """End the game by one of END_REASONS (``details`` fill in its wording)."""
        self.over = True
        self.ended_by = code
        self.end_reason = reason = END_REASONS[code].format(**details)
        self.turns.game_over = True
        winners = self.winners()
        who = "Winner" if len(winners) == 1 else "Shared win"
        self.say(f"Game over: {reason}. {who}: {' and '.join(f'seat {s}' for s in winners)}.")

    # -- results ---------------------------------------------------------------------------------
    def end_code(self) -> str | None:
        """How the game ended, for ``--json``: a code of END_REASONS (None while it goes on)."""
        return self.ended_by if self.over else None

    def turns_played(self) -> int:
        """Whole turns taken (a turn is several decisions), as the log numbers them."""
        return self.turn_count

    def returns(self) -> list[float]:
        """Completed sets per seat (the winner, at three, is the only one with the most)."""
        return [float(len(c)) for c in self.completed]

    def ranking_key(self, seat: int) -> tuple[int, int]:
        """Most completed sets, then most face-up cards in partial sets (card_data.md)."""
        return (len(self.completed[seat]), self.partial_count(seat))

    def winners(self) -> list[int]:
        """Best by :meth:`ranking_key`; seats still tied share the win (rules note)."""
        keys = [self.ranking_key(s) for s in range(self.num_players)]
        best = max(keys)
        return [s for s, k in enumerate(keys) if k == best]

    def clone(self) -> JellyfishState:
        """A copy sharing only immutable parts (much faster than the generic deep copy)."""
        new = copy.copy(self)
        new.params = dict(self.params)
        new.history = list(self.history)  # entries are never changed once appended
        new.log = list(self.log)  # LogEntry is frozen
        new.turns = copy.copy(self.turns)
        new.turns.tokens = dict(self.turns.tokens)
        new.turns.order = list(self.turns.order)
        new.pile = list(self.pile)
        new.bottom = list(self.bottom)
        new.groups = [{k: list(v) for k, v in g.items()} for g in self.groups]
        new.covers = [{k: dict(v) for k, v in c.items()} for c in self.covers]
        new.completed = [{k: list(v) for k, v in c.items()} for c in self.completed]
        new.tasks = [dict(t) for t in self.tasks]
        return new

    # -- views -----------------------------------------------------------------------------------
    def _table(self, seat: int) -> dict[str, Any]:
        index = self.deck.kind_index.__getitem__
        covers = self.covers[seat]
        partial = []
        for kind in sorted(self.groups[seat], key=index):
            cover = covers.get(kind)
            partial.append(
                {
                    "kind": kind,
                    "cards": len(self.groups[seat][kind]),
                    "covered": cover is not None,
                    # a Cover card's face is unknown to everyone unless it came off the known bottom
                    "cover": cover["card"] if cover is not None and cover["public"] else None,
                }
            )
        return {
            "partial": partial,
            "sets": sorted(self.completed[seat], key=index),
        }

    def _pending(self, seat: int | None) -> dict[str, Any] | None:
        if self.over or not self.tasks or self.tasks[0]["kind"] != "give":
            return None
        task = self.tasks[0]
        secret = task.get("secret", False) and seat != task["seat"]
        return {
            "seat": task["seat"],
            "why": task["why"],
            "card": None if secret else task["card"],
        }

    def observation(self, seat: int | None) -> dict[str, Any]:
        head = self.tasks[0]["kind"] if self.tasks and not self.over else None
        return {
            "seat": seat,
            "variant": self.deck.variant,
            "players": self.num_players,
            "set_size": self.set_size,
            "sets_to_win": self.deck.to_win,
            "turn": self.turn_count,
            "active": self.active,
            "step": head,
            "pile": self.pile_size(),
            "pile_bottom": list(self.bottom),
            "tables": [self._table(s) for s in range(self.num_players)],
            "giving": self._pending(seat),
            "over": self.over,
            "winners": self.winners() if self.over else [],
            "end_reason": self.end_reason,
            "log": self.log_for(seat),
        }

    def full_state(self) -> dict[str, Any]:
        return {
            "turns": self.turns.to_dict(),
            "turn_count": self.turn_count,
            "pile": list(self.pile),
            "bottom": list(self.bottom),
            "groups": [{k: list(v) for k, v in sorted(g.items())} for g in self.groups],
            "covers": [{k: dict(v) for k, v in sorted(c.items())} for c in self.covers],
            "completed": [{k: list(v) for k, v in c.items()} for c in self.completed],
            "tasks": [dict(t) for t in self.tasks],
            "over": self.over,
            "end_reason": self.end_reason,
        }

    def all_cards(self) -> list[str]:
        """Every card in every zone (for the no-card-lost-or-duplicated checks)."""
        out = list(self.pile) + list(self.bottom)
        for seat in range(self.num_players):
            out += [c for cards in self.groups[seat].values() for c in cards]
            out += [cover["card"] for cover in self.covers[seat].values()]
            out += [c for cards in self.completed[seat].values() for c in cards]
        out += [t["card"] for t in self.tasks if t["kind"] == "give"]
        return out

    def perturb_hidden(self, seat: int, rng: Any) -> JellyfishState | None:
        """Re-deal what ``seat`` cannot see at random: the unknown pile, the unknown Cover cards and
        a Cover card another seat looked at and must give away (known to its giver only).

        The pool is put in card order before it is dealt, so the world drawn depends only on the
        seat's information and ``rng`` (never on where the hidden cards really lie).
        """
        slots = [
            (s, k)
            for s in range(self.num_players)
            for k, c in self.covers[s].items()
            if not c["public"]
        ]
        gives = [
            i
            for i, t in enumerate(self.tasks)
            if t["kind"] == "give" and t.get("secret") and t["seat"] != seat
        ]
        pool = list(self.pile) + [self.covers[s][k]["card"] for s, k in slots]
        pool += [self.tasks[i]["card"] for i in gives]
        if len(pool) < 2:
            return None
        pool.sort(key=self.deck.card_index.__getitem__)
        clone = self.clone()
        order = [pool[i] for i in rng.permutation(len(pool))]
        for (s, k), card in zip(slots, order[: len(slots)], strict=True):
            clone.covers[s][k] = {"card": card, "public": False}
        order = order[len(slots) :]
        for i, card in zip(gives, order[: len(gives)], strict=True):
            clone.tasks[i]["card"] = card
        clone.pile = sorted(order[len(gives) :], key=self.deck.card_index.__getitem__)
        clone._draw = None
        return clone
