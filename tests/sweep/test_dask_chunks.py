"""How a sweep is cut into tasks: every cell in exactly one chunk, each chunk an even sample of the
grid (so the workers' chunks cost about the same), and the same bits whatever the chunk size."""

from __future__ import annotations

import numpy as np
import pytest

from jamsumo_sim.sweep import run
from jamsumo_sim.sweep import tournament as T
from jamsumo_sim.sweep.spec import parse_spec


def grid(aims: int, speeds: int, repeats: int = 16, **extra) -> dict:
    return {
        "version": 1,
        "die": {"x": 0.0, "y": -0.18, "face": 4},
        "aim": {"from": 1.2, "to": 1.95, "steps": aims},
        "speed": {"from": 0.5, "to": 3.0, "steps": speeds},
        "repeats": repeats,
        "noise": "table",
        "seed": 5,
        **extra,
    }


@pytest.mark.parametrize(
    ("shape", "workers", "chunk_cells"),
    [
        ((16, 11), 2, None),
        ((59, 60), 2, None),
        ((64, 64), 16, None),
        ((7, 3), 1, 4),
        ((5, 5), 3, 1),
    ],
)
def test_every_cell_is_in_exactly_one_chunk(shape, workers, chunk_cells) -> None:
    spec = parse_spec(grid(*shape))
    tasks = run.chunks(spec, workers, chunk_cells)
    cells = [c for chunk in tasks for c in chunk]
    assert sorted(cells) == list(range(spec.cells))
    if chunk_cells is not None:
        assert all(len(chunk) == chunk_cells for chunk in tasks[:-1])


@pytest.mark.parametrize("shape", [(16, 16), (59, 60), (32, 8), (8, 300)])
def test_each_chunk_spreads_over_every_aim_and_speed(shape) -> None:
    """Shots cost by aim and speed (fast flicks run longer; some aims leave the board at once): a
    chunk holding a block of the grid would cost more than another, so one worker would idle at
    the end; each chunk must instead take cells from every quarter of both axes, in about equal
    numbers."""
    spec = parse_spec(grid(*shape))
    tasks = run.chunks(spec, 2)
    # enough tasks for the scheduler to even out what is left, once the sweep is big enough
    assert len(tasks) >= min(2 * 8, spec.shots // run.MIN_TASK_SHOTS)
    aims, speeds = shape
    for chunk in tasks:
        aim_i, speed_i = np.unravel_index(np.asarray(chunk), (aims, speeds))
        for index, steps in ((aim_i, aims), (speed_i, speeds)):
            quarters = np.bincount(4 * index // steps, minlength=4)
            assert quarters.min() >= 0.6 * len(chunk) / 4, (chunk[:8], quarters)


def test_the_same_bits_for_any_chunk_size_and_order() -> None:
    spec = parse_spec(grid(5, 3, repeats=2))  # 15 cells
    text = run.spec_json(spec)
    whole = run.run_serial(spec, chunk_cells=spec.cells)
    for size in (1, 2, 4, 7):
        tasks = run.chunks(spec, 2, size)
        backwards = [(cells, run.run_cells(text, cells)) for cells in reversed(tasks)]
        result = run.assemble(spec, iter(backwards))
        for k in whole.outcomes:
            assert np.array_equal(whole.outcomes[k], result.outcomes[k]), (size, k)
    # one chunk of scattered cells equals those cells cut out of the whole sweep
    part = run.run_cells(text, [9, 2, 14])
    for k in whole.outcomes:
        per_cell = whole.outcomes[k].reshape(spec.cells, spec.repeats)
        assert np.array_equal(part[k], per_cell[[9, 2, 14]].ravel()), k


@pytest.mark.parametrize(("matches", "workers"), [(100, 2), (7, 1), (1000, 16), (1, 4)])
def test_tournament_chunks_shrink_to_single_matches(matches: int, workers: int) -> None:
    """Match costs vary at random (1-5 s for JamSumo): big tasks first, single matches last, so a
    long match near the end does not idle the other workers for a whole chunk."""
    tasks = T.chunks(matches, workers)
    assert [m for a, b in tasks for m in range(a, b)] == list(range(matches))
    sizes = [b - a for a, b in tasks]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[-1] == 1
    assert len(tasks) <= 4 * workers * (1 + np.log(1 + matches))  # few tasks all the same
