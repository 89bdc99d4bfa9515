"""The window in a real X window (Xvfb): 24 moving dice with trails, slow motion and a collision
preview draw through the x11 driver.  Timing is reported, not asserted (benchmarks/bench_ui.py measures
it; the figures are in docs/ui.md).  Skipped with a message when Xvfb is not installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.child_limits import HANG_GUARD_S, cpu_limited, hang_guard

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def xvfb_display():
    exe = shutil.which("Xvfb")
    if exe is None:
        pytest.skip(
            "Xvfb is not installed (apt-get install -y xvfb): real-window frame time not run"
        )
    read, write = os.pipe()
    proc = subprocess.Popen(
        [exe, "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as f:
            number = f.readline().strip()  # Xvfb writes its display number when it is ready
        if not number:
            pytest.skip("Xvfb did not start")
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=HANG_GUARD_S)


@pytest.mark.slow
def test_frames_draw_in_a_real_x_window_with_trails_and_preview(xvfb_display):
    env = {
        **os.environ,
        "DISPLAY": xvfb_display,
        "SDL_VIDEODRIVER": "x11",
        "SDL_AUDIODRIVER": "dummy",
        "PYTHONPATH": str(ROOT),
    }
    bench = ROOT / "benchmarks" / "bench_ui.py"
    out = subprocess.run(
        [sys.executable, str(bench), "--frames", "30", "--fx", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=hang_guard(120),
        preexec_fn=cpu_limited(120),
        check=True,
    )
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["driver"] == "x11"  # a real X window, not the dummy driver
    assert r["fx"] and r["preview_drawn"] and r["trail_points"] > 0
    print(f"Xvfb: {r['cpu_frame_ms_mean']} ms CPU per frame, {r['wall_fps_median']} fps wall")
