"""Film -> track -> calibrate: 20 simulated shots with mu_board = 0.30 rendered to an MJPG video,
tracked by the installed `jamsumo track`, fitted by `jamsumo calibrate` on the CSVs as written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim.calibration.model import with_fitted
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from tests.child_limits import cpu_limited, hang_guard

from .synth import Camera, Renderer, random_shots, write_video

MU_TRUE = 0.30


def _jamsumo(*args: str) -> subprocess.CompletedProcess:
    exe = str(Path(sys.executable).with_name("jamsumo"))
    return subprocess.run(
        [exe, *args],
        capture_output=True,
        text=True,
        timeout=hang_guard(600),
        preexec_fn=cpu_limited(600),
    )


@pytest.mark.slow
def test_twenty_filmed_shots_recover_mu_board(tmp_path):
    board = load_board("standard")
    params = with_fitted(PhysicsParams.from_board(board), ["mu_board"], [MU_TRUE])
    rng = np.random.default_rng(2026)
    camera = Camera(tilt_deg=18.0, azimuth_deg=60.0)
    renderer = Renderer(board, camera, rng, params.die_size)
    shots = random_shots(board, params, rng, 20)
    video = tmp_path / "shots.avi"
    write_video(video, renderer, board, params, shots, 60.0, rest_frames=4)
    cam_file = tmp_path / "camera.json"
    cam_file.write_text(json.dumps(camera.intrinsics().to_json()))
    out = tmp_path / "tracked"
    run = _jamsumo("track", str(video), "--dice", "red", "--out", str(out), "--camera", str(cam_file),
                   "--json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert sum(s["written"] for s in report["shots"]) == 20
    assert all(Path(s["figure"]).is_file() for s in report["shots"])
    csvs = sorted(str(p) for p in out.glob("*.csv"))
    assert [Path(p).name for p in csvs] == ["rest_poses.csv", "trajectories.csv"]
    fit = _jamsumo("calibrate", *csvs, "--fit", "mu_board", "--json")
    assert fit.returncode == 0, fit.stderr
    mu = json.loads(fit.stdout)["params"]["mu_board"]["value"]
    assert abs(mu - MU_TRUE) / MU_TRUE < 0.03, mu
