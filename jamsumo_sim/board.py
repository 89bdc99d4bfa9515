"""The board as data: geometry of the square board, its hole, dish, JAM platforms, SUMO areas and tripod.

All lengths in metres, origin at the centre of the hole, x to the right of seat 0, y away from seat 0.
Boards load from TOML (``assets/boards/<name>.toml``), from a path, or from an inline dict whose missing
keys take the standard board's values.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import UserError
from .resources import asset

SEAT_COUNT = 4


@dataclass(frozen=True)
class Platform:
    """A raised JAM platform: an axis-aligned rectangle ``height`` above the board."""

    name: str
    x: float
    y: float
    width: float
    depth: float
    height: float

    def contains(self, x: float, y: float) -> bool:
        """True if the point (x, y) lies over the platform's top (edges included)."""
        return abs(x - self.x) <= self.width / 2 and abs(y - self.y) <= self.depth / 2

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(xmin, ymin, xmax, ymax)."""
        return (
            self.x - self.width / 2,
            self.y - self.depth / 2,
            self.x + self.width / 2,
            self.y + self.depth / 2,
        )


@dataclass(frozen=True)
class SumoArea:
    """A SUMO start area in a corner: an axis-aligned rectangle on the board surface."""

    name: str
    x: float
    y: float
    width: float
    depth: float

    def contains(self, x: float, y: float) -> bool:
        return abs(x - self.x) <= self.width / 2 and abs(y - self.y) <= self.depth / 2


@dataclass(frozen=True)
class Leg:
    """A tripod leg under the board at (x, y); ``height`` sets the board plane (equal heights: level)."""

    name: str
    x: float
    y: float
    height: float


@dataclass(frozen=True)
class BoardSpec:
    """Geometry of one board; ``params`` holds the default physical/numerical parameters from the file."""

    name: str
    side: float
    hole_diameter: float
    dish_depth: float
    dish_radius: float
    mass: float
    platforms: tuple[Platform, ...]
    sumo_areas: tuple[SumoArea, ...]
    legs: tuple[Leg, ...]
    params: tuple[
        tuple[str, Any], ...
    ]  # (name, value) pairs, in file order; see params.PhysicsParams

    @property
    def half(self) -> float:
        return self.side / 2

    @property
    def hole_radius(self) -> float:
        return self.hole_diameter / 2

    def param_defaults(self) -> dict[str, Any]:
        return dict(self.params)

    def platform(self, name: str) -> Platform:
        for p in self.platforms:
            if p.name == name:
                return p
        raise UserError(
            f"board {self.name!r} has no platform {name!r} (has {[p.name for p in self.platforms]})"
        )

    def platform_at(self, x: float, y: float) -> Platform | None:
        """The platform whose top lies over (x, y), or None."""
        for p in self.platforms:
            if p.contains(x, y):
                return p
        return None

    def on_board(self, x: float, y: float) -> bool:
        """True if (x, y) is over the board's square (edges included)."""
        return abs(x) <= self.half and abs(y) <= self.half

    def in_hole(self, x: float, y: float) -> bool:
        return self.hole_diameter > 0 and math.hypot(x, y) < self.hole_radius

    def sumo_area(self, corner: int | str) -> SumoArea:
        """The SUMO area by index (0..3, file order) or name."""
        if isinstance(corner, int):
            if not 0 <= corner < len(self.sumo_areas):
                raise UserError(f"no SUMO area {corner} (board has {len(self.sumo_areas)})")
            return self.sumo_areas[corner]
        for a in self.sumo_areas:
            if a.name == corner:
                return a
        raise UserError(
            f"board {self.name!r} has no SUMO area {corner!r} (has {[a.name for a in self.sumo_areas]})"
        )

    def sumo_start_positions(
        self, corner: int | str, die_size: float, count: int = 6
    ) -> list[tuple[float, float]]:
        """``count`` non-overlapping die centres (axis-aligned dice) inside a SUMO area.

        A grid of as-square-as-possible cells; each die sits at the centre of a cell.  Raises UserError if
        the area is too small for the dice not to overlap.
        """
        area = self.sumo_area(corner)
        cols = math.ceil(math.sqrt(count))
        rows = math.ceil(count / cols)
        # the longer side of the area gets the columns
        if area.depth > area.width:
            cols, rows = rows, cols
        cw, ch = area.width / cols, area.depth / rows
        if cw < die_size or ch < die_size:
            raise UserError(
                f"SUMO area {area.name!r} is too small for {count} dice of {die_size} m"
            )
        spots = []
        for k in range(count):
            r, c = divmod(k, cols)
            spots.append(
                (
                    area.x - area.width / 2 + (c + 0.5) * cw,
                    area.y - area.depth / 2 + (r + 0.5) * ch,
                )
            )
        return spots

    def jam_zone_drop_point(self, platform_name: str) -> tuple[float, float]:
        """Where a Jam die is placed on a JAM platform before it is flicked into play: its centre."""
        p = self.platform(platform_name)
        return (p.x, p.y)


# --- seat-relative frames ("you may turn the board") -------------------------------------------


def seat_rotation(seat: int) -> float:
    """Angle (rad) that rotates world coordinates into seat ``seat``'s view.

    Seat 0 sits at -y; seats go round to the left (seat 1 at -x, seat 2 at +y, seat 3 at +x), so the
    world turned by ``seat * pi/2`` puts that seat at -y.
    """
    if not 0 <= seat < SEAT_COUNT:
        raise ValueError(f"seat must be 0..3, got {seat}")
    return seat * math.pi / 2


def to_seat(seat: int, x: float, y: float, angle: float | None = None):
    """World point (and optionally angle) → seat ``seat``'s frame. Returns (x, y) or (x, y, angle)."""
    r = seat_rotation(seat)
    c, s = _cos_sin_quarter(seat)
    xs, ys = c * x - s * y, s * x + c * y
    if angle is None:
        return (xs, ys)
    return (xs, ys, angle + r)


def from_seat(seat: int, x: float, y: float, angle: float | None = None):
    """Seat ``seat``'s frame → world point (and optionally angle)."""
    r = seat_rotation(seat)
    c, s = _cos_sin_quarter(seat)
    xw, yw = c * x + s * y, -s * x + c * y
    if angle is None:
        return (xw, yw)
    return (xw, yw, angle - r)


def _cos_sin_quarter(seat: int) -> tuple[float, float]:
    # exact values so that a point turned four times comes back bit-identical
    return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[seat % 4]


# --- loading ----------------------------------------------------------------------------------

_BOARD_KEYS = ("side", "hole_diameter", "dish_depth", "dish_radius", "mass")


def _read_toml(path: Path | Any, what: str) -> dict:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{what} {path} is not valid TOML: {exc}") from None


def _standard_raw() -> dict:
    return _read_toml(asset("boards", "standard.toml"), "board file")


def load_board(source: str | Path | Mapping[str, Any] = "standard") -> BoardSpec:
    """Load a board by name (``assets/boards/<name>.toml``), by path, or from an inline dict.

    Inline dicts (and files) take the standard board's values for missing keys; ``"platforms": []``
    means no platforms.  Inline dicts may give board keys at top level (``{"side": 2.0}``) or under
    ``"board"``; an inline ``"params"`` table overrides parameter defaults.
    """
    std = _standard_raw()
    if isinstance(source, Mapping):
        raw = dict(source)
        origin = "inline board"
    else:
        s = str(source)
        p = Path(s)
        if p.suffix == ".toml" or p.exists() or "/" in s:
            raw = _read_toml(p, "board file")
            origin = f"board file {s}"
        else:
            node = asset("boards", f"{s}.toml")
            if not node.is_file():
                raise UserError(f"unknown board {s!r} (no assets/boards/{s}.toml and no such file)")
            raw = _read_toml(node, "board file")
            origin = f"board {s!r}"
    return _build(raw, std, origin)


def _num(
    value: Any, key: str, origin: str, *, positive: bool = False, nonneg: bool = False
) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UserError(f"{origin}: {key} must be a number, got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise UserError(f"{origin}: {key} must be finite, got {value!r}")
    if positive and v <= 0:
        raise UserError(f"{origin}: {key} must be > 0, got {value!r}")
    if nonneg and v < 0:
        raise UserError(f"{origin}: {key} must be >= 0, got {value!r}")
    return v


def _parse_list(
    raw: Mapping[str, Any],
    std: Mapping[str, Any],
    key: str,
    origin: str,
    build: Callable[[Mapping[str, Any], int, str], Any],
) -> list[Any]:
    """Build one value per entry of the list ``key`` (the standard board's when ``raw`` has none);
    a missing field is a one-line error naming the entry."""
    out = []
    for i, item in enumerate(_items(raw.get(key, std.get(key, [])), key, origin)):
        where = f"{origin}: {key}[{i}]"
        try:
            out.append(build(item, i, where))
        except KeyError as exc:
            raise UserError(f"{where}: missing {exc.args[0]!r}") from None
    return out


def _items(raw: Any, key: str, origin: str) -> list[dict]:
    if not isinstance(raw, list) or not all(isinstance(x, Mapping) for x in raw):
        raise UserError(f"{origin}: {key} must be a list of tables")
    return [dict(x) for x in raw]


def _build(raw: Mapping[str, Any], std: Mapping[str, Any], origin: str) -> BoardSpec:
    version = raw.get("version", std.get("version"))
    if version != 1:
        raise UserError(f"{origin}: unsupported board version {version!r} (expected 1)")
    known_top = {
        "version",
        "name",
        "board",
        "platforms",
        "sumo_areas",
        "legs",
        "params",
        *_BOARD_KEYS,
    }
    unknown = sorted(set(raw) - known_top)
    if unknown:
        raise UserError(f"{origin}: unknown key {unknown[0]!r}")
    board_raw = dict(std["board"])
    sub = raw.get("board", {})
    if not isinstance(sub, Mapping):
        raise UserError(f"{origin}: board must be a table")
    for k, v in list(sub.items()) + [(k, raw[k]) for k in _BOARD_KEYS if k in raw]:
        if k not in _BOARD_KEYS:
            raise UserError(f"{origin}: unknown board key {k!r}")
        board_raw[k] = v
    side = _num(board_raw["side"], "side", origin, positive=True)
    hole = _num(board_raw["hole_diameter"], "hole_diameter", origin, nonneg=True)
    dish = _num(board_raw["dish_depth"], "dish_depth", origin, nonneg=True)
    # a different board side without an explicit dish radius keeps the dish meeting the edge
    if "dish_radius" in sub or "dish_radius" in raw:
        dish_r = _num(board_raw["dish_radius"], "dish_radius", origin, positive=True)
    elif "side" in sub or "side" in raw:
        dish_r = side / 2
    else:
        dish_r = _num(board_raw["dish_radius"], "dish_radius", origin, positive=True)
    mass = _num(board_raw["mass"], "mass", origin, positive=True)
    if hole >= side:
        raise UserError(f"{origin}: hole_diameter {hole} must be smaller than side {side}")
    if dish > 0 and dish_r <= hole / 2:
        raise UserError(f"{origin}: dish_radius must exceed the hole's radius")

    def platform(p: Mapping[str, Any], i: int, where: str) -> Platform:
        return Platform(
            name=str(p.get("name", f"platform-{i}")),
            x=_num(p["x"], "x", where),
            y=_num(p["y"], "y", where),
            width=_num(p["width"], "width", where, positive=True),
            depth=_num(p["depth"], "depth", where, positive=True),
            height=_num(p["height"], "height", where, positive=True),
        )

    def area(a: Mapping[str, Any], i: int, where: str) -> SumoArea:
        return SumoArea(
            name=str(a.get("name", f"area-{i}")),
            x=_num(a["x"], "x", where),
            y=_num(a["y"], "y", where),
            width=_num(a["width"], "width", where, positive=True),
            depth=_num(a["depth"], "depth", where, positive=True),
        )

    def leg(g: Mapping[str, Any], i: int, where: str) -> Leg:
        return Leg(
            name=str(g.get("name", f"leg-{i}")),
            x=_num(g["x"], "x", where),
            y=_num(g["y"], "y", where),
            height=_num(g["height"], "height", where, nonneg=True),
        )

    platforms = _parse_list(raw, std, "platforms", origin, platform)
    areas = _parse_list(raw, std, "sumo_areas", origin, area)
    legs = _parse_list(raw, std, "legs", origin, leg)
    if len(legs) != 3:
        raise UserError(f"{origin}: a tripod needs exactly 3 legs, got {len(legs)}")

    params = dict(std.get("params", {}))
    extra = raw.get("params", {})
    if not isinstance(extra, Mapping):
        raise UserError(f"{origin}: params must be a table")
    for k, v in extra.items():
        if k not in params:
            raise UserError(f"{origin}: unknown parameter {k!r}")
        params[k] = v
    return BoardSpec(
        name=str(raw.get("name", "inline" if origin == "inline board" else std.get("name"))),
        side=side,
        hole_diameter=hole,
        dish_depth=dish,
        dish_radius=dish_r,
        mass=mass,
        platforms=tuple(platforms),
        sumo_areas=tuple(areas),
        legs=tuple(legs),
        params=tuple(params.items()),
    )


def board_to_dict(board: BoardSpec) -> dict[str, Any]:
    """A JSON/TOML-able dict that :func:`load_board` turns back into an equal BoardSpec."""
    return {
        "version": 1,
        "name": board.name,
        "board": {k: getattr(board, k) for k in _BOARD_KEYS},
        "platforms": [
            {
                "name": p.name,
                "x": p.x,
                "y": p.y,
                "width": p.width,
                "depth": p.depth,
                "height": p.height,
            }
            for p in board.platforms
        ],
        "sumo_areas": [
            {"name": a.name, "x": a.x, "y": a.y, "width": a.width, "depth": a.depth}
            for a in board.sumo_areas
        ],
        "legs": [{"name": g.name, "x": g.x, "y": g.y, "height": g.height} for g in board.legs],
        "params": dict(board.params),
    }
