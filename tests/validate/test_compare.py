"""The ensemble's face comparison (`jamsumo validate`): its noise floor and permutation test."""

from __future__ import annotations

import numpy as np
import pytest

from jamsumo_sim.validate.compare import tv_distance, tv_noise


def test_two_samples_of_one_distribution_are_about_0_18_apart_at_50():
    # six faces, 50 each: the bar of 0.15 is below this (docs/physics.md)
    rng = np.random.default_rng(1)
    a = list(rng.integers(1, 7, 50))
    b = list(rng.integers(1, 7, 50))
    noise, p = tv_noise(a, b, seed=0, draws=2000)
    assert noise == pytest.approx(0.177, abs=0.02)
    assert p > 0.01


def test_disjoint_samples_are_rejected_and_identical_ones_are_not():
    noise, p = tv_noise([1] * 50, [6] * 50, seed=0, draws=2000)
    assert tv_distance([1] * 50, [6] * 50) == 1.0 and p < 0.001 and noise < 0.2
    same = [1, 2, 3, 4, 5, 6] * 8
    assert tv_noise(same, list(same), seed=0, draws=500)[1] == 1.0


def test_the_point_fingers_ensemble_has_the_figures_in_the_docs():
    # a point finger of mu_f 0.3 (the finger branch) against the resolved reference, 4 m/s at 0.9
    # (docs/physics.md "Where this leaves issue 33"): TV 0.26, permutation p ~0.10
    game = [1] * 12 + [2] * 10 + [5] * 15 + [6] * 13
    ref = [1] * 11 + [2] * 9 + [3] * 5 + [4] * 8 + [5] * 7 + [6] * 10
    assert tv_distance(game, ref) == pytest.approx(0.26)
    assert tv_noise(game, ref, seed=0, draws=4000)[1] == pytest.approx(0.098, abs=0.02)


def test_it_is_the_same_for_the_same_seed():
    a, b = [1, 2, 2, 3, 5, 6] * 5, [1, 1, 2, 4, 5, 6] * 5
    assert tv_noise(a, b, seed=3, draws=300) == tv_noise(a, b, seed=3, draws=300)


def test_at_200_the_noise_is_half_the_bar():
    # the full set's default (validate.grid.ENSEMBLE): two samples of 200 from one distribution of
    # six even faces lie 0.089 apart (the game's and the 3D's four main faces: 0.075), so the
    # issue's bar of 0.15 can tell a difference from noise
    rng = np.random.default_rng(2)
    a = list(rng.integers(1, 7, 200))
    b = list(rng.integers(1, 7, 200))
    assert tv_noise(a, b, seed=0, draws=2000)[0] == pytest.approx(0.09, abs=0.02)


def test_the_full_set_takes_the_ensemble_asked_for():
    from jamsumo_sim.validate.grid import ENSEMBLE, plan

    assert plan(False).ensemble == ENSEMBLE == 200 and plan(False, 50).ensemble == 50
    assert plan(True).ensemble == 6 and len(plan(False).cells) == 72


@pytest.mark.parametrize("bad", ["0", "-3", "many", "1e9"])
def test_a_bad_ensemble_is_a_one_line_error(bad, capsys):
    from jamsumo_sim.cli import build_parser

    with pytest.raises(SystemExit) as ended:
        build_parser().parse_args(["validate", "--ensemble", bad])
    assert ended.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("jamsumo validate: error: argument --ensemble")
