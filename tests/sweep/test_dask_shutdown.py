"""A Dask run that succeeds leaves stderr empty: no CommClosedError traceback from a worker whose
heartbeat was cut while the LocalCluster closed (the lead saw one on closing a benchmark's
cluster)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from jamsumo_sim.sweep import dask_runner
from tests.child_limits import cpu_limited, hang_guard
from tests.hostile.harness import script


@pytest.mark.slow
def test_a_cut_heartbeat_prints_nothing(capfd) -> None:
    """Cut a worker's heartbeat the way closing does (the connection closed under it): the worker
    goes on, and nothing reaches stderr (workers write to this process's stderr)."""

    async def lose_a_heartbeat(dask_worker) -> bool:
        from distributed.comm.core import CommClosedError

        class ClosedStream:
            async def heartbeat_worker(self, **_: object) -> None:
                raise CommClosedError(
                    "in <TCP (closed) ConnectionPool.heartbeat_worker>: Stream is closed"
                )

        real = dask_worker.scheduler
        dask_worker.scheduler = ClosedStream()
        try:
            await dask_worker.heartbeat()
        finally:
            dask_worker.scheduler = real
        return True

    capfd.readouterr()
    with dask_runner.client_for(workers=1) as client:
        assert all(client.run(lose_a_heartbeat).values())
        assert client.submit(sum, [1, 2], pure=False).result() == 3  # the worker goes on
    assert capfd.readouterr().err == ""


@pytest.mark.slow
@pytest.mark.parametrize("command", ["sweep", "tournament"])
def test_the_commands_on_two_workers_leave_stderr_empty(command: str, tmp_path: Path) -> None:
    if command == "sweep":
        spec = tmp_path / "s.json"
        spec.write_text(json.dumps({
            "version": 1, "die": {"x": 0.0, "y": -0.18, "face": 4},
            "aim": {"from": 1.2, "to": 1.95, "steps": 3}, "speed": {"from": 0.5, "to": 3.0, "steps": 2},
            "repeats": 2, "noise": "table", "seed": 1,
        }))  # fmt: skip
        args = ["sweep", str(spec), "--workers", "2", "--json", "--out", str(tmp_path / "o")]
    else:
        args = [
            "tournament",
            "--matches",
            "2",
            "--max-turns",
            "4",
            "--seed",
            "0",
            "--workers",
            "2",
            "--json",
            "--out",
            str(tmp_path),
        ]
    # not harness.run_cli: a cluster needs more than its 10 s of CPU and 1 GiB
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(
        [script("jamsumo"), *args],
        capture_output=True,
        text=True,
        timeout=hang_guard(300),
        preexec_fn=cpu_limited(300),
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""
    assert json.loads(done.stdout)["version"] == 1
