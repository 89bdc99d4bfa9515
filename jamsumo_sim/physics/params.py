"""Physical and numerical parameters of the model (friction, restitution, die, time step, ...).

Defaults come from the board file's ``[params]`` table; a params file (TOML, written by
:func:`.params_file.dump_params`, e.g. by calibration) overrides them by name.  SI units throughout.

Every parameter has a sane range (:data:`RANGES`, the one place they are stated; docs/limits.md
shows :func:`ranges_markdown`'s table and a test keeps the two equal), checked whenever a
:class:`PhysicsParams` is made: from a board, a params file, a scenario or a record.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..errors import UserError
from ..limits import as_finite

PARAMS_VERSION = 1

# Longest collision step a pair at risk of contact may take (dt / collision_substeps): a die at the
# launch-speed cap moves at most 5 mm < a/3 in it.  The swept count (physics/evolve.py) adds collision
# steps for fast or spinning pairs; a step with no pair at risk takes one collision step of dt.
MAX_COLLISION_STEP = 0.001


@dataclass(frozen=True)
class Range:
    """The sane range of one parameter (both ends included) and why it ends there."""

    low: float
    high: float
    unit: str
    why: str
    integer: bool = False

    def text(self) -> str:
        unit = f" {self.unit}" if self.unit != "-" else ""
        return f"from {self.low:g} to {self.high:g}{unit}"


# The sane range of every parameter, in PhysicsParams' field order.  Wide enough for any real die
# and board and for the tests' and calibration's settings; narrow enough that no value hangs a
# command (dt, the per-step sample counts) or leaves the model's assumptions (speeds, fractions).
RANGES: dict[str, Range] = {
    "gravity": Range(0.1, 50.0, "m/s^2", "a tilt or another planet, not zero-g"),
    "die_size": Range(0.005, 0.05, "m", "5-50 mm dice"),
    "die_mass": Range(0.0005, 0.1, "kg", "0.5-100 g dice"),
    "die_edge_radius": Range(0.0, 0.01, "m", "and less than die_size / 2"),
    "mu_board": Range(0.0, 2.0, "-", "friction coefficients of real materials"),
    "mu_static": Range(0.0, 2.0, "-", "and at least mu_board"),
    "mu_die": Range(0.0, 2.0, "-", "friction coefficients of real materials"),
    "restitution": Range(0.0, 1.0, "-", "a bounce never adds energy"),
    "mu_wood": Range(0.0, 2.0, "-", "friction coefficients of real materials"),
    "restitution_wood": Range(0.0, 1.0, "-", "a bounce never adds energy"),
    "air_drag": Range(0.0, 1.0, "1/m", "0 = no air; rho C_d a^2 / (2 m) of real dice in air"),
    "patch_fraction": Range(0.1, 1.0, "-", "the patch lies under the die's face"),
    "patch_quadrature": Range(1, 16, "-", "N x N points per die per step", integer=True),
    "hole_catch_fraction": Range(0.0, 1.0, "-", "a fraction of the die's height"),
    "tumble_energy_retained": Range(0.0, 1.0, "-", "a tumble never adds energy"),
    "mu_pitch": Range(0.0, 2.0, "-", "friction coefficients of real materials"),
    "mu_landing": Range(0.0, 2.0, "-", "real friction; from 0.6 a pure pitch lands without slip"),
    "restitution_landing": Range(0.0, 1.0, "-", "a bounce never adds energy"),
    "hop_min_speed": Range(0.0, 1.0, "m/s", "a rebound slower than this stays on the surface"),
    "hop_lift": Range(0.0, 1.0, "-", "a fraction of the centre's rise when the edge lifts off"),
    "hop_speed": Range(0.1, 10.0, "m/s", "closing speeds of real die-die contacts"),
    "hop_edge_chance": Range(0.0, 1.0, "-", "a probability"),
    "hop_edge_lift": Range(0.0, 1.0, "-", "a fraction of the struck die's speed"),
    "finger_width": Range(0.002, 0.05, "m", "a fingertip"),
    "finger_depth": Range(0.002, 0.1, "m", "a fingertip"),
    "finger_pad_width": Range(0.002, 0.05, "m", "a fingertip's contact pad"),
    "finger_pad_height": Range(0.0, 0.016, "m", "a nail's edge (0) to a pad as tall as the die"),
    "mu_finger": Range(0.0, 2.0, "-", "friction coefficients of real materials"),
    "finger_restitution": Range(0.0, 1.0, "-", "a bounce never adds energy"),
    "max_launch_speed": Range(0.1, 5.0, "m/s", "the collision step is safe up to 5 m/s"),
    "dt": Range(0.0001, 0.01, "s", "smaller steps make a 20 s shot take hours"),
    "solver_iterations": Range(1, 100, "-", "contact solver work per collision step", integer=True),
    "collision_slop": Range(1e-6, 0.001, "m", "an overlap far below a die's size"),
    "rest_speed": Range(1e-7, 0.01, "m/s", "slower than any sliding die"),
    "rest_spin": Range(1e-6, 1.0, "rad/s", "slower than any spinning die"),
    "support_samples": Range(2, 25, "-", "N x N points per die at the hole", integer=True),
    "collision_substeps": Range(1, 20, "-", "and dt / collision_substeps <= 1 ms", integer=True),
    "overlap_correction": Range(0.0, 1.0, "-", "a fraction of the overlap"),
    "refine": Range(1, 16, "-", "1 = the game's step; 4 = the converged reference", integer=True),
}

# Parameters a board file may leave out (boards and records written before they existed).
OPTIONAL_DEFAULTS: dict[str, int | float] = {"refine": 1}


def check_range(name: str, value: Any) -> None:
    """A one-line UserError unless ``value`` is a number within ``RANGES[name]``."""
    r = RANGES[name]
    if as_finite(value) is None:
        raise UserError(f"parameter {name} must be a finite number, got {_short(value)}")
    if r.integer and not isinstance(value, int):
        raise UserError(f"parameter {name} must be a whole number, got {_short(value)}")
    if not r.low <= value <= r.high:
        raise UserError(f"parameter {name} must be {r.text()}, got {_short(value)}")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else text[:27] + "..."


def ranges_markdown() -> str:
    """The table of parameter ranges that docs/limits.md shows (a test keeps them equal)."""
    rows = ["| parameter | unit | lowest | highest | why |", "|---|---|---|---|---|"]
    for name, r in RANGES.items():
        kind = ", whole number" if r.integer else ""
        rows.append(f"| `{name}` | {r.unit}{kind} | {r.low:g} | {r.high:g} | {r.why} |")
    return "\n".join(rows)


@dataclass(frozen=True)
class PhysicsParams:
    """All parameters of the physics model; see ``assets/boards/standard.toml`` for each one's basis."""

    gravity: float
    die_size: float
    die_mass: float
    die_edge_radius: float
    mu_board: float
    mu_static: float
    mu_die: float
    restitution: float
    mu_wood: float
    restitution_wood: float
    air_drag: float
    patch_fraction: float
    patch_quadrature: int
    hole_catch_fraction: float
    tumble_energy_retained: float
    mu_pitch: float
    mu_landing: float
    restitution_landing: float
    hop_min_speed: float
    hop_lift: float
    hop_speed: float
    hop_edge_chance: float
    hop_edge_lift: float
    finger_width: float
    finger_depth: float
    finger_pad_width: float
    finger_pad_height: float
    mu_finger: float
    finger_restitution: float
    max_launch_speed: float
    dt: float
    solver_iterations: int
    collision_slop: float
    rest_speed: float
    rest_spin: float
    support_samples: int
    collision_substeps: int
    overlap_correction: float
    # Resolution: the model step, the longest collision step, the swept distance and the pitch
    # substep angle are divided by ``refine``; thresholds counted in model steps scale with it
    # (docs/physics.md "Resolution").  4 is the converged reference.
    refine: int = 1

    def __post_init__(self) -> None:
        for f in fields(self):
            check_range(f.name, getattr(self, f.name))
        if self.mu_static < self.mu_board:
            raise UserError(
                f"parameter mu_static ({self.mu_static}) must be >= mu_board ({self.mu_board})"
            )
        if 2 * self.die_edge_radius >= self.die_size:
            raise UserError("parameter die_edge_radius must be less than half of die_size")
        if self.dt / self.collision_substeps > MAX_COLLISION_STEP:
            raise UserError(
                f"parameter dt / collision_substeps must be <= {MAX_COLLISION_STEP:g} s "
                f"(no tunnelling at {RANGES['max_launch_speed'].high:g} m/s), "
                f"got {self.dt!r} / {self.collision_substeps!r}"
            )

    # --- derived quantities ---
    @property
    def step(self) -> float:
        """The model step (s) the World takes: ``dt / refine``."""
        return self.dt / self.refine

    @property
    def die_inertia(self) -> float:
        """Moment of inertia of a cube about its vertical axis, m a^2/6 [derived]."""
        return self.die_mass * self.die_size**2 / 6

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> PhysicsParams:
        """A copy with some parameters replaced; unknown names are a one-line UserError."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise UserError("params must be a table of name = number")
        known = set(self.names())
        for k in overrides:
            if k not in known:
                raise UserError(f"unknown parameter {k!r} (known: {', '.join(sorted(known))})")
        clean = {}
        for k, v in overrides.items():
            clean[k] = _coerce(k, v)
        return replace(self, **clean)

    @classmethod
    def from_board(cls, board) -> PhysicsParams:
        """Defaults from a :class:`~jamsumo_sim.physics.board.BoardSpec`'s ``[params]`` table."""
        raw = {**OPTIONAL_DEFAULTS, **board.param_defaults()}
        missing = [n for n in cls.names() if n not in raw]
        if missing:
            raise UserError(f"board {board.name!r} lacks parameter {missing[0]!r}")
        try:
            return cls(**{n: _coerce(n, raw[n]) for n in cls.names()})
        except UserError as exc:
            raise UserError(f"board {board.name!r}: {exc}") from None


def _coerce(name: str, v: Any) -> float | int:
    """``v`` as the parameter's type: whole-number parameters take 6 or 6.0, not 6.5 or 1e300."""
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise UserError(f"parameter {name} must be a number, got {_short(v)}")
    if isinstance(v, int) and abs(v) > 2**53:  # float() of a huge int overflows or rounds
        raise UserError(f"parameter {name} must be {RANGES[name].text()}, got {_short(v)}")
    if not math.isfinite(v):
        raise UserError(f"parameter {name} must be a finite number, got {_short(v)}")
    if RANGES[name].integer:
        if not float(v).is_integer():
            raise UserError(f"parameter {name} must be a whole number, got {_short(v)}")
        return int(v)
    return float(v)
