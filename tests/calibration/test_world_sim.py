"""The track simulator's memory does not grow with (steps x shots): a fine dt cannot exhaust memory."""

from __future__ import annotations

import tracemalloc

import numpy as np

from jamsumo_sim.calibration.world_sim import WorldSimulator


def _peak(sim, params, launches, times) -> tuple[int, list[np.ndarray]]:
    tracemalloc.start()
    try:
        out = sim.track(params, launches, times)
        return tracemalloc.get_traced_memory()[1], out
    finally:
        tracemalloc.stop()


def test_track_memory_is_bounded_by_the_samples_not_the_steps(flat_board, base_params):
    fine = base_params.with_overrides({"dt": 0.0001})
    shots = 10
    launches = np.array([[0.05 * k - 0.25, 0.0, 0.0, 0.0, 0.0, 0.0] for k in range(shots)])
    sim = WorldSimulator(flat_board)
    # dice at rest: the run stops at once, whatever the last sample time
    short, _ = _peak(sim, fine, launches, [np.array([0.01, 0.02, 0.03])] * shots)
    long, out = _peak(sim, fine, launches, [np.array([0.01, 0.02, 19.9])] * shots)
    # keeping every step up to 19.9 s would take 199 001 steps x 10 shots x 3 floats = 48 MB more
    assert long - short < 5_000_000, f"{(long - short) / 1e6:.0f} MB more for a longer track"
    assert np.allclose(out[0], [[-0.25, 0.0, 0.0]] * 3, atol=1e-9)
