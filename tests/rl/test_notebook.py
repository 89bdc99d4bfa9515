"""notebooks/ai_quickstart.ipynb runs end to end (two games per pairing, a tiny search)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.notebook_runner import run_notebook

pytest.importorskip("pyspiel")

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "ai_quickstart.ipynb"


def test_ai_quickstart_notebook_runs():
    ns = run_notebook(NOTEBOOK, env={"AI_GAMES": "2", "AI_SIMS": "2"})
    assert set(ns["rates"]) == {"random vs random", "ismcts vs random"}
    assert all(0.0 <= r <= 1.0 for r in ns["rates"].values())
    assert ns["mask"].sum() >= 1 and "pile" in ns["view"]
