"""Limits for what tests start, by CPU time instead of wall time.

On a shared machine a child's wall time says nothing about the code: with two cores and a dozen busy
processes a command using 0.4 s of CPU took 5-10 s of wall time, and a fixed 10 s timeout failed
tests at random. So a child process is stopped by the CPU time it uses (RLIMIT_CPU: SIGXCPU at the
soft limit, SIGKILL a little later) and, where asked, by its address space (RLIMIT_AS). A wall-clock
cap is kept only as a guard against a child or thread that blocks forever without using any CPU
(:data:`HANG_GUARD_S`, far beyond any expected time).

CPU budgets include :data:`NUMBA_COMPILE_S`: a child may be the first process to call a step kernel
since the kernel sources changed, and then compiles it (``warm_up()`` measured 16 s of CPU with an
empty cache; the cache lives in ``~/.cache/jamsumo/numba`` and is keyed by the kernel sources).
"""

from __future__ import annotations

import math
import resource
import signal
import time
from collections.abc import Callable

# a wall-clock cap only against hangs: a 16 s-of-CPU child took 360 s of wall time on the busiest
# machine seen (2 cores, ~20 runnable processes), so 10 min stays clear of any working child
HANG_GUARD_S = 600.0
# a first call of the step kernels compiles them (16 s of CPU measured): budgets leave room for it
NUMBA_COMPILE_S = 30.0
# SIGKILL this long after SIGXCPU, for a child that catches or ignores SIGXCPU
_KILL_AFTER_S = 5


def cpu_limited(
    seconds: float,
    memory_bytes: int | None = None,
    then: Callable[[], object] | None = None,
) -> Callable[[], None]:
    """A ``preexec_fn``: at most ``seconds`` of CPU (and ``memory_bytes`` of address space) for the
    child; ``then`` runs after, for a child that needs more set up (a umask, a signal)."""
    soft = max(1, math.ceil(seconds))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + _KILL_AFTER_S))
        if memory_bytes is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        if then is not None:
            then()

    return limit


def hang_guard(cpu_seconds: float) -> float:
    """The wall-clock cap for a child with a CPU budget of ``cpu_seconds``: ten times that (a child
    may get a tenth of a core on a busy machine), and never under :data:`HANG_GUARD_S`."""
    return max(HANG_GUARD_S, 10.0 * cpu_seconds)


def ended(returncode: int) -> str:
    """How a child ended, for assertion messages: over its CPU budget reads as such."""
    if returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"killed by {signal.Signals(-returncode).name} (over its CPU budget?)"
    return f"exit {returncode}"


def cpu_deadline(seconds: float) -> Callable[[], bool]:
    """For a loop that spins while it waits (frames, polling): True once this process (all its
    threads) has used ``seconds`` more CPU. Unlike a wall-clock deadline, load does not trip it."""
    stop = time.process_time() + seconds
    return lambda: time.process_time() >= stop
