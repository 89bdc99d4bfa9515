"""The reference's numerical settings, read from assets/reference.toml (no literals in code)."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import UserError
from ..fileio import parse_toml
from ..limits import as_finite
from ..resources import read_asset_text

SHAPES = ("pad", "point")


@dataclass(frozen=True)
class StepConfig:
    dt: float
    max_time: float
    rest_speed: float
    rest_spin: float
    rest_hold: float
    impact_substeps: int
    impact_speed: float
    impact_hold: float


@dataclass(frozen=True)
class ContactConfig:
    grid: int
    edge_points: int
    edge_angles: int
    point_radius: float
    timeconst: float
    impedance: float
    slip_floor: float
    torsion_radius: float
    finger_mass: float


@dataclass(frozen=True)
class FingerConfig:
    shape: str
    contact_time: float
    nail_thickness: float
    pad_thickness: float
    point_radius: float
    gap: float
    release: float


@dataclass(frozen=True)
class BoardConfig:
    hfield_cell: float
    hfield_depth: float
    slab: float


@dataclass(frozen=True)
class ReferenceConfig:
    step: StepConfig
    contacts: ContactConfig
    finger: FingerConfig
    board: BoardConfig

    def with_dt(self, dt: float) -> ReferenceConfig:
        return replace(self, step=replace(self.step, dt=float(dt)))

    def with_stiffer_contacts(self, factor: float) -> ReferenceConfig:
        """The board's and the dice's contacts ``factor`` times stiffer in time (their time constant
        over ``factor``) and stepped as much finer, so each stays resolved by as many steps; the
        finger's give (``finger.contact_time``, a property of the finger) kept: the rigid contacts
        the game's impulses stand for are where the shots stop changing with ``factor``."""
        f = float(factor)
        return replace(
            self,
            step=replace(self.step, dt=self.step.dt / f),
            contacts=replace(self.contacts, timeconst=self.contacts.timeconst / f),
        )

    def with_finger(self, shape: str) -> ReferenceConfig:
        if shape not in SHAPES:
            raise UserError(f"finger shape must be one of {', '.join(SHAPES)}, got {shape!r}")
        return replace(self, finger=replace(self.finger, shape=shape))


def _table(raw: dict[str, Any], name: str, cls: type) -> Any:
    table = raw.get(name)
    if not isinstance(table, dict):
        raise UserError(f"reference.toml lacks the [{name}] table")
    vals = {}
    for f in fields(cls):
        if f.name not in table:
            raise UserError(f"reference.toml [{name}] lacks {f.name!r}")
        v = table[f.name]
        if f.type == "str":
            vals[f.name] = str(v)
            continue
        num = as_finite(v)
        if num is None or num <= 0 or (f.type == "int" and num != int(num)):
            kind = "a positive integer" if f.type == "int" else "a positive number"
            raise UserError(f"reference.toml [{name}] {f.name} must be {kind}, got {repr(v)[:30]}")
        vals[f.name] = int(num) if f.type == "int" else float(num)
    return cls(**vals)


def load_config(text: str | None = None) -> ReferenceConfig:
    """The settings from ``text`` (TOML) or the packaged assets/reference.toml."""
    raw = parse_toml(text if text is not None else read_asset_text("reference.toml"), "reference")
    cfg = ReferenceConfig(
        step=_table(raw, "step", StepConfig),
        contacts=_table(raw, "contacts", ContactConfig),
        finger=_table(raw, "finger", FingerConfig),
        board=_table(raw, "board", BoardConfig),
    )
    return cfg.with_finger(cfg.finger.shape)
