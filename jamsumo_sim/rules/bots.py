"""JamSumo bots: ``random`` (a wild flicker) and ``planner`` (simulates candidate flicks).

Both are ordinary turn-loop agents: they get a private clone of the match state (JamSumo has
perfect information) and return one flick action. Their randomness comes from the view's
generator, so a match is a pure function of its seed and every flick is in the history.

The planner models a human: it *executes* its chosen flick with aim and speed error (σ from
``assets/bots.toml``, physics.md §1: σ_angle 1–3°, σ_speed 5–15 %), and it judges candidates
by noisy executions simulated on copies of the world (``state.preview`` + ``run_until_rest``):
one per candidate, then ``samples`` each for the ``refine`` best, whose mean decides. Levels
differ in noise and search width.

Under uncertainty (the default, ``uncertainty=True``) a sampled execution is the planner's own
aim/speed error *and* the match's execution noise (``state.noise``: speed, direction, strike offset
and height, so a strike that strays above mid-height pitches or tumbles the die in the simulation
too); every candidate is ranked as aimed, and the best few are judged on the same antithetic
pairs of drawn executions (common random numbers: finalists differ by their merit, not their luck),
drawn from a search generator seeded from the view's generator (deterministic); and with a straying
hand strikes aim at the middle of the band that pitches the die neither way (mid-height to the nail's
grip), so a straying finger rarely tumbles the die onto an unknown face. The expected value over
the samples (Jam penalty proxy, Sumo points with the faces the dice actually end on, dice holed
or lost) decides. ``uncertainty=False`` is the planner before this (for comparisons).

Both choose finger speeds (m/s, what a hand controls): a centred strike launches the die at
(1 + finger_restitution) times the finger's speed, an off-centre one slower (jamsumo_sim.physics.flick).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from jamsumo_sim import noise
from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.edges import grip_height
from jamsumo_sim.physics.flick import Flick, finger_for_launch
from jamsumo_sim.rules import setup
from jamsumo_sim.rules.flick_actions import PASS, FlickSpec, bots_config, flick_action
from jamsumo_sim.rules.scoring import BOARD, HAND, HOLED, SUMO_FACE
from jamsumo_sim.rules.seats import die_ids
from jamsumo_sim.turnloop import Action, Agent, SeatView

LEVELS = ("easy", "normal", "hard")


def _spec_action(spec: FlickSpec) -> Action:
    place = (
        {"place": spec.place, "px": spec.px, "py": spec.py, "pangle": spec.pangle}
        if spec.place is not None
        else {}
    )
    return flick_action(
        spec.die,
        spec.direction,
        spec.impulse,
        spec.offset,
        spec.height,
        finger_speed=spec.finger_speed,
        **place,
    )


def _fallback(view: SeatView) -> Action:
    actions = view.legal_actions
    return actions[int(view.rng.integers(len(actions)))]


def _positions(state: Any) -> dict[str, Any]:
    return {st.id: st for st in state.world.states()}


# a set-up die "reaches" a target when its launch (the cone turns it) passes within this share of
# the die's size of the target's centre: a glancing touch or worse counts as a miss
_REACH_SLACK = 0.6
# a path whose centre line passes this share of a die's size beyond the hole's rim is clear of it
# (a sliding die drops once its centre is over the hole)
_HOLE_MARGIN = 0.5
# the uniform turns (degrees, of every die) the planner tries on each canonical layout, besides
# turning each die square to its nearest target
SETUP_TURNS_DEG = (-30.0, -20.0, -10.0, 10.0, 20.0, 30.0, 45.0)


def setup_score(state: Any, seat: int, action: Action) -> float:
    """How well a Sumo set-up lets ``seat`` attack: the (die, opponent) pairs with a fair flick
    whose launch (the physics' law: a push outside the finger's friction cone leaves turned) runs
    at the target and whose straight path clears the seat's own dice and the hole, counted on a
    scratch world (no simulation)."""
    from jamsumo_sim.rules.launch import launch_heading
    from jamsumo_sim.world import World  # on first use: the physics is a heavy import

    spec = setup.read_setup(action)
    poses = setup.to_world(state.board, seat, state.num_players, spec)
    ids = die_ids(seat)
    scratch = World(state.board, state.physics)
    for st in state.world.states():
        if st.status == "on_board":
            scratch.add_die(st.id, st.x, st.y, st.angle, orientation=st.orientation)
    for die, pose in zip(ids, poses, strict=True):
        scratch.add_die(die, pose.x, pose.y, pose.angle, face=SUMO_FACE)
    size = state.physics.die_size
    score = 0.0
    targets = _likely_targets(state, seat, spec.corner)
    for die, pose in zip(ids, poses, strict=True):
        for tx, ty in targets:
            aim = math.atan2(ty - pose.y, tx - pose.x)
            flick = Flick(die, aim, None, 0.0, 0.5, finger_speed=1.0)
            if scratch.check_flick(flick):
                continue
            heading = launch_heading(flick, pose.x, pose.y, pose.angle, state.physics)
            dist = math.hypot(tx - pose.x, ty - pose.y)
            if abs(math.sin(math.remainder(heading - aim, 2 * math.pi))) * dist > (
                _REACH_SLACK * size
            ):
                continue  # the die slips off the face and leaves wide of the target
            others = [(o.x, o.y) for other, o in zip(ids, poses, strict=True) if other != die]
            score += 0.0 if _path_blocked(state, pose.x, pose.y, tx, ty, others) else 1.0
    return score


def _open_line(state: Any, pos: dict[str, Any], die: str, target: str) -> bool:
    """A flick of ``die`` straight at ``target`` leaves towards it and nothing is in the way."""
    from jamsumo_sim.rules.launch import launch_heading

    a, b = pos[die], pos[target]
    aim = math.atan2(b.y - a.y, b.x - a.x)
    flick = Flick(die, aim, None, 0.0, 0.5, finger_speed=1.0)
    heading = launch_heading(flick, a.x, a.y, a.angle, state.physics)
    dist = math.hypot(b.x - a.x, b.y - a.y)
    size = state.physics.die_size
    if abs(math.sin(math.remainder(heading - aim, 2 * math.pi))) * dist > _REACH_SLACK * size:
        return False
    others = [(o.x, o.y) for k, o in pos.items() if k not in (die, target)]
    return not _path_blocked(state, a.x, a.y, b.x, b.y, others)


def _likely_targets(state: Any, seat: int, corner: str) -> list[tuple[float, float]]:
    """Where the opponents' dice are, or (nobody placed yet) where the suggested layout of each
    free corner would put them."""
    targets = state.setup_targets(seat, corner)
    if any(state.owner.get(st.id, seat) != seat for st in state.world.states()):
        return targets  # the opponents' dice themselves
    size = state.physics.die_size
    out = []
    for tx, ty in targets:
        area = next(a for a in state.board.sumo_areas if (a.x, a.y) == (tx, ty))
        out.extend((p.x, p.y) for p in setup._spread(area, size))
    return out


def _path_blocked(
    state: Any, x0: float, y0: float, x1: float, y1: float, others: list[tuple[float, float]]
) -> bool:
    """The straight path of a die from (x0, y0) to (x1, y1) runs into one of ``others`` (own
    dice), over the hole or onto a JAM platform (out of the round in Sumo)."""
    size = state.physics.die_size
    dist = math.hypot(x1 - x0, y1 - y0)
    if dist <= 0:
        return False
    ux, uy = (x1 - x0) / dist, (y1 - y0) / dist
    for ox, oy in others:
        along = (ox - x0) * ux + (oy - y0) * uy
        if 0 < along < dist and abs(-(ox - x0) * uy + (oy - y0) * ux) < size * 1.2:
            return True
    # a straight path over the hole drops the die before it gets there
    t = max(0.0, min(dist, -(x0 * ux + y0 * uy)))
    if math.hypot(x0 + t * ux, y0 + t * uy) < state.board.hole_radius + _HOLE_MARGIN * size:
        return True
    return _crosses_platform(state.board, x0, y0, x1, y1, size)


def _crosses_platform(board: Any, x0: float, y0: float, x1: float, y1: float, size: float) -> bool:
    """The straight path of a die from (x0, y0) to (x1, y1) runs into a JAM platform (a raised zone
    it trips onto: out of the round in Sumo)."""
    steps = max(2, int(math.hypot(x1 - x0, y1 - y0) / (size / 4)))
    half = size / 2
    for zone in board.platforms:
        for k in range(steps + 1):
            px, py = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
            if (
                abs(px - zone.x) < zone.width / 2 + half
                and abs(py - zone.y) < zone.depth / 2 + half
            ):
                return True
    return False


def turned_setups(state: Any, seat: int, legal: list[Action]) -> list[Action]:
    """Turned variants of the canonical set-ups in ``legal``: every die turned by each of
    :data:`SETUP_TURNS_DEG`, and every die turned square to its nearest target; legal ones only."""
    out: list[Action] = []
    seen = set(legal)
    n = state.num_players
    for action in legal:
        spec = setup.read_setup(action)
        area = state.board.sumo_area(spec.corner)
        world = setup.to_world(state.board, seat, n, spec)
        targets = state.setup_targets(seat, spec.corner)
        variants: list[list[setup.DiePose]] = []
        for deg in SETUP_TURNS_DEG:
            t = math.radians(deg)
            variants.append([replace(p, angle=p.angle + t) for p in world])
        if targets:
            square: list[setup.DiePose] = []
            for p in world:
                tx, ty = min(targets, key=lambda q: math.hypot(q[0] - p.x, q[1] - p.y))
                square.append(replace(p, angle=math.atan2(ty - p.y, tx - p.x)))
            variants.append(square)
        size = state.physics.die_size
        inset = setup.SUGGESTED_INSET * size
        # turned dice stick out further: like the suggested layouts they keep off the outline,
        # drawn in towards the area's centre as far as needed
        inner = setup.SumoArea(
            area.name, area.x, area.y, area.width - 2 * inset, area.depth - 2 * inset
        )
        label = action.name.rsplit("(", 1)[-1].rstrip(")") + ", turned"
        for poses in variants:
            for pull in (1.0, 0.92, 0.85, 0.78):
                drawn = [
                    replace(p, x=area.x + pull * (p.x - area.x), y=area.y + pull * (p.y - area.y))
                    for p in poses
                ]
                if not all(setup.inside(inner, p, size) for p in drawn):
                    continue
                rel = setup.to_seat_relative(area, seat, n, drawn)
                # a record keeps each turn within ±180° of the seat's view (the rules' range)
                rel = [replace(p, angle=math.remainder(p.angle, 2 * math.pi)) for p in rel]
                turned = setup.setup_action(seat, spec.corner, rel, label)
                if turned not in seen and state.is_legal(seat, turned):
                    seen.add(turned)
                    out.append(turned)
                    break
    return out


def choose_setup(
    state: Any, seat: int, legal: list[Action], rng: np.random.Generator, best: bool
) -> Action:
    """A Sumo set-up: the best-scoring layout, turned or not (``best``), or a random listed one."""
    if not best:
        return legal[int(rng.integers(len(legal)))]
    # every free corner and layout (the menu lists the seat's own corner first: it wins ties),
    # then their turned variants (a square layout wins a tie with a turned one)
    options = list(legal) + turned_setups(state, seat, legal)
    scores = [setup_score(state, seat, a) for a in options]
    return options[max(range(len(options)), key=lambda i: (scores[i], -i))]


class RandomBot(Agent):
    """Flicks a random own die at a sensible target with wide random error in every parameter."""

    kind = "random"

    def act(self, view: SeatView) -> Action:
        state = view.state
        if state is None or view.legal_actions == [PASS]:
            return _fallback(view)
        if state.setting_up() is not None:
            return choose_setup(state, view.seat, view.legal_actions, view.rng, best=False)
        cfg = bots_config()["random"]
        rng = view.rng
        seat = view.seat
        pos = _positions(state)
        jam = state.mode == "jam"
        speed_lo, speed_hi = cfg["jam_speed"] if jam else cfg["sumo_speed"]
        for _ in range(int(cfg["attempts"])):
            choices = state.on_board(seat) + (state.in_hand(seat) if jam else [])
            die = choices[int(rng.integers(len(choices)))]
            place = None
            if die in pos:
                x, y = pos[die].x, pos[die].y
            else:
                zone = state.board.platforms[int(rng.integers(len(state.board.platforms)))]
                place, x, y = zone.name, zone.x, zone.y
            if jam:
                tx, ty = 0.0, 0.0
            else:
                targets = [d for d in pos if state.owner.get(d, seat) != seat]
                target = pos[targets[int(rng.integers(len(targets)))]]
                tx, ty = target.x, target.y
            aim = math.atan2(ty - y, tx - x) + math.radians(cfg["aim_sigma_deg"]) * rng.normal()
            speed = rng.uniform(speed_lo, speed_hi)
            action = flick_action(
                die,
                aim,
                None,
                float(rng.uniform(*cfg["offset"])),
                float(rng.uniform(*cfg["height"])),
                place=place,
                px=x if place else None,
                py=y if place else None,
                finger_speed=finger_for_launch(speed, state.physics),
            )
            if state.is_legal(seat, action):
                return action
        return _fallback(view)


def _jam_speed_band() -> tuple[float, float]:
    """The launch speeds (m/s) of the planner's Jam candidates (``[planner_search]`` in bots.toml)."""
    lo, hi = bots_config()["planner_search"]["jam_speeds"]
    return float(lo), float(hi)


@dataclass(frozen=True)
class PlannerConfig:
    aim_sigma_deg: float
    speed_sigma: float
    speeds: int
    aims_per_die: int
    samples: int
    refine: int
    max_candidates: int
    shot_time: float

    @classmethod
    def for_level(cls, level: str, **overrides: Any) -> PlannerConfig:
        table = bots_config().get("planner", {})
        if level not in table:
            raise UserError(f"unknown planner level {level!r} (choose from {', '.join(LEVELS)})")
        raw = dict(table[level])
        raw.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls(
                aim_sigma_deg=float(raw["aim_sigma_deg"]),
                speed_sigma=float(raw["speed_sigma"]),
                speeds=int(raw["speeds"]),
                aims_per_die=int(raw["aims_per_die"]),
                samples=int(raw["samples"]),
                refine=int(raw["refine"]),
                max_candidates=int(raw["max_candidates"]),
                shot_time=float(raw["shot_time"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"assets/bots.toml: planner.{level}: bad or missing {exc}") from None


# What a die is worth to its owner in the planner's evaluation (lower cost is better).
# Jam: a holed die costs nothing; a die in hand needs a placement and a good flick; a die on the
# board costs more the farther it is from the hole (it needs more, or harder, flicks).
_JAM_HAND_COST = 1.3
_JAM_FAR = 0.25  # m: distance at which a die on the board costs as much as one in hand
_OPPONENT_WEIGHT = 0.35
# Strikes aim, when the hand strays, at the middle of the band where a strike neither pitches the die
# forward (from the nail's grip up, physics.edges.grip_height: 0.744 of the face) nor turns it back
# (below mid-height, physics.edges.low_strike; model 0.14): a straying finger then rarely starts a
# tumble (a free, unpredictable face change).  Model 0.13's bots aimed 2.5 sigma below mid-height (0.30
# at the table), where a strike now lifts the die.
_MID_HEIGHT = 0.5


def jam_value(state: Any, world: Any, seat: int, where: dict[str, str]) -> float:
    """The planner's Jam evaluation of a rest state for ``seat`` (higher is better)."""
    cost = [0.0] * state.num_players
    present = set(world.die_ids)
    for die, w in where.items():
        owner = state.owner[die]
        if w == HOLED:
            continue
        if w == HAND or die not in present:
            cost[owner] += _JAM_HAND_COST
            continue
        st = world.state(die)
        dist = math.hypot(st.x, st.y)
        cost[owner] += min(dist / _JAM_FAR, 1.0) * _JAM_HAND_COST * 0.9 + 0.1
    others = [c for s, c in enumerate(cost) if s != seat]
    return -cost[seat] + _OPPONENT_WEIGHT * (sum(others) / max(1, len(others)))


def sumo_value(state: Any, world: Any, seat: int, where: dict[str, str]) -> float:
    """The planner's Sumo evaluation: own points on the board minus the opponents' mean."""
    points = [0.0] * state.num_players
    present = set(world.die_ids)
    for die, w in where.items():
        if w != BOARD or die not in present:
            continue
        st = world.state(die)
        # a die near the edge is at risk; the centre is safe but the hole is close — keep it simple
        points[state.owner[die]] += (st.face if st.flat else 3) + 2.0
    others = [p for s, p in enumerate(points) if s != seat]
    return points[seat] - sum(others) / max(1, len(others))


class SearchCancelled(Exception):
    """The planner was told to stop thinking (its move is no longer wanted)."""


class PlannerBot(Agent):
    """Searches candidate flicks on copies of the world; picks the best mean noisy outcome."""

    kind = "planner"

    def __init__(self, seat: int, game: Any, level: str = "normal", **options: Any) -> None:
        super().__init__(seat, game, **options)
        self.level = level
        self.config = PlannerConfig.for_level(
            level,
            aim_sigma_deg=options.get("aim_sigma_deg"),
            speed_sigma=options.get("speed_sigma"),
            samples=options.get("samples"),
            refine=options.get("refine"),
            max_candidates=options.get("max_candidates"),
            speeds=options.get("speeds"),
        )
        # False: the planner before execution noise and tumbling (own aim/speed noise only)
        self.uncertainty = bool(options.get("uncertainty", True))
        self.simulated = 0  # shots simulated (for throughput figures)
        # the search under way: (simulated when it began, its budget of simulations), for a
        # window's "thinking" cue (read from another thread: plain ints, written here only)
        self._search_span = (0, 0)
        self._cancelled = False  # set from another thread: the search stops at its next shot

    def cancel(self) -> None:
        """Stop the search under way (a window closing): :meth:`act` raises SearchCancelled."""
        self._cancelled = True

    def progress(self) -> float | None:
        """How far the search under way is (0..1), or None before a search has begun."""
        begun, budget = self._search_span
        if budget <= 0:
            return None
        return min(1.0, (self.simulated - begun) / budget)

    # -- noise ------------------------------------------------------------------------------------
    def noisy(self, spec: FlickSpec, rng: np.random.Generator) -> FlickSpec:
        """The flick as a human hand would execute it: aim and speed error."""
        aim = spec.direction + math.radians(self.config.aim_sigma_deg) * rng.normal()
        factor = max(0.05, 1.0 + self.config.speed_sigma * rng.normal())
        if spec.finger_speed is not None:
            return replace(spec, direction=aim, finger_speed=spec.finger_speed * factor)
        return replace(spec, direction=aim, impulse=spec.impulse * factor)  # type: ignore[operator]

    def strike_height(self, state: Any) -> float:
        """Where up the face the planner strikes: mid-height, or with a straying hand the middle of
        the band that pitches the die neither way, mid-height to the nail's grip (0.622)."""
        if not self.uncertainty or state.noise.height <= 0.0:
            return _MID_HEIGHT
        p = state.physics
        return _MID_HEIGHT + grip_height(p.mu_finger, p) / (2.0 * p.die_size)

    def executions(self, count: int, state: Any, rng: np.random.Generator) -> list[_Execution]:
        """``count`` drawn executions: the planner's own hand error plus the match's noise."""
        out = []
        for _ in range(count):
            aim = math.radians(self.config.aim_sigma_deg) * rng.normal()
            factor = 1.0 + self.config.speed_sigma * rng.normal()
            out.append(_Execution(aim, factor, noise.draw(state.noise, rng)))
        return out

    # -- candidates ---------------------------------------------------------------------------------
    def candidates(self, state: Any, seat: int) -> list[FlickSpec]:
        cfg = self.config
        mass = state.physics.die_mass
        pos = _positions(state)
        out: list[FlickSpec] = []
        if state.mode == "jam":
            lo, hi = _jam_speed_band()
            speeds = np.linspace(lo, hi, max(1, cfg.speeds))
            shooters: list[tuple[str, float, float, str | None]] = []
            for die in state.on_board(seat):
                shooters.append((die, pos[die].x, pos[die].y, None))
            # nearest dice first: they are the likeliest to drop
            shooters.sort(key=lambda s: math.hypot(s[1], s[2]))
            hand = state.in_hand(seat)
            if hand:
                zones = sorted(state.board.platforms, key=lambda z: z.name)
                for zone in zones:
                    if (
                        state._placement_problem(
                            FlickSpec(hand[0], 0.0, mass, place=zone.name, px=zone.x, py=zone.y)
                        )
                        is None
                    ):
                        shooters.append((hand[0], zone.x, zone.y, zone.name))
            spread = [0.0] + [
                sign * math.radians(1.5) * (k + 1)
                for k in range(cfg.aims_per_die // 2)
                for sign in (1, -1)
            ]
            height = self.strike_height(state)
            ranked: list[tuple[tuple[int, int, int], FlickSpec]] = []
            for si, (die, x, y, place) in enumerate(shooters):
                aim = math.atan2(-y, -x)
                dist = math.hypot(x, y)
                for ai, da in enumerate(spread):
                    for vi, v in enumerate(speeds):
                        # scale the speed band with distance: far dice need more
                        launch = float(v) * math.sqrt(max(dist, 0.05) / 0.18)
                        vf = finger_for_launch(launch, state.physics)
                        spec = (
                            FlickSpec(
                                die,
                                aim + da,
                                height=height,
                                finger_speed=vf,
                                place=place,
                                px=x,
                                py=y,
                            )
                            if place
                            else FlickSpec(die, aim + da, height=height, finger_speed=vf)
                        )
                        ranked.append(((ai, si, vi), spec))
            # straight aims of every shooter first, then the aims to either side
            out = [spec for _, spec in sorted(ranked, key=lambda r: r[0])]
        else:
            speeds = np.linspace(1.6, 3.0, max(1, cfg.speeds))
            mine = state.on_board(seat)
            targets = [d for d in pos if state.owner.get(d, seat) != seat]
            # open lines first: the die leaves towards the target (the cone does not turn it away)
            # and its path clears its own dice, the hole and the JAM platforms; then the nearest
            pairs = sorted(
                (
                    not _open_line(state, pos, m, t),
                    math.hypot(pos[t].x - pos[m].x, pos[t].y - pos[m].y),
                    m,
                    t,
                )
                for m in mine
                for t in targets
            )
            pairs = [(d, m, t) for _, d, m, t in pairs]
            height = self.strike_height(state)
            for _, m, t in pairs[: max(1, cfg.max_candidates // max(1, cfg.speeds))]:
                aim = math.atan2(pos[t].y - pos[m].y, pos[t].x - pos[m].x)
                for v in speeds:
                    vf = finger_for_launch(float(v), state.physics)
                    out.append(FlickSpec(m, aim, height=height, finger_speed=vf))
        legal = []
        for spec in out:
            if state._check_flick(seat, spec) is None:
                legal.append(spec)
            if len(legal) >= cfg.max_candidates:
                break
        return legal

    # -- evaluation -------------------------------------------------------------------------------
    def evaluate(self, state: Any, seat: int, spec: FlickSpec) -> float:
        """Value of the rest state after executing ``spec`` exactly (no noise)."""
        if self._cancelled:
            raise SearchCancelled("the planner's search was cancelled")
        action = _spec_action(spec)
        world = state.preview(action)
        start = len(world.events)
        world.run_until_rest(self.config.shot_time)
        self.simulated += 1
        events = world.events[start:]
        where = dict(state.where)
        if spec.place is not None:
            where[spec.die] = BOARD
        for die, new, _ in state.shot_outcome(world, seat, spec.die, events):
            where[die] = new
        if state.mode == "jam":
            value = jam_value(state, world, seat, where)
            mine = [d for d in where if state.owner[d] == seat]
            if all(where[d] == HOLED for d in mine):
                value += 100.0  # ends the round with nothing left: the best possible shot
            return value
        value = sumo_value(state, world, seat, where)
        others = [s for s in range(state.num_players) if s != seat]
        for s in others:
            if not any(where[d] == BOARD for d in where if state.owner[d] == s):
                value += 5.0  # ends the round while ahead in dice
        if not any(where[d] == BOARD for d in where if state.owner[d] == seat):
            value -= 20.0
        return value

    def act(self, view: SeatView) -> Action:
        self._cancelled = False
        state = view.state
        if state is None or view.legal_actions == [PASS]:
            return _fallback(view)
        if state.setting_up() is not None:
            return choose_setup(state, view.seat, view.legal_actions, view.rng, best=True)
        rng = view.rng
        seat = view.seat
        cands = self.candidates(state, seat)
        if not cands:
            return _fallback(view)
        refined = min(len(cands), max(0, self.config.refine))
        if self.uncertainty:
            budget = len(cands) + refined * 2 * max(1, self.config.samples // 2)
        else:
            budget = len(cands) + refined * max(0, self.config.samples - 1)
        self._search_span = (self.simulated, budget)
        best = (self._search_uncertain if self.uncertainty else self._search)(
            state, seat, cands, rng
        )
        executed = self.noisy(best, rng)
        for choice in (executed, best):
            action = _spec_action(choice)
            if state.is_legal(seat, action):
                return action
        return _fallback(view)

    def _search(
        self, state: Any, seat: int, cands: list[FlickSpec], rng: np.random.Generator
    ) -> FlickSpec:
        """The planner before execution noise: independent own-noise samples per candidate."""

        def sample(spec: FlickSpec) -> float:
            trial = self.noisy(spec, rng)
            if state._check_flick(seat, trial) is not None:
                trial = spec
            return self.evaluate(state, seat, trial)

        # two stages: one noisy execution of every candidate, then more samples for the best
        # few (``refine``), so the search width costs one simulation per candidate
        values: list[list[float]] = [[sample(spec)] for spec in cands]
        order = sorted(range(len(cands)), key=lambda i: -values[i][0])
        for i in order[: self.config.refine]:
            values[i].extend(sample(cands[i]) for _ in range(self.config.samples - 1))
        finalists = order[: max(1, self.config.refine)]
        return cands[max(finalists, key=lambda i: (float(np.mean(values[i])), -i))]

    def _search_uncertain(
        self, state: Any, seat: int, cands: list[FlickSpec], rng: np.random.Generator
    ) -> FlickSpec:
        """Expected value over executions: every candidate once as aimed (the ranking), then each
        of the ``refine`` best at antithetic pairs of drawn executions (an execution and its
        mirror, shared by every finalist) besides the aimed one, and the best mean wins.

        Shared draws compare finalists on the same luck; mirrored pairs keep that luck from
        favouring the candidate whose aim happens to cancel the drawn error (one shared draw
        would: a candidate aimed 1.5° left wins under a draw 1.5° right). Budget: one
        simulation per candidate plus 2 × ``samples // 2`` (at least 2) per finalist.
        """
        search = np.random.default_rng(int(rng.integers(2**63)))
        pairs = max(1, self.config.samples // 2)
        draws = [e for d in self.executions(pairs, state, search) for e in (d, d.mirror())]

        def sample(aimed: FlickSpec, trial: FlickSpec) -> float:
            if state._check_flick(seat, trial) is not None:
                trial = aimed  # the candidates are fair; a strayed flick the check refuses
            return self.evaluate(state, seat, trial)

        values: list[list[float]] = [[self.evaluate(state, seat, spec)] for spec in cands]
        order = sorted(range(len(cands)), key=lambda i: (-values[i][0], i))
        for i in order[: self.config.refine]:
            values[i].extend(sample(cands[i], d.apply(cands[i])) for d in draws)
        finalists = order[: max(1, self.config.refine)]
        return cands[max(finalists, key=lambda i: (float(np.mean(values[i])), -i))]


@dataclass(frozen=True)
class _Execution:
    """One drawn execution of a flick: the planner's own aim and speed error, then the match's."""

    aim: float  # rad
    speed_factor: float
    table: noise.Deviation

    def mirror(self) -> _Execution:
        """The opposite error (antithetic draw): aim, speed and every table error reversed."""
        t = self.table
        return _Execution(
            -self.aim,
            2.0 - self.speed_factor,
            noise.Deviation(2.0 - t.speed_factor, -t.angle, -t.offset, -t.height),
        )

    def apply(self, spec: FlickSpec) -> FlickSpec:
        factor = max(0.05, self.speed_factor)
        if spec.finger_speed is not None:
            own = replace(
                spec, direction=spec.direction + self.aim, finger_speed=spec.finger_speed * factor
            )
        else:
            own = replace(spec, direction=spec.direction + self.aim, impulse=spec.impulse * factor)  # type: ignore[operator]
        return noise.deviate(own, self.table)
