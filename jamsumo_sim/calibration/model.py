"""The calibration problem: measured shots → residuals (mm) of the simulated shots for given parameters.

A :class:`Simulator` runs batches of shots for one :class:`~jamsumo_sim.physics.params.PhysicsParams`;
:class:`ShotsProblem` turns the loaded data into residuals for :mod:`.fit`.  Residual rows per shot:

- rest poses: (dx, dy) in mm, then the angle error times ``angle_lever`` (mm) when angles are used;
- trajectories: (dx, dy) in mm for every tracked sample after the first (the first is the start);
  tracked angles only give the launch spin's first estimate: a spin known to a few rad/s cannot
  predict a quarter-turn-periodic angle a second later, so later angles would add only false minima;
- collisions: the striker's then the target's rest pose, as for rest poses.

Rest angles are compared modulo a quarter turn (a cube looks the same turned by 90 degrees).
A tracked shot's launch velocity (vx, vy, omega) is fitted with the physical parameters as a nuisance
parameter per shot: a phone video does not give it better than the whole track does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..physics.params import PhysicsParams
from .data import COLLISION, REST, TRAJECTORY, CollisionShot, DataFile, RestShot, TrajectoryShot
from .fit import Group, Problem

MM = 1000.0

# Parameters that act only between two dice: single-die shots (rest poses, tracks) do not depend on
# them, so their Jacobian columns need only the collision shots re-simulated.
DIE_DIE_ONLY = {"mu_die": frozenset({COLLISION}), "restitution": frozenset({COLLISION})}
QUARTER = math.pi / 2


class Simulator(Protocol):
    """Simulates measured shots; arrays are SI, one row per shot."""

    def rest(self, params: PhysicsParams, launches: np.ndarray) -> np.ndarray:
        """(n, 6) launch states (x, y, angle, vx, vy, omega) → (n, 3) rest poses (x, y, angle)."""
        ...

    def track(
        self, params: PhysicsParams, launches: np.ndarray, times: Sequence[np.ndarray]
    ) -> list[np.ndarray]:
        """Poses (k_i, 3) at times ``times[i]`` (seconds after launch) of each shot."""
        ...

    def collide(
        self, params: PhysicsParams, strikers: np.ndarray, targets: np.ndarray
    ) -> np.ndarray:
        """(n, 6) striker launches, (n, 3) resting targets → (n, 6) rest poses (striker, target)."""
        ...


def wrap_quarter(a: np.ndarray) -> np.ndarray:
    """Angle differences folded into [-pi/4, pi/4): the smallest turn between two views of a cube."""
    return (a + QUARTER / 2) % QUARTER - QUARTER / 2


def with_fitted(
    base: PhysicsParams, names: Sequence[str], values: Sequence[float]
) -> PhysicsParams:
    """``base`` with fitted values; keeps mu_static >= mu_board (only resting dice feel mu_static)."""
    over = dict(zip(names, (float(v) for v in values), strict=True))
    mu_b = over.get("mu_board", base.mu_board)
    mu_s = over.get("mu_static", base.mu_static)
    if mu_s < mu_b:
        over["mu_static"] = mu_b
    return base.with_overrides(over)


# --- a toy analytic simulator (straight slides), for testing the fit machinery ----------------------


class ToySimulator:
    """Straight slides with constant deceleration mu_board g and no spin coupling; head-on collisions.

    The exact answers are known (stop distance v0^2 / (2 mu g)), so it tests the fitting machinery
    independently of the physics engine.
    """

    def rest(self, params, launches):
        L = np.asarray(launches, dtype=float)
        v = np.hypot(L[:, 3], L[:, 4])
        d = v**2 / (2 * params.mu_board * params.gravity)
        ux, uy = _unit(L[:, 3], L[:, 4])
        return np.stack([L[:, 0] + ux * d, L[:, 1] + uy * d, L[:, 2]], axis=1)

    def track(self, params, launches, times):
        out = []
        a = params.mu_board * params.gravity
        for L, t in zip(np.asarray(launches, dtype=float), times, strict=True):
            v = math.hypot(L[3], L[4])
            ts = np.minimum(np.asarray(t), v / a)
            s = v * ts - 0.5 * a * ts**2
            ux, uy = (L[3] / v, L[4] / v) if v > 0 else (0.0, 0.0)
            out.append(np.stack([L[0] + ux * s, L[1] + uy * s, np.full_like(s, L[2])], axis=1))
        return out

    def collide(self, params, strikers, targets):
        out = []
        a = params.mu_board * params.gravity
        e = params.restitution
        for S, T in zip(
            np.asarray(strikers, dtype=float), np.asarray(targets, dtype=float), strict=True
        ):
            v = math.hypot(S[3], S[4])
            ux, uy = (S[3] / v, S[4] / v) if v > 0 else (0.0, 0.0)  # a striker at rest
            gap = (T[0] - S[0]) * ux + (T[1] - S[1]) * uy - params.die_size
            vi = math.sqrt(max(v * v - 2 * a * gap, 0.0))
            ds = ((1 - e) / 2 * vi) ** 2 / (2 * a)
            dt = ((1 + e) / 2 * vi) ** 2 / (2 * a)
            sx, sy = T[0] - ux * params.die_size, T[1] - uy * params.die_size
            out.append([sx + ux * ds, sy + uy * ds, S[2], T[0] + ux * dt, T[1] + uy * dt, T[2]])
        return np.asarray(out, dtype=float).reshape(-1, 6)


def _unit(vx: np.ndarray, vy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    v = np.hypot(vx, vy)
    safe = np.where(v > 0, v, 1.0)
    return np.where(v > 0, vx / safe, 0.0), np.where(v > 0, vy / safe, 0.0)


# --- the problem ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shots:
    """The kinematic shots of a calibration, by kind."""

    rest: tuple[RestShot, ...] = ()
    trajectories: tuple[TrajectoryShot, ...] = ()
    collisions: tuple[CollisionShot, ...] = ()

    @classmethod
    def from_files(cls, files: Sequence[DataFile]) -> Shots:
        by = {REST: [], TRAJECTORY: [], COLLISION: []}
        for f in files:
            if f.kind in by:
                by[f.kind].extend(f.items)
        return cls(tuple(by[REST]), tuple(by[TRAJECTORY]), tuple(by[COLLISION]))

    @property
    def count(self) -> int:
        return len(self.rest) + len(self.trajectories) + len(self.collisions)

    def labelled(self) -> list[tuple[str, object]]:
        return (
            [(REST, s) for s in self.rest]
            + [(TRAJECTORY, s) for s in self.trajectories]
            + [(COLLISION, s) for s in self.collisions]
        )

    @classmethod
    def from_labelled(cls, items: Sequence[tuple[str, object]]) -> Shots:
        return cls(
            tuple(s for k, s in items if k == REST),
            tuple(s for k, s in items if k == TRAJECTORY),
            tuple(s for k, s in items if k == COLLISION),
        )


def launch_array(launches) -> np.ndarray:
    return np.array(
        [[s.x, s.y, s.angle, s.vx, s.vy, s.omega] for s in launches], dtype=float
    ).reshape(-1, 6)


def estimate_launch(shot: TrajectoryShot, frames: int = 6) -> tuple[float, float, float]:
    """(vx, vy, omega) at the first sample from a quadratic fit over the first few frames.

    Angles are unwrapped assuming less than an eighth of a turn between frames (film fast enough).
    """
    k = min(frames, len(shot.t))
    t = np.asarray(shot.t[:k]) - shot.t[0]
    deg = 2 if k >= 4 else 1
    vx = np.polyfit(t, shot.x[:k], deg)[-2]
    vy = np.polyfit(t, shot.y[:k], deg)[-2]
    a = np.asarray(shot.angle[:k])
    a = a[0] + np.concatenate([[0.0], np.cumsum(wrap_quarter(np.diff(a)))])
    om = np.polyfit(t, a, deg)[-2]
    return float(vx), float(vy), float(om)


class ShotsProblem(Problem):
    """Residuals of simulated vs measured shots for the fitted parameters ``names``."""

    def __init__(
        self,
        shots: Shots,
        base: PhysicsParams,
        names: Sequence[str],
        simulator: Simulator,
        *,
        angles: bool = True,
        angle_lever: float | None = None,
    ):
        self.shots = shots
        self.base = base
        self.names = tuple(names)
        self.sim = simulator
        self.angles = angles
        # an angle error counts as the displacement of a point one die-width from the centre
        self.angle_lever = (angle_lever if angle_lever is not None else base.die_size) * MM
        per = 3 if angles else 2
        self.per_pose = per
        self._rest_launch = launch_array(s.launch for s in shots.rest)
        self._rest_meas = np.array(
            [[s.rest.x, s.rest.y, s.rest.angle] for s in shots.rest]
        ).reshape(-1, 3)
        self._col_strikers = launch_array(s.striker for s in shots.collisions)
        self._col_targets = np.array(
            [[s.target.x, s.target.y, s.target.angle] for s in shots.collisions]
        ).reshape(-1, 3)
        self._col_meas = np.array(
            [
                [
                    s.striker_rest.x,
                    s.striker_rest.y,
                    s.striker_rest.angle,
                    s.target_rest.x,
                    s.target_rest.y,
                    s.target_rest.angle,
                ]
                for s in shots.collisions
            ]
        ).reshape(-1, 6)
        self._tr_times = [np.asarray(s.t[1:]) - s.t[0] for s in shots.trajectories]
        self._tr_meas = [
            np.stack([s.x[1:], s.y[1:], s.angle[1:]], axis=1) for s in shots.trajectories
        ]
        # row layout: rest poses, then tracked samples (positions only), then collisions
        n_rest = len(shots.rest) * per
        self._n_rest = n_rest
        self._tr_rows = []
        start = n_rest
        for t in self._tr_times:
            self._tr_rows.append(np.arange(start, start + t.size * 2))
            start += t.size * 2
        self._col_start = start
        self.n_rows = start + len(shots.collisions) * 2 * per
        mask = np.ones(self.n_rows, dtype=bool)
        if angles:
            mask[2:n_rest:per] = False
            mask[self._col_start + 2 :: per] = False
        self._position_mask = mask
        nt = len(shots.trajectories)
        self.nuisance_lower = np.full(3 * nt, -np.inf)
        self.nuisance_upper = np.full(3 * nt, np.inf)
        self._nuis0 = np.array(
            [v for s in shots.trajectories for v in estimate_launch(s)], dtype=float
        )

    # --- Problem interface ---
    def nuisance_start(self) -> np.ndarray:
        return self._nuis0.copy()

    def set_nuisance_start(self, values) -> None:
        """Start the tracked shots' launch velocities from ``values`` (e.g. an earlier fit's)."""
        v = np.asarray(values, dtype=float)
        if v.shape != self._nuis0.shape:
            raise ValueError(f"expected {self._nuis0.size} nuisance values, got {v.size}")
        self._nuis0 = v.copy()

    def groups(self) -> list[Group]:
        k = len(self.names)
        out = []
        for j, name in enumerate(self.names):
            blocks = DIE_DIE_ONLY.get(name)
            if blocks is None:
                out.append(Group((j,), (None,)))
            else:  # a single die on an empty board never meets another die: skip those shots
                out.append(Group((j,), (self.block_rows(blocks),), blocks))
        nt = len(self.shots.trajectories)
        if nt:
            for comp in range(3):
                cols = tuple(k + 3 * i + comp for i in range(nt))
                out.append(Group(cols, tuple(self._tr_rows), frozenset({TRAJECTORY})))
        return out

    def block_rows(self, blocks: frozenset[str]) -> np.ndarray:
        """Indices of the residual rows of ``blocks``."""
        m = np.zeros(self.n_rows, dtype=bool)
        if REST in blocks:
            m[: self._n_rest] = True
        if TRAJECTORY in blocks:
            for rows in self._tr_rows:
                m[rows] = True
        if COLLISION in blocks:
            m[self._col_start :] = True
        return np.flatnonzero(m)

    def params_at(self, x: np.ndarray) -> PhysicsParams:
        return with_fitted(self.base, self.names, x[: len(self.names)])

    def tracked_launches(self, x: np.ndarray) -> np.ndarray:
        k = len(self.names)
        rows = []
        for i, s in enumerate(self.shots.trajectories):
            vx, vy, om = x[k + 3 * i : k + 3 * i + 3]
            rows.append([s.x[0], s.y[0], s.angle[0], vx, vy, om])
        return np.asarray(rows, dtype=float).reshape(-1, 6)

    def evaluate(self, x: np.ndarray, blocks: frozenset[str] | None = None) -> np.ndarray:
        params = self.params_at(np.asarray(x, dtype=float))
        r = np.zeros(self.n_rows)
        sims = self.simulate(params, x, blocks)
        per = self.per_pose
        if REST in sims:
            r[: len(self.shots.rest) * per] = self._pose_residuals(
                sims[REST], self._rest_meas
            ).ravel()
        if TRAJECTORY in sims:
            for rows, sim, meas in zip(self._tr_rows, sims[TRAJECTORY], self._tr_meas, strict=True):
                r[rows] = ((np.asarray(sim)[:, :2] - meas[:, :2]) * MM).ravel()
        if COLLISION in sims:
            sim, meas = sims[COLLISION], self._col_meas
            both = np.concatenate(
                [
                    self._pose_residuals(sim[:, :3], meas[:, :3]),
                    self._pose_residuals(sim[:, 3:], meas[:, 3:]),
                ],
                axis=1,
            )
            r[self._col_start :] = both.ravel()
        return r

    def simulate(self, params: PhysicsParams, x: np.ndarray, blocks=None) -> dict[str, object]:
        """Simulated poses by block (SI): rest (n,3), trajectory [list of (k,3)], collision (n,6)."""
        want = blocks or frozenset({REST, TRAJECTORY, COLLISION})
        out: dict[str, object] = {}
        if REST in want and self.shots.rest:
            out[REST] = self.sim.rest(params, self._rest_launch)
        if TRAJECTORY in want and self.shots.trajectories:
            out[TRAJECTORY] = self.sim.track(
                params, self.tracked_launches(np.asarray(x)), self._tr_times
            )
        if COLLISION in want and self.shots.collisions:
            out[COLLISION] = self.sim.collide(params, self._col_strikers, self._col_targets)
        return out

    def _pose_residuals(self, sim: np.ndarray, meas: np.ndarray) -> np.ndarray:
        sim = np.asarray(sim, dtype=float).reshape(-1, 3)
        d = (sim[:, :2] - meas[:, :2]) * MM
        if not self.angles:
            return d
        da = wrap_quarter(sim[:, 2] - meas[:, 2]) * self.angle_lever
        return np.concatenate([d, da[:, None]], axis=1)

    def shot_rows(self) -> list[tuple[str, object, np.ndarray]]:
        """(kind, shot, its position-residual row indices) for every shot, in row order."""
        out = []
        per = self.per_pose
        for i, shot in enumerate(self.shots.rest):
            out.append((REST, shot, np.arange(i * per, i * per + 2)))
        for shot, rows in zip(self.shots.trajectories, self._tr_rows, strict=True):
            out.append((TRAJECTORY, shot, rows))
        for i, shot in enumerate(self.shots.collisions):
            b = self._col_start + 2 * per * i
            out.append((COLLISION, shot, np.r_[b, b + 1, b + per, b + per + 1]))
        return out

    def position_mask(self) -> np.ndarray:
        """True for the rows that are position errors (for the RMS in mm)."""
        return self._position_mask


def make_simulator(board, kind: str = "world") -> Simulator:
    """The simulator for ``board``: ``"world"`` (the physics engine) or ``"toy"`` (analytic slides)."""
    if kind == "toy":
        return ToySimulator()
    from .world_sim import WorldSimulator

    return WorldSimulator(board)
