"""The match state of Jam, Sumo and JamSumo on the shared turn loop.

One state object plays a whole match: a sequence of rounds (Jam, Sumo, or two of each). The
state holds a physics :class:`~jamsumo_sim.world.World` at rest between shots and calls it; the
rules only read the rest state and the shot's events. Set-up rolls are chance nodes of the turn
loop, never of the world, so a replay is the history and nothing else.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from jamsumo_sim import noise
from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import BoardSpec, load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.rules import scoring, setup
from jamsumo_sim.rules.flick_actions import PASS, FlickSpec, bots_config, flick_action, read_flick
from jamsumo_sim.rules.flick_actions import parse_flick_text as _parse_text
from jamsumo_sim.rules.rounds import round_modes
from jamsumo_sim.rules.scoring import BOARD, HAND, HOLED, OUT, DieView
from jamsumo_sim.rules.seats import (
    colour,
    die_ids,
    sumo_corner,
    to_view,
    up_the_board,
)
from jamsumo_sim.turnloop import (
    CHANCE,
    TERMINAL,
    Action,
    Direction,
    Finite,
    PhaseSpec,
    Repeat,
    RoundSpec,
    Seating,
    State,
    TurnTracker,
)
from jamsumo_sim.turnloop.keys import CHANCE_STREAM, rng_for

if TYPE_CHECKING:
    from jamsumo_sim.world import World

ROUND = (PhaseSpec("flick", Direction.CLOCKWISE, Repeat.UNTIL_ENDED),)


def _world_class() -> type[World]:
    from jamsumo_sim.world import World

    return World


def _flick(spec: FlickSpec) -> Any:
    from jamsumo_sim.physics.flick import Flick

    return Flick(
        spec.die, spec.direction, spec.impulse, spec.offset, spec.height, spec.finger_speed
    )


class MatchRules(Protocol):
    """What a match reads of its game, a :class:`~jamsumo_sim.rules.game.JamSumoGame` (a protocol:
    the game module imports this one)."""

    name: str
    mode: str  # "jam", "sumo" or "jamsumo"


class MatchState(State):
    """A Jam, Sumo or JamSumo match in progress (read-only for windows: change it by actions)."""

    game: MatchRules

    def __init__(self, game: MatchRules, params: Mapping[str, Any], seed: int = 0) -> None:
        super().__init__(game, params, seed)
        n = self.num_players
        self.board: BoardSpec = load_board(params["board"])
        self.physics: PhysicsParams = PhysicsParams.from_board(self.board).with_overrides(
            params.get("physics") or {}
        )
        self.round_modes: list[str] = round_modes(game.mode, params)
        spec = RoundSpec(ROUND, rounds=len(self.round_modes))
        self.turns = TurnTracker.start(Seating(n), spec, {"first_player": 0})
        self.owner: dict[str, int] = {d: s for s in range(n) for d in die_ids(s)}
        self.where: dict[str, str] = {}
        self.world: World | None = None
        self.rolling: list[int] = []  # seats still to roll in this pass of the marker roll-off
        self.rolls: dict[int, int] = {}
        self.roll_pass = 0
        self.round_turns = 0
        self.results: list[dict[str, Any]] = []  # per round: mode, scores, capped
        self.shot_checksums: list[str] = []
        self.last_shot: dict[str, Any] | None = None
        self.over = False
        self._menu: dict[int, list[Action]] = {}
        # the Sumo opening (rules notes): seats still to set up, in order, and who took which corner
        self.choose_corners = params.get("sumo_setup", "choose") == "choose"
        self.placing: list[int] = []
        self.corners: dict[str, int] = {}
        # execution noise (jamsumo_sim.noise): a flick waits here for its chance outcome
        self.noise: noise.NoiseLevel = noise.level(params.get("noise", noise.PRACTICE))
        self.pending: tuple[int, FlickSpec] | None = None
        self._start_round()

    # -- read-only views for windows and bots -----------------------------------------------------
    @property
    def round(self) -> int:
        return self.turns.round

    @property
    def mode(self) -> str:
        """'jam' or 'sumo': the mode of the current (or, at the end, the last) round."""
        return self.round_modes[min(self.turns.round, len(self.round_modes)) - 1]

    @property
    def max_turns(self) -> int:
        return int(self.params["max_turns"])

    @property
    def shot_time(self) -> float:
        """Simulated seconds a shot may take before the rules call it at rest."""
        return float(self.params["shot_time"])

    def marker_holder(self) -> int:
        return self.turns.holder("first_player")

    def seat_name(self, seat: int) -> str:
        return colour(seat).capitalize()

    def dice_of(self, seat: int, where: str) -> list[str]:
        return [d for d in die_ids(seat) if self.where.get(d) == where]

    def in_hand(self, seat: int) -> list[str]:
        return self.dice_of(seat, HAND)

    def on_board(self, seat: int) -> list[str]:
        return self.dice_of(seat, BOARD)

    def totals(self) -> list[int]:
        """Running totals: Jam penalties, Sumo points, or the JamSumo aggregate."""
        return scoring.totals(self.game.mode, self.results, self.num_players)

    def current_scores(self) -> list[int]:
        """What the current round would score if it ended now."""
        return scoring.round_scores(self.mode, self._die_views(), self.num_players)

    # -- the turn loop protocol ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        if self.rolling or self.pending is not None:
            return CHANCE
        if self.placing:
            return self.placing[0]
        return self.turns.seat

    def setting_up(self) -> int | None:
        """The seat choosing its corner and placing its dice (Sumo opening), or None."""
        return self.placing[0] if self.placing and not self.rolling else None

    def _chance(self) -> Finite | noise.Execution:
        if self.pending is not None:
            return noise.Execution(self.noise)
        seat = self.rolling[0]
        return Finite.uniform(
            [Action.make(f"{colour(seat)} rolls {v}", seat=seat, value=v) for v in range(1, 7)]
        )

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat not in self._menu:
            self._menu[seat] = self._build_menu(seat)
        return list(self._menu[seat])

    def is_legal(self, seat: int, action: Action) -> bool:
        return self._check(seat, action) is None

    def why_illegal(self, seat: int, action: Action) -> str:
        return self._check(seat, action) or f"{action.name!r} is legal"

    def parse_action(self, seat: int, text: str) -> Action | None:
        return _parse_text(text, self.physics.die_mass)

    def _apply_action(self, action: Action) -> None:
        self._menu = {}
        if self.rolling:
            self._apply_roll(action)
            return
        if self.pending is not None:  # the hand's execution error of the flick just made
            seat, spec = self.pending
            self.pending = None
            self._shoot(seat, self.executed_spec(spec, action))
            self.round_turns += 1
            self._after_turn()
            return
        if self.placing:
            self._apply_setup(action)
            return
        seat = self.turns.seat
        if action == PASS:
            self.say(f"{self.seat_name(seat)} cannot flick fairly and passes")
            self.last_shot = {"seat": seat, "pass": True}
        elif not self.noise.exact:
            self.pending = (seat, read_flick(action))  # executed once the chance outcome is in
            return
        else:
            self._shoot(seat, read_flick(action))
        self.round_turns += 1
        self._after_turn()

    def next_execution(self) -> Action | None:
        """The execution error the match generator draws for a flick made now (None: exact play).

        The outcome does not depend on the flick, so a window can animate the executed shot before
        committing it; bots never look (their previews are of the flick as aimed).
        """
        if self.noise.exact:
            return None
        # the chance node follows the flick's own history entry
        rng = rng_for(self.seed, CHANCE_STREAM, len(self.history) + 1)
        return noise.Execution(self.noise).sample(rng)

    def returns(self) -> list[float]:
        return scoring.returns_from_totals(self.game.mode, self.totals())

    # -- set-up roll (chance) -------------------------------------------------------------------
    def _apply_roll(self, action: Action) -> None:
        seat, value = int(action["seat"]), int(action["value"])
        self.rolling.pop(0)
        self.rolls[seat] = value
        self.say(f"{self.seat_name(seat)} rolls {value}")
        if self.rolling:
            return
        lowest = self.mode == "jam"
        tied = scoring.marker_rolloff(self.rolls, lowest_wins=lowest)
        if len(tied) > 1 and self.roll_pass < int(self.params["max_rerolls"]):
            self.roll_pass += 1
            self.rolling = list(tied)
            self.rolls = {}
            names = ", ".join(self.seat_name(s) for s in tied)
            self.say(f"Tie between {names}: they roll again")
            return
        # after max_rerolls tied passes (vanishingly rare) the first tied seat takes the marker,
        # so that max_game_length is a true bound (rules notes)
        winner = tied[0]
        self.turns.give_token("first_player", winner)
        self.turns.refresh_order()
        self.say(f"{self.seat_name(winner)} takes the round marker and goes first")
        if self.mode == "sumo" and self.choose_corners:
            self._begin_setup()

    # -- the Sumo opening -----------------------------------------------------------------------
    def _begin_setup(self) -> None:
        """Each player chooses a corner and places their dice, the marker holder first, then left."""
        holder = self.marker_holder()
        n = self.num_players
        self.placing = [(holder + k) % n for k in range(n)]
        self.corners = {}
        self.say(
            f"Set-up: each player chooses a corner and places their dice in its SUMO area "
            f"({self.seat_name(holder)} first)"
        )

    def _apply_setup(self, action: Action) -> None:
        seat = self.placing.pop(0)
        spec = setup.read_setup(action)
        world = self.world
        assert world is not None
        for die, pose in zip(
            die_ids(seat), setup.to_world(self.board, seat, self.num_players, spec), strict=True
        ):
            world.add_die(die, pose.x, pose.y, pose.angle, face=scoring.SUMO_FACE)
            self.where[die] = BOARD
        self.corners[spec.corner] = seat
        self.say(f"{self.seat_name(seat)} sets up in the {spec.corner} corner")

    def _setup_problem(self, seat: int, action: Action) -> str | None:
        if not setup.is_setup(action):
            return "set up your dice first: choose a corner and place them in its SUMO area"
        try:
            spec = setup.read_setup(action)
        except UserError as exc:
            return str(exc)
        assert self.world is not None
        others = [
            (st.id, setup.DiePose(st.x, st.y, st.angle))
            for st in self.world.states()
            if st.status == "on_board"
        ]
        return setup.setup_problem(
            self.board,
            self.physics.die_size,
            seat,
            self.num_players,
            spec,
            self.corners,
            others,
        )

    def setup_targets(self, seat: int, corner: str) -> list[tuple[float, float]]:
        """Where a seat setting up in ``corner`` will find its opponents: their dice if placed,
        else the centres of the corners still free (nearest first)."""
        assert self.world is not None
        placed = [
            (st.x, st.y)
            for st in self.world.states()
            if st.status == "on_board" and self.owner.get(st.id, seat) != seat
        ]
        if placed:
            return placed
        area = self.board.sumo_area(corner)
        free = [a for a in self.board.sumo_areas if a.name not in self.corners and a.name != corner]
        free.sort(key=lambda a: math.hypot(a.x - area.x, a.y - area.y))
        return [(a.x, a.y) for a in free]

    def setup_menu(self, seat: int) -> list[Action]:
        """The canonical set-ups of ``seat``: each free corner (its own first) × the layouts."""
        first = setup.preferred_corner(self.board, seat, self.num_players, self.corners)
        corners = [first] + sorted(
            a.name for a in self.board.sumo_areas if a.name not in self.corners and a.name != first
        )
        size = self.physics.die_size
        out = []
        for corner in corners:
            area = self.board.sumo_area(corner)
            for label, poses in setup.suggest_layouts(
                self.board, size, area, self.setup_targets(seat, corner)
            ):
                rel = setup.to_seat_relative(area, seat, self.num_players, poses)
                action = setup.setup_action(seat, corner, rel, label)
                if action not in out and self._setup_problem(seat, action) is None:
                    out.append(action)
        return out

    # -- rounds ---------------------------------------------------------------------------------
    def _block_start(self) -> bool:
        """True if this round is the first of its mode (a new set-up roll decides the marker)."""
        r = self.turns.round
        return r == 1 or self.round_modes[r - 2] != self.round_modes[r - 1]

    def _start_round(self) -> None:
        mode = self.mode
        world = _world_class()(self.board, self.physics)
        self.where = {}
        self.placing = []
        self.corners = {}
        size = self.physics.die_size
        for seat in range(self.num_players):
            ids = die_ids(seat)
            if mode == "jam" or self.choose_corners:
                for d in ids:
                    self.where[d] = HAND  # Sumo: in front of the player until set up
            else:
                corner = sumo_corner(self.board, seat, self.num_players)
                spots = self.board.sumo_start_positions(corner, size, len(ids))
                for d, (x, y) in zip(ids, spots, strict=True):
                    world.add_die(d, x, y, 0.0, face=scoring.SUMO_FACE)
                    self.where[d] = BOARD
        self.world = world
        self.round_turns = 0
        self.say(f"Round {self.turns.round} of {len(self.round_modes)}: {mode.capitalize()}")
        if self._block_start():
            self.rolling = list(range(self.num_players))
            self.rolls = {}
            self.roll_pass = 0
        elif mode == "sumo" and self.choose_corners:
            self._begin_setup()

    def _round_finished(self) -> bool:
        if self.mode == "jam":
            return scoring.jam_round_over(self.where, self.owner, self.num_players)
        return scoring.sumo_round_over(self.where, self.owner, self.num_players)

    def _after_turn(self) -> None:
        finished = self._round_finished()
        capped = not finished and self.round_turns >= self.max_turns
        if not (finished or capped):
            self.turns.advance()
            return
        scores = self.current_scores()
        self.results.append({"mode": self.mode, "scores": scores, "capped": capped})
        word = "penalties" if self.mode == "jam" else "points"
        table = ", ".join(f"{self.seat_name(s)} {v}" for s, v in enumerate(scores))
        if capped:
            self.say(f"Turn cap of {self.max_turns} reached: the round is scored as it stands")
        self.say(f"Round {self.turns.round} {word}: {table}")
        ended = self.turns.end_round()
        if ended == "game":
            self.over = True
            tot = ", ".join(f"{self.seat_name(s)} {v}" for s, v in enumerate(self.totals()))
            self.say(f"Match over. Totals: {tot}")
            return
        self._start_round()

    # -- shots ----------------------------------------------------------------------------------
    def _place(self, world: World, spec: FlickSpec) -> None:
        if spec.place is not None:
            world.add_die(spec.die, spec.px, spec.py, spec.pangle, face=scoring.HAND_FACE)

    def preview(self, action: Action, execution: Action | None = None) -> World:
        """A copy of the world with ``action``'s placement and flick applied, not yet stepped.

        Step it (``step()`` until ``at_rest()`` or ``shot_time``) to animate the shot; then
        ``apply_action(action)`` (and, with execution noise, the chance outcome ``execution``,
        e.g. :meth:`next_execution`) gives the same rest state (deterministic physics).
        """
        if self.world is None or action == PASS or setup.is_setup(action):
            raise ValueError("nothing to preview")
        spec = read_flick(action)
        if execution is not None:
            spec = self.executed_spec(spec, execution)
        world = self.world.copy()
        self._place(world, spec)
        world.apply_flick(_flick(spec))
        return world

    def executed_spec(self, spec: FlickSpec, execution: Action) -> FlickSpec:
        """``spec`` (a fair flick) as the hand executes it with the recorded error ``execution``.

        The error never makes a flick the physics refuses: a hand that would come in above the
        launch cap or touch a second die is taken to have held back (rules notes, "Execution
        noise"). The error is reduced step by step -- speed at most as aimed, then no offset or
        height error, then no direction error -- and the first fair flick is played; the aimed
        flick itself is fair, so there always is one. Deterministic: replays re-derive it.
        """
        assert self.world is not None
        dev = noise.from_action(execution)
        held = dataclasses.replace(dev, speed_factor=min(dev.speed_factor, 1.0))
        centred = dataclasses.replace(held, offset=0.0, height=0.0)
        straight = dataclasses.replace(centred, angle=0.0)
        world = self.world
        if spec.place is not None:  # the die comes from the hand: check on a copy holding it
            world = world.copy()
            self._place(world, spec)
        for step in (dev, held, centred, straight):
            executed = noise.deviate(spec, step)
            if world.check_flick(_flick(executed)) is None:
                return executed
        return spec

    def _shoot(self, seat: int, spec: FlickSpec) -> None:
        world = self.world
        assert world is not None
        name = self.seat_name(seat)
        if spec.place is not None:
            self.where[spec.die] = BOARD
            self._place(world, spec)
            self.say(f"{name} places {spec.die} on {spec.place} showing {scoring.HAND_FACE}")
        world.apply_flick(_flick(spec))
        result = world.run_until_rest(self.shot_time)
        rest_checksum = world.checksum()  # before the rules take dice away: what a preview shows
        events = list(result.events)
        struck = self._struck_opponents(seat, spec.die, events)
        self.say(f"{name} flicks {spec.die}")
        self._resolve(seat, spec.die, events)
        # the rest state as the physics left it (removed dice included), the world after the
        # rules took dice away, and where every die now is: one checksum per shot for replays
        where = ",".join(f"{d}:{w}" for d, w in sorted(self.where.items()))
        blob = f"{rest_checksum}|{world.checksum()}|{where}".encode()
        checksum = hashlib.sha256(blob).hexdigest()
        self.shot_checksums.append(checksum)
        self.last_shot = {
            "seat": seat,
            "die": spec.die,
            "round": self.turns.round,
            "time": float(result.time_to_rest),
            "rested": bool(result.rested),
            "struck": sorted(struck),
            "checksum": checksum,
            "rest_checksum": rest_checksum,
        }

    def _struck_opponents(self, seat: int, die: str, events: list[Any]) -> set[str]:
        """Opponents' dice that the flicked die touched (a Sumo "strike"; rules notes)."""
        out: set[str] = set()
        for event in events:
            if event.type != "collision" or die not in event.dice:
                continue
            for other in event.dice:
                if other != die and other in self.owner and self.owner[other] != seat:
                    out.add(other)
        return out

    def shot_outcome(
        self, world: World, seat: int, flicked: str, events: list[Any]
    ) -> list[tuple[str, str, str]]:
        """What the rules make of a shot's rest state: ``(die, new place, log line)`` per change.

        Pure (the state and ``world`` are not changed), so bots can judge previewed shots.
        """
        jam = self.mode == "jam"
        out: list[tuple[str, str, str]] = []
        live = sorted(d for d, w in self.where.items() if w == BOARD or d == flicked)
        present = set(world.die_ids)
        for die in live:
            if die not in present:
                continue
            st = world.state(die)
            who = f"{self.seat_name(self.owner[die])}'s die {die}"
            if st.status == "in_hole":
                tail = "" if jam else " — out of the round"
                out.append((die, HOLED if jam else OUT, f"{who} dropped into the hole{tail}"))
            elif st.status == "off_board":
                if jam:
                    line = f"{who} went off the side — back to hand showing {scoring.HAND_FACE}"
                    out.append((die, HAND, line))
                else:
                    out.append((die, OUT, f"{who} went off the side — out of the round"))
            elif not jam and st.on_platform:
                out.append((die, OUT, f"{who} came to rest on a JAM platform — out of the round"))
        gone = {d for d, _, _ in out}
        if not jam and flicked not in gone and not self._struck_opponents(seat, flicked, events):
            name = self.seat_name(seat)
            out.append((flicked, OUT, f"{name}'s die {flicked} struck no opponent — removed"))
        return out

    def _resolve(self, seat: int, flicked: str, events: list[Any]) -> None:
        """Apply the rules to the rest state: holes, the edge, platforms, the Sumo strike rule."""
        world = self.world
        assert world is not None
        for die, where, line in self.shot_outcome(world, seat, flicked, events):
            world.remove_die(die)
            self.where[die] = where
            self.say(line)

    # -- legality -------------------------------------------------------------------------------
    def _check(self, seat: int, action: Action) -> str | None:
        if self.current_player() != seat:
            return f"it is not seat {seat}'s turn"
        if self.placing:
            return self._setup_problem(seat, action)
        if setup.is_setup(action):
            return "dice are set up only at the start of a Sumo round"
        if action == PASS:
            if any(a != PASS for a in self._legal_actions(seat)):
                return "you may pass only when no fair flick is possible"
            return None
        try:
            spec = read_flick(action)
        except UserError as exc:
            return str(exc)
        return self._check_flick(seat, spec)

    def _check_flick(self, seat: int, spec: FlickSpec, world: World | None = None) -> str | None:
        if spec.die not in self.owner:
            return f"there is no die {spec.die!r}"
        if self.owner[spec.die] != seat:
            return f"{spec.die} is not your die"
        where = self.where.get(spec.die)
        base = world or self.world
        assert base is not None
        if spec.place is not None:
            if self.mode != "jam":
                return "dice are placed on JAM zones only in Jam"
            if where != HAND:
                return f"{spec.die} is not in your hand"
            reason = self._placement_problem(spec)
            if reason:
                return reason
            return self._fair_from_zone(base, spec)
        if where == HAND:
            return f"{spec.die} is in your hand: place it on a JAM zone to flick it"
        if where != BOARD:
            return f"{spec.die} is out of play"
        return base.check_flick(_flick(spec))

    def _fair_from_zone(self, base: World, spec: FlickSpec) -> str | None:
        """The fair-flick check for a die placed from hand, on a scratch world.

        Only positions matter to the finger test, so a fresh world with the dice copied as
        resting bodies is enough; it is far cheaper than ``World.copy`` and never touches the
        match's own world (adding and removing a body there would change its pymunk history).
        """
        scratch = _world_class()(self.board, self.physics)
        for st in base.states():
            if st.status == "on_board":
                scratch.add_die(st.id, st.x, st.y, st.angle, orientation=st.orientation)
        self._place(scratch, spec)
        return scratch.check_flick(_flick(spec))

    def _placement_problem(self, spec: FlickSpec) -> str | None:
        """A die from hand goes on a JAM zone, wholly on it, touching no other die."""
        try:
            zone = self.board.platform(str(spec.place))
        except UserError as exc:
            return str(exc)
        a = self.physics.die_size
        # the die lies wholly on the zone whatever its angle: keep its circumscribed circle inside
        margin = a * math.sqrt(2) / 2
        if (
            abs(spec.px - zone.x) > zone.width / 2 - margin
            or abs(spec.py - zone.y) > zone.depth / 2 - margin
        ):
            # fall back to the axis-aligned footprint for small zones
            half = a / 2
            if (
                abs(spec.px - zone.x) > zone.width / 2 - half
                or abs(spec.py - zone.y) > zone.depth / 2 - half
            ):
                return f"the die must lie on {zone.name}"
        assert self.world is not None
        for st in self.world.states():
            if math.hypot(st.x - spec.px, st.y - spec.py) < a * math.sqrt(2):
                return f"the die would touch {st.id} on {zone.name}"
        return None

    # -- the finite menu of canonical flicks ------------------------------------------------------
    def _build_menu(self, seat: int) -> list[Action]:
        if self.placing:
            return self.setup_menu(seat)
        menu_cfg = bots_config()["menu"]
        world = self.world
        assert world is not None
        mass = self.physics.die_mass
        offset, height = float(menu_cfg["offset"]), float(menu_cfg["height"])
        out: list[Action] = []

        def add(action: Action) -> None:
            if self._check_flick(seat, read_flick(action)) is None:
                out.append(action)

        positions = {st.id: st for st in world.states()}
        for die in self.on_board(seat):
            st = positions[die]
            if self.mode == "jam":
                to_hole = math.atan2(-st.y, -st.x)
                for v in menu_cfg["jam_hole_speeds"]:
                    add(
                        flick_action(
                            die, to_hole, v * mass, offset, height, label=f"at hole {v:g} m/s"
                        )
                    )
                up = up_the_board(seat, self.num_players)
                for v in menu_cfg["jam_side_speeds"]:
                    add(
                        flick_action(
                            die, up, v * mass, offset, height, label=f"up the board {v:g} m/s"
                        )
                    )
            else:
                targets = sorted(
                    (
                        math.hypot(o.x - st.x, o.y - st.y),
                        o.id,
                    )
                    for o in positions.values()
                    if self.owner.get(o.id, seat) != seat
                )[: int(menu_cfg["sumo_targets"])]
                for _, target in targets:
                    o = positions[target]
                    aim = math.atan2(o.y - st.y, o.x - st.x)
                    for v in menu_cfg["sumo_speeds"]:
                        add(
                            flick_action(
                                die, aim, v * mass, offset, height, label=f"at {target} {v:g} m/s"
                            )
                        )
        hand = self.in_hand(seat)
        if self.mode == "jam" and hand:
            die = hand[0]
            for zone in self.board.platforms:
                to_hole = math.atan2(-zone.y, -zone.x)
                for v in menu_cfg["jam_hole_speeds"]:
                    add(
                        flick_action(
                            die,
                            to_hole,
                            v * mass,
                            offset,
                            height,
                            place=zone.name,
                            px=zone.x,
                            py=zone.y,
                            label=f"at hole {v:g} m/s",
                        )
                    )
        return out or [PASS]

    # -- clone, views, checksums --------------------------------------------------------------------
    def clone(self) -> MatchState:
        """An independent copy. The state is never changed meanwhile (no attribute is blanked while
        copying), so whatever reads it on the same thread between frames sees it whole."""
        memo = {
            id(self.board): self.board,
            id(self.physics): self.physics,
            id(self.game): self.game,
        }
        return self._twin(memo)

    def _twin(self, memo: dict[int, Any]) -> MatchState:
        # the world is put in the memo so deepcopy skips it (never pickling the pymunk space), then
        # copied with World.copy (exact, contact caches included); self is never modified
        world = self.world
        if world is not None:
            memo[id(world)] = None
        cls = type(self)
        twin = cls.__new__(cls)
        memo[id(self)] = twin
        for k, v in self.__dict__.items():
            setattr(twin, k, copy.deepcopy(v, memo))
        twin.world = world.copy() if world is not None else None
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> MatchState:
        # deepcopy of a state (e.g. by a generic caller) copies the world with World.copy too
        if self.world is None:
            return self._twin(memo)
        twin = self.clone()
        memo[id(self)] = twin
        return twin

    def _die_views(self) -> list[DieView]:
        out = []
        states = {st.id: st for st in self.world.states()} if self.world is not None else {}
        for die, w in self.where.items():
            st = states.get(die) if w == BOARD else None
            if st is not None:
                out.append(DieView(self.owner[die], w, int(st.face), bool(st.flat)))
            else:
                out.append(DieView(self.owner[die], w))
        return out

    def dice_table(self, seat: int | None = None) -> list[dict[str, Any]]:
        """Every die: owner, where, and (on the board) position, angle, face, flat — in ``seat``'s view."""
        states = {st.id: st for st in self.world.states()} if self.world is not None else {}
        rows = []
        for seat_k in range(self.num_players):
            for die in die_ids(seat_k):
                w = self.where.get(die, OUT)
                row: dict[str, Any] = {"id": die, "owner": seat_k, "where": w}
                st = states.get(die) if w == BOARD else None
                if st is not None:
                    x, y, angle = st.x, st.y, st.angle
                    if seat is not None:
                        x, y, angle = to_view(seat, self.num_players, x, y, angle)
                    row.update(
                        x=float(x),
                        y=float(y),
                        angle=float(angle),
                        face=int(st.face),
                        flat=bool(st.flat),
                        on_platform=bool(st.on_platform),
                    )
                rows.append(row)
        return rows

    def observation(self, seat: int | None) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "mode": self.mode,
            "round": self.turns.round,
            "rounds": len(self.round_modes),
            "to_move": self.current_player(),
            "marker": self.marker_holder(),
            "rolls": {str(k): v for k, v in sorted(self.rolls.items())},
            "round_turns": self.round_turns,
            "max_turns": self.max_turns,
            "view_side_of": seat,
            "dice": self.dice_table(seat),
            "results": copy.deepcopy(self.results),
            "totals": self.totals(),
            "log": self.log_for(seat)[-12:],
            "setting_up": self.setting_up(),
            "corners": dict(sorted(self.corners.items())),
        }

    def full_state(self) -> dict[str, Any]:
        out = {
            "turn": self.turns.to_dict(),
            "rolling": list(self.rolling),
            "rolls": {str(k): v for k, v in sorted(self.rolls.items())},
            "roll_pass": self.roll_pass,
            "round_turns": self.round_turns,
            "where": dict(sorted(self.where.items())),
            "dice": self.dice_table(None),
            "world": self.world.checksum() if self.world is not None else None,
            "results": copy.deepcopy(self.results),
            "shots": list(self.shot_checksums),
            "over": self.over,
        }
        # only where they exist, so states of matches without them keep their digests
        if self.choose_corners:
            out["setup"] = {
                "placing": list(self.placing),
                "corners": dict(sorted(self.corners.items())),
            }
        if self.pending is not None:
            seat, spec = self.pending
            out["pending"] = {"seat": seat, "die": spec.die}
        return out
