"""Execution noise of a human flick: the difficulty levels ``practice`` (exact) and ``table``.

The physics is deterministic and a mouse is pixel-exact, so without noise the same pull always
does the same thing. A level gives the spread (one standard deviation, ``assets/noise.toml``) of
the finger's speed (relative), the direction (rad), and the strike offset and height (fractions of
the face). The match draws one :class:`Deviation` per flick from its seeded generator as a chance
outcome of the turn loop (:class:`Execution`), so it is in the history and a replay re-plays it.

API for other features (sweeps reuse it): ``level(name)`` → :class:`NoiseLevel` (its fields are
the spread), ``apply(flick, level, rng)`` → the flick as a hand executes it, ``draw`` /
``deviate`` for the two halves, and :func:`spread` for the aim hint's ellipse.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import as_finite
from jamsumo_sim.resources import versioned_asset
from jamsumo_sim.turnloop import Action, Chance

PRACTICE = "practice"
TABLE = "table"
OUTCOME_NAME = "execution"  # the chance outcome's name prefix in histories

F = TypeVar("F")  # any flick-shaped frozen dataclass: FlickSpec, Flick, FlickParams


@dataclass(frozen=True)
class NoiseLevel:
    """One difficulty level: standard deviations of a flick's execution error."""

    name: str
    speed: float  # relative σ of the finger speed (or the impulse)
    angle: float  # σ of the direction, rad
    offset: float  # σ of the strike offset, fraction of the face
    height: float  # σ of the strike height, fraction of the face
    clip: float  # errors are clipped at this many σ
    description: str = ""

    @property
    def exact(self) -> bool:
        return self.speed == self.angle == self.offset == self.height == 0.0


@dataclass(frozen=True)
class Deviation:
    """One drawn execution error: multiply the speed, add the rest."""

    speed_factor: float = 1.0
    angle: float = 0.0  # rad
    offset: float = 0.0
    height: float = 0.0


def _number(table: dict[str, Any], key: str, where: str) -> float:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e3:
        raise UserError(f"assets/noise.toml: {where}.{key} must be a number ≥ 0, not {value!r}")
    return float(value)


@lru_cache(maxsize=1)
def levels() -> dict[str, NoiseLevel]:
    """The levels of ``assets/noise.toml`` by name."""
    data = versioned_asset("noise.toml")
    clip = _number(data, "clip", "top")
    out = {}
    for name, table in dict(data.get("levels", {})).items():
        where = f"levels.{name}"
        out[name] = NoiseLevel(
            name=name,
            speed=_number(table, "speed", where),
            angle=math.radians(_number(table, "angle_deg", where)),
            offset=_number(table, "offset", where),
            height=_number(table, "height", where),
            clip=clip,
            description=str(table.get("description", "")),
        )
    for needed in (PRACTICE, TABLE):
        if needed not in out:
            raise UserError(f"assets/noise.toml: the level {needed!r} is missing")
    return out


def level(name: str | NoiseLevel) -> NoiseLevel:
    """A level by name; a one-line UserError naming the choices for an unknown one."""
    if isinstance(name, NoiseLevel):
        return name
    table = levels()
    if not isinstance(name, str) or name not in table:
        raise UserError(
            f"unknown noise level {str(name)[:30]!r} (choose from {', '.join(sorted(table))})"
        )
    return table[name]


def draw(lvl: NoiseLevel, rng: np.random.Generator) -> Deviation:
    """One execution error of ``lvl`` (four normal draws, each clipped at ``clip`` σ)."""
    if lvl.exact:
        return Deviation()
    z = np.clip(rng.standard_normal(4), -lvl.clip, lvl.clip)
    return Deviation(
        speed_factor=float(1.0 + lvl.speed * z[0]),
        angle=float(lvl.angle * z[1]),
        offset=float(lvl.offset * z[2]),
        height=float(lvl.height * z[3]),
    )


def deviate(flick: F, dev: Deviation) -> F:
    """``flick`` executed with error ``dev``: speed (finger speed, impulse, launch speed — whichever
    the flick carries) scaled, direction turned, offset and height moved and kept in range."""
    names = {f.name for f in fields(flick)}  # type: ignore[arg-type]
    changes: dict[str, Any] = {}
    factor = max(0.05, dev.speed_factor)  # a flick never reverses or vanishes
    for key in ("finger_speed", "impulse", "speed"):
        value = getattr(flick, key, None) if key in names else None
        if value is not None:
            changes[key] = value * factor
    changes["direction"] = math.atan2(
        math.sin(flick.direction + dev.angle),  # type: ignore[attr-defined]
        math.cos(flick.direction + dev.angle),  # type: ignore[attr-defined]
    )
    changes["offset"] = min(0.5, max(-0.5, flick.offset + dev.offset))  # type: ignore[attr-defined]
    changes["height"] = min(1.0, max(0.0, flick.height + dev.height))  # type: ignore[attr-defined]
    return replace(flick, **changes)  # type: ignore[type-var]


def apply(flick: F, lvl: str | NoiseLevel, rng: np.random.Generator) -> F:
    """The flick as a hand at ``lvl`` executes it (exact levels return it unchanged)."""
    lv = level(lvl)
    return flick if lv.exact else deviate(flick, draw(lv, rng))


# --- the chance outcome in the turn loop --------------------------------------------------------


def _fmt(x: float, digits: int) -> str:
    return f"{x:+.{digits}f}"


def as_action(dev: Deviation) -> Action:
    """The recorded chance outcome of one execution error."""
    name = (
        f"{OUTCOME_NAME}: speed ×{dev.speed_factor:.3f}, aim {_fmt(math.degrees(dev.angle), 2)}°, "
        f"offset {_fmt(dev.offset, 3)}, height {_fmt(dev.height, 3)}"
    )
    return Action.make(
        name,
        speed_factor=dev.speed_factor,
        angle=dev.angle,
        offset=dev.offset,
        height=dev.height,
    )


def from_action(action: Action) -> Deviation:
    """The execution error of a recorded outcome; a one-line UserError if malformed."""
    values = {}
    for f in fields(Deviation):
        v = as_finite(action.get(f.name))
        if v is None:
            raise UserError(
                f"execution outcome {f.name} must be a finite number, got {action.get(f.name)!r}"
            )
        values[f.name] = v
    return Deviation(**values)


@dataclass(frozen=True)
class Execution(Chance):
    """The chance node after a flick: the hand's error at ``level``, drawn from the match generator."""

    level: NoiseLevel

    def sample(self, rng: np.random.Generator) -> Action:
        return as_action(draw(self.level, rng))

    def is_possible(self, action: Action) -> bool:
        try:
            dev = from_action(action)
        except UserError:
            return False
        lv, tol = self.level, 1e-9
        if {k for k, _ in action.args} != {f.name for f in fields(Deviation)}:
            return False
        return (
            action == as_action(dev)  # the name says what the args say
            and abs(dev.speed_factor - 1.0) <= lv.clip * lv.speed + tol
            and abs(dev.angle) <= lv.clip * lv.angle + tol
            and abs(dev.offset) <= lv.clip * lv.offset + tol
            and abs(dev.height) <= lv.clip * lv.height + tol
        )


# --- the spread for the aim hint ------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """Where a flick's die is predicted to stop: the exact point and a 1-σ ellipse around it."""

    x: float
    y: float
    major: float  # m, 1-σ semi-axis
    minor: float  # m
    angle: float  # rad, direction of the major axis

    def points(self, sigmas: float = 2.0, count: int = 24) -> list[tuple[float, float]]:
        """The outline of the ``sigmas``-σ ellipse (world metres)."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        out = []
        for k in range(count):
            t = 2 * math.pi * k / count
            u, v = sigmas * self.major * math.cos(t), sigmas * self.minor * math.sin(t)
            out.append((self.x + c * u - s * v, self.y + s * u + c * v))
        return out


def spread(predict: Callable[[F], tuple[float, float]], flick: F, lvl: str | NoiseLevel) -> Spread:
    """The predicted rest point of ``flick`` and its 1-σ ellipse at ``lvl``.

    ``predict(flick) -> (x, y)`` is any rest-point predictor (the window's free-slide hint is one;
    a full simulation is another). The ellipse is the linearised covariance: the predictor is
    evaluated at ±1 σ of each error (central differences), 1 + 2 × 4 calls.
    """
    lv = level(lvl)
    x0, y0 = predict(flick)
    cov = np.zeros((2, 2))
    for key, sigma in (
        ("speed_factor", lv.speed),
        ("angle", lv.angle),
        ("offset", lv.offset),
        ("height", lv.height),
    ):
        if sigma == 0.0:
            continue
        base = 1.0 if key == "speed_factor" else 0.0
        hi = predict(deviate(flick, replace(Deviation(), **{key: base + sigma})))
        lo = predict(deviate(flick, replace(Deviation(), **{key: base - sigma})))
        g = np.array([(hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2])
        cov += np.outer(g, g)
    values, vectors = np.linalg.eigh(cov)
    major, minor = math.sqrt(max(values[1], 0.0)), math.sqrt(max(values[0], 0.0))
    angle = math.atan2(vectors[1, 1], vectors[0, 1])
    return Spread(float(x0), float(y0), major, minor, angle)


def sample_rest_points(
    predict: Callable[[F], tuple[float, float]],
    flick: F,
    lvl: str | NoiseLevel,
    rng: np.random.Generator,
    count: int,
) -> list[tuple[float, float]]:
    """``count`` rest points of noisy executions of ``flick`` (a Monte Carlo fan for the hint)."""
    lv = level(lvl)
    return [predict(apply(flick, lv, rng)) for _ in range(count)]
