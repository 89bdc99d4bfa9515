"""The MuJoCo model of one board, its dice and the finger (MJCF text, then compiled).

Contacts are frictionless in MuJoCo (condim 1): :mod:`.friction` applies Coulomb friction by hand.
Three families of geoms, kept apart by contype/conaffinity bits: the die's contact points touch
the board; the die's box touches other dice and the finger.  Each contact is a soft spring-damper
with the settings' time constant and the damping ratio that gives the board file's restitution of
that pair (a linear oscillator's e = exp(-zeta pi / sqrt(1 - zeta^2))).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..extras import require
from ..physics.board import BoardSpec
from ..physics.params import PhysicsParams
from ..physics.surface import Surface
from .config import ReferenceConfig
from .geometry import ContactPoints, die_points

# contype / conaffinity bits
_BOARD, _DIE, _FINGER = 1, 2, 4
NEEDED_BY = "'jamsumo validate'"


def separation_restitution(zeta: float) -> float:
    """Bounce of a linear spring-damper (damping ratio ``zeta`` < 1/sqrt 2) that lets go when its
    force reaches zero, as a contact that cannot pull does, not when it is back at its rest length:
    exp(-zeta w0 t) at the separation time t, where tan(wd t) = -2 zeta wd / (1 - 2 zeta^2) (the
    speed there is exactly that factor of the impact speed; zeta < 1).  Higher than exp(-zeta pi /
    sqrt(1 - zeta^2)): 0.47 against 0.40 at zeta 0.28, and 0.135 at critical damping."""
    wd = math.sqrt(1.0 - zeta * zeta)
    t = (math.pi - math.atan2(2.0 * zeta * wd, 1.0 - 2.0 * zeta * zeta)) / wd
    return math.exp(-zeta * t)


def damping_ratio(restitution: float) -> float:
    """Damping ratio of a contact spring-damper that lets go at zero force, whose bounce has this
    restitution (bisection on :func:`separation_restitution`, which falls with zeta); critical
    damping for a restitution below its 0.135."""
    e = min(restitution, 1.0 - 1e-9)
    lo, hi = 0.0, 1.0 - 1e-9
    if separation_restitution(hi) >= e:
        return 1.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if separation_restitution(mid) > e:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def mujoco():  # noqa: ANN201 - the mujoco module
    return require("mujoco", "reference", NEEDED_BY)


@dataclass
class Model:
    """A compiled model and the ids the run needs."""

    model: object  # mujoco.MjModel
    dice: tuple[str, ...]
    body_ids: np.ndarray  # MuJoCo body id per die
    qpos_adr: np.ndarray  # first qpos index of each die's free joint
    dof_adr: np.ndarray  # first qvel index
    finger_body: int
    finger_geom: int
    finger_qpos: int
    finger_dof: int
    points: ContactPoints
    # per geom: body index (0.. dice-1, -1 board, -2 finger), and its contact-point kind (-1: none)
    geom_owner: np.ndarray
    geom_kind: np.ndarray
    board_flat: bool


def _flat(board: BoardSpec) -> bool:
    return board.hole_diameter == 0 and board.dish_depth == 0 and not board.platforms


def _board_xml(board: BoardSpec, cfg: ReferenceConfig, solref: str) -> tuple[str, str]:
    """(asset xml, geom xml) of the board: a slab for a flat board, else a height field."""
    half = board.side / 2
    common = f'contype="{_BOARD}" conaffinity="0" condim="1" priority="1" solref="{solref}"'
    if _flat(board):
        s = cfg.board.slab / 2
        geom = f'<geom name="board" type="box" size="{half} {half} {s}" pos="0 0 {-s}" {common}/>'
        return "", geom
    n = int(round(board.side / cfg.board.hfield_cell)) + 1
    top = max([p.height for p in board.platforms] + [0.0])
    depth = cfg.board.hfield_depth
    asset = f'<hfield name="board" nrow="{n}" ncol="{n}" size="{half} {half} {depth + top} {depth / 2}"/>'
    geom = f'<geom name="board" type="hfield" hfield="board" pos="0 0 {-depth}" {common}/>'
    return asset, geom


def board_heights(board: BoardSpec, params: PhysicsParams, cfg: ReferenceConfig) -> np.ndarray:
    """Surface height (m) on the height field's grid (rows along y): dish, platforms; the hole and
    (nothing beyond the edge: the field ends there) at -hfield_depth."""
    n = int(round(board.side / cfg.board.hfield_cell)) + 1
    xs = np.linspace(-board.side / 2, board.side / 2, n)
    x, y = np.meshgrid(xs, xs)  # row i: y = xs[i]
    h = np.asarray(Surface(board, params.gravity).height(x, y), dtype=float)
    for p in board.platforms:
        x0, y0, x1, y1 = p.bounds
        h[(x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)] = p.height
    if board.hole_diameter > 0:
        h[np.hypot(x, y) < board.hole_radius] = -cfg.board.hfield_depth
    return h


def _die_xml(i: int, pts: ContactPoints, p: PhysicsParams, cfg: ReferenceConfig, sol: str) -> str:
    h = p.die_size / 2
    rho = cfg.contacts.point_radius
    inertia = p.die_mass * p.die_size**2 / 6
    lines = [
        f'<body name="die{i}" pos="{3 * i * p.die_size} 0 {h}">',
        "<freejoint/>",
        f'<inertial pos="0 0 0" mass="{p.die_mass}" diaginertia="{inertia} {inertia} {inertia}"/>',
        f'<geom name="box{i}" type="box" size="{h} {h} {h}" contype="{_DIE}" '
        f'conaffinity="{_DIE | _FINGER}" condim="1" solref="{sol}" mass="0"/>',
    ]
    for k, (q, n) in enumerate(zip(pts.points, pts.normals, strict=True)):
        c = q - rho * n  # the sphere's surface touches the die's surface at q
        lines.append(
            f'<geom name="p{i}_{k}" type="sphere" size="{rho}" pos="{c[0]:.7g} {c[1]:.7g} {c[2]:.7g}" '
            f'contype="0" conaffinity="{_BOARD}" condim="1" mass="0" group="3"/>'
        )
    lines.append("</body>")
    return "\n".join(lines)


def _finger_xml(p: PhysicsParams, cfg: ReferenceConfig) -> str:
    f = cfg.finger
    # the finger's own give, softer than the board's and the dice's (a fingertip behind the nail)
    sol = f"{f.contact_time} {damping_ratio(p.finger_restitution)}"
    if f.shape == "pad":  # the board file's finger (a nail: its edge's thickness)
        height = max(p.finger_pad_height, f.nail_thickness)
        shape = f'type="box" size="{f.pad_thickness / 2} {p.finger_pad_width / 2} {height / 2}"'
    else:
        shape = f'type="sphere" size="{f.point_radius}"'
    big = cfg.contacts.finger_mass  # a large inertia: the finger does not turn
    return (
        f'<body name="finger" pos="0 0 1" gravcomp="1"><freejoint/>'
        f'<inertial pos="0 0 0" mass="{cfg.contacts.finger_mass}" diaginertia="{big} {big} {big}"/>'
        f'<geom name="finger" {shape} contype="{_FINGER}" conaffinity="0" condim="1" '
        f'priority="2" solref="{sol}" mass="0"/></body>'
    )


def model_xml(board: BoardSpec, params: PhysicsParams, cfg: ReferenceConfig, n_dice: int) -> str:
    p = params
    c = cfg.contacts
    pts = die_points(p.die_size, p.die_edge_radius, c.grid, c.edge_points, c.edge_angles)
    board_sol = f"{c.timeconst} {damping_ratio(p.restitution_landing)}"
    die_sol = f"{c.timeconst} {damping_ratio(p.restitution)}"
    asset, board_geom = _board_xml(board, cfg, board_sol)
    imp = f"{c.impedance} {c.impedance} 0.001"
    dice = "\n".join(_die_xml(i, pts, p, cfg, die_sol) for i in range(n_dice))
    return f"""<mujoco model="jamsumo-reference">
<compiler angle="radian" autolimits="true"/>
<option timestep="{cfg.step.dt}" gravity="0 0 {-p.gravity}" cone="pyramidal">
<flag frictionloss="disable"/>
</option>
<default><geom solimp="{imp}" friction="0 0 0"/></default>
<asset>{asset}</asset>
<worldbody>
{board_geom}
{dice}
{_finger_xml(p, cfg)}
</worldbody>
</mujoco>"""


def build_model(
    board: BoardSpec, params: PhysicsParams, cfg: ReferenceConfig, dice: tuple[str, ...]
) -> Model:
    """Compile the model for these dice (each starts anywhere: :mod:`.run` places them)."""
    mj = mujoco()
    xml = model_xml(board, params, cfg, len(dice))
    m = mj.MjModel.from_xml_string(xml)
    if not _flat(board):
        h = board_heights(board, params, cfg)
        depth = cfg.board.hfield_depth
        top = float(m.hfield_size[0][2])
        m.hfield_data[:] = ((h + depth) / top).ravel()
    c = cfg.contacts
    pts = die_points(params.die_size, params.die_edge_radius, c.grid, c.edge_points, c.edge_angles)
    body_ids = np.array(
        [mj.mj_name2id(m, mj.mjtObj.mjOBJ_BODY, f"die{i}") for i in range(len(dice))]
    )
    finger_body = mj.mj_name2id(m, mj.mjtObj.mjOBJ_BODY, "finger")
    finger_geom = mj.mj_name2id(m, mj.mjtObj.mjOBJ_GEOM, "finger")
    owner = np.full(m.ngeom, -1, dtype=np.int64)
    kind = np.full(m.ngeom, -1, dtype=np.int64)
    for i, b in enumerate(body_ids):
        owner[m.geom_bodyid == b] = i
        first = mj.mj_name2id(m, mj.mjtObj.mjOBJ_GEOM, f"p{i}_0")
        kind[first : first + len(pts.kinds)] = pts.kinds
    owner[finger_geom] = -2
    jnt = [int(m.body_jntadr[b]) for b in body_ids]
    fj = int(m.body_jntadr[finger_body])
    return Model(
        model=m,
        dice=tuple(dice),
        body_ids=body_ids,
        qpos_adr=np.array([m.jnt_qposadr[j] for j in jnt], dtype=np.int64),
        dof_adr=np.array([m.jnt_dofadr[j] for j in jnt], dtype=np.int64),
        finger_body=finger_body,
        finger_geom=finger_geom,
        finger_qpos=int(m.jnt_qposadr[fj]),
        finger_dof=int(m.jnt_dofadr[fj]),
        points=pts,
        geom_owner=owner,
        geom_kind=kind,
        board_flat=_flat(board),
    )
