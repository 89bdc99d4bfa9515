"""The first run's compile notice (issue 31): one stderr line before numba compiles the physics
kernels (a cold cache), none once they load from the cache, never in a pipe or a file.

The line is for a person at a terminal, so stderr is a pseudo-terminal here; a cold cache is an
empty XDG_CACHE_HOME."""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from jamsumo_sim import compile_notice

COLD_CPU_S = 120  # the cold run compiles for ~15 s of CPU (more under load); the limit is a guard
HANG_GUARD_S = 600  # wall clock, only against a hang (>= 10x the expected time on a busy machine)


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (COLD_CPU_S, COLD_CPU_S))


def run_with_terminal_stderr(args: list[str], cache_home: Path) -> tuple[int, str, str]:
    """``python -m jamsumo_sim ARGS`` with stderr on a pseudo-terminal: (code, stdout, stderr)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(XDG_CACHE_HOME=str(cache_home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    master, slave = os.openpty()
    chunks: list[bytes] = []

    def read_terminal() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jamsumo_sim", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=slave,
            env=env,
            preexec_fn=_limit_cpu,
        )
        os.close(slave)
        out, _ = proc.communicate(timeout=HANG_GUARD_S)
        reader.join(timeout=60)
    finally:
        os.close(master)
    err = b"".join(chunks).decode().replace("\r\n", "\n")
    return proc.returncode, out.decode(), err


def test_notice_once_on_a_cold_cache_and_not_on_a_warm_one(tmp_path: Path) -> None:
    line = compile_notice.NOTICE.format(seconds=compile_notice.PHYSICS_SECONDS)
    code, out, err = run_with_terminal_stderr(["sim", "--example", "hole-skim"], tmp_path)
    assert code == 0, err
    assert err.splitlines() == [line]  # the first line, and the only one
    assert json.loads(out)["rested"] is True
    code, out, err = run_with_terminal_stderr(["sim", "--example", "hole-skim"], tmp_path)
    assert code == 0 and err == "" and json.loads(out)["rested"] is True


def test_no_notice_into_a_pipe_or_without_a_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: a compile outside `announcing` or with stderr not a terminal says nothing."""
    monkeypatch.setattr(compile_notice, "_REQUEST", compile_notice._Request())  # this test's own
    silent = io.StringIO()
    with compile_notice.announcing(stream=silent):  # a StringIO is not a terminal
        compile_notice._say()
    assert silent.getvalue() == ""
    told = io.StringIO()
    compile_notice._say()  # no command running: nothing
    with compile_notice.announcing(seconds=7, stream=told, terminal_only=False):
        compile_notice._say()
        compile_notice._say()  # once a process
    assert told.getvalue() == compile_notice.NOTICE.format(seconds=7) + "\n"
