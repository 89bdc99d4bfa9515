"""Measured shots simulated with the physics engine: many shots in one :class:`~jamsumo_sim.world.World`.

Each residual evaluation simulates every shot, so the shots of one evaluation share a World: every die
(or striker/target pair) is tagged with its shot and a wildcard collision handler drops contacts
between different shots.  The World's friction kick is vectorised over all its dice, so N shots cost
about as much as the slowest one, not N times one shot.  A shot's die therefore feels exactly the
board (dish, hole, platforms, edge) at its own position, as it would alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pymunk

from ..physics.board import BoardSpec
from ..physics.params import PhysicsParams
from ..world import World
from .limits import MAX_SHOT_SECONDS

_TAG = "_calibration_shot"  # attribute set on each die's pymunk shape
MAX_TIME = MAX_SHOT_SECONDS  # s of simulated time before a shot counts as never resting


def _separate_shots(arbiter: pymunk.Arbiter, space: pymunk.Space, data) -> None:
    a, b = arbiter.shapes
    ta, tb = getattr(a, _TAG, None), getattr(b, _TAG, None)
    if ta is not None and tb is not None and ta != tb:
        arbiter.process_collision = False


class _Batch:
    """One World holding several shots that cannot touch each other."""

    def __init__(self, board: BoardSpec, params: PhysicsParams):
        self.world = World(board, params)
        self.ids: list[str] = []
        self.tags: dict[str, int] = {}
        self._space = None

    def add(self, die_id: str, shot: int, x, y, angle, vx=0.0, vy=0.0, omega=0.0) -> None:
        self.world.add_die(
            die_id,
            float(x),
            float(y),
            float(angle),
            face=1,
            vx=float(vx),
            vy=float(vy),
            omega=float(omega),
        )
        # the swept collision steps skip pairs of different shots (they never touch)
        self.world.set_contact_group(die_id, shot)
        self.ids.append(die_id)
        self.tags[die_id] = shot
        self._space = None  # re-tag before stepping

    def _ensure_tagged(self) -> None:
        space = self.world.space
        if space is self._space:
            return
        # Dice shapes appear in the space in insertion order (the World adds one body+shape per die).
        for shape, die_id in self._shapes_by_die(space):
            setattr(shape, _TAG, self.tags[die_id])
        space.on_collision(None, None, begin=_separate_shots)
        self._space = space

    def _shapes_by_die(self, space: pymunk.Space) -> list[tuple[pymunk.Shape, str]]:
        """(shape, die id) of the dice in play: the World adds them to its Space in insertion order."""
        dice_shapes = [s for s in space.shapes if s.body.body_type == pymunk.Body.DYNAMIC]
        states = [self.world.state(i) for i in self.ids]
        live = [s for s in states if s.status == "on_board"]
        if len(dice_shapes) != len(live):
            raise RuntimeError(
                "calibration: the World's Space does not hold one shape per die in play"
            )
        for shape, st in zip(dice_shapes, live, strict=True):
            if (shape.body.position.x, shape.body.position.y) != (st.x, st.y):
                raise RuntimeError("calibration: cannot match the World's bodies to its dice")
        return [(shape, st.id) for shape, st in zip(dice_shapes, live, strict=True)]

    def bodies(self) -> dict[str, pymunk.Body]:
        self._ensure_tagged()
        return {die_id: shape.body for shape, die_id in self._shapes_by_die(self.world.space)}

    def run(self, max_time: float = MAX_TIME, on_step=None) -> None:
        w = self.world
        limit = w.steps + int(round(max_time / w.params.step))
        while w.steps < limit:
            self._ensure_tagged()
            if w.at_rest():
                break
            w.step()
            if on_step is not None:
                on_step(w)

    def poses(self, ids: Sequence[str]) -> np.ndarray:
        out = np.empty((len(ids), 3))
        for k, i in enumerate(ids):
            s = self.world.state(i)
            out[k] = (s.x, s.y, s.angle)
        return out


def _bracketing_steps(t: np.ndarray, dt: float, n_steps: int) -> np.ndarray:
    """Sorted step numbers whose times bracket every sample time (one step of slack for rounding)."""
    k = np.floor(t / dt).astype(np.int64)
    steps = np.concatenate([k - 1, k, k + 1, k + 2, [0, n_steps]])
    return np.unique(np.clip(steps, 0, n_steps))


class WorldSimulator:
    """The :class:`~jamsumo_sim.calibration.model.Simulator` backed by the physics engine."""

    def __init__(self, board: BoardSpec):
        self.board = board

    def rest(self, params: PhysicsParams, launches: np.ndarray) -> np.ndarray:
        L = np.asarray(launches, dtype=float).reshape(-1, 6)
        if not len(L):
            return np.zeros((0, 3))
        b = _Batch(self.board, params)
        ids = [f"s{k}" for k in range(len(L))]
        for k, row in enumerate(L):
            b.add(ids[k], k, *row)
        b.run()
        return b.poses(ids)

    def track(
        self, params: PhysicsParams, launches: np.ndarray, times: Sequence[np.ndarray]
    ) -> list[np.ndarray]:
        L = np.asarray(launches, dtype=float).reshape(-1, 6)
        if not len(L):
            return []
        b = _Batch(self.board, params)
        ids = [f"t{k}" for k in range(len(L))]
        for k, row in enumerate(L):
            b.add(ids[k], k, *row)
        dt = params.step
        t_end = max(float(np.max(t)) for t in times) + dt
        n_steps = int(np.ceil(t_end / dt)) + 1
        # Poses after the steps (time = steps * dt) that bracket some sample, then linear interpolation
        # at the sample times: the same numbers as keeping every step, without a (steps x shots) array
        # (20 s at dt = 0.1 ms for 200 tracks would be 1 GB).
        need = [_bracketing_steps(np.asarray(t, dtype=float), dt, n_steps) for t in times]
        kept = [np.empty((k.size, 3)) for k in need]
        wanted: dict[int, list[tuple[int, int]]] = {}
        for j, steps in enumerate(need):
            for row, k in enumerate(steps.tolist()):
                wanted.setdefault(k, []).append((j, row))
        for j, row in wanted.get(0, ()):
            kept[j][row] = L[j, :3]
        bodies: dict[str, pymunk.Body] = {}
        last = L[:, :3].copy()

        def record(w: World) -> None:
            nonlocal bodies
            k = w.steps
            if k > n_steps:
                return
            if not bodies or w.space is not b._space:
                bodies = b.bodies()
            for j, i in enumerate(ids):
                body = bodies.get(i)
                if body is not None and body.space is not None:
                    last[j] = (body.position.x, body.position.y, body.angle)
            for j, row in wanted.get(k, ()):
                kept[j][row] = last[j]

        b.run(max_time=t_end, on_step=record)
        done = min(b.world.steps, n_steps)
        final = b.poses(ids)  # at rest (or gone) from here on
        out = []
        for j, t in enumerate(times):
            kept[j][need[j] > done] = final[j]
            grid = need[j] * dt
            t = np.asarray(t, dtype=float)
            out.append(np.stack([np.interp(t, grid, kept[j][:, c]) for c in range(3)], axis=1))
        return out

    def collide(
        self, params: PhysicsParams, strikers: np.ndarray, targets: np.ndarray
    ) -> np.ndarray:
        S = np.asarray(strikers, dtype=float).reshape(-1, 6)
        T = np.asarray(targets, dtype=float).reshape(-1, 3)
        if not len(S):
            return np.zeros((0, 6))
        # one World per shot: a contact's collision steps depend on every pair at risk in the
        # World (physics.evolve), so two colliding shots in one World would not each run as alone
        out = np.empty((len(S), 6))
        for k in range(len(S)):
            b = _Batch(self.board, params)
            b.add("s", 0, *S[k])
            b.add("t", 0, *T[k])
            b.run()
            out[k] = b.poses(["s", "t"]).reshape(-1)
        return out
