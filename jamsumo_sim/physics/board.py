"""The board as data: geometry of the square board, its hole, dish, JAM platforms, SUMO areas and tripod.

All lengths in metres, origin at the centre of the hole, x to the right of seat 0, y away from seat 0.
Boards load from TOML (``assets/boards/<name>.toml``), from a path, or from an inline dict whose missing
keys take the standard board's values.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..fileio import decode_utf8, parse_toml, read_toml
from ..resources import asset
from .params import PhysicsParams, Range

SEAT_COUNT = 4

# Sane ranges of a board's numbers (lengths in m, mass in kg), the one place they are stated;
# docs/limits.md shows geometry_markdown()'s table.  Positions (x, y) are bounded by the board itself:
# platforms and SUMO areas lie on it and off the hole, legs under it.
GEOMETRY_RANGES: dict[str, Range] = {
    "side": Range(0.1, 10.0, "m", "a table-top board (the tests' flat boards are 2-6 m)"),
    "hole_diameter": Range(0.0, 1.0, "m", "0 = no hole; and less than side"),
    "dish_depth": Range(0.0, 0.1, "m", "0 = flat"),
    "dish_radius": Range(0.001, 10.0, "m", "and more than the hole's radius"),
    "mass": Range(0.1, 100.0, "kg", "the board's weight on the tripod"),
    "platform width, depth": Range(0.001, 10.0, "m", "and the platform lies on the board"),
    "platform height": Range(0.0001, 0.05, "m", "a step a die can meet"),
    "SUMO area width, depth": Range(0.001, 10.0, "m", "and the area lies on the board"),
    "leg height": Range(0.0, 1.0, "m", "the board tilts at most 30 degrees"),
}
MAX_PLATFORMS = 16
MAX_SUMO_AREAS = 16
MAX_NAME_CHARS = 64
MAX_TILT = math.radians(30)  # beyond this a board is a slide, not a game
MIN_LEG_TRIANGLE = 1e-4  # m^2: three legs (nearly) in a line cannot hold a board


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
class Marker:
    """An ArUco marker (DICT_4X4_50) on the table at board coordinates, for video tracking.

    Centre (x, y) and side ``size`` in m; laid with its top edge (first corner -> second) along +x.
    """

    id: int
    x: float
    y: float
    size: float


MAX_MARKERS = 16
MARKER_IDS = 50  # DICT_4X4_50 has ids 0..49
MARKER_SIZE = Range(0.005, 0.5, "m", "a printed ArUco marker a phone can read")


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
    markers: tuple[Marker, ...] = ()  # video-tracking markers on the table (jamsumo track)

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
    """A board TOML (a user's file or a packaged asset, which may live in a zip) via fileio."""
    if isinstance(path, Path):
        raw = read_toml(path, what)
    else:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
        raw = parse_toml(decode_utf8(data, f"{what} {path}"), f"{what} {path}")
    if not raw:
        raise UserError(f"{what} {path} is empty (give at least version = 1)")
    return raw


def geometry_markdown() -> str:
    """The table of board ranges that docs/limits.md shows (a test keeps them equal)."""
    rows = ["| board value | unit | lowest | highest | why |", "|---|---|---|---|---|"]
    for name, r in GEOMETRY_RANGES.items():
        rows.append(f"| `{name}` | {r.unit} | {r.low:g} | {r.high:g} | {r.why} |")
    return "\n".join(rows)


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


def _num(value: Any, key: str, origin: str, bounds: str | None = None) -> float:
    """A finite number (within ``GEOMETRY_RANGES[bounds]`` when given); a one-line error otherwise."""
    shown = repr(value) if len(repr(value)) <= 30 else repr(value)[:27] + "..."
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UserError(f"{origin}: {key} must be a number, got {shown}")
    if isinstance(value, int) and abs(value) > 2**53:
        raise UserError(f"{origin}: {key} is out of range, got {shown}")
    v = float(value)
    if not math.isfinite(v):
        raise UserError(f"{origin}: {key} must be finite, got {shown}")
    if bounds is not None:
        r = GEOMETRY_RANGES[bounds]
        if not r.low <= v <= r.high:
            raise UserError(f"{origin}: {key} must be {r.text()}, got {shown}")
    return v


def _name(item: Mapping[str, Any], default: str, where: str) -> str:
    name = item.get("name", default)
    if not isinstance(name, str) or not name or len(name) > MAX_NAME_CHARS:
        raise UserError(f"{where}: name must be a text of 1 to {MAX_NAME_CHARS} characters")
    return name


def _parse_list(
    raw: Mapping[str, Any],
    std: Mapping[str, Any],
    key: str,
    origin: str,
    build: Callable[[Mapping[str, Any], int, str], Any],
    most: int,
) -> list[Any]:
    """Build one value per entry of the list ``key`` (the standard board's when ``raw`` has none);
    a missing field is a one-line error naming the entry."""
    out = []
    items = _items(raw.get(key, std.get(key, [])), key, origin)
    if len(items) > most:
        raise UserError(f"{origin}: at most {most} {key}, got {len(items)}")
    for i, item in enumerate(items):
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
    if type(version) is not int or version != 1:  # true == 1 in Python, not here
        raise UserError(f"{origin}: unsupported board version {str(version)[:20]!r} (expected 1)")
    known_top = {
        "version",
        "name",
        "board",
        "platforms",
        "sumo_areas",
        "legs",
        "params",
        "markers",
        *_BOARD_KEYS,
    }
    unknown = sorted(set(raw) - known_top)
    if unknown:
        raise UserError(f"{origin}: unknown key {str(unknown[0])[:40]!r}")
    board_raw = dict(std["board"])
    sub = raw.get("board", {})
    if not isinstance(sub, Mapping):
        raise UserError(f"{origin}: board must be a table")
    for k, v in list(sub.items()) + [(k, raw[k]) for k in _BOARD_KEYS if k in raw]:
        if k not in _BOARD_KEYS:
            raise UserError(f"{origin}: unknown board key {str(k)[:40]!r}")
        board_raw[k] = v
    side = _num(board_raw["side"], "side", origin, "side")
    hole = _num(board_raw["hole_diameter"], "hole_diameter", origin, "hole_diameter")
    dish = _num(board_raw["dish_depth"], "dish_depth", origin, "dish_depth")
    # a different board side without an explicit dish radius keeps the dish meeting the edge
    if "dish_radius" in sub or "dish_radius" in raw:
        dish_r = _num(board_raw["dish_radius"], "dish_radius", origin, "dish_radius")
    elif "side" in sub or "side" in raw:
        dish_r = side / 2
    else:
        dish_r = _num(board_raw["dish_radius"], "dish_radius", origin, "dish_radius")
    mass = _num(board_raw["mass"], "mass", origin, "mass")
    if hole >= side:
        raise UserError(f"{origin}: hole_diameter {hole} must be smaller than side {side}")
    if dish > 0 and dish_r <= hole / 2:
        raise UserError(f"{origin}: dish_radius must exceed the hole's radius")

    def platform(p: Mapping[str, Any], i: int, where: str) -> Platform:
        return Platform(
            name=_name(p, f"platform-{i}", where),
            x=_num(p["x"], "x", where),
            y=_num(p["y"], "y", where),
            width=_num(p["width"], "width", where, "platform width, depth"),
            depth=_num(p["depth"], "depth", where, "platform width, depth"),
            height=_num(p["height"], "height", where, "platform height"),
        )

    def area(a: Mapping[str, Any], i: int, where: str) -> SumoArea:
        return SumoArea(
            name=_name(a, f"area-{i}", where),
            x=_num(a["x"], "x", where),
            y=_num(a["y"], "y", where),
            width=_num(a["width"], "width", where, "SUMO area width, depth"),
            depth=_num(a["depth"], "depth", where, "SUMO area width, depth"),
        )

    def leg(g: Mapping[str, Any], i: int, where: str) -> Leg:
        return Leg(
            name=_name(g, f"leg-{i}", where),
            x=_num(g["x"], "x", where),
            y=_num(g["y"], "y", where),
            height=_num(g["height"], "height", where, "leg height"),
        )

    platforms = _parse_list(raw, std, "platforms", origin, platform, MAX_PLATFORMS)
    areas = _parse_list(raw, std, "sumo_areas", origin, area, MAX_SUMO_AREAS)
    legs = _parse_list(raw, std, "legs", origin, leg, MAX_PLATFORMS)

    def marker(m: Mapping[str, Any], i: int, where: str) -> Marker:
        ident = m["id"]
        if type(ident) is not int or not 0 <= ident < MARKER_IDS:
            raise UserError(f"{where}: id must be an integer 0 to {MARKER_IDS - 1}")
        x, y = _num(m["x"], "x", where), _num(m["y"], "y", where)
        if max(abs(x), abs(y)) > side:
            raise UserError(f"{where}: the marker lies more than a board side from the hole")
        size = _num(m["size"], "size", where)
        if not MARKER_SIZE.low <= size <= MARKER_SIZE.high:
            raise UserError(f"{where}: size must be {MARKER_SIZE.text()}, got {size:g}")
        return Marker(ident, x, y, size)

    markers = _parse_list(raw, std, "markers", origin, marker, MAX_MARKERS)
    if len({m.id for m in markers}) != len(markers):
        raise UserError(f"{origin}: two markers have the same id")
    if len(legs) != 3:
        raise UserError(f"{origin}: a tripod needs exactly 3 legs, got {len(legs)}")
    _check_layout(origin, side / 2, hole / 2, platforms, areas, legs)

    params = dict(std.get("params", {}))
    extra = raw.get("params", {})
    if not isinstance(extra, Mapping):
        raise UserError(f"{origin}: params must be a table")
    for k, v in extra.items():
        if k not in params:
            raise UserError(f"{origin}: unknown parameter {str(k)[:40]!r}")
        params[k] = v
    name = _name(raw, "inline" if origin == "inline board" else std.get("name"), origin)
    spec = BoardSpec(
        name=name,
        side=side,
        hole_diameter=hole,
        dish_depth=dish,
        dish_radius=dish_r,
        mass=mass,
        platforms=tuple(platforms),
        sumo_areas=tuple(areas),
        legs=tuple(legs),
        params=tuple(params.items()),
        markers=tuple(markers),
    )
    try:  # the board's [params] defaults must make a valid parameter set on their own
        PhysicsParams.from_board(spec)
    except UserError as exc:
        raise UserError(f"{origin}: {str(exc).removeprefix(f'board {name!r}: ')}") from None
    return spec


def _rect_hits_hole(bounds: tuple[float, float, float, float], hole_r: float) -> bool:
    """True if an axis-aligned rectangle reaches into the hole (a disc of radius hole_r at 0, 0)."""
    xmin, ymin, xmax, ymax = bounds
    nearest_x = min(max(0.0, xmin), xmax)
    nearest_y = min(max(0.0, ymin), ymax)
    return hole_r > 0 and math.hypot(nearest_x, nearest_y) < hole_r


def _check_layout(
    origin: str,
    half: float,
    hole_r: float,
    platforms: list[Platform],
    areas: list[SumoArea],
    legs: list[Leg],
) -> None:
    """Names unique; platforms and SUMO areas on the board, off the hole; platforms apart; legs
    under the board, not in a line, tilting it at most MAX_TILT."""
    for kind, items in (("platform", platforms), ("SUMO area", areas), ("leg", legs)):
        seen: set[str] = set()
        for item in items:
            if item.name in seen:
                raise UserError(f"{origin}: two {kind}s are named {item.name!r}")
            seen.add(item.name)
    for kind, rects in (("platform", platforms), ("SUMO area", areas)):
        for r in rects:
            xmin, ymin, xmax, ymax = (
                r.x - r.width / 2,
                r.y - r.depth / 2,
                r.x + r.width / 2,
                r.y + r.depth / 2,
            )
            if min(xmin, ymin) < -half or max(xmax, ymax) > half:
                raise UserError(f"{origin}: {kind} {r.name!r} reaches off the board")
            if _rect_hits_hole((xmin, ymin, xmax, ymax), hole_r):
                raise UserError(f"{origin}: {kind} {r.name!r} lies over the hole")
    for i, a in enumerate(platforms):
        for b in platforms[i + 1 :]:
            ax0, ay0, ax1, ay1 = a.bounds
            bx0, by0, bx1, by1 = b.bounds
            if ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1:
                raise UserError(f"{origin}: platforms {a.name!r} and {b.name!r} overlap")
    for g in legs:
        if abs(g.x) > half or abs(g.y) > half:
            raise UserError(f"{origin}: leg {g.name!r} is not under the board")
    (x0, y0), (x1, y1), (x2, y2) = ((g.x, g.y) for g in legs)
    det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)  # twice the legs' triangle's area
    if abs(det) / 2 < MIN_LEG_TRIANGLE:
        raise UserError(f"{origin}: the three legs stand (nearly) in a line")
    # the plane through the leg tops: z = c + gx x + gy y (Cramer's rule on the 3 legs)
    h0, h1, h2 = (g.height for g in legs)
    gx = ((h1 - h0) * (y2 - y0) - (h2 - h0) * (y1 - y0)) / det
    gy = ((x1 - x0) * (h2 - h0) - (x2 - x0) * (h1 - h0)) / det
    if math.atan(math.hypot(gx, gy)) > MAX_TILT:
        raise UserError(
            f"{origin}: the legs tilt the board more than {math.degrees(MAX_TILT):g} degrees"
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
        "markers": [{"id": m.id, "x": m.x, "y": m.y, "size": m.size} for m in board.markers],
    }
