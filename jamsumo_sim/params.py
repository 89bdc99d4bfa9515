"""Physical and numerical parameters of the model (friction, restitution, die, time step, ...).

Defaults come from the board file's ``[params]`` table; a params file (TOML, written by
:func:`dump_params`, e.g. by calibration) overrides them by name.  SI units throughout.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from .errors import UserError

PARAMS_VERSION = 1


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
    patch_fraction: float
    patch_quadrature: int
    hole_catch_fraction: float
    tumble_energy_retained: float
    finger_width: float
    finger_depth: float
    max_launch_speed: float
    dt: float
    solver_iterations: int
    collision_slop: float
    rest_speed: float
    rest_spin: float
    support_samples: int
    collision_substeps: int
    overlap_correction: float

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise UserError(f"parameter {f.name} must be a finite number, got {v!r}")
        positive = [
            "gravity",
            "die_size",
            "die_mass",
            "patch_fraction",
            "patch_quadrature",
            "finger_width",
            "finger_depth",
            "max_launch_speed",
            "dt",
            "solver_iterations",
            "collision_slop",
            "rest_speed",
            "rest_spin",
            "support_samples",
            "collision_substeps",
        ]
        for name in positive:
            if getattr(self, name) <= 0:
                raise UserError(f"parameter {name} must be > 0, got {getattr(self, name)!r}")
        for name in ("mu_board", "mu_static", "mu_die", "mu_wood", "die_edge_radius"):
            if getattr(self, name) < 0:
                raise UserError(f"parameter {name} must be >= 0, got {getattr(self, name)!r}")
        for name in (
            "restitution",
            "restitution_wood",
            "hole_catch_fraction",
            "tumble_energy_retained",
        ):
            if not 0 <= getattr(self, name) <= 1:
                raise UserError(f"parameter {name} must be in [0, 1], got {getattr(self, name)!r}")
        if self.mu_static < self.mu_board:
            raise UserError(
                f"parameter mu_static ({self.mu_static}) must be >= mu_board ({self.mu_board})"
            )
        if self.patch_fraction > 1:
            raise UserError(f"parameter patch_fraction must be <= 1, got {self.patch_fraction!r}")
        if 2 * self.die_edge_radius >= self.die_size:
            raise UserError("parameter die_edge_radius must be less than half of die_size")
        if self.dt / self.collision_substeps > 0.001:
            raise UserError(
                f"parameter dt / collision_substeps must be <= 0.001 s (no tunnelling at 5 m/s), "
                f"got {self.dt!r} / {self.collision_substeps!r}"
            )

    # --- derived quantities ---
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
        """Defaults from a :class:`~jamsumo_sim.board.BoardSpec`'s ``[params]`` table."""
        raw = board.param_defaults()
        missing = [n for n in cls.names() if n not in raw]
        if missing:
            raise UserError(f"board {board.name!r} lacks parameter {missing[0]!r}")
        return cls(**{n: _coerce(n, raw[n]) for n in cls.names()})


_INT_PARAMS = {"patch_quadrature", "solver_iterations", "support_samples", "collision_substeps"}


def _coerce(name: str, v: Any) -> float | int:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise UserError(f"parameter {name} must be a number, got {v!r}")
    if name in _INT_PARAMS:
        if float(v) != int(v):
            raise UserError(f"parameter {name} must be an integer, got {v!r}")
        return int(v)
    return float(v)


def default_params(board=None) -> PhysicsParams:
    """The standard board's parameters (or ``board``'s)."""
    if board is None:
        from .board import load_board

        board = load_board("standard")
    return PhysicsParams.from_board(board)


def load_params(path: str | Path, base: PhysicsParams | None = None) -> PhysicsParams:
    """Read a params TOML file: ``version = 1`` plus a ``[params]`` table (or top-level numbers).

    Parameters not in the file keep ``base``'s (default: the standard board's) values.  An optional
    ``[stamp]`` table (provenance: who fitted it, when, from which data) is ignored here.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read params file {p}: {exc.strerror or exc}") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"params file {p} is not valid TOML: {exc}") from None
    version = raw.get("version")
    if version != PARAMS_VERSION:
        raise UserError(
            f"params file {p}: unsupported or missing version {version!r} (expected {PARAMS_VERSION})"
        )
    table = raw.get("params")
    if table is None:
        table = {k: v for k, v in raw.items() if k not in ("version", "stamp")}
    elif not isinstance(table, dict):
        raise UserError(f"params file {p}: params must be a table")
    base = base or default_params()
    try:
        return base.with_overrides(table)
    except UserError as exc:
        raise UserError(f"params file {p}: {exc}") from None


def dump_params(
    params: PhysicsParams, path: str | Path, stamp: Mapping[str, Any] | None = None
) -> None:
    """Write ``params`` as a params TOML file (``version``, ``[stamp]``, ``[params]``)."""
    lines = [
        "# jamsumo physics parameters (SI units); read with jamsumo_sim.params.load_params",
        f"version = {PARAMS_VERSION}",
        "",
    ]
    if stamp:
        lines.append("[stamp]")
        for k, v in stamp.items():
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
        lines.append("")
    lines.append("[params]")
    for k, v in params.to_dict().items():
        lines.append(f"{k} = {_toml_value(v)}")
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _toml_key(k: Any) -> str:
    k = str(k)
    if k and all(c.isalnum() or c in "-_" for c in k):
        return k
    return _toml_string(k)


def _toml_string(s: str) -> str:
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _toml_value(v: Any) -> str:
    """A TOML scalar (or flat array of scalars) that reads back to exactly ``v``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        r = repr(v)  # shortest repr round-trips exactly; TOML needs a '.' or exponent
        return r if any(c in r for c in ".en") else r + ".0"
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise UserError(f"cannot write {type(v).__name__} value {v!r} to a params file")
