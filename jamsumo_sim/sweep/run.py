"""A sweep's cells, chunks and per-cell generators, and the per-cell outcome summary.

Every cell draws its noise from its own generator, ``SeedSequence(seed, spawn_key=(cell,))``, and
every shot runs exactly as it would alone (:mod:`.batch`), so the results are bit-identical
whatever the chunk size, the number of workers, which cells a chunk holds or the order chunks
finish in.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import noise
from ..errors import UserError
from ..physics.flick import Flick
from .batch import (
    FIELDS,
    HOLE_CODE,
    ILLEGAL_CODE,
    OFF_CODE,
    ON_BOARD_CODE,
    Shot,
    ShotRunner,
    empty_outcomes,
)
from .spec import SHOOTER_ID, SweepSpec, parse_spec, spec_json

# Shots per task at least: ~0.5 s of work on the batch path, so a task's scheduling cost (~3 ms on
# Dask, docs/sweep.md) stays under 1 % even for the last, smallest tasks.
MIN_TASK_SHOTS = 1024
# Guided self-scheduling: a task takes 1 / (workers x TASKS_PER_WORKER) of the cells still left
# (at least MIN_TASK_SHOTS): big tasks first, small ones last, handed out in that order as workers
# free up, so the workers finish within a small task of each other with few tasks in all.
TASKS_PER_WORKER = 4
# Cells are dealt to chunks in the order of frac(cell * GOLDEN): a run of that order is spread evenly
# over the whole grid (every aim and speed alike, whatever the axes' step counts), so chunks cost
# about the same although one cell's shots cost several times another's (fast flicks run longer).
GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0

Cells = tuple[int, ...]  # one chunk: cell indices in grid order


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sha256 over this package's sources and data files: a worker whose jamsumo differs from the
    client's (another version installed, or the files edited since) would give other numbers."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts:
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def check_code(fingerprint: str | None) -> None:
    if fingerprint is not None and fingerprint != code_fingerprint():
        raise UserError(
            "a worker runs a different jamsumo than this command (another version, or files "
            "edited meanwhile): its results would differ; start the workers from the same install"
        )


def cell_rng(seed: int, cell: int) -> np.random.Generator:
    """Cell ``cell``'s own generator: independent of how cells are split among tasks."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(cell,)))


@lru_cache(maxsize=4)
def _runner(text: str) -> ShotRunner:
    """One runner per position per process (workers keep it between tasks)."""
    spec = parse_spec(json.loads(text))
    return ShotRunner(spec.board, spec.die, spec.dice, spec.mode, spec.max_time)


def run_cells(
    text: str, cells: Sequence[int], fingerprint: str | None = None
) -> dict[str, np.ndarray]:
    """Outcomes of the spec's (JSON text) ``cells``, in that order, repeats in order; refused if
    ``fingerprint`` (the client's :func:`code_fingerprint`) differs from ours."""
    check_code(fingerprint)
    spec = parse_spec(json.loads(text))
    runner = _runner(text)
    level = noise.level(spec.noise)
    out = empty_outcomes(len(cells) * spec.repeats)
    row = 0
    for cell in cells:
        direction, speed, offset, height = spec.cell_flick(cell)
        aimed = Flick(SHOOTER_ID, direction, finger_speed=speed, offset=offset, height=height)
        rng = cell_rng(spec.seed, cell)
        outcome: dict[str, object] = {}
        for _ in range(spec.repeats):
            if not (level.exact and outcome):  # an exact level repeats the same shot: run it once
                f = noise.apply(aimed, level, rng)
                shot = Shot(f.direction, float(f.finger_speed), f.offset, f.height)
                outcome = runner.run(shot)
            for k, v in outcome.items():
                out[k][row] = v
            row += 1
    return out


def deal_order(n: int) -> np.ndarray:
    """Cells 0 .. n-1 in the order they are dealt to chunks (see GOLDEN)."""
    return np.argsort((np.arange(n) * GOLDEN) % 1.0, kind="stable")


def guided_sizes(total: int, workers: int, smallest: int) -> list[int]:
    """Task sizes summing to ``total``, shrinking from total / (workers x TASKS_PER_WORKER) down to
    ``smallest`` (the last may be smaller)."""
    sizes: list[int] = []
    left = total
    while left > 0:
        size = min(left, max(1, smallest, -(-left // max(1, workers * TASKS_PER_WORKER))))
        sizes.append(size)
        left -= size
    return sizes


def chunks(spec: SweepSpec, workers: int, chunk_cells: int | None = None) -> list[Cells]:
    """The cells of each task in the order to submit them: ``chunk_cells`` a task (the last may
    have fewer), or by default guided sizes of at least MIN_TASK_SHOTS shots. Every cell is in
    exactly one chunk; each chunk is an even sample of the grid (deal_order)."""
    n = spec.cells
    if chunk_cells is None:
        sizes = guided_sizes(n, workers, -(-MIN_TASK_SHOTS // spec.repeats))
    else:
        sizes = [min(chunk_cells, n - a) for a in range(0, n, chunk_cells)]
    order = deal_order(n)
    out: list[Cells] = []
    start = 0
    for size in sizes:
        out.append(tuple(sorted(int(c) for c in order[start : start + size])))
        start += size
    return out


@dataclass(frozen=True)
class SweepResult:
    spec: SweepSpec
    outcomes: dict[str, np.ndarray]  # per shot, cells x repeats in grid order

    def per_cell(self, name: str) -> np.ndarray:
        return self.outcomes[name].reshape(self.spec.cells, self.spec.repeats)

    def metrics(self) -> dict[str, np.ndarray]:
        """Per-cell summaries, each of the grid's shape (aim, speed, offset, height)."""
        st = self.per_cell("status")
        on = st == ON_BOARD_CODE
        score_name = "mean_penalty" if self.spec.mode == "jam" else "mean_points"
        m = {
            "p_hole": (st == HOLE_CODE).mean(axis=1),
            "p_off": (st == OFF_CODE).mean(axis=1),
            "p_platform": (on & self.per_cell("platform")).mean(axis=1),
            "p_struck": self.per_cell("struck").mean(axis=1),
            "p_illegal": (st == ILLEGAL_CODE).mean(axis=1),
            score_name: self.per_cell("score").astype(float).mean(axis=1),
        }
        face = self.per_cell("face")
        faces = np.stack([(on & (face == k)).mean(axis=1) for k in range(1, 7)], axis=1)
        out = {k: v.reshape(self.spec.shape) for k, v in m.items()}
        out["p_face"] = faces.reshape(*self.spec.shape, 6)
        return out

    def cells_json(self) -> list[dict[str, object]]:
        """The cells in grid order, as `jamsumo sweep --json` prints them."""
        m = {k: v.reshape(self.spec.cells, *v.shape[4:]) for k, v in self.metrics().items()}
        out = []
        for cell in range(self.spec.cells):
            aim, speed, offset, height = self.spec.cell_flick(cell)
            row: dict[str, object] = {
                "aim": aim,
                "speed": speed,
                "offset": offset,
                "height": height,
            }
            for k, v in m.items():
                row[k] = [float(x) for x in v[cell]] if k == "p_face" else float(v[cell])
            out.append(row)
        return out


def assemble(spec: SweepSpec, parts: Iterator[tuple[Sequence[int], dict[str, np.ndarray]]]):
    """Put chunks' outcomes (each: its cells, run_cells' outcomes; chunks in any order) into one
    result in grid order."""
    out = empty_outcomes(spec.shots)
    for cells, part in parts:
        first = np.asarray(cells, dtype=np.int64)[:, None] * spec.repeats
        rows = (first + np.arange(spec.repeats)).ravel()  # each cell's repeats, in order
        for k in FIELDS:
            out[k][rows] = part[k]
    return SweepResult(spec, out)


def run_serial(
    spec: SweepSpec,
    chunk_cells: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """The whole sweep in this process (the reference the distributed runs must equal)."""
    text = spec_json(spec)

    def parts():
        for cells in chunks(spec, 1, chunk_cells):
            part = run_cells(text, cells)
            if progress is not None:
                progress(len(cells) * spec.repeats)
            yield cells, part

    return assemble(spec, parts())
