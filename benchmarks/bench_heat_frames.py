"""Frame times of the play window with the practice heat map computing (issue 20).

Runs the window (dummy video driver) as its loop does at 60 fps: build a frame, then wait for the
next one; the heat map's worker runs in the waits.  Prints p50/p95 of the frame time — from when
the frame was due to when it was shown (wall), so a wait for the interpreter after the sleep counts
— without the map, with a finished map shown, while it computes (gated, as shipped) and with an
ungated worker (for comparison), and the cells the map computed per second.  Usage: python benchmarks/bench_heat_frames.py [--frames N]
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402

from jamsumo_sim.physics.board import load_board  # noqa: E402
from jamsumo_sim.physics.params import PhysicsParams  # noqa: E402
from jamsumo_sim.ui.app import App  # noqa: E402
from jamsumo_sim.ui.session import SandboxSession  # noqa: E402

FPS = 60


def _run(
    app: App, frames: int, heat: bool, gated: bool, shown: bool = False
) -> tuple[np.ndarray, np.ndarray, int]:
    die = max(app.session.world().states(), key=lambda s: abs(s.x) + abs(s.y))
    times, cpu, cells = [], [], 0
    if shown:  # a finished map on the screen: its drawing alone
        app.heat.threaded = False
        app.heat.start(app, die.id)
        app.heat.threaded = True
    due = time.perf_counter()
    for _ in range(frames):
        if heat and (app.heat.job is None or app.heat.job.done()):
            if app.heat.job is not None:
                cells += len(app.heat.job.cells)
            app.heat.start(app, die.id)
            if not gated:  # the worker never waits: what a plain thread would do
                app.heat._restore_switch()  # and the interpreter's usual 5 ms switch interval
                job = app.heat.job
                job.pause = lambda: None  # type: ignore[method-assign]
                job.resume = lambda until=0.0: None  # type: ignore[method-assign]
        t0, c0 = time.perf_counter(), time.thread_time()
        app.frame(1 / FPS)
        t1 = time.perf_counter()
        cpu.append(time.thread_time() - c0)
        # from when the frame was due to when it was shown: the build plus any wait for the
        # interpreter after the sleep (a busy worker thread holds it for up to 5 ms)
        times.append(t1 - min(t0, due))
        due = max(t1, due + 1 / FPS)
        time.sleep(max(0.0, due - time.perf_counter()))
    if app.heat.job is not None:
        cells += len(app.heat.job.cells) if heat else 0
        app.heat.stop()
    return np.array(times) * 1000, np.array(cpu) * 1000, cells


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=480, help="frames per condition")
    ap.add_argument("--rounds", type=int, default=8, help="interleaved blocks (the load drifts)")
    args = ap.parse_args()
    board = load_board("standard")
    app = App(SandboxSession(board, PhysicsParams.from_board(board)), size=(1280, 800),
              autosave_enabled=False)  # fmt: skip
    _run(app, 30, False, True)  # warm up
    conditions = (
        ("no heat map", False, True, False),
        ("finished map shown", False, True, True),
        ("map computing", True, True, False),
        ("computing, ungated", True, False, False),
    )
    times: dict[str, list[np.ndarray]] = {c[0]: [] for c in conditions}
    cpus: dict[str, list[np.ndarray]] = {c[0]: [] for c in conditions}
    cells = dict.fromkeys(times, 0)
    block = max(1, args.frames // args.rounds)
    for _ in range(args.rounds):
        for name, heat, gated, shown in conditions:
            t, c, n = _run(app, block, heat, gated, shown)
            app.heat.stop()
            times[name].append(t)
            cpus[name].append(c)
            cells[name] += n
    for name, parts in times.items():
        t, c = np.concatenate(parts), np.concatenate(cpus[name])
        rate = cells[name] / (len(t) / FPS)
        print(
            f"{name:20s} wall p50 {np.percentile(t, 50):6.2f} p95 {np.percentile(t, 95):6.2f} ms"
            f"  window thread CPU p50 {np.percentile(c, 50):5.2f} p95 {np.percentile(c, 95):5.2f} ms"
            f"  map cells/s {rate:5.1f}"
        )
    pygame.quit()


if __name__ == "__main__":
    main()
