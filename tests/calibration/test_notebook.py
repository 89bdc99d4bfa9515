"""notebooks/calibration.ipynb runs end to end (smaller sample sizes for the test run)."""

from __future__ import annotations

from pathlib import Path

from tests.notebook_runner import run_notebook

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "calibration.ipynb"


def test_calibration_notebook_runs():
    ns = run_notebook(
        NOTEBOOK,
        env={
            "CALIB_SHOTS": "20",
            "CALIB_STARTS": "1",
            "CALIB_TRACKS": "0",
            "CALIB_COLLISIONS": "10",
            "CALIB_TUMBLE_FIT": "0",  # the tumble fit's recovery is tests/calibration/test_tumbles.py
            "CALIB_VALIDATE": "0",  # the quick set (a minute of CPU) is tests/reference/test_validate_cli.py
        },
    )
    cal = ns["cal"]
    assert set(cal.estimates) == {"mu_board", "mu_die", "restitution", "mu_static"}
    assert ns["fitted"].mu_board == cal.estimates["mu_board"].value
    assert ns["result"]["finished"] in (True, False)
    assert ns["tumble_cost_truth"] < ns["tumble_cost_default"] / 5
    # section 7b: the validation table beside the tumble fit (with the reference extra)
    if ns["validation"] is not None:
        assert len(ns["validation"]["cells"]) == 4 and ns["validation"]["hits"]
    if ns["VIDEO"]:  # section 8 runs only with the video extra (OpenCV)
        assert [s["written"] for s in ns["video_report"]["shots"]] == [True, True]
        assert [Path(p).name for p in ns["video_csvs"]] == ["rest_poses.csv", "trajectories.csv"]
