"""JumbleJack rules: set-up, the pointing round, the ritual, Pieces of Eight and the Final Ritual.

The state is a small stage machine. ``stage`` names the decision being taken; each stage has one
function listing its legal actions and one applying them (the tables at the end of the class),
and a :class:`TurnTracker` says whose turn it is (the ``doll`` token marks the Doll holder, who
never points).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from card_games.jumblejack.cards import Components, Token
from jamsumo_sim.turnloop import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Action,
    Chance,
    Direction,
    Game,
    PhaseSpec,
    Repeat,
    RoundSpec,
    Seating,
    Shuffle,
    State,
    TurnTracker,
)

# Set-up: from the First Player round the table, everyone declares one true fact.
SETUP_ROUND = RoundSpec(
    phases=(PhaseSpec("declare", Direction.CLOCKWISE, Repeat.ONCE, start="first_player"),),
    rounds=1,
    tokens_pass=(),
)
# A round: everyone but the Doll holder points at once, then the ritual (whose steps the game
# drives: the Doll holder, then the target, then any mirrored target). The Doll is handed on
# explicitly, so no token passes by itself.
MAIN_ROUND = RoundSpec(
    phases=(
        PhaseSpec("point", repeat=Repeat.SIMULTANEOUS, start="doll", skip_token="doll"),
        PhaseSpec("ritual", repeat=Repeat.UNTIL_ENDED, start="doll"),
    ),
    rounds=None,
    tokens_pass=(),
)


# Actions are immutable values and the same few recur all game: build each one once.
make_action = lru_cache(maxsize=4096)(Action.make)


def statement(accessory: str, has: bool) -> str:
    return f"I have the {accessory}" if has else f"I don't have the {accessory}"


def popcount(mask: int) -> int:
    return bin(mask).count("1")


class JumbleJackState(State):
    def __init__(
        self, game: Game, params: Mapping[str, Any], components: Components, seed: int = 0
    ) -> None:
        super().__init__(game, params, seed)
        n = self.num_players
        self.c = components
        self.seating = Seating(n)
        self.pending: list[str] = ["doll", "pirates"]
        if components.disguise_count(n) < len(components.disguises()):
            self.pending.append("disguises")
        self.pending.append("tokens")
        self.stage = "setup"
        self.turns: TurnTracker | None = None
        # pirates
        self.doll_card: str | None = None
        self.pirates: list[str | None] = [None] * n
        self.box_pirates: list[str] = [pid for pid, _ in components.pirates]
        self.doll = 0
        # Pieces of Eight
        self.in_play_tokens: list[str] = [t.id for t in components.fixed_tokens(n)]
        self.box_tokens: list[str] = [t.id for t in components.tokens if t.min_players > n]
        # the Disguises wait in the box until it is known which of them play
        disguises = [t.id for t in components.disguises()]
        if "disguises" in self.pending:
            self.box_tokens += disguises
        else:
            self.in_play_tokens += disguises
        self.tokens: list[str | None] = [None] * n
        self.token_used: list[bool] = [False] * n
        self.discarded_tokens: list[str] = []
        self.first_player = -1
        # accessory cards and rings
        self.piles: list[int] = list(components.accessory_cards)
        self.stacks: list[list[tuple[int, bool]]] = [[] for _ in range(n)]
        self.fingers: list[int] = [1] * n
        self.centre = components.centre_rings
        self.box_rings = components.rings_total - components.centre_rings - n
        # what was said and done
        self.declarations: list[dict[str, Any]] = []
        self.round_holder = -1
        self.pointing: dict[int, int] = {}
        self.tied: list[int] = []
        self.target: int | None = None
        self.mirrors: list[dict[str, int]] = []
        self.revealed: dict[int, str] = {}
        self.result: dict[str, Any] | None = None
        # caches (derived from the above, rebuilt identically on replay): the log lines each
        # seat may read, and the legal actions of the current decision
        self._seat_logs: list[list[str]] = [[] for _ in range(n)]
        self._public_log: list[str] = []
        self._legal_cache: dict[int, list[Action]] = {}
        self._public_cache: dict[str, Any] | None = None

    def say(self, text: str, to: int | list[int] | None = None) -> None:
        super().say(text, to)
        readers = range(self.num_players) if to is None else [to] if isinstance(to, int) else to
        for seat in readers:
            self._seat_logs[seat].append(text)
        if to is None:
            self._public_log.append(text)

    def log_for(self, seat: int | None) -> list[str]:
        return list(self._public_log if seat is None else self._seat_logs[seat])

    # -- turn order ------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.pending:
            return CHANCE
        if self.stage == "over":
            return TERMINAL
        assert self.turns is not None
        if self.turns.is_simultaneous():
            return SIMULTANEOUS
        return self.turns.seat

    def simultaneous_seats(self) -> list[int]:
        if self.pending or self.stage != "point" or self.turns is None:
            return []
        return self.turns.participants()

    @property
    def doll_holder(self) -> int:
        return self.turns.holder("doll") if self.turns is not None else -1

    def token_of(self, seat: int) -> Token | None:
        tid = self.tokens[seat]
        return self.c.token(tid) if tid is not None else None

    def can_use_token(self, seat: int) -> bool:
        return self.tokens[seat] is not None and not self.token_used[seat]

    # -- chance: the set-up ------------------------------------------------------------------------
    def _chance(self) -> Chance:
        step = self.pending[0]
        if step == "doll":
            return Shuffle("dress the Doll", tuple(self.box_pirates), take=1)
        if step == "pirates":
            return Shuffle("deal pirates", tuple(self.box_pirates), take=self.num_players)
        if step == "disguises":
            ids = tuple(t.id for t in self.c.disguises())
            return Shuffle("choose disguises", ids, take=self.c.disguise_count(self.num_players))
        return Shuffle("deal tokens", tuple(self.in_play_tokens), take=self.num_players)

    def _apply_chance(self, action: Action) -> None:
        step = self.pending.pop(0)
        order = list(action["order"])
        if step == "doll":
            self.doll_card = order[0]
            self.box_pirates.remove(order[0])
            self.doll = self.c.pirate_mask(order[0])
            self.say(f"The Doll is dressed as a pirate with {self.c.outfit_text(self.doll)}.")
        elif step == "pirates":
            for seat, pid in enumerate(order):
                self.pirates[seat] = pid
                self.box_pirates.remove(pid)
                text = self.c.outfit_text(self.c.pirate_mask(pid))
                self.say(f"Your secret pirate is {pid}: {text}.", to=seat)
        elif step == "disguises":
            for tid in order:
                self.box_tokens.remove(tid)
                self.in_play_tokens.append(tid)
        else:
            for seat, tid in enumerate(order):
                self.tokens[seat] = tid
                self.say(f"Your Piece of Eight is {self.c.token(tid).name}.", to=seat)
            self.in_play_tokens = []
            self._start_declarations()

    def _start_declarations(self) -> None:
        fp_id = self.c.first_player_token().id
        self.first_player = self.tokens.index(fp_id)
        self.say(f"Seat {self.first_player} reveals the First Player token and takes the Doll.")
        self.turns = TurnTracker.start(
            self.seating,
            SETUP_ROUND,
            {"first_player": self.first_player, "doll": self.first_player},
        )
        self.stage = "declare"

    # -- set-up declarations -------------------------------------------------------------------------
    def _own_mask(self, seat: int) -> int:
        pid = self.pirates[seat]
        assert pid is not None
        return self.c.pirate_mask(pid)

    def _true_statements(self, seat: int, prefix: str) -> list[Action]:
        mine = self._own_mask(seat)
        out = []
        for i, acc in enumerate(self.c.accessories):
            has = bool(mine >> i & 1)
            out.append(make_action(prefix + statement(acc, has), accessory=acc, has=has))
        return out

    def _legal_declare(self, seat: int) -> list[Action]:
        return self._true_statements(seat, "")

    def _apply_declare(self, seat: int, action: Action) -> None:
        self._declare(seat, action["accessory"], action["has"], "setup", card=True)
        assert self.turns is not None
        if self.turns.advance() == "game":
            self.turns = TurnTracker.start(
                self.seating,
                MAIN_ROUND,
                {"first_player": self.first_player, "doll": self.first_player},
            )
            self._start_round()

    def _declare(self, seat: int, accessory: str, has: bool, kind: str, card: bool) -> None:
        """Record a public statement; ``card`` places the matching Accessory card if one is left."""
        index = self.c.accessories.index(accessory)
        placed = card and self.piles[index] > 0
        if placed:
            self.piles[index] -= 1
            self.stacks[seat].append((index, has))
        self.declarations.append(
            {
                "seat": seat,
                "accessory": accessory,
                "has": has,
                "kind": kind,
                "round": self.turns.round if self.turns is not None else 0,
                "card": placed,
            }
        )
        side = "brown" if has else "red"
        where = f" (places a {accessory} card {side} side up)" if placed else ""
        if card and not placed:
            where = f" (no {accessory} cards left: just said)"
        self.say(f'Seat {seat}: "{statement(accessory, has)}"{where}.')

    # -- a round: pointing ----------------------------------------------------------------------------
    def _start_round(self) -> None:
        self.stage = "point"
        self.round_holder = self.doll_holder
        self.pointing, self.tied, self.target, self.mirrors = {}, [], None, []
        assert self.turns is not None
        self.say(
            f"Round {self.turns.round}: seat {self.round_holder} holds the Doll "
            f"({self.c.outfit_text(self.doll)}); {self.centre} Rings left in the centre."
        )

    def _legal_point(self, seat: int) -> list[Action]:
        holder = self.doll_holder
        return [
            make_action(f"point at seat {t}", target=t)
            for t in self.seating.clockwise(seat)
            if t not in (seat, holder)
        ]

    def _apply_pointing(self, actions: Mapping[int, Action]) -> None:
        self.pointing = {seat: int(a["target"]) for seat, a in sorted(actions.items())}
        sums = [0] * self.num_players
        for seat, target in self.pointing.items():
            sums[target] += self.fingers[seat]
        best = max(sums)
        tied = [s for s in range(self.num_players) if sums[s] == best]
        shown = ", ".join(f"seat {s} → seat {t}" for s, t in self.pointing.items())
        self.say(f"JumbleJACK! {shown}.")
        assert self.turns is not None
        self.turns.advance()  # on to the ritual, the Doll holder acting first
        if len(tied) == 1:
            self._set_target(tied[0], best)
        else:
            self.tied = tied
            self.stage = "tie"
            names = ", ".join(f"seat {s}" for s in tied)
            self.say(f"Tie at {best} Rings between {names}: seat {self.doll_holder} chooses.")

    def _set_target(self, target: int, rings: int) -> None:
        self.target = target
        self.stage = "dress"
        self.say(f"The target is seat {target} ({rings} Rings pointing).")

    def _legal_tie(self, seat: int) -> list[Action]:
        return [make_action(f"target seat {t}", target=t) for t in self.tied]

    def _apply_tie(self, seat: int, action: Action) -> None:
        target = int(action["target"])
        rings = sum(self.fingers[s] for s, t in self.pointing.items() if t == target)
        self.tied = []
        self._set_target(target, rings)

    # -- the ritual --------------------------------------------------------------------------------
    def _legal_dress(self, seat: int) -> list[Action]:
        out = []
        for i, acc in enumerate(self.c.accessories):
            if self.doll >> i & 1:
                out.append(make_action(f"remove the {acc}", accessory=acc))
            else:
                out.append(make_action(f"add the {acc}", accessory=acc))
        return out

    def _apply_dress(self, seat: int, action: Action) -> None:
        index = self.c.accessories.index(action["accessory"])
        verb = "removes" if self.doll >> index & 1 else "adds"
        self.doll ^= 1 << index
        assert self.target is not None
        self.say(
            f"Seat {seat} {verb} the {action['accessory']} and hands the Doll "
            f"({self.c.outfit_text(self.doll)}) to seat {self.target}."
        )
        self._hand_to(self.target)

    def _hand_to(self, target: int) -> None:
        self.target = target
        self.stage = "respond"
        assert self.turns is not None
        self.turns.skip_to(target)

    def _legal_respond(self, seat: int) -> list[Action]:
        mine = self._own_mask(seat)
        out: list[Action] = []
        if mine == self.doll:
            out.append(make_action("exact match: reveal my pirate", response="match"))
        else:
            for i, acc in enumerate(self.c.accessories):
                if (mine ^ self.doll) >> i & 1:
                    has = bool(mine >> i & 1)
                    out.append(
                        make_action(
                            "mismatch: " + statement(acc, has),
                            response="mismatch",
                            accessory=acc,
                            has=has,
                        )
                    )
        token = self.token_of(seat)
        if token is not None and self.can_use_token(seat):
            if token.kind == "disguise":
                assert token.accessory is not None
                # a difference with the Doll on the depicted accessory: its opposite
                has = not (self.doll >> self.c.accessories.index(token.accessory) & 1)
                name = f"{token.name}: " + statement(token.accessory, has)
                out.append(
                    make_action(name, response="disguise", accessory=token.accessory, has=has)
                )
            else:
                for other in self.seating.clockwise(seat):
                    if other not in (seat, self.round_holder):
                        out.append(
                            make_action(f"mirror to seat {other}", response="mirror", target=other)
                        )
        return out

    def _apply_respond(self, seat: int, action: Action) -> None:
        kind = action["response"]
        if kind == "match":
            pid = self.pirates[seat]
            assert pid is not None
            self.revealed[seat] = pid
            self.say(f"Seat {seat}: exact match! Reveals {pid} and is cursed; everyone else wins.")
            self._finish(cursed=seat)
            return
        if kind == "mirror":
            self._use_token(seat)
            other = int(action["target"])
            self.mirrors.append({"from": seat, "to": other})
            self.say(f"Seat {seat} reveals {self.token_of(seat).name} and mirrors to seat {other}.")  # type: ignore[union-attr]
            self._hand_to(other)
            return
        if kind == "disguise":
            self._use_token(seat)
            self.say(f"Seat {seat} reveals {self.token_of(seat).name}.")  # type: ignore[union-attr]
            self._declare(seat, action["accessory"], action["has"], "disguise", card=False)
        else:
            self.say(f"Seat {seat}: mismatch.")
            self._declare(seat, action["accessory"], action["has"], "mismatch", card=True)
        self._take_ring_and_doll(seat)

    def _use_token(self, seat: int) -> None:
        self.token_used[seat] = True

    def _take_ring_and_doll(self, seat: int) -> None:
        self.centre -= 1
        self.fingers[seat] += 1
        assert self.turns is not None
        self.turns.give_token("doll", seat)
        self.turns.end_round()
        if self.centre > 0:
            self._start_round()
            return
        # no Rings left: the Final Ritual (the tracker's ritual phase, the Doll holder acting)
        self.turns.end_phase()
        for s in range(self.num_players):
            tid = self.tokens[s]
            if tid is not None:
                self.discarded_tokens.append(tid)
                self.tokens[s] = None
        self.discarded_tokens.sort()
        self.round_holder = seat
        self.pointing, self.tied, self.target, self.mirrors = {}, [], None, []
        self.stage = "final_dress"
        self.say(
            f"No Rings left: the Pieces of Eight are discarded and seat {seat} casts the Final Ritual."
        )

    # -- the Final Ritual ------------------------------------------------------------------------
    def _legal_final_dress(self, seat: int) -> list[Action]:
        return [
            make_action(
                f"dress as: {self.c.outfit_text(mask)}", outfit=tuple(self.c.outfit_list(mask))
            )
            for _, mask in sorted(self.c.pirates, key=lambda p: p[1])
        ]

    def _apply_final_dress(self, seat: int, action: Action) -> None:
        self.doll = self.c.mask_of(list(action["outfit"]))
        self.stage = "final_cast"
        self.say(f"Seat {seat} dresses the Doll: {self.c.outfit_text(self.doll)}.")

    def _legal_final_cast(self, seat: int) -> list[Action]:
        return [
            make_action(f"cast at seat {t}", target=t)
            for t in self.seating.clockwise(seat)
            if t != seat
        ]

    def _apply_final_cast(self, seat: int, action: Action) -> None:
        target = int(action["target"])
        self.target = target
        pid = self.pirates[target]
        assert pid is not None
        self.revealed[target] = pid  # the match must be checked, so the card is shown
        if self.c.pirate_mask(pid) == self.doll:
            self.say(f"Final Ritual at seat {target}: {pid} matches! Seat {target} is cursed.")
            self._finish(cursed=target)
        else:
            self.say(
                f"Final Ritual at seat {target}: {pid} ({self.c.outfit_text(self.c.pirate_mask(pid))})"
                f" does not match. Seat {target} alone wins."
            )
            self._finish(spared=target)

    def end_code(self) -> str | None:
        """How the game ended, for ``--json``: exact_match (a target matched the Doll while
        Rings were left) or final_ritual (the Final Ritual decided it)."""
        if self.stage != "over":
            return None
        return "final_ritual" if self.centre == 0 else "exact_match"  # no Rings left: the Ritual

    def _finish(self, cursed: int | None = None, spared: int | None = None) -> None:
        self.stage = "over"
        if cursed is not None:
            self.result = {"cursed": cursed}
        else:
            self.result = {"sole_winner": spared}

    # -- the State hooks ----------------------------------------------------------------------------
    def _legal_actions(self, seat: int) -> list[Action]:
        # the driver asks several times per decision (view, check, apply): build them once
        cached = self._legal_cache.get(seat)
        if cached is None:
            cached = self._legal_cache[seat] = self._LEGAL[self.stage](self, seat)
        return list(cached)

    def _apply_actions(self, actions: Mapping[int, Action]) -> None:
        self._legal_cache, self._public_cache = {}, None
        self._apply_pointing(actions)

    def _apply_action(self, action: Action) -> None:
        self._legal_cache, self._public_cache = {}, None
        if self.pending:
            self._apply_chance(action)
            return
        assert self.turns is not None
        self._APPLY[self.stage](self, self.turns.seat, action)

    _LEGAL: dict[str, Callable[[JumbleJackState, int], list[Action]]] = {
        "declare": _legal_declare,
        "point": _legal_point,
        "tie": _legal_tie,
        "dress": _legal_dress,
        "respond": _legal_respond,
        "final_dress": _legal_final_dress,
        "final_cast": _legal_final_cast,
    }
    _APPLY: dict[str, Callable[[JumbleJackState, int, Action], None]] = {
        "declare": _apply_declare,
        "tie": _apply_tie,
        "dress": _apply_dress,
        "respond": _apply_respond,
        "final_dress": _apply_final_dress,
        "final_cast": _apply_final_cast,
    }

    def returns(self) -> list[float]:
        n = self.num_players
        if self.result is None:
            return [0.0] * n
        if "cursed" in self.result:
            return [0.0 if s == self.result["cursed"] else 1.0 for s in range(n)]
        return [1.0 if s == self.result["sole_winner"] else 0.0 for s in range(n)]

    # -- views ----------------------------------------------------------------------------------------
    def _token_public(self, tid: str) -> dict[str, Any]:
        token = self.c.token(tid)
        return {
            "id": token.id,
            "name": token.name,
            "kind": token.kind,
            "accessory": token.accessory,
        }

    def observation(self, seat: int | None) -> dict[str, Any]:
        c = self.c
        mine: dict[str, Any] | None = None
        my_token: dict[str, Any] | None = None
        if seat is not None:
            pid = self.pirates[seat]
            if pid is not None:
                mine = {"id": pid, "wears": c.outfit_list(c.pirate_mask(pid))}
            tid = self.tokens[seat]
            if tid is not None:
                my_token = {**self._token_public(tid), "used": self.token_used[seat]}
        if self._public_cache is None:
            self._public_cache = self._public_view()
        # the public part is shared by every seat's view of this position: treat it as read-only
        return {
            **self._public_cache,
            "seat": seat,
            "my_pirate": mine,
            "my_token": my_token,
            "log": self.log_for(seat),
        }

    def _public_view(self) -> dict[str, Any]:
        """What everybody may know: the table, every statement, used tokens, revealed pirates."""
        c = self.c
        used = {
            str(s): self._token_public(tid)
            for s, tid in enumerate(self.tokens)
            if tid is not None and self.token_used[s]
        }
        to_act = self.current_player()
        return {
            "players": self.num_players,
            "accessories": list(c.accessories),
            "stage": self.stage,
            "round": self.turns.round if self.turns is not None else 0,
            "to_act": self.simultaneous_seats() if to_act == SIMULTANEOUS else to_act,
            "doll": c.outfit_list(self.doll),
            "doll_card": (
                c.outfit_list(c.pirate_mask(self.doll_card)) if self.doll_card is not None else None
            ),
            "doll_holder": self.doll_holder,
            "round_holder": self.round_holder,
            "first_player": self.first_player,
            "target": self.target,
            "tied": list(self.tied),
            "pointing": {str(s): t for s, t in self.pointing.items()},
            "mirrors": [dict(m) for m in self.mirrors],
            "fingers": list(self.fingers),
            "centre_rings": self.centre,
            "piles": {a: self.piles[i] for i, a in enumerate(c.accessories)},
            "stacks": [
                {
                    "cards": len(stack),
                    "top": (
                        {"accessory": c.accessories[stack[-1][0]], "has": stack[-1][1]}
                        if stack
                        else None
                    ),
                }
                for stack in self.stacks
            ],
            "declarations": [dict(d) for d in self.declarations],
            "tokens_used": used,
            "tokens_discarded": len(self.discarded_tokens),
            "revealed": {
                str(s): {"id": pid, "wears": c.outfit_list(c.pirate_mask(pid))}
                for s, pid in sorted(self.revealed.items())
            },
            "result": dict(self.result) if self.result is not None else None,
        }

    def full_state(self) -> dict[str, Any]:
        return {
            "pending": list(self.pending),
            "stage": self.stage,
            "turns": self.turns.to_dict() if self.turns is not None else None,
            "doll_card": self.doll_card,
            "doll": self.doll,
            "pirates": list(self.pirates),
            "box_pirates": sorted(self.box_pirates),
            "tokens": list(self.tokens),
            "token_used": list(self.token_used),
            "in_play_tokens": sorted(self.in_play_tokens),
            "box_tokens": sorted(self.box_tokens),
            "discarded_tokens": list(self.discarded_tokens),
            "first_player": self.first_player,
            "piles": list(self.piles),
            "stacks": [[list(card) for card in stack] for stack in self.stacks],
            "fingers": list(self.fingers),
            "centre": self.centre,
            "box_rings": self.box_rings,
            "declarations": [dict(d) for d in self.declarations],
            "round_holder": self.round_holder,
            "pointing": {str(s): t for s, t in self.pointing.items()},
            "tied": list(self.tied),
            "target": self.target,
            "mirrors": [dict(m) for m in self.mirrors],
            "revealed": {str(s): p for s, p in sorted(self.revealed.items())},
            "result": self.result,
            "log": [[e.text, sorted(e.to) if e.to is not None else None] for e in self.log],
        }

    def perturb_hidden(self, seat: int, rng: Any) -> JumbleJackState | None:
        """Re-deal what ``seat`` cannot see: other secret pirates and unused, unrevealed tokens."""
        if self.pending or self.stage == "over":
            return None
        clone: JumbleJackState = self.clone()  # type: ignore[assignment]
        clone._legal_cache, clone._public_cache = {}, None
        others = [s for s in range(self.num_players) if s != seat and s not in self.revealed]
        # pools in a fixed order before dealing: the world drawn depends on the seat's information
        # and ``rng`` only, never on where the hidden pirates and tokens really lie
        pool = sorted(
            [clone.pirates[s] for s in others] + clone.box_pirates,
            key=lambda x: (x is not None, x or ""),
        )
        order = [pool[i] for i in rng.permutation(len(pool))]
        for s in others:
            clone.pirates[s] = order.pop(0)
        clone.box_pirates = sorted(p for p in order if p is not None)
        fp_id = self.c.first_player_token().id
        hidden = [
            s for s in others if clone.tokens[s] not in (None, fp_id) and not clone.token_used[s]
        ]
        tokens = sorted(
            [clone.tokens[s] for s in hidden] + clone.box_tokens,
            key=lambda x: (x is not None, x or ""),
        )
        shuffled = [tokens[i] for i in rng.permutation(len(tokens))]
        for s in hidden:
            clone.tokens[s] = shuffled.pop(0)
        clone.box_tokens = sorted(t for t in shuffled if t is not None)
        return clone
