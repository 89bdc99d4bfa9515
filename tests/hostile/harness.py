"""Run an installed console script on hostile input: it must exit 2 with one line on stderr, no traceback,
within 10 s of CPU time (plus room for a first numba compile) and 1 GiB of memory (address-space limit
on the child process). Wall time is only a hang guard: on a busy machine it says nothing about the code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.child_limits import HANG_GUARD_S, NUMBA_COMPILE_S, cpu_limited, ended

CPU_LIMIT_S = 10.0 + NUMBA_COMPILE_S  # the command's own work (well under 2 s) and a first compile
MEMORY_LIMIT_BYTES = 1 << 30
LIMITS = cpu_limited(CPU_LIMIT_S, MEMORY_LIMIT_BYTES)  # the preexec_fn of every hostile child


def script(name: str) -> str:
    """The installed console script (``jamsumo`` or ``card-games``) beside this interpreter."""
    beside = Path(sys.executable).with_name(name)
    if beside.exists():
        return str(beside)
    found = shutil.which(name)
    assert found, f"console script {name!r} is not installed (pip install -e .)"
    return found


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str


def run_cli(
    prog: str, *args: str, cwd: str | Path | None = None, stdin: str = "", env: dict | None = None
) -> Outcome:
    full_env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    full_env.update(env or {})
    proc = subprocess.run(
        [script(prog), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        preexec_fn=LIMITS,
        cwd=cwd,
        env=full_env,
    )
    return Outcome(proc.returncode, proc.stdout, proc.stderr)


def assert_one_line_error(out: Outcome, *fragments: str) -> str:
    """Exit 2, exactly one non-empty stderr line, no traceback; each fragment appears in that line."""
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert "Traceback" not in out.stderr, out.stderr
    assert out.code == 2, f"{ended(out.code)}, stderr: {out.stderr!r}"
    assert len(lines) == 1, f"expected one stderr line, got {lines!r}"
    for fragment in fragments:
        assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    return lines[0]
