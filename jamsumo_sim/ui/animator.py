"""Real-time stepping of a World: fixed physics step, accumulator, interpolation, dice leaving play.

The window never integrates anything itself: it calls ``World.step()`` at the board's fixed ``dt`` as
often as wall time (× the playback speed) demands, stops stepping the moment the world is at rest (so the
result is the same as ``run_until_rest``), and draws positions interpolated between the last two physics
states.  No pygame in here: it is driven by a clock value in seconds, so tests can drive it directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

ON_BOARD = "on_board"


@dataclass(frozen=True)
class Pose:
    """Where a die is drawn this frame (world metres, radians)."""

    id: str
    x: float
    y: float
    angle: float
    face: int
    flat: bool
    status: str
    fade: float = 0.0  # 0 present .. 1 gone
    drop: float = 0.0  # m below the surface (a die falling into the hole)
    pitch: float = 0.0  # rad tipped up on an edge (tumbling)
    z: float = 0.0  # m of the base above the surface (airborne)


def states_of(world: Any) -> dict[str, Any]:
    """``world.states()`` as a dict by die id (the World may return a list or a dict)."""
    st = world.states()
    if isinstance(st, dict):
        return dict(st)
    return {s.id: s for s in st}


def _lerp(a: float, b: float, t: float) -> float:
    return float(a) + (float(b) - float(a)) * t


def _lerp_angle(a: float, b: float, t: float) -> float:
    d = math.atan2(math.sin(b - a), math.cos(b - a))
    return a + d * t


@dataclass
class _Leaving:
    pose: Pose
    vx: float
    vy: float
    start: float  # animation clock (s) when it left


class Animator:
    """Steps one World in real time and reports interpolated poses.

    ``advance(real_dt)`` runs the physics; ``poses()`` gives what to draw.  ``speed`` scales time (0 =
    paused).  ``max_time`` (simulated seconds) cuts a shot short as a safety net.
    """

    def __init__(
        self, world: Any, dt: float, fade_time: float = 0.45, max_time: float = 20.0
    ) -> None:
        self.world = world
        self.dt = dt
        self.fade_time = fade_time
        self.max_time = max_time
        self.speed = 1.0
        self.acc = 0.0
        self.clock = 0.0  # animation time (s, scaled by speed), drives fades
        self.start_time = float(getattr(world, "time", 0.0))
        # the same step budget as World.run_until_rest(max_time): whole steps, no rounding drift
        self.max_steps = math.ceil(max_time / dt - 1e-9)
        self.prev = states_of(world)
        self.cur = self.prev
        self.steps = 0
        self.leaving: dict[str, _Leaving] = {}
        self.running = not self._at_rest()

    def _at_rest(self) -> bool:
        return bool(self.world.at_rest())

    @property
    def sim_time(self) -> float:
        return float(getattr(self.world, "time", 0.0)) - self.start_time

    @property
    def alpha(self) -> float:
        return min(1.0, self.acc / self.dt) if self.running else 1.0

    def advance(self, real_dt: float) -> int:
        """Advance by ``real_dt`` wall seconds (× speed); returns the number of physics steps taken."""
        scaled = max(0.0, real_dt) * self.speed
        self.clock += scaled
        if not self.running:
            return 0
        self.acc += scaled
        # the tolerance keeps 1/60 s from owing 16.9999 steps through rounding (and losing one)
        n = int(self.acc / self.dt + 1e-6)
        taken = 0
        for i in range(n):
            if i == n - 1:
                self.prev = states_of(self.world)
            self.world.step()
            taken += 1
            self.acc = max(0.0, self.acc - self.dt)
            if self._at_rest() or self.steps + taken >= self.max_steps:
                self.running = False
                self.acc = 0.0
                self.prev = states_of(self.world) if i < n - 1 else self.prev
                break
        if taken:
            self.steps += taken
            seen = self.cur  # what was drawn last: a die may leave at any step in between
            self.cur = states_of(self.world)
            self._note_departures(seen)
        return taken

    def _note_departures(self, seen: dict[str, Any]) -> None:
        for die_id, before in seen.items():
            now = self.cur.get(die_id)
            gone = now is None or getattr(now, "status", ON_BOARD) != ON_BOARD
            was_in = getattr(before, "status", ON_BOARD) == ON_BOARD
            if gone and was_in and die_id not in self.leaving:
                src = now if now is not None else before
                pose = _pose(src, getattr(src, "status", "gone"))
                self.leaving[die_id] = _Leaving(
                    pose, getattr(before, "vx", 0.0), getattr(before, "vy", 0.0), self.clock
                )

    def poses(self) -> list[Pose]:
        """Dice to draw now: interpolated dice on the board plus dice animating out of play."""
        t = self.alpha
        out: list[Pose] = []
        for die_id, cur in self.cur.items():
            if die_id in self.leaving or getattr(cur, "status", ON_BOARD) != ON_BOARD:
                continue
            prev = self.prev.get(die_id, cur)
            out.append(
                Pose(
                    die_id,
                    prev.x + (cur.x - prev.x) * t,
                    prev.y + (cur.y - prev.y) * t,
                    _lerp_angle(prev.angle, cur.angle, t),
                    int(cur.face),
                    bool(getattr(cur, "flat", True)),
                    ON_BOARD,
                    drop=float(getattr(cur, "drop", 0.0)),
                    pitch=float(getattr(cur, "pitch", 0.0)),
                    z=_lerp(getattr(prev, "z", 0.0), getattr(cur, "z", 0.0), t),
                )
            )
        for die_id, lv in self.leaving.items():
            age = self.clock - lv.start
            fade = min(1.0, age / self.fade_time) if self.fade_time > 0 else 1.0
            if fade >= 1.0:
                continue
            # a die going off the edge keeps sliding out as it drops; one in the hole sinks in place
            drift = 0.0 if lv.pose.status == "in_hole" else age
            out.append(
                Pose(
                    die_id,
                    lv.pose.x + lv.vx * drift,
                    lv.pose.y + lv.vy * drift,
                    lv.pose.angle,
                    lv.pose.face,
                    lv.pose.flat,
                    lv.pose.status,
                    fade,
                    lv.pose.drop,
                )
            )
        return out

    @property
    def fading(self) -> bool:
        return any(self.clock - lv.start < self.fade_time for lv in self.leaving.values())

    @property
    def done(self) -> bool:
        """The physics has come to rest and every departure has finished animating."""
        return not self.running and not self.fading


def _pose(s: Any, status: str) -> Pose:
    return Pose(
        s.id,
        s.x,
        s.y,
        s.angle,
        int(s.face),
        bool(getattr(s, "flat", True)),
        status,
        pitch=float(getattr(s, "pitch", 0.0)),
        z=float(getattr(s, "z", 0.0)),
    )


def rest_poses(world: Any) -> list[Pose]:
    """Poses of the dice on the board of a world at rest (no interpolation, no fades)."""
    return [
        _pose(s, ON_BOARD)
        for s in states_of(world).values()
        if getattr(s, "status", ON_BOARD) == ON_BOARD
    ]
