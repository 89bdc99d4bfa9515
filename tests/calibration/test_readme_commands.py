"""The commands calibration/README.md gives for its sample data run as written (issue 31): the samples
were simulated on samples/plank.toml, so every command on them names that board."""

from __future__ import annotations

import re
import resource
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "calibration" / "README.md"
SAMPLES = ROOT / "calibration" / "samples"
SAMPLE_FILES = {p.name for p in SAMPLES.glob("*.csv")}


def sample_commands() -> list[list[str]]:
    """The guide's `jamsumo calibrate …` commands on the samples: the code block that starts with
    `cd calibration/samples` and the rows of the results table (the guide's first command is for
    the reader's own measurements, on their own board)."""
    text = GUIDE.read_text(encoding="utf-8").replace("\\\n", " ")  # join continued lines
    blocks = re.findall(r"cd calibration/samples\n(.*?)```", text, flags=re.S)
    rows = re.findall(r"^\| `(jamsumo calibrate [^`]+)`", text, flags=re.M)
    found = [line for b in blocks for line in b.splitlines() if "jamsumo calibrate" in line] + rows
    return [shlex.split(c) for c in found]


def test_every_command_on_the_samples_names_their_board() -> None:
    commands = sample_commands()
    assert len(commands) >= 4  # the try-it block, and the results table's three rows
    for argv in commands:
        i = argv.index("--board") if "--board" in argv else -1
        assert i > 0 and argv[i + 1] == "plank.toml", " ".join(argv)


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))  # the fit takes ~3-7 CPU s with start-up


def test_the_quickest_table_command_runs_as_written() -> None:
    argv = next(
        c for c in sample_commands() if c[2:] == ["rest_poses.csv", "--board", "plank.toml"]
    )
    out = subprocess.run(
        [sys.executable, "-m", "jamsumo_sim", *argv[1:]],
        cwd=SAMPLES,
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard only (wall clock on a busy machine)
        preexec_fn=_limit_cpu,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert "shots fitted: 40" in out.stdout and "mu_board" in out.stdout
