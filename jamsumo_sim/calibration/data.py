"""Measurement files for calibration: four CSV formats, loaded and validated.

Formats (see ``calibration/README.md``; SI units, radians, the board frame with origin at the hole's centre):

- rest poses   ``shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1``: launch state and measured rest pose
- trajectories ``shot,t,x,y,angle``: tracked positions of a sliding die over time
- collisions   ``shot,x0,y0,angle0,vx0,vy0,omega0,tx0,ty0,tangle0,x1,y1,angle1,tx1,ty1,tangle1``:
  the striker's launch state, the target's start pose, and both rest poses
- tilt tests   ``angle_deg,slipped``: did a die resting on the board tilted by angle_deg slip (1/0)?

Lines starting with ``#`` are comments; extra columns are ignored.  Every problem is one
:class:`~jamsumo_sim.errors.UserError` line naming the file, the line and (where there is one) the column.
"""

from __future__ import annotations

import csv
import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..board import BoardSpec
from ..errors import UserError

REST, TRAJECTORY, COLLISION, TILT = "rest", "trajectory", "collision", "tilt"

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
}
KIND_NAMES = {
    REST: "rest-pose",
    TRAJECTORY: "trajectory",
    COLLISION: "collision",
    TILT: "tilt-test",
}

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
class DataFile:
    """One loaded measurement file: its kind, provenance and rows (shots or tilt trials)."""

    path: Path
    kind: str
    sha256: str
    items: tuple

    @property
    def name(self) -> str:
        return self.path.name


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def detect_kind(header: Sequence[str]) -> str:
    """The format whose columns best match ``header`` (ties: the more specific format)."""
    cols = set(header)
    best, best_score = REST, -1.0
    for kind in (COLLISION, TRAJECTORY, REST, TILT):
        need = COLUMNS[kind]
        score = sum(c in cols for c in need) / len(need)
        if score > best_score:
            best, best_score = kind, score
    return best


class _Reader:
    """Reads one CSV file row by row, keeping line numbers for messages."""

    def __init__(self, path: Path):
        self.path = path
        try:
            text = path.read_text(encoding="utf-8-sig")
        except OSError as exc:
            raise UserError(f"cannot read data file {path}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise UserError(f"{path}: not a UTF-8 text (CSV) file") from None
        self.rows: list[tuple[int, list[str]]] = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            fields = next(csv.reader([line]))
            self.rows.append((lineno, [f.strip() for f in fields]))
        if not self.rows:
            raise UserError(f"{path}: empty file (no header line)")
        self.header_line, header = self.rows[0]
        self.header = [h.lower() for h in header]
        self.data = self.rows[1:]

    def fail(self, line: int, message: str, column: int | None = None) -> UserError:
        where = f"{self.path}:{line}" + (f":{column}" if column is not None else "")
        return UserError(f"{where}: {message}")


def load_data(path: str | Path, board: BoardSpec) -> DataFile:
    """Load and validate one measurement file; the format is recognised from its header."""
    p = Path(path)
    r = _Reader(p)
    kind = detect_kind(r.header)
    for c in COLUMNS[kind]:
        if c not in r.header:
            raise r.fail(
                r.header_line,
                f"missing column {c!r} (a {KIND_NAMES[kind]} file needs: {','.join(COLUMNS[kind])})",
            )
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
    items = {REST: _rest, TRAJECTORY: _trajectories, COLLISION: _collisions, TILT: _tilt}[kind](
        r, rows, index, board
    )
    return DataFile(path=p, kind=kind, sha256=sha256_of(p), items=tuple(items))


def load_all(paths: Sequence[str | Path], board: BoardSpec) -> list[DataFile]:
    if not paths:
        raise UserError("no data files given")
    return [load_data(p, board) for p in paths]


# --- field parsers -------------------------------------------------------------------------------


def _number(r: _Reader, line: int, fields: list[str], index: dict[str, int], name: str) -> float:
    col = index[name]
    text = fields[col]
    try:
        v = float(text)
    except ValueError:
        raise r.fail(line, f"column {name!r}: {text!r} is not a number", col + 1) from None
    if not math.isfinite(v):
        raise r.fail(line, f"column {name!r}: {text!r} is not a finite number", col + 1)
    return v


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
) -> None:
    col = index[xcol] + 1
    if not board.on_board(x, y):
        raise r.fail(
            line,
            f"{what} at ({x:.4f}, {y:.4f}) m is off the board (|x|, |y| must be <= {board.half:.4f} m)",
            col,
        )
    if board.in_hole(x, y):
        raise r.fail(line, f"{what} at ({x:.4f}, {y:.4f}) m is over the hole", col)


def _launch(r, line, fields, index, board, prefix: str = "") -> Launch:
    vals = [_number(r, line, fields, index, prefix + c) for c in LAUNCH_COLUMNS]
    launch = Launch(*vals)
    _check_on_board(r, line, index, board, prefix + "x0", launch.x, launch.y, "die starts")
    return launch


def _pose(r, line, fields, index, board, cols: tuple[str, str, str], what: str) -> Pose:
    x, y, a = (_number(r, line, fields, index, c) for c in cols)
    _check_on_board(r, line, index, board, cols[0], x, y, what)
    return Pose(x, y, a)


def _unique(r: _Reader, line: int, index: dict[str, int], seen: dict[str, int], shot: str) -> None:
    if shot in seen:
        raise r.fail(
            line, f"shot {shot!r} appears twice (first on line {seen[shot]})", index["shot"] + 1
        )
    seen[shot] = line


def _rest(r, rows, index, board) -> list[RestShot]:
    out, seen = [], {}
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        _unique(r, line, index, seen, shot)
        launch = _launch(r, line, f, index, board)
        rest = _pose(r, line, f, index, board, ("x1", "y1", "angle1"), "rest pose")
        out.append(RestShot(shot, launch, rest, line))
    return out


def _collisions(r, rows, index, board) -> list[CollisionShot]:
    out, seen = [], {}
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        _unique(r, line, index, seen, shot)
        striker = _launch(r, line, f, index, board)
        target = _pose(r, line, f, index, board, ("tx0", "ty0", "tangle0"), "target die starts")
        s_rest = _pose(r, line, f, index, board, ("x1", "y1", "angle1"), "striker's rest pose")
        t_rest = _pose(r, line, f, index, board, ("tx1", "ty1", "tangle1"), "target's rest pose")
        out.append(CollisionShot(shot, striker, target, s_rest, t_rest, line))
    return out


def _trajectories(r, rows, index, board) -> list[TrajectoryShot]:
    samples: dict[str, list[tuple[int, float, float, float, float]]] = {}
    for line, f in rows:
        shot = _shot_id(r, line, f, index)
        t, x, y, a = (_number(r, line, f, index, c) for c in ("t", "x", "y", "angle"))
        s = samples.setdefault(shot, [])
        if not s:
            _check_on_board(r, line, index, board, "x", x, y, "die starts")
        elif t <= s[-1][1]:
            raise r.fail(
                line, f"column 't': time {t} does not increase within shot {shot!r}", index["t"] + 1
            )
        s.append((line, t, x, y, a))
    out = []
    for shot, s in samples.items():
        if len(s) < 3:
            raise r.fail(
                s[0][0], f"shot {shot!r} has {len(s)} samples; a trajectory needs at least 3"
            )
        _, t, x, y, a = zip(*s, strict=True)
        out.append(TrajectoryShot(shot, t, x, y, a, s[0][0]))
    return out


def _tilt(r, rows, index, board) -> list[TiltTrial]:
    out = []
    for line, f in rows:
        angle = _number(r, line, f, index, "angle_deg")
        if not 0 <= angle < 90:
            raise r.fail(
                line, f"column 'angle_deg': {angle} is not in [0, 90)", index["angle_deg"] + 1
            )
        text = f[index["slipped"]].lower()
        if text not in _TRUE | _FALSE:
            raise r.fail(
                line,
                f"column 'slipped': {f[index['slipped']]!r} is not 1/0 (yes/no)",
                index["slipped"] + 1,
            )
        out.append(TiltTrial(angle, text in _TRUE, line))
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
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
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
