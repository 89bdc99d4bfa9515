"""Running a sweep's chunks on Dask distributed: a LocalCluster on this machine (``workers``
processes, one thread each, loopback only) or an existing scheduler (``tcp://HOST:8786``, workers
started with this package installed).

Chunks (:func:`.run.chunks`: even samples of the grid, big ones first and ~0.5 s ones last) go out as
tasks that the scheduler hands to workers as they free up; the results come back
in any order and are put in grid order, so the output is bit-identical to :func:`.run.run_serial`.
The numba kernels are loaded (compiled the first time) here before any worker starts: numba's cache
is not safe to build from many processes at once, and workers then only read it.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from collections.abc import Callable, Iterator

from ..errors import UserError
from ..extras import require
from .run import SweepResult, assemble, chunks, code_fingerprint, run_cells
from .spec import SweepSpec, spec_json

NO_DASK = "use --workers 0"  # this process only: the core install's way
CONNECT_TIMEOUT = "3s"  # an unreachable --scheduler fails in seconds, not minutes
# What distributed.worker logs, with a CommClosedError traceback, when a heartbeat is cut
LOST_HEARTBEAT = "Failed to communicate with scheduler during heartbeat."


class QuietLostHeartbeat(logging.Filter):
    """Drops the lost-heartbeat record. A worker closing at the end of a run closes its own
    connections, and a heartbeat in flight then fails ("Stream is closed"): a traceback on stderr
    after a successful run. Nothing is lost by hiding it: the worker sends the next heartbeat, and
    a scheduler that is really gone fails the tasks at the client."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg != LOST_HEARTBEAT


def quiet_lost_heartbeats() -> None:
    """Install QuietLostHeartbeat in this process (once)."""
    logger = logging.getLogger("distributed.worker")
    if not any(isinstance(f, QuietLostHeartbeat) for f in logger.filters):
        logger.addFilter(QuietLostHeartbeat())


def warm_kernels() -> None:
    """Load (or compile and cache) the step kernels in this process, before workers start."""
    from ..physics import warm_up
    from .lone import warm_up as warm_lone

    warm_up()
    warm_lone()  # the batch path's compiled lone-die model (sweep/lone_kernel.py)


def _warm_worker() -> bool:
    warm_kernels()
    return True


def check_reachable(address: str) -> None:
    """A tcp:// scheduler that refuses connections fails here at once, before Dask is imported."""
    if not address.startswith("tcp://"):
        return
    host, _, port = address[len("tcp://") :].rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=3.0).close()
    except (OSError, ValueError) as exc:
        raise UserError(f"--scheduler {address[:60]}: cannot connect ({exc})") from None


def require_dask(command: str = "a sweep or tournament") -> None:
    """Dask (the sweep extra) is installed, or one line naming the extra for ``command``, before
    anything is shown."""
    require("dask.distributed", "sweep", f"{command} with --workers or --scheduler", NO_DASK)


@contextlib.contextmanager
def client_for(
    workers: int | None = None, scheduler: str | None = None, physics: bool = True
) -> Iterator[object]:
    """A Dask client: on a new LocalCluster of ``workers`` processes, or on ``scheduler``; with
    ``physics`` the step kernels are loaded (or compiled) first, once, not by every worker (a card
    games' tournament never steps them: ~26 s of compiling on a cold cache for nothing)."""
    if scheduler is not None:
        check_reachable(scheduler)
    require_dask()
    from dask.distributed import Client, LocalCluster

    # Dask logs cluster chatter at INFO to stderr; a command's stderr is for errors only
    for name in ("distributed", "distributed.nanny", "distributed.scheduler", "distributed.worker"):
        logging.getLogger(name).setLevel(logging.ERROR)
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise UserError(f"--scheduler {scheduler[:60]}: cannot connect ({exc})") from None
        try:
            if physics:
                client.run(_warm_worker)
            yield client
        finally:
            client.close()
        return
    if physics:
        warm_kernels()
    cluster = LocalCluster(
        n_workers=workers or 1,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",  # any free port: two clusters on one machine never clash
        silence_logs=logging.ERROR,
    )
    client = Client(cluster)
    try:
        client.run(quiet_lost_heartbeats)  # our workers write to this command's stderr
        yield client
    finally:
        client.close()
        cluster.close()


def worker_count(client) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


def run_on(
    client,
    spec: SweepSpec,
    chunk_cells: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    """The sweep's chunks as tasks on ``client``; the result in grid order."""
    from dask.distributed import as_completed

    text = spec_json(spec)
    code = code_fingerprint()
    tasks = chunks(spec, worker_count(client), chunk_cells)
    futures = {client.submit(run_cells, text, cells, code, pure=False): cells for cells in tasks}

    def parts():
        for fut in as_completed(futures):
            cells = futures[fut]
            part = fut.result()
            if progress is not None:
                progress(len(cells) * spec.repeats)
            yield cells, part

    return assemble(spec, parts())


def run_distributed(
    spec: SweepSpec,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk_cells: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> SweepResult:
    with client_for(workers, scheduler) as client:
        return run_on(client, spec, chunk_cells, progress)
