"""Dask: a 2-worker LocalCluster (processes, loopback only) gives the same bits as 1 worker and as
this process alone (a sweep and a tournament)."""

from __future__ import annotations

import numpy as np
import pytest

from jamsumo_sim.sweep import dask_runner, run
from jamsumo_sim.sweep import tournament as T
from jamsumo_sim.sweep.spec import parse_spec
from jamsumo_sim.turnloop import get_game

SPEC = {
    "version": 1,
    "die": {"x": 0.18, "y": 0.0, "angle": 0.2, "face": 4},
    "aim": {"from": 2.8, "to": 3.5, "steps": 4},
    "speed": {"from": 1.0, "to": 3.0, "steps": 3},
    "repeats": 2,
    "noise": "table",
    "seed": 11,
}


@pytest.mark.slow
def test_one_worker_and_two_workers_agree_bit_for_bit() -> None:
    spec = parse_spec(SPEC)
    serial = run.run_serial(spec)
    game = get_game("jellyfish")
    cards = T.TournamentSpec(
        "jellyfish", ("smart", "random"), 24, 9, game.validate_params(game.default_params(2))
    )
    here = T.summarise(cards, T.run_tournament(cards))
    with dask_runner.client_for(workers=2) as client:
        assert dask_runner.worker_count(client) == 2
        addresses = list(client.scheduler_info()["workers"])
        assert all(a.startswith("tcp://127.0.0.1:") for a in addresses)  # loopback only
        two = dask_runner.run_on(client, spec, chunk_cells=1)  # 24 tasks over both workers
        one_worker = addresses[:1]
        text = run.spec_json(spec)
        futures = {
            client.submit(run.run_cells, text, cells, workers=one_worker, pure=False): cells
            for cells in run.chunks(spec, 1, 5)
        }
        one = run.assemble(spec, ((futures[f], f.result()) for f in futures))
        there = T.summarise(cards, T.run_tournament(cards, client))
        who = client.run(lambda: __import__("os").getpid())
        assert len(set(who.values())) == 2  # two processes
    assert there == here  # the tournament too
    for k in serial.outcomes:
        assert np.array_equal(serial.outcomes[k], two.outcomes[k]), k
        assert np.array_equal(serial.outcomes[k], one.outcomes[k]), k
