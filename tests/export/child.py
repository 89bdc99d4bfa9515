"""``jamsumo export`` in a child process under a CPU-time and an address-space limit, reporting the
child's own peak memory and CPU time (its ``main``, as the console script runs it)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HANG_GUARD_S = 900  # wall clock, only against a child that hangs without using CPU

_CHILD = """
import resource, sys
from jamsumo_sim.cli import main
try:
    code = main(sys.argv[2:])
finally:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    with open(sys.argv[1], "w") as report:
        report.write(f"{me.ru_maxrss} {cpu}")
sys.exit(code)
"""


@dataclass(frozen=True)
class Run:
    code: int
    stdout: str
    stderr: str
    peak_bytes: int  # the child's maximum resident set (-1: it was killed before reporting)
    cpu_s: float


def run_export(*args: object, cpu_s: int, memory_bytes: int) -> Run:
    """``jamsumo export ARGS`` with RLIMIT_CPU ``cpu_s`` and RLIMIT_AS ``memory_bytes``."""

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "usage"
        argv = [sys.executable, "-c", _CHILD, str(report), "export", *map(str, args)]
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=HANG_GUARD_S, preexec_fn=limits, env=env
        )
        peak, cpu = -1, float("nan")
        if report.exists():
            kib, seconds = report.read_text().split()
            peak, cpu = int(kib) * 1024, float(seconds)
    return Run(proc.returncode, proc.stdout, proc.stderr, peak, cpu)
