"""The batch path: many independent shots from one position, each exactly as if run alone.

A shot is: the position (the shooter and any other dice, at rest), one flick of the shooter, run
to rest.  Alone that costs a fresh :class:`~jamsumo_sim.world.World` per shot (board and parameters
read, Space built, kernels' buffers set up).  The runner keeps one World per process instead:

- no other dice: the shooter is put back with :meth:`World.place_die` after each shot.  A World at
  rest is canonical (its Space rebuilt in insertion order, no cached contacts), so the next shot
  runs bit for bit as in a fresh World (tests/sweep/test_batch.py checks thousands of shots);
- other dice: each shot starts from :meth:`World.copy` of the position at rest (exact copies).

A lone shooter's shot runs in a compiled model of the World's step (:mod:`.lone`,
:mod:`.lone_kernel`) wherever no contact or rarer rule can act (flick, slides, platforms, pitches,
lift-offs, flights and landings), the World doing the rest (platform walls, falling into the hole)
from the model's state put into the runner's World (:func:`.lone.enter`): equal to a lone World
within 0.1 mm / 0.1 deg, bit for bit in all but a few shots in 10 000 (docs/sweep.md).
``ShotRunner(fast=False)`` runs every step in the World (bit for bit: the reference).

Why not many shots in one World (one Space, a contact group each)?  Measured: a shared World's
collision steps per model step are those of its most at-risk die (a die near a platform wall makes
every die take up to 64 Chipmunk steps), so it ran slower than one World per shot, and 1 % of shots
differed from their lone run by more than 0.1 mm (contacts resolved with other collision steps, and
the contact energy limiter looks at the whole World's energy).  See docs/sweep.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..physics.datatypes import IN_HOLE, OFF, ON_BOARD, IllegalAction
from ..physics.events import COLLISION
from ..physics.flick import Flick
from ..rules import scoring
from . import lone
from .spec import SHOOTER_ID

# Outcome codes of a shot (the data file's ``status``).
ON_BOARD_CODE, OFF_CODE, HOLE_CODE, ILLEGAL_CODE = 0, 1, 2, 3
STATUS_CODES = {"on_board": ON_BOARD_CODE, OFF: OFF_CODE, IN_HOLE: HOLE_CODE}
FIELDS = ("status", "platform", "struck", "face", "flat", "score", "rested", "x", "y", "angle")
_DTYPES = {
    "status": np.int8, "platform": np.bool_, "struck": np.bool_, "face": np.int8,
    "flat": np.bool_, "score": np.int8, "rested": np.bool_,
    "x": np.float64, "y": np.float64, "angle": np.float64,
}  # fmt: skip


@dataclass(frozen=True)
class Shot:
    """One flick of the shooter, as executed (after any noise)."""

    direction: float  # rad
    speed: float  # finger speed, m/s
    offset: float = 0.0
    height: float = 0.5

    def flick(self) -> Flick:
        return Flick(
            SHOOTER_ID,
            self.direction,
            finger_speed=self.speed,
            offset=self.offset,
            height=self.height,
        )


def empty_outcomes(n: int) -> dict[str, np.ndarray]:
    """Arrays for ``n`` shots' outcomes (one per field of :data:`FIELDS`)."""
    return {k: np.zeros(n, dtype=_DTYPES[k]) for k in FIELDS}


def score(mode: str, status: int, face: int, flat: bool, platform: bool) -> int:
    """The shooter's Jam penalty or Sumo points where it stopped (rules.scoring)."""
    if mode == "jam":
        where = {
            HOLE_CODE: scoring.HOLED,
            OFF_CODE: scoring.HAND,  # back to its owner's hand
            ILLEGAL_CODE: scoring.HAND,  # not flicked: still in hand
        }.get(status, scoring.BOARD)
        return scoring.jam_die_penalty(scoring.DieView(0, where, face or scoring.HAND_FACE, flat))
    out = status != ON_BOARD_CODE or platform  # Sumo: a die on a JAM platform is out
    where = scoring.OUT if out else scoring.BOARD
    return scoring.sumo_die_points(scoring.DieView(0, where, face or scoring.SUMO_FACE, flat))


def scenario_for(board: str, shooter: Sequence[float], dice: Sequence[Mapping[str, Any]]):
    """The position as a `jamsumo sim` scenario (its checks: board, dice, overlaps)."""
    x, y, angle, face = shooter
    die = {"id": SHOOTER_ID, "x": x, "y": y, "angle": angle, "face": int(face)}
    return {"version": 1, "board": board, "dice": [die, *dice]}


class ShotRunner:
    """Runs shots from one position, each exactly as a fresh World would (module docstring)."""

    def __init__(
        self,
        board: str,
        shooter: Sequence[float],
        dice: Sequence[Mapping[str, Any]] = (),
        mode: str = "jam",
        max_time: float = 20.0,
        fast: bool = True,
    ) -> None:
        from ..scenario import build_world

        self.mode = mode
        self.max_time = max_time
        self.shooter = tuple(shooter)
        self._base, _, _ = build_world(scenario_for(board, shooter, dice))
        self._alone = len(self._base.die_ids) == 1
        self._moved = False  # the lone shooter must be put back before the next shot
        self._fast = fast and self._alone
        self._setup = lone.setup(self._base)
        self.stats = lone.Stats()  # World and kernel steps of the fast path (benchmarks, docs)
        if self._fast:
            # a World that never steps: the flick's fairness check (its own code) and pose
            self._probe, _, _ = build_world(scenario_for(board, shooter, dice))
            self._orientation = self._probe._dice[SHOOTER_ID].orientation
            self._nsteps = lone.max_steps(self._base, max_time)

    def _world(self):
        w = self._base
        if not self._alone:
            return w.copy()
        if self._moved:
            x, y, angle, face = self.shooter
            w.place_die(SHOOTER_ID, x, y, angle, face=int(face))
            self._moved = False
        w.events.clear()  # only this shot's events matter; keeps memory flat
        return w

    def run(self, shot: Shot) -> dict[str, Any]:
        """One shot's outcome (the fields of :data:`FIELDS`)."""
        if self._fast:
            return self._run_lone(shot)
        w = self._world()
        try:
            w.apply_flick(shot.flick())
        except IllegalAction:
            return self._illegal()
        self._moved = True
        result = w.run_until_rest(self.max_time)
        struck = any(
            e.type == COLLISION and e.data.get("kind") == "die" and SHOOTER_ID in e.dice
            for e in result.events
        )
        return self._from_world(w, struck, result.rested)

    def _run_lone(self, shot: Shot) -> dict[str, Any]:
        """The lone shooter: the compiled model from the flick (sweep/lone.py); the World only
        from the first step the model leaves to it, put in the model's state there.  Alone on
        the board it can strike no die."""
        flick = shot.flick()
        go = lone.launch(self._probe, flick)
        if isinstance(go, str):
            return self._illegal()
        ended, took = lone.run_launched(go, self._nsteps, self._setup, self.stats)
        if ended is not None:
            return self._from_kernel(ended, lone.turned(self._orientation, self._setup))
        w = self._base
        d = w._dice[SHOOTER_ID]
        self.stats.world_shots += 1
        if took and d.in_space and d.status == ON_BOARD:
            # the World where the kernel stopped, without putting the die back and flicking it
            lone.enter(w, d, self._orientation, took, self._setup)
        else:
            w = self._world()
            w.apply_flick(flick)
            d = w._dice[SHOOTER_ID]
            lone.resume(w, d, go, took, self._setup)
        self._moved = True
        limit = w.steps + self._nsteps - took if took else None
        ended, rested = lone.run_to_rest(w, d, self.max_time, self._setup, self.stats, limit)
        if ended is not None:
            return self._from_kernel(ended, d.orientation)
        return self._from_world(w, False, rested)

    def _illegal(self) -> dict[str, Any]:
        x, y, angle, _ = self.shooter
        return self._record(ILLEGAL_CODE, False, False, 0, True, True, x, y, angle)

    def _from_kernel(self, ended: lone.Ended, orientation) -> dict[str, Any]:
        code = STATUS_CODES[ended.status]
        face = orientation.top if code == ON_BOARD_CODE else 0
        platform = ended.platform is not None
        x, y, angle = ended.x, ended.y, ended.angle
        return self._record(code, platform, False, face, ended.flat, ended.rested, x, y, angle)

    def _from_world(self, w, struck: bool, rested: bool) -> dict[str, Any]:
        st = w.state(SHOOTER_ID)
        code = STATUS_CODES[st.status]
        face = st.face if code == ON_BOARD_CODE else 0
        platform = st.on_platform is not None
        return self._record(code, platform, struck, face, st.flat, rested, st.x, st.y, st.angle)

    def _record(self, code, platform, struck, face, flat, rested, x, y, angle) -> dict[str, Any]:
        return {
            "status": code,
            "platform": platform,
            "struck": struck,
            "face": face,
            "flat": flat,
            "score": score(self.mode, code, face, flat, platform),
            "rested": rested,
            "x": x,
            "y": y,
            "angle": angle,
        }

    def run_many(self, shots: Sequence[Shot]) -> dict[str, np.ndarray]:
        """Outcomes of ``shots`` in order, as arrays."""
        out = empty_outcomes(len(shots))
        for i, shot in enumerate(shots):
            for k, v in self.run(shot).items():
                out[k][i] = v
        return out
