"""`jamsumo validate --quick --json` end to end, in a CPU-limited child."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("mujoco")

from jamsumo_sim.reference.config import load_config  # noqa: E402
from tests.child_limits import NUMBA_COMPILE_S, cpu_limited, ended, hang_guard  # noqa: E402

CPU_S = 90.0 + NUMBA_COMPILE_S  # the quick set measured 51 s of CPU (66 s with the machine busy)


def test_quick_json_has_the_table(tmp_path):
    plot = tmp_path / "v.png"
    cmd = [
        sys.executable,
        "-m",
        "jamsumo_sim",
        "validate",
        "--quick",
        "--json",
        "--plot",
        str(plot),
    ]
    proc = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        preexec_fn=cpu_limited(CPU_S),
        timeout=hang_guard(CPU_S),
        env={**__import__("os").environ, "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, (ended(proc.returncode), proc.stderr[-2000:])
    out = json.loads(proc.stdout)
    assert out["quick"] is True and plot.stat().st_size > 0
    # the JSON names the reference it was judged against: its step and the stiffness of its contacts
    cfg = load_config()
    assert out["reference"] == {
        "dt": cfg.step.dt,
        "grid": cfg.contacts.grid,
        "timeconst": cfg.contacts.timeconst,
        "finger_contact_time": cfg.finger.contact_time,
    }
    cells = out["cells"]
    assert len(cells) == 4 and out["groups"]
    for c in cells:
        for side in ("game", "ref"):
            assert c[side]["distance"] > 0 and c[side]["face"] in range(1, 7)
        if c["height"] == 0.5:  # mid-height strikes agree (issue 33): no tumble, same face
            assert 0.9 < c["distance_ratio"] < 1.1
            assert c["ref"]["quarter_turns"] == 0 and c["same_face"]
    assert out["ensemble"]["n"] == 6 and 0 <= out["ensemble"]["tv_distance"] <= 1
    head_on = next(h for h in out["hits"] if h["name"] == "head-on")
    assert abs(head_on["direction_deg"][1]) < 2 and 0.8 < head_on["speed_ratio"] < 1.25
