"""The sweep spec (TOML and JSON alike), cells in grid order, per-cell generators, chunking."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.sweep import run
from jamsumo_sim.sweep.spec import parse_spec, read_spec

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sweeps" / "jam_south.toml"
ISSUE_SPEC = {
    "version": 1, "board": "standard", "mode": "jam",
    "die": {"x": 0.0, "y": -0.18, "angle": 0.0, "face": 4}, "dice": [],
    "aim": {"from": 1.2, "to": 1.95, "steps": 16}, "speed": {"from": 0.5, "to": 3.0, "steps": 11},
    "offset": 0.0, "height": 0.5, "repeats": 16, "noise": "table", "seed": 1,
}  # fmt: skip


def small(**changes) -> dict:
    spec = {
        **ISSUE_SPEC,
        "aim": {"from": 0.0, "to": 3.0, "steps": 3},
        "speed": {"from": 2.5, "to": 4.0, "steps": 2},
        "repeats": 3,
        "seed": 5,
    }
    spec.update(changes)
    return spec


def test_toml_and_json_give_the_same_spec(tmp_path: Path) -> None:
    from_toml = read_spec(EXAMPLE)
    data = {**ISSUE_SPEC, "description": from_toml.description}
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(data))
    assert read_spec(path) == from_toml
    assert from_toml.shape == (16, 11, 1, 1) and from_toml.shots == 16 * 11 * 16


def test_cells_are_in_grid_order_last_axis_fastest() -> None:
    spec = parse_spec(small(height={"from": 0.2, "to": 0.8, "steps": 2}))
    flicks = [spec.cell_flick(c) for c in range(spec.cells)]
    assert flicks[0] == (0.0, 2.5, 0.0, 0.2)
    assert flicks[1] == (0.0, 2.5, 0.0, 0.8)
    assert flicks[2] == (0.0, 4.0, 0.0, 0.2)
    assert flicks[4] == (1.5, 2.5, 0.0, 0.2)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"version": 2}, "version"),
        ({"aim": {"from": 0, "to": 1}}, "aim lacks 'steps'"),
        ({"speed": {"from": 0, "to": 1, "steps": 2}}, "more than 0"),
        ({"repeats": 0}, "repeats"),
        ({"repeats": True}, "repeats"),
        ({"noise": "wild"}, "noise"),
        ({"seed": -1}, "seed"),
        ({"offset": 0.7}, "offset"),
        ({"mode": "golf"}, "mode"),
        ({"colour": 1}, "unknown key"),
        ({"aim": {"from": 0, "to": 1, "steps": 1000}, "repeats": 100_000}, "at most"),
        ({"dice": [{"id": "shooter", "x": 0.1, "y": 0.1}]}, "shooter"),
    ],
)
def test_bad_specs_are_one_line_errors(change: dict, fragment: str) -> None:
    with pytest.raises(UserError, match=fragment):
        parse_spec(small(**change))


def test_chunking_and_order_do_not_change_a_bit() -> None:
    spec = parse_spec(small())
    whole = run.run_serial(spec)
    by_cell = run.run_serial(spec, chunk_cells=1)
    text = run.spec_json(spec)
    # chunks finishing in reverse order
    parts = [(cells, run.run_cells(text, cells)) for cells in reversed(run.chunks(spec, 1, 4))]
    backwards = run.assemble(spec, iter(parts))
    for k in whole.outcomes:
        assert np.array_equal(whole.outcomes[k], by_cell.outcomes[k]), k
        assert np.array_equal(whole.outcomes[k], backwards.outcomes[k]), k


def test_each_cell_has_its_own_generator() -> None:
    a = run.cell_rng(1, 0).random(4)
    assert not np.array_equal(a, run.cell_rng(1, 1).random(4))
    assert not np.array_equal(a, run.cell_rng(2, 0).random(4))
    assert np.array_equal(a, run.cell_rng(1, 0).random(4))


def test_noise_spreads_the_repeats_and_practice_does_not() -> None:
    noisy = run.run_serial(parse_spec(small(noise="table")))
    exact = run.run_serial(parse_spec(small(noise="practice")))
    xs_noisy = noisy.per_cell("x")
    xs_exact = exact.per_cell("x")
    assert np.all(xs_exact == xs_exact[:, :1])  # every repeat the same
    assert np.any(xs_noisy != xs_noisy[:, :1])


def test_metrics_and_json_cells() -> None:
    result = run.run_serial(parse_spec(small()))
    m = result.metrics()
    assert m["p_off"].shape == (3, 2, 1, 1)
    total = m["p_hole"] + m["p_off"] + m["p_illegal"] + m["p_face"].sum(axis=-1)
    assert np.allclose(total, 1.0)  # every shot ends somewhere
    cells = result.cells_json()
    assert [c["aim"] for c in cells] == [0.0, 0.0, 1.5, 1.5, 3.0, 3.0]
    assert {"p_hole", "p_off", "p_platform", "mean_penalty", "p_face"} <= set(cells[0])


def test_chunks_are_big_enough_and_balanced() -> None:
    spec = parse_spec(ISSUE_SPEC)  # 176 cells x 16
    tasks = run.chunks(spec, 2)
    sizes = [len(cells) * spec.repeats for cells in tasks]
    assert min(sizes[:-1]) >= run.MIN_TASK_SHOTS
    assert sorted(c for cells in tasks for c in cells) == list(range(spec.cells))


def test_a_worker_with_other_code_refuses_the_task() -> None:
    text = run.spec_json(parse_spec(small()))
    with pytest.raises(UserError, match="different jamsumo"):
        run.run_cells(text, [0], "0" * 64)
    assert run.run_cells(text, [0], run.code_fingerprint())["status"].shape == (3,)
