"""The other fingers `jamsumo validate --finger NAME` compares (assets/fingers.toml): each a
reference shape and the board file's finger parameters it replaces, in both models."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UserError
from ..fileio import parse_toml
from ..physics.params import PhysicsParams
from ..reference.config import SHAPES, ReferenceConfig
from ..resources import read_asset_text

VERSION = 1
# what a finger may set: the board file's finger, nothing else
FINGER_PARAMS = ("finger_pad_width", "finger_pad_height", "mu_finger")


@dataclass(frozen=True)
class Finger:
    name: str
    shape: str  # the reference's geometry (reference.config.SHAPES)
    params: dict[str, float]  # the board file's finger parameters it replaces

    def apply(
        self, params: PhysicsParams, cfg: ReferenceConfig
    ) -> tuple[PhysicsParams, ReferenceConfig]:
        return params.with_overrides(self.params), cfg.with_finger(self.shape)


def load_fingers(text: str | None = None) -> dict[str, Finger]:
    """The fingers in ``text`` (TOML) or the packaged assets/fingers.toml, checked: one-line
    UserErrors for a wrong version, shape, unknown or missing parameter."""
    raw = parse_toml(text if text is not None else read_asset_text("fingers.toml"), "fingers.toml")
    if raw.get("version") != VERSION:
        raise UserError(f"fingers.toml: version must be {VERSION}, got {raw.get('version')!r}")
    out = {}
    for name, table in raw.items():
        if name == "version":
            continue
        out[name] = _finger(name, table)
    return out


def _finger(name: str, table: Any) -> Finger:
    if not isinstance(table, dict):
        raise UserError(f"fingers.toml: [{name}] must be a table")
    shape = table.get("shape")
    if shape not in SHAPES:
        raise UserError(
            f"fingers.toml [{name}]: shape must be one of {', '.join(SHAPES)}, got {shape!r}"
        )
    params = {}
    for key in FINGER_PARAMS:
        v = table.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise UserError(f"fingers.toml [{name}]: {key} must be a number, got {v!r}")
        params[key] = float(v)
    unknown = set(table) - {"shape", *FINGER_PARAMS}
    if unknown:
        raise UserError(f"fingers.toml [{name}]: unknown field {sorted(unknown)[0]!r}")
    return Finger(name, str(shape), params)
