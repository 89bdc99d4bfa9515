"""Measurement files for calibration: four CSV formats, loaded and validated.

Formats (see ``calibration/README.md``; SI units, radians, the board frame with origin at the hole's centre):

- rest poses   ``shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1``: launch state and measured rest pose
- trajectories ``shot,t,x,y,angle``: tracked positions of a sliding die over time
- collisions   ``shot,x0,y0,angle0,vx0,vy0,omega0,tx0,ty0,tangle0,x1,y1,angle1,tx1,ty1,tangle1``:
  the striker's launch state, the target's start pose, and both rest poses
- tilt tests   ``angle_deg,slipped``: did a die resting on the board tilted by angle_deg slip (1/0)?
- tumbles      ``shot,x0,y0,direction,speed,height,offset,quarter_turns,face,travel,hopped``: a filmed
  flick (launch speed J/m, strike height 0..1 and offset -0.5..0.5 of the face) and what it did:
  quarter turns counted, final top face, distance from start to rest (m), whether it left the board

Lines starting with ``#`` are comments; extra columns are ignored.  Every problem is one
:class:`~jamsumo_sim.errors.UserError` line naming the file, the line and (where there is one) the column.
Files are read through :mod:`jamsumo_sim.fileio` (UTF-8, bounded size); the bounds on sizes and values
are in :mod:`.limits`.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import fileio
from ..errors import UserError
from ..physics.board import BoardSpec
from ..physics.params import PhysicsParams
from . import limits as L
from .limits import DataLimits, footprint_gap

REST, TRAJECTORY, COLLISION, TILT, TUMBLE = "rest", "trajectory", "collision", "tilt", "tumble"

LAUNCH_COLUMNS = ("x0", "y0", "angle0", "vx0", "vy0", "omega0")
COLUMNS: dict[str, tuple[str, ...]] = {
    REST: ("shot", *LAUNCH_COLUMNS, "x1", "y1", "angle1"),
    TRAJECTORY: ("shot", "t", "x", "y", "angle"),
    COLLISION: (
        "shot",
        *LAUNCH_COLUMNS,
        "tx0",
        "ty0",
        "tangle0",
        "x1",
        "y1",
        "angle1",
        "tx1",
        "ty1",
        "tangle1",
    ),
    TILT: ("angle_deg", "slipped"),
    TUMBLE: (
        "shot",
        "x0",
        "y0",
        "direction",
        "speed",
        "height",
        "offset",
        "quarter_turns",
        "face",
        "travel",
        "hopped",
    ),
}
KIND_NAMES = {
    REST: "rest-pose",
    TRAJECTORY: "trajectory",
    COLLISION: "collision",
    TILT: "tilt-test",
    TUMBLE: "tumble",
}
_FORMAT_COUNT = ("zero", "one", "two", "three", "four", "five", "six")[len(COLUMNS)]

_TRUE = {"1", "true", "yes", "y"}
_FALSE = {"0", "false", "no", "n"}


@dataclass(frozen=True)
class Launch:
    """A die's state at launch: position (m), angle (rad), velocity (m/s), spin (rad/s)."""

    x: float
    y: float
    angle: float
    vx: float
    vy: float
    omega: float

    @property
    def speed(self) -> float:
        return math.hypot(self.vx, self.vy)


@dataclass(frozen=True)
class Pose:
    """A die at rest: position (m) and angle (rad)."""

    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class RestShot:
    """One single-die shot: launch state and measured rest pose."""

    shot: str
    launch: Launch
    rest: Pose
    line: int


@dataclass(frozen=True)
class TrajectoryShot:
    """One tracked single-die shot: samples (t, x, y, angle), t strictly increasing."""

    shot: str
    t: tuple[float, ...]
    x: tuple[float, ...]
    y: tuple[float, ...]
    angle: tuple[float, ...]
    line: int  # line of the first sample


@dataclass(frozen=True)
class CollisionShot:
    """A striker launched at a resting target; both rest poses measured."""

    shot: str
    striker: Launch
    target: Pose
    striker_rest: Pose
    target_rest: Pose
    line: int


@dataclass(frozen=True)
class TiltTrial:
    """A die on the board tilted by ``angle_deg``: did it slip?"""

    angle_deg: float
    slipped: bool
    line: int


@dataclass(frozen=True)
class TumbleShot:
    """A filmed flick: where and how it was struck, and the robust summary of what it did."""

    shot: str
    x: float  # m, start
    y: float
    direction: float  # rad
    speed: float  # m/s, launch speed J/m (a centred strike's)
    height: float  # 0..1 of the face
    offset: float  # -0.5..0.5 of the face
    quarter_turns: int
    face: int  # final top face
    travel: float  # m, start to rest
    hopped: bool  # left the board surface at least once
    line: int


@dataclass(frozen=True)
class DataFile:
    """One loaded measurement file: its kind, provenance and rows (shots or tilt trials)."""

    path: Path
    kind: str
    sha256: str
    items: tuple

    @property
    def name(self) -> str:
        return self.path.name


def detect_kind(header: Sequence[str]) -> str:
    """The format whose columns best match ``header`` (ties: the more specific format)."""
    return _best_kind(header)[0]


def _best_kind(header: Sequence[str]) -> tuple[str, float]:
    cols = set(header)
    best, best_score = REST, -1.0
    for kind in (COLLISION, TRAJECTORY, REST, TILT, TUMBLE):
        need = COLUMNS[kind]
        score = sum(c in cols for c in need) / len(need)
        if score > best_score:
            best, best_score = kind, score
    return best, best_score


KNOWN_COLUMNS = frozenset(c for cols in COLUMNS.values() for c in cols)


def _show(text: str, most: int = 40) -> str:
    """``text`` quoted for a message, cut short: a field may be thousands of characters long."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


class _Reader:
    """Splits one CSV file's text into rows, keeping line numbers for messages."""

    def __init__(self, text: str, where: str | Path):
        self.path = where
        if text.startswith("\ufeff"):  # a byte-order mark some spreadsheets write
            text = text[1:]
        self.rows: list[tuple[int, list[str]]] = []
        # universal newlines, read lazily: a huge file stops at the line limit, not after a split
        for lineno, raw in enumerate(io.StringIO(text, newline=None), start=1):
            if lineno > L.MAX_LINES:
                raise UserError(
                    f"{where}: more than {L.MAX_LINES} lines; split it into smaller files"
                )
            line = raw.rstrip("\n")
            if len(line) > L.MAX_LINE_CHARS:
                raise self.fail(
                    lineno, f"line is {len(line)} characters long (at most {L.MAX_LINE_CHARS})"
                )
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                fields = next(csv.reader([line]))
            except csv.Error as exc:
                raise self.fail(lineno, f"not a CSV line ({exc})") from None
            if len(fields) > L.MAX_COLUMNS:
                raise self.fail(lineno, f"{len(fields)} fields (at most {L.MAX_COLUMNS})")
            self.rows.append((lineno, [f.strip() for f in fields]))
        if not self.rows:
            raise UserError(f"{where}: empty file (no header line)")
        self.header_line, header = self.rows[0]
        self.header = [h.lower() for h in header]
        self.data = self.rows[1:]

    def fail(self, line: int, message: str, column: int | None = None) -> UserError:
        where = f"{self.path}:{line}" + (f":{column}" if column is not None else "")
        return UserError(f"{where}: {message}")


def _check_header(r: _Reader) -> str:
    """The file's format; a missing column names what is missing, what is unknown, what is expected."""
    first: dict[str, int] = {}
    for i, h in enumerate(r.header, start=1):
        if h in first:
            raise r.fail(
                r.header_line,
                f"column {_show(h)} appears twice in the header (columns {first[h]} and {i})",
                i,
            )
        first[h] = i
    kind, score = _best_kind(r.header)
    missing = [c for c in COLUMNS[kind] if c not in r.header]
    if not missing:
        return kind
    unknown = [h for h in r.header if h not in KNOWN_COLUMNS]
    plural = "s" if len(unknown) > 1 else ""
    unknown_txt = f"unknown column{plural} {', '.join(_show(h) for h in unknown[:8])}"
    if score == 0:  # nothing in common with any format: no guess at which one was meant
        formats = "; ".join(f"{KIND_NAMES[k]}: {','.join(COLUMNS[k])}" for k in COLUMNS)
        found = f" ({unknown_txt})" if unknown else ""
        raise r.fail(
            r.header_line,
            f"the header matches none of the {_FORMAT_COUNT} formats{found}; expected {formats}",
        )
    msg = (
        f"missing column{'s' if len(missing) > 1 else ''} {', '.join(repr(c) for c in missing)} "
        f"(a {KIND_NAMES[kind]} file needs: {','.join(COLUMNS[kind])})"
    )
    if unknown:
        msg += f"; {unknown_txt} (misspelt?)"
    raise r.fail(r.header_line, msg)


def parse_data(
    text: str, board: BoardSpec, params: PhysicsParams | None = None, where: str | Path = "data"
) -> tuple[str, tuple]:
    """Parse and validate one measurement file's text: its kind and its rows (shots or tilt trials).

    ``where`` names the file in messages; ``params`` (default: the board's) give the physical bounds.
    """
    lim = DataLimits.from_params(params or PhysicsParams.from_board(board))
    r = _Reader(text, where)
    kind = _check_header(r)
    if not r.data:
        raise r.fail(r.header_line, "no data rows after the header")
    index = {c: r.header.index(c) for c in COLUMNS[kind]}
    rows = []
    for line, fields in r.data:
        if len(fields) != len(r.header):
            raise r.fail(
                line, f"expected {len(r.header)} fields like the header, got {len(fields)}"
            )
        rows.append((line, fields))
        if kind in (REST, COLLISION) and len(rows) > L.MAX_SHOTS:
            raise r.fail(line, f"more than {L.MAX_SHOTS} shots; at most {L.MAX_SHOTS} are fitted")
        if kind == TUMBLE and len(rows) > L.MAX_TUMBLE_SHOTS:
            raise r.fail(
                line, f"more than {L.MAX_TUMBLE_SHOTS} tumble shots; at most that many are fitted"
            )
    parse = {
        REST: _rest,
        TRAJECTORY: _trajectories,
        COLLISION: _collisions,
        TILT: _tilt,
        TUMBLE: _tumbles,
    }[kind]
    return kind, tuple(parse(r, rows, index, board, lim))


def load_data(path: str | Path, board: BoardSpec, params: PhysicsParams | None = None) -> DataFile:
    """Load and validate one measurement file; the format is recognised from its header."""
    p = Path(path)
    text = fileio.read_text(p, "data file")
    kind, items = parse_data(text, board, params, p)
    # the bytes were valid UTF-8, so encoding the text gives them back exactly (one read, no race)
    sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return DataFile(path=p, kind=kind, sha256=sha, items=items)


def load_all(
    paths: Sequence[str | Path], board: BoardSpec, params: PhysicsParams | None = None
) -> list[DataFile]:
    """Load every file; refuse the same file twice (it would count twice) and oversized totals."""
    if not paths:
        raise UserError("no data files given")
    if len(paths) > L.MAX_DATA_FILES:
        raise UserError(f"{len(paths)} data files given (at most {L.MAX_DATA_FILES})")
    for i, p in enumerate(paths):
        for q in paths[:i]:
            if fileio.same_file(p, q):
                raise UserError(
                    f"data file {p} is given twice (also as {q}): its shots would count twice"
                )
    out: list[DataFile] = []
    shots = tracked = tumbles = 0
    for p in paths:
        f = load_data(p, board, params)
        for g in out:
            if g.sha256 == f.sha256:
                raise UserError(
                    f"data files {g.path} and {f.path} have the same contents: "
                    "their shots would count twice"
                )
        if f.kind == TUMBLE:
            tumbles += len(f.items)
            if tumbles > L.MAX_TUMBLE_SHOTS:
                raise UserError(
                    f"{f.path}: more than {L.MAX_TUMBLE_SHOTS} tumble shots in all the data files"
                )
        elif f.kind != TILT:
            shots += len(f.items)
        if f.kind == TRAJECTORY:
            tracked += len(f.items)
        if shots > L.MAX_SHOTS:
            raise UserError(f"{f.path}: more than {L.MAX_SHOTS} shots in all the data files")
        if tracked > L.MAX_TRACKED_SHOTS:
            raise UserError(
                f"{f.path}: more than {L.MAX_TRACKED_SHOTS} tracked shots in all the data files"
            )
        out.append(f)
    return out


# --- field parsers -------------------------------------------------------------------------------


def _number(
    r: _Reader,
    line: int,
    fields: list[str],
    index: dict[str, int],
    name: str,
    bound: float | None = None,
    unit: str = "",
) -> float:
    """A finite number in column ``name``; with ``bound``, at most that in absolute value."""
    col = index[name]
    text = fields[col]
    try:
        v = float(text)
    except ValueError:
        raise r.fail(line, f"column {name!r}: {_show(text)} is not a number", col + 1) from None
    if not math.isfinite(v):
        raise r.fail(line, f"column {name!r}: {_show(text)} is not a finite number", col + 1)
    if bound is not None and abs(v) > bound:
        raise r.fail(
            line,
            f"column {name!r}: {v:.6g} is out of range (|{name}| <= {bound:g}{unit})",
            col + 1,
        )
    return v


def _angle(r: _Reader, line: int, fields: list[str], index: dict[str, int], name: str) -> float:
    return _number(r, line, fields, index, name, L.MAX_ABS_ANGLE, " rad")


def _shot_id(r: _Reader, line: int, fields: list[str], index: dict[str, int]) -> str:
    s = fields[index["shot"]]
    if not s:
        raise r.fail(line, "column 'shot': empty shot label", index["shot"] + 1)
    return s


def _check_on_board(
    r: _Reader,
    line: int,
    index: dict[str, int],
    board: BoardSpec,
    xcol: str,
    x: float,
    y: float,
    what: str,
    hole: bool = True,
) -> None:
    col = index[xcol] + 1
    if not board.on_board(x, y):
        raise r.fail(
            line,
            f"{what} at ({x:.4g}, {y:.4g}) m is off the board (|x|, |y| must be <= {board.half:.4f} m)",
            col,
        )
    if hole and board.in_hole(x, y):
        raise r.fail(line, f"{what} at ({x:.4f}, {y:.4f}) m is over the hole", col)


def _launch(r, line, fields, index, board, lim: DataLimits, prefix: str = "") -> Launch:
    x, y, vx, vy = (_number(r, line, fields, index, prefix + c) for c in ("x0", "y0", "vx0", "vy0"))
    angle = _angle(r, line, fields, index, prefix + "angle0")
    omega = _number(r, line, fields, index, prefix + "omega0")
    launch = Launch(x, y, angle, vx, vy, omega)
    _check_on_board(r, line, index, board, prefix + "x0", x, y, "die starts")
    if launch.speed > lim.max_speed:  # hypot: no overflow, even for 1e300
        raise r.fail(
            line,
            f"columns 'vx0','vy0': launch speed {launch.speed:.4g} m/s is above the "
            f"{lim.max_speed:g} m/s cap (max_launch_speed of the board/params)",
            index[prefix + "vx0"] + 1,
        )
    if abs(omega) > lim.max_spin:
        raise r.fail(
            line,
            f"column 'omega0': spin {omega:.4g} rad/s is above the {lim.max_spin:.0f} rad/s a fair "
            f"flick at {lim.max_speed:g} m/s can give",
            index[prefix + "omega0"] + 1,
        )
    return launch


def _pose(r, line, fields, index, board, cols: tuple[str, str, str], what: str) -> Pose:
    x, y = (_number(r, line, fields, index, c) for c in cols[:2])
    a = _angle(r, line, fields, index, cols[2])
    _check_on_board(r, line, index, board, cols[0], x, y, what)
    return Pose(x, y, a)


def _unique(r: _Reader, line: int, index: dict[str, int], seen: dict[str, int], shot: str) -> None:
    if shot in seen:
        raise r.fail(
            line,
            f"shot {_show(shot)} appears twice (first on line {seen[shot]})",
            index["shot"] + 1,
        )
    seen[shot] = line


def _rest(r, rows, index, board, lim: DataLimits) -> list[RestShot]:
    out, seen = [], {}
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        _unique(r, line, index, seen, shot)
        launch = _launch(r, line, f, index, board, lim)
        rest = _pose(r, line, f, index, board, ("x1", "y1", "angle1"), "rest pose")
        out.append(RestShot(shot, launch, rest, line))
    return out


def _collisions(r, rows, index, board, lim: DataLimits) -> list[CollisionShot]:
    out, seen = [], {}
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        _unique(r, line, index, seen, shot)
        striker = _launch(r, line, f, index, board, lim)
        target = _pose(r, line, f, index, board, ("tx0", "ty0", "tangle0"), "target die starts")
        gap = footprint_gap(
            (striker.x, striker.y, striker.angle), (target.x, target.y, target.angle), lim
        )
        if gap < -L.OVERLAP_SLACK:
            dist = math.hypot(target.x - striker.x, target.y - striker.y)
            raise r.fail(
                line,
                f"columns 'tx0','ty0': the striker and the target start overlapping (centres "
                f"{dist * 1000:.1f} mm apart, dice {lim.die_size * 1000:g} mm wide)",
                index["tx0"] + 1,
            )
        s_rest = _pose(r, line, f, index, board, ("x1", "y1", "angle1"), "striker's rest pose")
        t_rest = _pose(r, line, f, index, board, ("tx1", "ty1", "tangle1"), "target's rest pose")
        out.append(CollisionShot(shot, striker, target, s_rest, t_rest, line))
    return out


def _trajectories(r, rows, index, board, lim: DataLimits) -> list[TrajectoryShot]:
    samples: dict[str, list[tuple[int, float, float, float, float]]] = {}
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        t = _number(r, line, f, index, "t", L.MAX_ABS_TIME, " s")
        x, y = (_number(r, line, f, index, c) for c in ("x", "y"))
        a = _angle(r, line, f, index, "angle")
        s = samples.setdefault(shot, [])
        # every tracked position is compared with the simulation: all must lie on the board
        _check_on_board(
            r, line, index, board, "x", x, y, "die starts" if not s else "tracked die", not s
        )
        if s and t <= s[-1][1]:
            raise r.fail(
                line,
                f"column 't': time {t} does not increase within shot {_show(shot)}",
                index["t"] + 1,
            )
        if s and t - s[0][1] > L.MAX_SHOT_SECONDS:
            raise r.fail(
                line,
                f"column 't': time {t} is more than {L.MAX_SHOT_SECONDS:g} s after shot "
                f"{_show(shot)} starts (line {s[0][0]}); a simulated shot stops there",
                index["t"] + 1,
            )
        s.append((line, t, x, y, a))
    out = []
    for shot, s in samples.items():
        if len(s) < 3:
            raise r.fail(
                s[0][0], f"shot {_show(shot)} has {len(s)} samples; a trajectory needs at least 3"
            )
        _, t, x, y, a = zip(*s, strict=True)
        out.append(TrajectoryShot(shot, t, x, y, a, s[0][0]))
    return out


def _tilt(r, rows, index, board, lim: DataLimits) -> list[TiltTrial]:
    out = []
    for line, f in rows:
        angle = _number(r, line, f, index, "angle_deg")
        if not 0 <= angle < 90:
            raise r.fail(
                line, f"column 'angle_deg': {angle:.6g} is not in [0, 90)", index["angle_deg"] + 1
            )
        text = f[index["slipped"]].lower()
        if text not in _TRUE | _FALSE:
            raise r.fail(
                line,
                f"column 'slipped': {_show(f[index['slipped']])} is not 1/0 (yes/no)",
                index["slipped"] + 1,
            )
        out.append(TiltTrial(angle, text in _TRUE, line))
    return out


def _flag(r: _Reader, line: int, fields: list[str], index: dict[str, int], name: str) -> bool:
    text = fields[index[name]].lower()
    if text not in _TRUE | _FALSE:
        raise r.fail(
            line,
            f"column {name!r}: {_show(fields[index[name]])} is not 1/0 (yes/no)",
            index[name] + 1,
        )
    return text in _TRUE


def _whole(
    r: _Reader, line: int, fields: list[str], index: dict[str, int], name: str, lo: int, hi: int
) -> int:
    """A whole number from ``lo`` to ``hi`` in column ``name`` (``3`` or ``3.0``, not ``3.5``)."""
    v = _number(r, line, fields, index, name)
    if v != int(v) or not lo <= v <= hi:
        raise r.fail(
            line,
            f"column {name!r}: {_show(fields[index[name]])} is not a whole number from {lo} to {hi}",
            index[name] + 1,
        )
    return int(v)


def _in_range(
    r: _Reader,
    line: int,
    fields: list[str],
    index: dict[str, int],
    name: str,
    lo: float,
    hi: float,
    unit: str = "",
) -> float:
    v = _number(r, line, fields, index, name)
    if not lo <= v <= hi:
        raise r.fail(
            line, f"column {name!r}: {v:.6g} is not in [{lo:g}, {hi:g}]{unit}", index[name] + 1
        )
    return v


def _tumbles(r, rows, index, board, lim: DataLimits) -> list[TumbleShot]:
    out, seen = [], {}
    # start and rest both lie on the board: the travel is at most its diagonal
    most_travel = 2 * board.half * math.sqrt(2)
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        _unique(r, line, index, seen, shot)
        x, y = (_number(r, line, f, index, c) for c in ("x0", "y0"))
        _check_on_board(r, line, index, board, "x0", x, y, "die starts")
        direction = _angle(r, line, f, index, "direction")
        speed = _in_range(r, line, f, index, "speed", 0.0, lim.max_speed, " m/s (max_launch_speed)")
        height = _in_range(r, line, f, index, "height", 0.0, 1.0, " (of the face)")
        offset = _in_range(
            r, line, f, index, "offset", -L.FLICK_MAX_OFFSET, L.FLICK_MAX_OFFSET, " (of the face)"
        )
        turns = _whole(r, line, f, index, "quarter_turns", 0, L.MAX_QUARTER_TURNS)
        face = _whole(r, line, f, index, "face", 1, 6)
        travel = _in_range(
            r, line, f, index, "travel", 0.0, most_travel, " m (the board's diagonal)"
        )
        hopped = _flag(r, line, f, index, "hopped")
        out.append(
            TumbleShot(
                shot, x, y, direction, speed, height, offset, turns, face, travel, hopped, line
            )
        )
    return out


def write_csv(
    path: str | Path, kind: str, rows: Sequence[Sequence[object]], comment: str = ""
) -> Path:
    """Write a measurement file of ``kind`` (header from :data:`COLUMNS`), ``comment`` as ``#`` lines."""
    p = Path(path)
    lines = [f"# {c}".rstrip() for c in comment.splitlines()] if comment else []
    lines.append(",".join(COLUMNS[kind]))
    for row in rows:
        if len(row) != len(COLUMNS[kind]):
            raise ValueError(f"{kind} rows need {len(COLUMNS[kind])} fields, got {len(row)}")
        lines.append(",".join(_fmt(v) for v in row))
    fileio.write_atomic(p, "\n".join(lines) + "\n", "data file")
    return p


def _fmt(v: object) -> str:
    """Six decimals (1 um, 1 urad): finer than any measurement, and exact to re-read."""
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float | np.floating):
        text = f"{float(v):.6f}".rstrip("0").rstrip(".")
        return "0" if text in ("", "-0") else text
    return str(v)


def as_written(values: np.ndarray) -> np.ndarray:
    """``values`` as :func:`write_csv` writes and :func:`load_data` reads them back (6 decimals)."""
    return np.vectorize(lambda v: float(_fmt(float(v))))(np.asarray(values, dtype=float))
