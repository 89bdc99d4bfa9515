"""Least-squares fitting with standard errors, correlations and a multi-start search.

A :class:`Problem` maps a parameter vector (the physical parameters being fitted, then any per-shot
nuisance parameters such as a tracked shot's launch velocity) to residuals in millimetres.  The
Jacobian is taken by forward differences in *groups*: columns that touch disjoint residual rows (one
nuisance per shot) are perturbed together, so a Jacobian costs (globals + nuisance kinds) simulations
rather than one per column.

Statistics (Gauss-Newton): cov = (J^T J)^-1 s^2 with s^2 = sum r^2 / (m - n), the usual estimate when
the measurement noise is unknown but the same for every residual.  The inverse is taken through the
SVD of J with unit-norm columns, never by inverting J^T J: with two parameters the data cannot tell
apart J^T J is singular to rounding, and its computed inverse is noise whose sign (a negative variance,
then no correlation at all) depended on the BLAS kernel and the solver's last step.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import least_squares
from scipy.stats import norm

from ..errors import UserError

# Physical parameters that calibration may fit, with the bounds the search stays inside.
FITTABLE: dict[str, tuple[float, float]] = {
    "mu_board": (0.02, 1.5),
    "mu_static": (0.02, 1.5),
    "mu_die": (0.0, 1.5),
    "restitution": (0.0, 1.0),
    "patch_fraction": (0.3, 1.0),
    "mu_wood": (0.0, 1.5),
    "restitution_wood": (0.0, 1.0),
    "air_drag": (0.0, 1.0),  # 1/m: slides at several speeds separate it from mu_board
}

# |correlation| above which two fitted parameters are reported as not separately identifiable.
IDENTIFIABILITY_LIMIT = 0.95
# Singular values of the column-normalised Jacobian below this fraction of the largest are taken as
# the floor itself: a forward-difference Jacobian is good to ~sqrt(machine eps) relative at best, so
# a smaller one says only "this direction is not determined", whichever way it happened to round.
RANK_RTOL = 1e-8


@dataclass(frozen=True)
class Group:
    """Columns perturbed together in a finite-difference Jacobian.

    ``cols[i]`` affects only residual rows ``rows[i]`` (``None``: all rows); ``blocks`` names the data
    blocks that must be re-simulated (``None``: all).
    """

    cols: tuple[int, ...]
    rows: tuple[np.ndarray | None, ...]
    blocks: frozenset[str] | None = None


class Problem:
    """Base class: subclasses set ``names``, ``lower``/``upper`` and implement :meth:`evaluate`."""

    names: tuple[
        str, ...
    ] = ()  # the fitted physical parameters (the first len(names) entries of x)
    nuisance_lower: np.ndarray = np.zeros(0)
    nuisance_upper: np.ndarray = np.zeros(0)

    def evaluate(self, x: np.ndarray, blocks: frozenset[str] | None = None) -> np.ndarray:
        """Residuals (mm) at x; with ``blocks``, only those blocks' rows need be correct."""
        raise NotImplementedError

    def nuisance_start(self) -> np.ndarray:
        return np.zeros(0)

    def groups(self) -> list[Group]:
        n = len(self.names) + len(self.nuisance_start())
        return [Group((j,), (None,)) for j in range(n)]


@dataclass(frozen=True)
class StartResult:
    start: tuple[float, ...]
    values: tuple[float, ...]
    cost: float
    nfev: int


@dataclass(frozen=True)
class FitResult:
    """The best fit over all starts and its statistics (global parameters only)."""

    names: tuple[str, ...]
    values: tuple[float, ...]
    stderr: tuple[float, ...]
    corr: tuple[tuple[float, ...], ...]
    rms: float  # residual RMS, in the residuals' unit (mm)
    n_residuals: int
    n_params: int  # globals + nuisance
    nfev: int
    starts: tuple[StartResult, ...]
    x: tuple[float, ...]  # full vector, nuisance included
    warnings: tuple[str, ...] = field(default=())

    def value(self, name: str) -> float:
        return self.values[self.names.index(name)]

    def error(self, name: str) -> float:
        return self.stderr[self.names.index(name)]


def bounds_for(names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    unknown = [n for n in names if n not in FITTABLE]
    if unknown:
        raise UserError(f"cannot fit {unknown[0]!r} (fittable: {', '.join(FITTABLE)})")
    lo = np.array([FITTABLE[n][0] for n in names], dtype=float)
    hi = np.array([FITTABLE[n][1] for n in names], dtype=float)
    return lo, hi


class _Evaluator:
    """Residuals and grouped forward-difference Jacobian, caching the last full evaluation."""

    def __init__(self, problem: Problem, diff_step: float, on_eval: Callable[[], None] | None):
        self.p = problem
        self.diff_step = diff_step
        self.on_eval = on_eval or (lambda: None)
        self.groups = problem.groups()
        self._key: bytes | None = None
        self._f: np.ndarray | None = None
        self.nfev = 0

    def _eval(self, x: np.ndarray, blocks=None) -> np.ndarray:
        self.nfev += 1
        self.on_eval()
        f = np.asarray(self.p.evaluate(x, blocks), dtype=float)
        if not np.all(np.isfinite(f)):
            raise UserError(
                "the simulation returned non-finite residuals (parameters out of range?)"
            )
        return f

    def fun(self, x: np.ndarray) -> np.ndarray:
        key = x.tobytes()
        if key != self._key:
            self._f = self._eval(x)
            self._key = key
        return self._f

    def jac(self, x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
        f0 = self.fun(x)
        J = np.zeros((f0.size, x.size))
        for g in self.groups:
            xp = x.copy()
            steps = {}
            for c in g.cols:
                h = self.diff_step * max(abs(x[c]), 0.1)
                if x[c] + h > upper[c]:
                    h = -h  # step inwards at an upper bound
                xp[c] = x[c] + h
                steps[c] = xp[c] - x[c]
            f1 = self._eval(xp, g.blocks)
            for c, rows in zip(g.cols, g.rows, strict=True):
                d = (f1 - f0) / steps[c]
                if rows is None:
                    J[:, c] = d
                else:
                    J[rows, c] = d[rows]
        return J


def covariance(J: np.ndarray, r: np.ndarray, scale: bool = True) -> np.ndarray:
    """(J^T J)^-1 s^2 (s^2 = r.r / (m - n), or 1 with ``scale=False``) from the SVD of J.

    Columns are scaled to unit norm first (units drop out; correlations do not depend on them) and
    singular values below ``RANK_RTOL`` of the largest are raised to that floor: a direction the
    data do not determine gets a huge but finite variance, so the parameters along it come out with
    huge errors and correlations of +-1 (the limit as that singular value goes to 0), the same
    every time rather than whatever sign rounding gave an inverse of a singular matrix.
    """
    m, n = J.shape
    s2 = float(r @ r) / max(m - n, 1) if scale else 1.0
    if n == 0:
        return np.zeros((0, 0))
    norms = np.linalg.norm(J, axis=0)
    d = np.where(norms > 0, norms, 1.0)  # a zero column: that parameter changes nothing
    _, sv, vt = np.linalg.svd(J / d, full_matrices=False)
    floor = RANK_RTOL * max(float(sv[0]) if sv.size else 0.0, 1.0)
    cov_unit = (vt.T / np.maximum(sv, floor) ** 2) @ vt
    # an SVD of a wide J (m < n) has only m singular values: the rest of the space is undetermined
    if vt.shape[0] < n:
        null = np.eye(n) - vt.T @ vt
        cov_unit += null / floor**2
    return cov_unit / np.outer(d, d) * s2


def correlations(cov: np.ndarray) -> np.ndarray:
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    with np.errstate(divide="ignore", invalid="ignore"):
        c = cov / np.outer(se, se)
    c[~np.isfinite(c)] = 0.0
    np.fill_diagonal(c, 1.0)
    return np.clip(c, -1.0, 1.0)


def unconstrained(names: Sequence[str], J: np.ndarray) -> list[str]:
    """Warnings for parameters whose Jacobian column is zero: the residuals do not change with them."""
    return [
        f"{n} does not change the residuals: this data cannot determine it; fix it or add data"
        for n, col in zip(names, J.T, strict=False)
        if not np.any(col)
    ]


def identifiability_warnings(names: Sequence[str], corr: np.ndarray) -> list[str]:
    out = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if abs(corr[i, j]) > IDENTIFIABILITY_LIMIT:
                out.append(
                    f"{names[i]} and {names[j]} are correlated (rho = {corr[i, j]:+.3f}): this data "
                    "cannot tell them apart; fix one or add data that constrains it"
                )
    return out


def fit(
    problem: Problem,
    starts: Sequence[Sequence[float]],
    *,
    diff_step: float = 1e-3,
    max_nfev: int = 60,
    xtol: float = 1e-5,
    ftol: float = 1e-5,
    on_eval: Callable[[], None] | None = None,
    stop_when_agreed: bool = True,
    agree_rtol: float = 1e-3,
) -> FitResult:
    """Fit ``problem`` from each of ``starts`` (global parameters); keep the lowest cost.

    With ``stop_when_agreed``, the remaining starts are skipped once two have ended at the same
    point (within ``agree_rtol``, relative): the starts are ordered best guess first.
    """
    names = problem.names
    lo_g, hi_g = bounds_for(names)
    nuis0 = np.asarray(problem.nuisance_start(), dtype=float)
    lower = np.concatenate([lo_g, problem.nuisance_lower])
    upper = np.concatenate([hi_g, problem.nuisance_upper])
    ev = _Evaluator(problem, diff_step, on_eval)
    results: list[tuple[StartResult, np.ndarray, np.ndarray]] = []
    for s in starts:
        g0 = np.clip(np.asarray(s, dtype=float), lo_g + 1e-9, hi_g - 1e-9)
        x0 = np.concatenate([g0, nuis0])
        sol = least_squares(
            ev.fun,
            x0,
            jac=lambda x: ev.jac(x, lower, upper),
            bounds=(lower, upper),
            method="trf",
            xtol=xtol,
            ftol=ftol,
            gtol=1e-10,
            x_scale="jac",  # tracked launch spins (tens of rad/s) sit beside friction coefficients
            max_nfev=max_nfev,
        )
        sr = StartResult(tuple(g0), tuple(sol.x[: len(names)]), float(sol.cost), int(sol.nfev))
        results.append(
            (sr, sol.x.copy(), sol.jac if isinstance(sol.jac, np.ndarray) else sol.jac.toarray())
        )
        if (
            stop_when_agreed
            and len(results) >= 2
            and _agree([t[0].values for t in results], agree_rtol)
        ):
            break  # two independent starts found the same minimum: the rest would too, in practice
    best_sr, xbest, J = min(results, key=lambda t: t[0].cost)
    r = ev.fun(xbest)
    cov = covariance(J, r)
    k = len(names)
    cov_g = cov[:k, :k]
    se = np.sqrt(np.clip(np.diag(cov_g), 0, None))
    corr = correlations(cov_g)
    warns = unconstrained(names, J) + identifiability_warnings(names, corr)
    for sr, _, _ in results:
        far = [
            n
            for n, a, b, e in zip(names, sr.values, best_sr.values, se, strict=True)
            if abs(a - b) > max(3 * e, 1e-4 * max(abs(b), 1e-3))
        ]
        if far:
            warns.append(
                f"the start at {_fmt(names, sr.start)} ended in another minimum "
                f"({_fmt(names, sr.values)}, cost {sr.cost:.4g} vs {best_sr.cost:.4g})"
            )
    return FitResult(
        names=names,
        values=best_sr.values,
        stderr=tuple(float(v) for v in se),
        corr=tuple(tuple(float(v) for v in row) for row in corr),
        rms=float(math.sqrt(np.mean(r**2))) if r.size else 0.0,
        n_residuals=int(r.size),
        n_params=int(xbest.size),
        nfev=ev.nfev,
        starts=tuple(t[0] for t in results),
        x=tuple(float(v) for v in xbest),
        warnings=tuple(warns),
    )


def _agree(values: Sequence[Sequence[float]], rtol: float) -> bool:
    v = np.asarray(values, dtype=float)
    return bool(np.all(np.abs(v - v[0]) <= rtol * np.maximum(np.abs(v[0]), 1e-3)))


def _fmt(names: Sequence[str], values: Sequence[float]) -> str:
    return ", ".join(f"{n}={v:.4g}" for n, v in zip(names, values, strict=True))


# --- tilt tests: static friction --------------------------------------------------------------


@dataclass(frozen=True)
class TiltFit:
    """Static friction from tilt trials: mu_static = tan(slip angle)."""

    mu_static: float
    stderr: float
    slip_angle_deg: float
    slip_angle_stderr_deg: float
    spread_deg: float  # trial-to-trial scatter of the slip angle (probit width); 0 if separated
    trials: int


def fit_tilt(angles_deg: Sequence[float], slipped: Sequence[bool]) -> TiltFit:
    """Probit maximum likelihood for P(slip | angle) = Phi((angle - angle*) / spread).

    If the data separate perfectly (every slip above every hold) the likelihood has no finite
    optimum: angle* is then the middle of the gap and its error that of a uniform over the gap.
    """
    a = np.asarray(angles_deg, dtype=float)
    s = np.asarray(slipped, dtype=bool)
    if not s.any() or s.all():
        raise UserError(
            "tilt tests: need trials that slipped and trials that held to bracket the slip angle"
        )
    hold_max, slip_min = a[~s].max(), a[s].min()
    if hold_max < slip_min:
        mid = (hold_max + slip_min) / 2
        se_deg = (slip_min - hold_max) / math.sqrt(12)
        return _tilt_result(mid, se_deg, 0.0, a.size)

    def resid(p: np.ndarray) -> np.ndarray:
        z = (a - p[0]) / math.exp(p[1])
        lp = np.where(s, norm.logcdf(z), norm.logcdf(-z))
        return np.sqrt(-2 * lp)  # deviance residuals: sum r^2 = -2 log L

    p0 = np.array([(hold_max + slip_min) / 2, math.log(max(a.std() / 4, 0.1))])
    sol = least_squares(resid, p0, method="lm")
    # Fisher information of the probit model (exact expected information, not Gauss-Newton on deviance)
    theta, spread = sol.x[0], math.exp(sol.x[1])
    z = (a - theta) / spread
    # phi^2 / (Phi (1 - Phi)) in logs: 1 - Phi(z) underflows to 0 far above the slip angle
    w = np.exp(2 * norm.logpdf(z) - norm.logcdf(z) - norm.logcdf(-z))
    dz = np.stack([-np.ones_like(z) / spread, -z], axis=1)  # dz/dtheta, dz/dlog(spread)
    info = (dz * w[:, None]).T @ dz
    cov = np.linalg.pinv(info)
    return _tilt_result(theta, math.sqrt(max(cov[0, 0], 0.0)), spread, a.size)


def _tilt_result(theta_deg: float, se_deg: float, spread: float, n: int) -> TiltFit:
    th = math.radians(theta_deg)
    mu = math.tan(th)
    se_mu = math.radians(se_deg) / math.cos(th) ** 2
    return TiltFit(mu, se_mu, theta_deg, se_deg, spread, n)


class _FixedGlobals(Problem):
    """``inner`` with its global parameters held at ``g``: only the nuisance parameters vary."""

    def __init__(self, inner: Problem, g: np.ndarray):
        self.inner = inner
        self.g = np.asarray(g, dtype=float)
        self.names = ()
        self.nuisance_lower = inner.nuisance_lower
        self.nuisance_upper = inner.nuisance_upper

    def evaluate(self, x, blocks=None):
        return self.inner.evaluate(np.concatenate([self.g, x]), blocks)

    def nuisance_start(self):
        return self.inner.nuisance_start()

    def groups(self):
        k = len(self.inner.names)
        return [
            Group(tuple(c - k for c in g.cols), g.rows, g.blocks)
            for g in self.inner.groups()
            if min(g.cols) >= k
        ]


def refit_nuisance(
    problem: Problem, g: Sequence[float], *, max_nfev: int = 40, diff_step: float = 1e-3
) -> np.ndarray:
    """The full parameter vector with globals ``g`` fixed and the nuisance parameters fitted.

    Used for held-out tracked shots: their launch velocity is not a physical parameter, so it is
    fitted to each held-out track while the fitted physics stays fixed.
    """
    g = np.asarray(g, dtype=float)
    n0 = np.asarray(problem.nuisance_start(), dtype=float)
    if n0.size == 0:
        return g
    fixed = _FixedGlobals(problem, g)
    ev = _Evaluator(fixed, diff_step, None)
    lo, hi = problem.nuisance_lower, problem.nuisance_upper
    sol = least_squares(
        ev.fun,
        n0,
        jac=lambda x: ev.jac(x, lo, hi),
        bounds=(lo, hi),
        method="trf",
        xtol=1e-5,
        ftol=1e-5,
        x_scale="jac",
        max_nfev=max_nfev,
    )
    return np.concatenate([g, sol.x])
