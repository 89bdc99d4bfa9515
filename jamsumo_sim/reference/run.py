"""One shot in the reference: dice placed, an optional flick's finger, steps until every die in
play rests (or ``max_time``), and what each die did (:class:`Track`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..physics.board import BoardSpec
from ..physics.die import Orientation
from ..physics.flick import Flick
from ..physics.params import PhysicsParams
from ..physics.surface import Surface
from .build import Model, build_model, mujoco
from .config import ReferenceConfig
from .finger import finger_start
from .friction import Contacts, friction_wrench
from .geometry import FACE, face_up

# a new face counts as up once its normal is this close to vertical (hysteresis: a die rocking on
# an edge, near 0.707, does not count quarter turns)
_FACE_UP = 0.8


@dataclass(frozen=True)
class DieStart:
    id: str
    x: float
    y: float
    angle: float = 0.0
    orientation: Orientation = field(default_factory=lambda: Orientation.with_top(1))
    vel: tuple[float, float, float] = (0.0, 0.0, 0.0)  # m/s, world
    omega: tuple[float, float, float] = (0.0, 0.0, 0.0)  # rad/s, world
    lift: float = 0.0  # m: its lowest point this far above the surface
    quat: tuple[float, float, float, float] | None = None  # a full 3D pose (w, x, y, z) instead


@dataclass
class Track:
    """What one die did in a shot."""

    id: str
    distance: float = 0.0  # m, start to end (horizontal)
    stop_time: float = 0.0  # s, when it last moved
    quarter_turns: int = 0
    rise: float = 0.0  # m, highest its lowest point got above the surface
    face: int = 0  # face up at the end
    status: str = "on_board"  # "on_board" | "off_board" | "in_hole"
    x: float = 0.0
    y: float = 0.0
    peak_speed: float = 0.0  # m/s, fastest horizontal speed
    peak_direction: float = 0.0  # rad, direction of motion at that moment
    max_vz: float = 0.0  # m/s, fastest upward speed of its centre
    rested: bool = False
    path: list[tuple[float, float, float, float]] = field(default_factory=list)  # (t, x, y, height)


def _corner_speed(omega: np.ndarray, a: float) -> np.ndarray:
    """The fastest a die's corner moves about its centre (rad/s spin, row-wise or one die): |w|
    times the half diagonal a sqrt(3)/2."""
    return np.linalg.norm(omega, axis=-1) * a * math.sqrt(3) / 2


@lru_cache(maxsize=8)
def _model(board: BoardSpec, params: PhysicsParams, cfg: ReferenceConfig, n: int) -> Model:
    return build_model(board, params, cfg, tuple(f"d{i}" for i in range(n)))


def _quat_yaw(angle: float) -> np.ndarray:
    return np.array([math.cos(angle / 2), 0.0, 0.0, math.sin(angle / 2)])


def _rotations(q: np.ndarray) -> np.ndarray:
    """(n, 3, 3) rotation matrices of unit quaternions (n, 4) (w, x, y, z)."""
    q = q / np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ],
        1,
    )


class Shot:
    """A reference shot; :meth:`run` steps it."""

    def __init__(
        self,
        board: BoardSpec,
        params: PhysicsParams,
        cfg: ReferenceConfig,
        dice: Sequence[DieStart],
        flick: Flick | None = None,
        path_every: float = 0.0,
    ) -> None:
        self.board, self.params, self.cfg = board, params, cfg
        self.dice = tuple(dice)
        self.flick = flick
        self.path_every = path_every
        self.m = _model(board, params, cfg, len(self.dice))
        self.surface = Surface(board, params.gravity)
        self.mj = mujoco()
        self.data = self.mj.MjData(self.m.model)
        self._mat = np.zeros(9)
        self._place()

    def surface_height(self, x: float, y: float) -> float:
        plat = self.board.platform_at(x, y)
        if plat is not None:
            return plat.height
        return float(self.surface.height(x, y))

    def _place(self) -> None:
        m, d, p = self.m, self.data, self.params
        model = m.model
        for i, s in enumerate(self.dice):
            q0, v0 = m.qpos_adr[i], m.dof_adr[i]
            base = self.surface_height(s.x, s.y)
            quat = np.array(s.quat) if s.quat is not None else _quat_yaw(s.angle)
            rot = _rotations(quat[None, :])[0]
            inner = p.die_size / 2 - p.die_edge_radius
            reach = (
                inner * np.abs(rot[2]).sum() + p.die_edge_radius
            )  # lowest point below the centre
            d.qpos[q0 : q0 + 3] = (s.x, s.y, base + reach + s.lift)
            d.qpos[q0 + 3 : q0 + 7] = quat
            d.qvel[v0 : v0 + 3] = s.vel
            d.qvel[v0 + 3 : v0 + 6] = rot.T @ np.array(s.omega)  # MuJoCo: body frame
        fg = m.finger_geom
        model.geom_contype[fg] = 4 if self.flick is not None else 0
        fq, fd = m.finger_qpos, m.finger_dof
        if self.flick is None:
            d.qpos[fq : fq + 3] = (0.0, 0.0, 10.0)
            d.qpos[fq + 3 : fq + 7] = (1.0, 0.0, 0.0, 0.0)
        else:
            i = [s.id for s in self.dice].index(self.flick.die)
            s = self.dice[i]
            start = finger_start(
                self.flick, s.x, s.y, s.angle, self.surface_height(s.x, s.y), p, self.cfg.finger
            )
            d.qpos[fq : fq + 3] = start.pos
            d.qpos[fq + 3 : fq + 7] = _quat_yaw(start.yaw)
            d.qvel[fd : fd + 3] = start.vel
        self.mj.mj_forward(model, d)

    def _contacts(self) -> Contacts | None:
        """This step's contacts, their levers turned to the bodies' poses now (a spinning die turns
        by up to 0.2 rad in a step)."""
        d, m, p = self.data, self.m, self.params
        k = d.ncon
        if k == 0:
            return None
        con = d.contact
        adr = np.asarray(con.efc_address[:k])
        keep = adr >= 0
        if not keep.any():
            return None
        g1 = np.asarray(con.geom1[:k])[keep]
        g2 = np.asarray(con.geom2[:k])[keep]
        pos = np.asarray(con.pos[:k])[keep]
        normal = np.asarray(con.frame[:k])[keep, :3]
        force = np.asarray(d.efc_force)[adr[keep]]
        nd = len(self.dice)
        o1, o2 = m.geom_owner[g1], m.geom_owner[g2]
        side1 = np.where(o1 >= 0, o1, np.where(o1 == -2, nd, nd + 1))
        side2 = np.where(o2 >= 0, o2, np.where(o2 == -2, nd, nd + 1))
        pre = np.asarray(d.xpos)[m.body_ids]
        rot_pre = np.asarray(d.xmat)[m.body_ids].reshape(-1, 3, 3)
        now = self._centres()
        turn = np.einsum("nij,nkj->nik", self._rot, rot_pre)  # R_now R_pre^T

        def lever(side: np.ndarray) -> np.ndarray:
            out = pos - now[side]
            die = side < nd
            if die.any():
                r = pos[die] - pre[side[die]]
                out[die] = np.einsum("nij,nj->ni", turn[side[die]], r)
            return out

        mu = np.full(len(g1), p.mu_board)
        both = (side1 < nd) & (side2 < nd)
        mu[both] = p.mu_die
        mu[(side1 == nd) | (side2 == nd)] = p.mu_finger
        kinds = np.maximum(m.geom_kind[g1], m.geom_kind[g2])
        torsion = np.where(kinds > FACE, self.cfg.contacts.torsion_radius, 0.0)
        # the stick cap: each contact may stop its share of the die (1/6: the mass a point of a cube
        # feels is at least m / 5.5, its levers counted) within one step, shared among the contacts of
        # its own pair: shared among all of a die's contacts, the 36+ board points that carry its
        # weight cut an impact's few points' friction tenfold (a glancing hit left at 3.6 deg, not
        # the friction angle's 16.7, and a pad barely gripped the face it struck)
        key = np.minimum(side1, side2) * (nd + 2) + np.maximum(side1, side2)
        in_pair = np.bincount(key)[key].astype(float)
        cap = p.die_mass / (6.0 * in_pair)
        inertia = p.die_mass * p.die_size**2 / 6
        return Contacts(
            side1,
            side2,
            lever(side1),
            lever(side2),
            normal,
            force,
            mu,
            torsion,
            cap,
            cap / p.die_mass * inertia,
        )

    def _centres(self) -> np.ndarray:
        """(n dice + finger + board, 3) centres now."""
        d, m = self.data, self.m
        out = np.zeros((len(self.dice) + 2, 3))
        for i in range(len(self.dice)):
            out[i] = d.qpos[m.qpos_adr[i] : m.qpos_adr[i] + 3]
        out[-2] = d.qpos[m.finger_qpos : m.finger_qpos + 3]
        return out

    def _kinematics(self) -> tuple[np.ndarray, np.ndarray]:
        """(vel, omega) (n dice + finger + board, 3), world frame; sets self._rot (dice)."""
        d, m = self.data, self.m
        nd = len(self.dice)
        self._rot = np.empty((nd, 3, 3))
        for i, a in enumerate(m.qpos_adr):
            self.mj.mju_quat2Mat(self._mat, d.qpos[a + 3 : a + 7])
            self._rot[i] = self._mat.reshape(3, 3)
        vel = np.zeros((nd + 2, 3))
        om = np.zeros((nd + 2, 3))
        for i, a in enumerate(m.dof_adr):
            vel[i] = d.qvel[a : a + 3]
            om[i] = self._rot[i] @ d.qvel[a + 3 : a + 6]
        vel[nd] = d.qvel[m.finger_dof : m.finger_dof + 3]
        return vel, om

    def _push(
        self, c: Contacts | None, vel: np.ndarray, om: np.ndarray, h: float, drag: float
    ) -> None:
        """Friction and air drag from the step just taken, applied over the next one (``h`` long:
        each contact's stick cap stops its slip within that step, no sooner)."""
        nd = len(self.dice)
        if c is None:
            force, torque = np.zeros((nd + 2, 3)), np.zeros((nd + 2, 3))
        else:
            force, torque = friction_wrench(c, vel, om, self.cfg.contacts.slip_floor, h)
        speed = np.linalg.norm(vel[:nd], axis=1)
        force[:nd] -= drag * speed[:, None] * vel[:nd]
        self.data.xfrc_applied[self.m.body_ids, :3] = force[:nd]
        self.data.xfrc_applied[self.m.body_ids, 3:] = torque[:nd]

    def _dice_near(
        self, centres: np.ndarray, vel: np.ndarray, om: np.ndarray, in_play: np.ndarray, dt: float
    ) -> bool:
        """Whether two moving dice in play could touch within the next step (then it is sub-stepped:
        a die-die impact lasts ~0.7 ms, and at dt = timeconst / 8 its bounce came out anywhere in
        e 0.55-0.95 for the board file's 0.7, with the contact's phase in the step)."""
        nd = len(self.dice)
        if nd < 2:
            return False
        a = self.params.die_size
        reach = np.linalg.norm(vel[:nd], axis=1) + _corner_speed(om[:nd], a)
        i, j = np.triu_indices(nd, 1)
        live = in_play[i] & in_play[j] & (reach[i] + reach[j] > self.cfg.step.rest_speed)
        gap = np.linalg.norm(centres[i] - centres[j], axis=1) - a * math.sqrt(3)
        return bool(np.any(live & (gap < (reach[i] + reach[j]) * dt)))

    def run(self, max_time: float | None = None) -> dict[str, Track]:
        mj, m, d, p, cfg = self.mj, self.m, self.data, self.params, self.cfg
        model = m.model
        dt = cfg.step.dt
        nd = len(self.dice)
        limit = cfg.step.max_time if max_time is None else max_time
        steps = int(math.ceil(limit / dt))
        tracks = [Track(s.id) for s in self.dice]
        start = [(s.x, s.y) for s in self.dice]
        faces = [s.orientation.as_list() for s in self.dice]
        inner = p.die_size / 2 - p.die_edge_radius
        up = []  # (axis, sign) of the face up per die
        vel, om = self._kinematics()
        for i in range(nd):
            k = int(np.argmax(np.abs(self._rot[i][2])))
            up.append((k, np.sign(self._rot[i][2][k])))
        in_play = np.ones(nd, dtype=bool)
        quiet_since = 0.0
        touched = None if self.flick is not None else -1.0  # last time the finger touched a die
        released = self.flick is None
        next_path = 0.0
        heights = [0.0] * nd  # each die's lowest point above the board now (m)
        t = 0.0
        drag = p.air_drag * p.die_mass
        subs = cfg.step.impact_substeps
        # the finger's push is an impact: resolved from the first step, as are dice set moving close
        fine = not released or self._dice_near(self._centres(), vel, om, in_play, dt)
        impact_until = t + cfg.step.impact_hold * cfg.contacts.timeconst if fine else -math.inf
        c = None
        for n in range(1, steps + 1):
            parts = subs if fine else 1
            model.opt.timestep = dt / parts
            for j in range(parts):
                if j > 0:
                    self._push(c, vel, om, dt / parts, drag)
                mj.mj_step(model, d)
                vel, om = self._kinematics()
                c = self._contacts()
                if not released and c is not None and np.any((c.side1 == nd) | (c.side2 == nd)):
                    touched = (n - 1) * dt + (j + 1) * dt / parts
            t = n * dt
            if not released and touched is not None and t - touched >= cfg.finger.release:
                # withdraw the finger: it must not catch up with a die that friction slows
                model.geom_contype[m.finger_geom] = 0
                d.qvel[m.finger_dof : m.finger_dof + 6] = 0.0
                d.qpos[m.finger_qpos : m.finger_qpos + 3] = (0.0, 0.0, 10.0)
                released = True
            centres = self._centres()
            moving = False
            landing = False
            for i in range(nd):
                if not in_play[i]:
                    continue
                tr = tracks[i]
                x, y, z = centres[i]
                rot = self._rot[i]
                h = self.surface_height(x, y) if self.board.on_board(x, y) else -math.inf
                if z < -p.die_size or (h == -math.inf and z < 0):
                    in_play[i] = False
                    tr.status = "in_hole" if self.board.in_hole(x, y) else "off_board"
                    tr.stop_time = t
                    continue
                low = z - (inner * np.abs(rot[2]).sum() + p.die_edge_radius)
                heights[i] = low - h if h > -math.inf else 0.0
                tr.rise = max(tr.rise, heights[i])
                # a die falling onto (or bouncing off) the board within the next step: an impact
                fall = abs(vel[i, 2]) + _corner_speed(om[i], p.die_size)
                if abs(vel[i, 2]) > cfg.step.impact_speed and low - h < fall * dt:
                    landing = True
                tr.max_vz = max(tr.max_vz, float(vel[i, 2]))
                hs = math.hypot(vel[i, 0], vel[i, 1])
                if hs > tr.peak_speed:
                    tr.peak_speed = hs
                    tr.peak_direction = math.atan2(vel[i, 1], vel[i, 0])
                k = int(np.argmax(np.abs(rot[2])))
                if abs(rot[2][k]) > _FACE_UP:
                    now = (k, np.sign(rot[2][k]))
                    if now != up[i]:
                        tr.quarter_turns += 2 if now[0] == up[i][0] else 1
                        up[i] = now
                # at rest: still along the board and in spin; up and down, slower than a landing (a
                # die resting on the soft contacts can keep a micron-deep vertical limit cycle of a
                # few mm/s, and a bouncing die is faster than impact_speed most of its bounce)
                if (
                    hs >= cfg.step.rest_speed
                    or abs(vel[i, 2]) >= cfg.step.impact_speed
                    or np.linalg.norm(om[i]) >= cfg.step.rest_spin
                ):
                    tr.stop_time = t
                    moving = True
            if self.path_every and t >= next_path:
                next_path = t + self.path_every
                for i in range(nd):
                    if in_play[i]:
                        tr = tracks[i]
                        tr.path.append((t, centres[i][0], centres[i][1], heights[i]))
            if moving or not released:
                quiet_since = t
            elif t - quiet_since >= cfg.step.rest_hold:
                break
            if landing or self._dice_near(centres, vel, om, in_play, dt):
                # an impact's whole contact is sub-stepped: its die slows through vz = 0 mid-contact,
                # and stepped at dt from there the stiff contact bounced 0.55 for the board's 0.3
                impact_until = t + cfg.step.impact_hold * cfg.contacts.timeconst
            fine = not released or t < impact_until
            self._push(c, vel, om, dt / (subs if fine else 1), drag)
        centres = self._centres()
        for i, tr in enumerate(tracks):
            x, y = centres[i][0], centres[i][1]
            tr.x, tr.y = float(x), float(y)
            tr.distance = math.hypot(x - start[i][0], y - start[i][1])
            tr.face = face_up(self._rot[i], tuple(faces[i]))[0]
            tr.rested = bool(in_play[i]) and t - quiet_since >= cfg.step.rest_hold
        return {tr.id: tr for tr in tracks}
