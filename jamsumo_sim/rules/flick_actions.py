"""Flick actions: building, naming, reading the exact parameters back, and parsing typed flicks.

A JamSumo turn is ONE action (see the rules notes): ``Action.make(name, die=ID, direction=rad,
finger_speed=m/s | impulse=N·s, offset=-0.5..0.5, height=0..1[, place=PLATFORM, px=x, py=y,
pangle=rad])``. The name is for people; the engine reads only the args.  A flick gives exactly one
of ``finger_speed`` (what the bots and the window use) and ``impulse`` (older records, typed
flicks); a record keeps the one it was made with, so replaying it is exact either way.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.resources import versioned_asset
from jamsumo_sim.turnloop import Action

PASS = Action.make("pass")
_STRENGTHS = ("impulse", "finger_speed")  # a flick gives exactly one


@dataclass(frozen=True)
class FlickSpec:
    """The exact parameters of one flick action (SI units)."""

    die: str
    direction: float
    impulse: float | None = None
    offset: float = 0.0
    height: float = 0.5
    place: str | None = None
    px: float = 0.0
    py: float = 0.0
    pangle: float = 0.0
    finger_speed: float | None = None


def _fmt(value: float, digits: int = 3) -> str:
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def flick_action(
    die: str,
    direction: float,
    impulse: float | None,
    offset: float = 0.0,
    height: float = 0.5,
    place: str | None = None,
    px: float | None = None,
    py: float | None = None,
    pangle: float = 0.0,
    label: str | None = None,
    finger_speed: float | None = None,
) -> Action:
    """Build a flick action (optionally placing ``die`` from hand on JAM zone ``place`` first).

    Give ``impulse`` (N·s) or, with ``impulse=None``, ``finger_speed`` (m/s).  ``label`` replaces
    the generated description (the menu uses "at hole", "at blue3"); the name always starts with
    the die (and the zone) so it reads well in a log or a replay.
    """
    if (impulse is None) == (finger_speed is None):
        raise ValueError("a flick needs exactly one of impulse and finger_speed")
    args: dict[str, Any] = {"die": die, "direction": float(direction)}
    if finger_speed is None:
        args["impulse"] = float(impulse)  # type: ignore[arg-type]  # checked above
        strength = f"J {_fmt(args['impulse'] * 1000, 3)} mN·s"
    else:
        args["finger_speed"] = float(finger_speed)
        strength = f"finger {_fmt(args['finger_speed'], 3)} m/s"
    args.update(offset=float(offset), height=float(height))
    what = label or (
        f"dir {_fmt(math.degrees(direction), 1)}° {strength} "
        f"off {_fmt(offset, 2)} h {_fmt(height, 2)}"
    )
    if place is not None:
        if px is None or py is None:
            raise ValueError("a placement needs px and py")
        args.update(place=place, px=float(px), py=float(py), pangle=float(pangle))
        name = f"place {die} on {place} and flick {what}"
        if label is None:
            name = (
                f"place {die} on {place} at ({_fmt(px * 1000, 1)}, {_fmt(py * 1000, 1)}) mm "
                f"and flick {what}"
            )
    else:
        name = f"flick {die} {what}"
    return Action.make(name, **args)


def _number(action: Action, key: str, default: float | None = None) -> float:
    value = action.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise UserError(f"flick {key} must be a finite number, got {value!r}")
    return float(value)


def read_flick(action: Action) -> FlickSpec:
    """The exact parameters of a flick action; a one-line UserError if they are malformed."""
    die = action.get("die")
    if not isinstance(die, str):
        raise UserError(f"{action.name!r} names no die")
    place = action.get("place")
    if place is not None and not isinstance(place, str):
        raise UserError("flick place must be a JAM zone name")
    known = {"die", "direction", "offset", "height", "place", "px", "py", "pangle", *_STRENGTHS}
    extra = sorted({k for k, _ in action.args} - known)
    if extra:
        raise UserError(f"flick has unknown argument {extra[0]!r}")
    given = [k for k in _STRENGTHS if action.get(k) is not None]
    if len(given) != 1:
        which = "gives both" if given else "lacks"
        raise UserError(f"flick {which} impulse and finger_speed (give exactly one)")
    strength = given[0]
    spec = FlickSpec(
        die=die,
        direction=_number(action, "direction"),
        **{strength: _number(action, strength)},
        offset=_number(action, "offset", 0.0),
        height=_number(action, "height", 0.5),
        place=place,
        px=_number(action, "px", 0.0) if place is not None else 0.0,
        py=_number(action, "py", 0.0) if place is not None else 0.0,
        pangle=_number(action, "pangle", 0.0) if place is not None else 0.0,
    )
    if place is not None and (action.get("px") is None or action.get("py") is None):
        raise UserError("a placement needs px and py")
    if getattr(spec, strength) <= 0:
        raise UserError(f"flick {strength} must be > 0, got {getattr(spec, strength)}")
    if not -0.5 <= spec.offset <= 0.5:
        raise UserError(f"flick offset must be in -0.5..0.5, got {spec.offset}")
    if not 0.0 <= spec.height <= 1.0:
        raise UserError(f"flick height must be in 0..1, got {spec.height}")
    return spec


def parse_flick_text(text: str, die_mass: float) -> Action | None:
    """Parse ``flick DIE DEG SPEED [OFFSET [HEIGHT]]`` or ``place DIE ZONE X_MM Y_MM DEG SPEED [...]``.

    Angles in degrees (world frame, 0 = +x, counter-clockwise), speeds in m/s (the impulse is
    speed × die mass). Returns None when the text is not of this form.
    """
    words = text.split()
    try:
        if len(words) >= 4 and words[0] == "flick":
            die, deg, speed = words[1], float(words[2]), float(words[3])
            rest = [float(w) for w in words[4:6]]
            return flick_action(die, math.radians(deg), speed * die_mass, *rest)
        if len(words) >= 7 and words[0] == "place":
            die, zone = words[1], words[2]
            x_mm, y_mm, deg, speed = (float(w) for w in words[3:7])
            rest = [float(w) for w in words[7:9]]
            offset = rest[0] if rest else 0.0
            height = rest[1] if len(rest) > 1 else 0.5
            return flick_action(
                die,
                math.radians(deg),
                speed * die_mass,
                offset,
                height,
                place=zone,
                px=x_mm / 1000,
                py=y_mm / 1000,
            )
    except ValueError:
        return None
    return None


@lru_cache(maxsize=1)
def bots_config() -> dict[str, Any]:
    """``assets/bots.toml``: the flick menu and the bots' noise and search settings."""
    return versioned_asset("bots.toml")
