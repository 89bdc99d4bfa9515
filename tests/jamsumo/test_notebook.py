"""notebooks/shot_analysis.ipynb runs (small sample sizes) and computes a sensible hole map."""

from __future__ import annotations

import json
from pathlib import Path

from tests.notebook_runner import run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "shot_analysis.ipynb"


def test_notebook_is_valid_nbformat_4_without_outputs() -> None:
    nb = json.loads(NOTEBOOK.read_text())
    assert nb["nbformat"] == 4
    assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code")


def test_shot_analysis_notebook_runs() -> None:
    ns = run_notebook(NOTEBOOK, env={"SHOT_SPEEDS": "4", "SHOT_AIMS": "2", "SHOT_SAMPLES": "1"})
    prob = ns["prob"]
    assert prob.shape == (4, 2)
    assert ((prob >= 0) & (prob <= 1)).all()
    assert ns["paths"]  # the trajectories of the picked shot
