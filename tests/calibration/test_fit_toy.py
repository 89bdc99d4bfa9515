"""The fit machinery on the toy analytic model (stop distance v0^2 / (2 mu g)), where the truth is exact."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim.calibrate import (
    calibrate,
    parse_fit_names,
    slide_estimate,
    split_holdout,
    starting_points,
)
from jamsumo_sim.calibration.data import load_all
from jamsumo_sim.calibration.fit import Problem, correlations, covariance, fit, fit_tilt
from jamsumo_sim.calibration.model import Shots, ToySimulator, wrap_quarter
from jamsumo_sim.errors import UserError

from .conftest import toy_files


def test_rest_fit_recovers_mu_within_its_stderr(tmp_path, flat_board, base_params):
    files = load_all([toy_files(tmp_path, flat_board, mu=0.3)["rest"]], flat_board)
    cal = calibrate(files, base_params, ToySimulator(), fit_names=["mu_board"], starts=2)
    est = cal.estimates["mu_board"]
    assert abs(est.value - 0.3) < 3 * est.stderr
    assert 0 < est.stderr < 0.003
    assert cal.rms_mm == pytest.approx(1.0, rel=0.4)  # the 1 mm noise the data were made with
    assert cal.params.mu_board == est.value and cal.params.mu_static >= cal.params.mu_board


def test_restitution_from_collisions(tmp_path, flat_board, base_params):
    paths = toy_files(tmp_path, flat_board, mu=0.3, e=0.6)
    files = load_all([paths["collision"]], flat_board)
    cal = calibrate(
        files, base_params, ToySimulator(), fit_names=["mu_board", "restitution"], starts=1
    )
    e = cal.estimates["restitution"]
    assert abs(e.value - 0.6) < 3 * e.stderr + 1e-4
    assert ("mu_board", "restitution") in cal.corr


def test_trajectory_nuisance_launch_velocity_is_fitted(tmp_path, flat_board, base_params):
    files = load_all([toy_files(tmp_path, flat_board, mu=0.3)["trajectory"]], flat_board)
    cal = calibrate(files, base_params, ToySimulator(), fit_names=["mu_board"], starts=1)
    est = cal.estimates["mu_board"]
    assert abs(est.value - 0.3) < max(3 * est.stderr, 0.01)
    vx = cal.fit.x[1::3]
    assert np.allclose(vx, [1.0, 1.3, 1.6], atol=0.02)


def test_holdout_is_reported_and_seeded(tmp_path, flat_board, base_params):
    files = load_all([toy_files(tmp_path, flat_board)["rest"]], flat_board)
    cal = calibrate(
        files, base_params, ToySimulator(), fit_names=["mu_board"], holdout=0.25, seed=3, starts=1
    )
    assert cal.shots == 15 and cal.holdout_shots == 5
    assert cal.holdout_rms_mm == pytest.approx(1.0, rel=0.8)
    shots = Shots.from_files(files)
    a, b = split_holdout(shots, 0.25, 3)
    a2, b2 = split_holdout(shots, 0.25, 3)
    assert a == a2 and b == b2 and {s.shot for s in a.rest}.isdisjoint({s.shot for s in b.rest})


def test_default_fit_names_follow_the_data(tmp_path, flat_board):
    paths = toy_files(tmp_path, flat_board)
    files = load_all(list(paths.values()), flat_board)
    assert parse_fit_names(None, files) == ("mu_board", "mu_die", "restitution", "mu_static")
    assert parse_fit_names(None, files[:1]) == ("mu_board",)
    with pytest.raises(UserError, match="restitution needs collision"):
        parse_fit_names("mu_board,restitution", files[:1])
    with pytest.raises(UserError, match="cannot fit 'gravity'"):
        parse_fit_names("gravity", files)


def test_slide_estimate_and_starts(tmp_path, flat_board, base_params):
    files = load_all([toy_files(tmp_path, flat_board, mu=0.3, noise=0.0)["rest"]], flat_board)
    shots = Shots.from_files(files)
    assert slide_estimate(shots, 9.81) == pytest.approx(0.3, rel=1e-6)
    pts = starting_points(("mu_board", "restitution"), shots, base_params, 3)
    assert len(pts) == 3 and pts[0][0] == pytest.approx(0.3, rel=1e-6) and pts[1] == [0.25, 0.7]


_T = np.linspace(0, 1, 30)
_U = 100 * (1 + _T)  # mm per unit of mu_board + mu_die
_W = 5 * np.cos(
    3 * _T
)  # mm per unit of mu_board - mu_die: 5 % of _U, so the pair is ~0.99 correlated
_WIGGLE = np.sin(40 * _T) * 0.01  # a residual no parameter explains (the noise estimate s^2 > 0)


class _Correlated(Problem):
    """Linear residuals with a known Jacobian [U + W, U - W]: the data pin mu_board + mu_die and only
    weakly mu_board - mu_die, so the two are strongly (anti)correlated by construction."""

    names = ("mu_board", "mu_die")
    w = _W

    def evaluate(self, x, blocks=None):
        return (x[0] + x[1] - 0.6) * _U + (x[0] - x[1] + 0.1) * self.w + _WIGGLE


class _Degenerate(_Correlated):
    """W = 0: the residuals depend on mu_board + mu_die only, the two cannot be told apart at all."""

    w = 0 * _W


def test_correlated_parameters_are_flagged_with_the_constructed_correlation():
    J = np.column_stack([_U + _W, _U - _W])
    cov = np.linalg.inv(J.T @ J)  # well conditioned (cond ~ 1e3): the exact answer
    rho = cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1])
    assert -0.999 < rho < -0.98
    best = (
        np.array([0.25, 0.35]) - np.linalg.lstsq(J, _WIGGLE, rcond=None)[0]
    )  # linear least squares
    res = fit(_Correlated(), [[0.2, 0.3]])
    assert res.values == pytest.approx(best, abs=1e-7)
    assert res.corr[0][1] == pytest.approx(rho, rel=1e-6)
    assert len(res.warnings) == 1 and "mu_board and mu_die" in res.warnings[0]
    assert "cannot tell them apart" in res.warnings[0]


def test_inseparable_parameters_are_flagged_whatever_the_rounding():
    # J^T J is singular here: the answer must not hang on how the last bits of J happened to round
    # (an inverse of it once came out with negative variances: no warning on some BLAS kernels)
    res = fit(_Degenerate(), [[0.2, 0.3]])
    assert res.warnings and "cannot tell them apart" in res.warnings[0]
    assert res.corr[0][1] == pytest.approx(-1.0, abs=1e-9)  # the sum is pinned: anti-correlated
    assert min(res.stderr) > 100  # not determined: huge errors, not zero ones
    u = _U[:, None]
    for eps in (0.0, 1e-16, -1e-16, 3e-15, -3e-15):
        J = np.hstack([u, u * (1 + eps)])
        corr = correlations(covariance(J, _WIGGLE))
        assert corr[0, 1] == pytest.approx(-1.0, abs=1e-9), eps


def test_a_parameter_without_effect_is_named():
    class NoDie(Problem):
        names = ("mu_board", "mu_die")

        def evaluate(self, x, blocks=None):
            return (x[0] - 0.3) * _U + _WIGGLE

    res = fit(NoDie(), [[0.2, 0.3]])
    assert any(w.startswith("mu_die does not change the residuals") for w in res.warnings)
    assert res.value("mu_board") == pytest.approx(0.3 - _U @ _WIGGLE / (_U @ _U), abs=1e-5)
    assert res.error("mu_die") > 100 * res.error("mu_board")


def test_multistart_reports_other_minima():
    class TwoMinima(Problem):
        names = ("mu_board",)

        def evaluate(self, x, blocks=None):
            return np.array([(x[0] - 0.2) * (x[0] - 0.8) * 10, 0.01 * (x[0] - 0.8)])

    res = fit(TwoMinima(), [[0.1], [0.95]])
    assert len(res.starts) == 2
    assert any("another minimum" in w for w in res.warnings)


def test_tilt_probit_and_separated_data():
    rng = np.random.default_rng(0)
    truth = math.degrees(math.atan(0.35))
    angles = np.repeat(np.arange(15.0, 25.0, 0.25), 4)
    slipped = angles + rng.normal(0, 0.8, angles.size) > truth
    t = fit_tilt(angles, slipped)
    assert abs(t.mu_static - 0.35) < 3 * t.stderr and t.stderr < 0.01
    assert t.spread_deg == pytest.approx(0.8, rel=0.5)
    sep = fit_tilt([10, 15, 19, 20, 25], [False, False, False, True, True])
    assert sep.slip_angle_deg == 19.5 and sep.spread_deg == 0
    with pytest.raises(UserError, match="bracket"):
        fit_tilt([10, 20], [True, True])


def test_wrap_quarter():
    a = wrap_quarter(np.array([0.0, math.pi / 2, math.pi / 2 + 0.1, -0.1, math.pi / 4 - 1e-9]))
    assert np.allclose(a, [0, 0, 0.1, -0.1, math.pi / 4 - 1e-9])


def test_a_mismeasured_shot_is_named(tmp_path, flat_board, base_params):
    path = toy_files(tmp_path, flat_board, mu=0.3)["rest"]
    lines = path.read_text().splitlines()
    fields = lines[5].split(",")  # shot s3 on line 6
    fields[7] = str(float(fields[7]) + 0.05)  # its rest x 50 mm off
    lines[5] = ",".join(fields)
    path.write_text("\n".join(lines) + "\n")
    cal = calibrate(
        load_all([path], flat_board), base_params, ToySimulator(), fit_names=["mu_board"], starts=1
    )
    assert any("'s3' (line 6) misfits" in w for w in cal.warnings)
