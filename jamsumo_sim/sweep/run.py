"""A sweep's cells, chunks and per-cell generators, and the per-cell outcome summary.

Every cell draws its noise from its own generator, ``SeedSequence(seed, spawn_key=(cell,))``, and
every shot runs exactly as it would alone (:mod:`.batch`), so the results are bit-identical
whatever the chunk size, the number of workers or the order chunks finish in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import noise
from ..errors import UserError
from ..flick import Flick
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

# Shots per task at least: ~1 s of work at ~800 shots/s, so a task's scheduling cost (a few ms on
# Dask) stays well under 5 % (docs/sweep.md measures it).
MIN_TASK_SHOTS = 1024
# Tasks per worker at least, so a slow chunk at the end does not leave the others idle.
TASKS_PER_WORKER = 4


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
    text: str, start: int, stop: int, fingerprint: str | None = None
) -> dict[str, np.ndarray]:
    """Outcomes of cells ``start`` .. ``stop - 1`` of the spec (JSON text), repeats in order;
    refused if ``fingerprint`` (the client's :func:`code_fingerprint`) differs from ours."""
    check_code(fingerprint)
    spec = parse_spec(json.loads(text))
    runner = _runner(text)
    level = noise.level(spec.noise)
    out = empty_outcomes((stop - start) * spec.repeats)
    row = 0
    for cell in range(start, stop):
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


def chunks(spec: SweepSpec, workers: int, chunk_cells: int | None = None) -> list[tuple[int, int]]:
    """(start, stop) cell ranges: at least MIN_TASK_SHOTS shots each, TASKS_PER_WORKER a worker."""
    n = spec.cells
    if chunk_cells is None:
        by_balance = -(-n // max(1, workers * TASKS_PER_WORKER))
        by_cost = -(-MIN_TASK_SHOTS // spec.repeats)
        chunk_cells = max(1, by_cost, by_balance)
    return [(a, min(n, a + chunk_cells)) for a in range(0, n, chunk_cells)]


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


def assemble(spec: SweepSpec, parts: Iterator[tuple[tuple[int, int], dict[str, np.ndarray]]]):
    """Put chunks' outcomes (in any order) into one result in grid order."""
    out = empty_outcomes(spec.shots)
    for (a, b), part in parts:
        for k in FIELDS:
            out[k][a * spec.repeats : b * spec.repeats] = part[k]
    return SweepResult(spec, out)


def run_serial(
    spec: SweepSpec,
    chunk_cells: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """The whole sweep in this process (the reference the distributed runs must equal)."""
    text = spec_json(spec)

    def parts():
        for a, b in chunks(spec, 1, chunk_cells):
            part = run_cells(text, a, b)
            if progress is not None:
                progress((b - a) * spec.repeats)
            yield (a, b), part

    return assemble(spec, parts())
