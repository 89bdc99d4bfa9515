"""The sweep spec, a public contract (version 1; TOML or JSON with the same keys)::

    {"version": 1, "board": "standard", "mode": "jam",
     "die": {"x": 0.0, "y": -0.18, "angle": 0.0, "face": 4},
     "dice": [],                                     # other dice, as in `jamsumo sim`
     "aim": {"from": 1.2, "to": 1.95, "steps": 16},  # flick direction, rad
     "speed": {"from": 0.5, "to": 3.0, "steps": 11}, # finger speed, m/s
     "offset": 0.0, "height": 0.5,                   # a number or a {from, to, steps} range
     "repeats": 16, "noise": "table", "seed": 1,
     "max_time": 20.0, "description": "..."}         # optional

Cells are the grid in order aim, speed, offset, height (the last varies fastest).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UserError
from ..fileio import parse_json, parse_toml, read_text
from ..limits import as_finite, check_seed, shown

SPEC_VERSION = 1
MODES = ("jam", "sumo")
SHOOTER_ID = "shooter"  # the flicked die's id in the World (other dice may not use it)
_TOP_KEYS = {
    "version", "board", "mode", "die", "dice", "aim", "speed", "offset", "height", "repeats",
    "noise", "seed", "max_time", "description",
}  # fmt: skip
_DIE_KEYS = {"x", "y", "angle", "face"}
_RANGE_KEYS = {"from", "to", "steps"}

# Bounds (docs/limits.md, "Sweeps"): a million-flick map is the design target; ten times that is
# hours of CPU on a large cluster, and its per-shot arrays (~40 B a shot) stay under a gigabyte.
MAX_STEPS = 1000  # grid points along one axis
MAX_REPEATS = 100_000
MAX_SHOTS = 10_000_000
MAX_SPEED = 20.0  # m/s finger speed (far above the launch cap: such flicks count as illegal)
MAX_AIM = 1e3  # rad: any direction is within 2 pi of zero; larger values are typos
MAX_SHOT_TIME = 60.0  # s per shot, as `jamsumo sim`
DEFAULT_MAX_TIME = 20.0


@dataclass(frozen=True)
class Axis:
    """One grid axis: ``steps`` evenly spaced values from ``lo`` to ``hi`` (one value: lo)."""

    lo: float
    hi: float
    steps: int

    def values(self) -> np.ndarray:
        return np.linspace(self.lo, self.hi, self.steps) if self.steps > 1 else np.array([self.lo])

    def to_json(self) -> dict[str, Any]:
        return {"from": self.lo, "to": self.hi, "steps": self.steps}


@dataclass(frozen=True)
class SweepSpec:
    board: str
    mode: str
    die: tuple[float, float, float, int]  # x, y, angle, face of the shooter
    dice: tuple[Mapping[str, Any], ...]  # other dice, scenario-style (checked by the World)
    aim: Axis
    speed: Axis
    offset: Axis
    height: Axis
    repeats: int
    noise: str
    seed: int
    max_time: float
    description: str = ""

    @property
    def shape(self) -> tuple[int, int, int, int]:
        return (self.aim.steps, self.speed.steps, self.offset.steps, self.height.steps)

    @property
    def cells(self) -> int:
        return int(np.prod(self.shape))

    @property
    def shots(self) -> int:
        return self.cells * self.repeats

    def cell_flick(self, cell: int) -> tuple[float, float, float, float]:
        """(direction, finger speed, offset, height) aimed at in cell number ``cell``."""
        i, j, k, m = np.unravel_index(cell, self.shape)
        return (
            float(self.aim.values()[i]),
            float(self.speed.values()[j]),
            float(self.offset.values()[k]),
            float(self.height.values()[m]),
        )

    def to_json(self) -> dict[str, Any]:
        x, y, angle, face = self.die
        return {
            "version": SPEC_VERSION,
            "board": self.board,
            "mode": self.mode,
            "die": {"x": x, "y": y, "angle": angle, "face": face},
            "dice": [dict(d) for d in self.dice],
            "aim": self.aim.to_json(),
            "speed": self.speed.to_json(),
            "offset": self.offset.to_json(),
            "height": self.height.to_json(),
            "repeats": self.repeats,
            "noise": self.noise,
            "seed": self.seed,
            "max_time": self.max_time,
            "description": self.description,
        }


def _number(value: Any, where: str, lo: float, hi: float) -> float:
    v = as_finite(value)
    if v is None or not lo <= v <= hi:
        raise UserError(f"{where} must be a number from {lo:g} to {hi:g}, got {shown(value)}")
    return v


def _int(value: Any, where: str, lo: int, hi: int) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise UserError(f"{where} must be a whole number from {lo} to {hi}, got {shown(value)}")
    return value


def _axis(value: Any, where: str, lo: float, hi: float, positive: bool = False) -> Axis:
    if isinstance(value, Mapping):
        bad = sorted(set(value) - _RANGE_KEYS)
        if bad:
            raise UserError(f"{where} has unknown key {str(bad[0])[:30]!r} (use from, to, steps)")
        for k in sorted(_RANGE_KEYS):
            if k not in value:
                raise UserError(f"{where} lacks {k!r}")
        a = _number(value["from"], f"{where}.from", lo, hi)
        b = _number(value["to"], f"{where}.to", lo, hi)
        n = _int(value["steps"], f"{where}.steps", 1, MAX_STEPS)
        axis = Axis(a, b, n)
    else:
        v = _number(value, where, lo, hi)
        axis = Axis(v, v, 1)
    if positive and min(axis.lo, axis.hi) <= 0:
        raise UserError(f"{where} must be more than 0")
    return axis


def parse_spec(data: Any, where: str = "spec") -> SweepSpec:
    """Check a parsed spec; every problem is one UserError naming ``where`` and the field."""
    from .. import noise

    if not isinstance(data, Mapping):
        raise UserError(f"{where} must be an object (a table)")
    if "version" not in data:
        raise UserError(f'{where} lacks "version" (expected {SPEC_VERSION})')
    if type(data["version"]) is not int or data["version"] != SPEC_VERSION:
        raise UserError(
            f"{where}: unsupported version {repr(data['version'])[:30]} (expected {SPEC_VERSION})"
        )
    bad = sorted(set(data) - _TOP_KEYS)
    if bad:
        raise UserError(f"{where} has unknown key {str(bad[0])[:30]!r}")
    for k in ("die", "aim", "speed"):
        if k not in data:
            raise UserError(f"{where} lacks {k!r}")
    board = data.get("board", "standard")
    if not isinstance(board, str) or not 0 < len(board) <= 200:
        raise UserError(f"{where}.board must be a board name or a .toml path")
    mode = data.get("mode", "jam")
    if mode not in MODES:
        raise UserError(f"{where}.mode must be one of {', '.join(MODES)}, got {repr(mode)[:30]}")
    die = data["die"]
    if not isinstance(die, Mapping):
        raise UserError(f"{where}.die must be an object with x, y, angle, face")
    bad = sorted(set(die) - _DIE_KEYS)
    if bad:
        raise UserError(f"{where}.die has unknown key {str(bad[0])[:30]!r}")
    for k in ("x", "y"):
        if k not in die:
            raise UserError(f"{where}.die lacks {k!r}")
    shooter = (
        _number(die["x"], f"{where}.die.x", -10.0, 10.0),
        _number(die["y"], f"{where}.die.y", -10.0, 10.0),
        _number(die.get("angle", 0.0), f"{where}.die.angle", -MAX_AIM, MAX_AIM),
        _int(die.get("face", 1), f"{where}.die.face", 1, 6),
    )
    dice = data.get("dice", [])
    if not isinstance(dice, list):
        raise UserError(f"{where}.dice must be a list of dice as in `jamsumo sim`")
    from ..scenario import MAX_DICE  # the shooter is one of the World's dice

    if len(dice) > MAX_DICE - 1:
        raise UserError(
            f"{where}.dice has {len(dice)} dice; at most {MAX_DICE - 1} besides the die"
        )
    for i, d in enumerate(dice):
        if isinstance(d, Mapping) and d.get("id") == SHOOTER_ID:
            raise UserError(f"{where}.dice[{i}].id {SHOOTER_ID!r} is the shooter's; rename it")
    aim = _axis(data["aim"], f"{where}.aim", -MAX_AIM, MAX_AIM)
    speed = _axis(data["speed"], f"{where}.speed", 0.0, MAX_SPEED, positive=True)
    offset = _axis(data.get("offset", 0.0), f"{where}.offset", -0.5, 0.5)
    height = _axis(data.get("height", 0.5), f"{where}.height", 0.0, 1.0)
    repeats = _int(data.get("repeats", 1), f"{where}.repeats", 1, MAX_REPEATS)
    level = data.get("noise", "practice")
    try:
        noise.level(level)
    except UserError as exc:
        raise UserError(f"{where}.noise: {exc}") from None
    try:
        seed = check_seed(data.get("seed", 0), f"{where}.seed")
    except UserError as exc:
        raise UserError(str(exc)) from None
    max_time = _number(
        data.get("max_time", DEFAULT_MAX_TIME), f"{where}.max_time", 1e-3, MAX_SHOT_TIME
    )
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > 2000:
        raise UserError(f"{where}.description must be text of at most 2000 characters")
    spec = SweepSpec(
        board=board,
        mode=mode,
        die=shooter,
        dice=tuple(dict(d) if isinstance(d, Mapping) else d for d in dice),
        aim=aim,
        speed=speed,
        offset=offset,
        height=height,
        repeats=repeats,
        noise=level,
        seed=seed,
        max_time=max_time,
        description=description,
    )
    if spec.shots > MAX_SHOTS:
        raise UserError(f"{where} asks for {spec.shots} shots; at most {MAX_SHOTS}")
    return spec


def read_spec(path: str | Path) -> SweepSpec:
    """Read a spec file (.toml, or JSON for any other name)."""
    where = f"spec {path}"
    text = read_text(path, "spec")
    if str(path).lower().endswith(".toml"):
        data = parse_toml(text, where)
    else:
        data = parse_json(text, where)
    board = data.get("board") if isinstance(data, dict) else None
    if isinstance(board, str) and board.endswith(".toml") and not Path(board).is_absolute():
        # as a `jamsumo sim` scenario: a relative board file is read from the spec's folder (the
        # spec sent to the workers then names it wherever they start)
        data = {**data, "board": str((Path(path).parent / board).resolve())}
    return parse_spec(data, where)


def spec_json(spec: SweepSpec) -> str:
    """The spec as canonical JSON text (stored in the data file; sent to workers)."""
    return json.dumps(spec.to_json(), sort_keys=True)
