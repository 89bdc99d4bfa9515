"""Fit the physics model's friction and restitution to measurements of a real board.

Kinematic data (rest poses, trajectories, collisions) are fitted together by least squares on the
simulated shots (residuals in mm); tilt tests give mu_static on their own (probit maximum likelihood,
mu_static = tan of the slip angle), since moving dice never feel static friction; filmed tumbles give
the tumbling and hopping parameters by matching per-bin summaries (``calibration/tumbles.py``), after
the kinematic fit (their travel depends on mu_board).  See ``calibration/README.md`` for the data
formats and how to measure them.
"""

from __future__ import annotations

import datetime as _dt
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from .calibration.data import COLLISION, REST, TILT, TRAJECTORY, TUMBLE, DataFile
from .calibration.fit import FITTABLE, FitResult, TiltFit, fit, fit_tilt, refit_nuisance
from .calibration.limits import FIT_SPREAD_FACTORS, MAX_STARTS
from .calibration.model import Shots, ShotsProblem, Simulator, with_fitted
from .calibration.tumbles import DEFAULT_NAMES as TUMBLE_DEFAULT
from .calibration.tumbles import TUMBLE_FITTABLE, TumbleFit, TumbleProblem, fit_tumbles
from .errors import UserError
from .physics.board import BoardSpec
from .physics.params import PhysicsParams
from .physics.params_file import dump_params

# Rest angles are measured to a degree or two; an RMS far above that means trouble (see calibrate()).
ANGLE_WARN_DEG = 10.0

# Which data constrain which parameters (used for the default --fit and to refuse hopeless fits).
CONSTRAINED_BY = {
    "mu_board": {REST, TRAJECTORY, COLLISION},
    "patch_fraction": {REST, TRAJECTORY, COLLISION},
    "mu_die": {COLLISION},
    "restitution": {COLLISION},
    "mu_static": {TILT},
    **{n: {TUMBLE} for n in TUMBLE_FITTABLE},
}


@dataclass(frozen=True)
class Estimate:
    value: float
    stderr: float


@dataclass(frozen=True)
class Calibration:
    """The outcome of :func:`calibrate`."""

    estimates: dict[str, Estimate]
    params: PhysicsParams  # base params with the fitted values
    rms_mm: float | None
    rms_angle_deg: float | None  # RMS of the rest-angle residuals (None: angles not fitted)
    holdout_rms_mm: float | None
    shots: int  # kinematic shots used in the fit
    holdout_shots: int
    tilt_trials: int
    corr: dict[tuple[str, str], float]
    warnings: tuple[str, ...]
    files: tuple[DataFile, ...]
    fit: FitResult | None = None
    tilt: TiltFit | None = None
    problem: ShotsProblem | None = None
    holdout_problem: ShotsProblem | None = None
    seconds: float = 0.0
    holdout_x: tuple[
        float, ...
    ] = ()  # held-out shots' parameter vector (fitted physics + their nuisance)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "params": {
                k: {"value": e.value, "stderr": e.stderr} for k, e in self.estimates.items()
            },
            "rms_mm": self.rms_mm,
            "rms_angle_deg": self.rms_angle_deg,
            "holdout_rms_mm": self.holdout_rms_mm,
            "shots": self.shots,
            "holdout_shots": self.holdout_shots,
            "tilt_trials": self.tilt_trials,
            "correlations": {f"{a},{b}": v for (a, b), v in self.corr.items()},
            "warnings": list(self.warnings),
            "data": [{"file": f.name, "kind": f.kind, "sha256": f.sha256} for f in self.files],
            "seconds": self.seconds,
            **({"tumble": self.tumble_json()} if "tumble" in self.extra else {}),
        }

    def tumble_json(self) -> dict[str, Any]:
        t: TumbleFit = self.extra["tumble"]
        return {"shots": t.shots, "bins": t.bins, "cost": t.cost, "evaluations": t.evaluations}


def parse_fit_names(text: str | None, files: Sequence[DataFile]) -> tuple[str, ...]:
    """The parameters to fit: ``text`` (comma-separated) or what the data can constrain."""
    kinds = {f.kind for f in files}
    if text is not None:
        names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
        if not names:
            raise UserError("--fit: no parameter names given")
        for n in names:
            if n not in FITTABLE and n not in TUMBLE_FITTABLE:
                shown = repr(n) if len(n) <= 40 else repr(n[:40]) + "..."
                every = ", ".join([*FITTABLE, *TUMBLE_FITTABLE])
                raise UserError(f"--fit: cannot fit {shown} (fittable: {every})")
            need = CONSTRAINED_BY.get(n, {REST, TRAJECTORY, COLLISION})
            if not need & kinds:
                kinds_txt = " or ".join(sorted(need))
                raise UserError(f"--fit: {n} needs {kinds_txt} data, and none was given")
        return names
    names = tuple(
        n
        for n in ("mu_board", "mu_die", "restitution", "mu_static", *TUMBLE_DEFAULT)
        if CONSTRAINED_BY[n] & kinds
    )
    if not names:
        raise UserError("the data files constrain no parameter")
    return names


def split_holdout(shots: Shots, fraction: float, seed: int) -> tuple[Shots, Shots]:
    """Shots for the fit and held-out shots (a seeded random ``fraction``, at least one)."""
    if not 0 <= fraction < 1:
        raise UserError(f"--holdout must be in [0, 1), got {fraction}")
    items = shots.labelled()
    if fraction == 0 or len(items) < 2:
        return shots, Shots()
    n_hold = min(max(1, round(fraction * len(items))), len(items) - 1)
    order = np.random.default_rng(seed).permutation(len(items))
    hold = set(order[:n_hold].tolist())
    return (
        Shots.from_labelled([it for i, it in enumerate(items) if i not in hold]),
        Shots.from_labelled([it for i, it in enumerate(items) if i in hold]),
    )


def slide_estimate(shots: Shots, gravity: float) -> float | None:
    """mu_board from pure-slide stop distances v0^2 / (2 mu g) of the rest shots (spin ignored)."""
    mus = []
    for s in shots.rest:
        d = math.hypot(s.rest.x - s.launch.x, s.rest.y - s.launch.y)
        if d > 0.005:
            mus.append(s.launch.speed**2 / (2 * gravity * d))
    return float(np.median(mus)) if mus else None


def starting_points(
    names: Sequence[str], shots: Shots, base: PhysicsParams, count: int
) -> list[list[float]]:
    """A few well-spread starts: a data-driven guess, the board's defaults, then spread points."""
    default = [getattr(base, n) for n in names]
    guess = list(default)
    est = slide_estimate(shots, base.gravity)
    if est is not None and "mu_board" in names:
        lo, hi = FITTABLE["mu_board"]
        guess[names.index("mu_board")] = min(max(est, lo), hi)
    starts = [guess]
    if guess != default:
        starts.append(default)
    factors = FIT_SPREAD_FACTORS
    k = 0
    while len(starts) < count and k < len(factors):
        pt = []
        for n, g in zip(names, guess, strict=True):
            lo, hi = FITTABLE[n]
            f = factors[k] if n != "restitution" else 1 / factors[k]
            pt.append(min(max(g * f, lo + 0.02 * (hi - lo)), hi - 0.02 * (hi - lo)))
        starts.append(pt)
        k += 1
    return starts[: max(count, 1)]


def calibrate(
    files: Sequence[DataFile],
    base: PhysicsParams,
    simulator: Simulator,
    *,
    fit_names: Sequence[str] | None = None,
    holdout: float = 0.0,
    seed: int = 0,
    starts: int = 3,
    angles: bool = True,
    max_nfev: int = 40,
    on_eval: Callable[[], None] | None = None,
    board: BoardSpec | None = None,
) -> Calibration:
    """Fit ``fit_names`` (default: what the data constrain) to the loaded ``files``.

    ``board`` (default: the simulator's) is where filmed tumbles are simulated.
    """
    t0 = time.perf_counter()
    names = tuple(fit_names) if fit_names else parse_fit_names(None, files)
    if not 1 <= starts <= MAX_STARTS:
        raise UserError(f"--starts must be from 1 to {MAX_STARTS}, not {starts}")
    warnings: list[str] = []
    estimates: dict[str, Estimate] = {}
    values: dict[str, float] = {}

    tilt = None
    trials = [t for f in files if f.kind == TILT for t in f.items]
    if "mu_static" in names:
        if not trials:
            raise UserError("mu_static needs tilt-test data, and none was given")
        tilt = fit_tilt([t.angle_deg for t in trials], [t.slipped for t in trials])
        estimates["mu_static"] = Estimate(tilt.mu_static, tilt.stderr)
        values["mu_static"] = tilt.mu_static
    tumble_names = tuple(n for n in names if n in TUMBLE_FITTABLE)
    kin_names = tuple(n for n in names if n != "mu_static" and n not in TUMBLE_FITTABLE)

    shots = Shots.from_files(files)
    fit_shots, hold_shots = split_holdout(shots, holdout, seed)
    result = problem = hold_problem = None
    rms_angle_deg = None
    holdout_x: tuple[float, ...] = ()
    rms = hold_rms = None
    corr: dict[tuple[str, str], float] = {}
    if kin_names:
        if fit_shots.count == 0:
            raise UserError(
                f"fitting {', '.join(kin_names)} needs rest-pose, trajectory or collision data"
            )
        base_k = with_fitted(base, list(values), list(values.values()))
        result, problem = _staged_fit(
            fit_shots,
            base_k,
            kin_names,
            simulator,
            starts,
            angles=angles,
            max_nfev=max_nfev,
            on_eval=on_eval,
        )
        for n, v, e in zip(result.names, result.values, result.stderr, strict=True):
            estimates[n] = Estimate(float(v), float(e))
            values[n] = float(v)
        x = np.asarray(result.x)
        r = problem.evaluate(x)
        rms = _rms(r, problem.position_mask())
        if problem.angles and (~problem.position_mask()).any():
            rms_angle_deg = math.degrees(_rms(r, ~problem.position_mask()) / problem.angle_lever)
            if rms_angle_deg > ANGLE_WARN_DEG:
                warnings.append(
                    f"rest angles fit poorly (RMS {rms_angle_deg:.1f} degrees): poor angle measurements, or "
                    "a wrong minimum (a cube's angle repeats every quarter turn); compare with --no-angles"
                )
        warnings.extend(outlier_warnings(problem, r))
        for i, a in enumerate(result.names):
            for j in range(i + 1, len(result.names)):
                corr[(a, result.names[j])] = result.corr[i][j]
        warnings.extend(result.warnings)
        if hold_shots.count:
            hold_problem = ShotsProblem(hold_shots, base_k, kin_names, simulator, angles=angles)
            xh = refit_nuisance(hold_problem, x[: len(kin_names)])
            holdout_x = tuple(float(v) for v in xh)
            hold_rms = _rms(hold_problem.evaluate(xh), hold_problem.position_mask())
            if rms and hold_rms > 3 * rms:
                warnings.append(
                    f"held-out shots fit much worse ({hold_rms:.2f} mm) than the fitted ones ({rms:.2f} mm): "
                    "the model or the data may be off"
                )
    tumble = None
    if tumble_names:
        tumble = _fit_tumbles(
            files, with_fitted(base, list(values), list(values.values())), tumble_names,
            board or getattr(simulator, "board", None), seed, on_eval,
        )  # fmt: skip
        for n, v, e in zip(tumble.names, tumble.values, tumble.stderr, strict=True):
            estimates[n] = Estimate(float(v), float(e))
            values[n] = float(v)
            lo, hi = TUMBLE_FITTABLE[n]
            if min(v - lo, hi - v) < 1e-9:
                warnings.append(
                    f"{n} = {v:.3f} is at the edge of the range searched ({lo:g}-{hi:g}): "
                    "the data may not constrain it, or the model does not fit them"
                )
    if "mu_static" in values and "mu_board" in values and values["mu_static"] < values["mu_board"]:
        warnings.append(
            f"fitted mu_static {values['mu_static']:.3f} < mu_board {values['mu_board']:.3f}: "
            "the params file uses mu_static = mu_board"
        )
    params = with_fitted(base, list(values), list(values.values()))
    return Calibration(
        estimates={n: estimates[n] for n in names},
        params=params,
        rms_mm=rms,
        rms_angle_deg=rms_angle_deg,
        holdout_rms_mm=hold_rms,
        shots=fit_shots.count,
        holdout_shots=hold_shots.count,
        tilt_trials=len(trials),
        corr=corr,
        warnings=tuple(warnings),
        files=tuple(files),
        fit=result,
        tilt=tilt,
        problem=problem,
        holdout_problem=hold_problem,
        holdout_x=holdout_x,
        seconds=time.perf_counter() - t0,
        extra={"tumble": tumble} if tumble is not None else {},
    )


def _fit_tumbles(
    files: Sequence[DataFile],
    base: PhysicsParams,
    names: Sequence[str],
    board: BoardSpec | None,
    seed: int,
    on_eval: Callable[[], None] | None,
) -> TumbleFit:
    shots = [s for f in files if f.kind == TUMBLE for s in f.items]
    if not shots:
        raise UserError(f"fitting {', '.join(names)} needs tumble data, and none was given")
    if board is None:
        raise UserError("fitting tumbles needs the board the shots were filmed on")
    problem = TumbleProblem(shots, base, board, names, seed=seed, on_eval=on_eval)
    if not problem.summary.members:
        raise UserError(
            f"the {len(shots)} tumble shots fill no speed/height bin with at least 3 shots: "
            "film more shots at similar speeds and heights"
        )
    return fit_tumbles(problem)


def _staged_fit(
    shots: Shots, base, names, simulator, starts: int, *, angles: bool, max_nfev: int, on_eval
):
    """Multi-start on the cheap, smooth part of the data, then one warm-started fit on all of it.

    Stage 1: rest and collision positions only (or the tracks, if that is all there is) from each
    start — a smooth cost with one minimum in practice, and no per-shot nuisance parameters.
    Stage 2, from the best stage-1 point: everything, with the rest angles (informative on spin but
    periodic in a quarter turn, so only near the answer) and the tracks (their launch velocities first
    fitted with the physics held fixed, so the joint fit starts close).
    """
    simple = Shots(rest=shots.rest, collisions=shots.collisions)
    first = simple if simple.count else shots
    p1 = ShotsProblem(first, base, names, simulator, angles=False)
    result = fit(
        p1, starting_points(names, first, base, starts), max_nfev=max_nfev, on_eval=on_eval
    )
    need_angles = angles and simple.count
    if first is shots and not need_angles:
        return result, p1
    p2 = ShotsProblem(shots, base, names, simulator, angles=angles)
    if shots.trajectories:
        if first is shots:
            p2.set_nuisance_start(result.x[len(names) :])
        else:
            k = len(names)
            p2.set_nuisance_start(
                refit_nuisance(_tracks_only(shots, base, names, simulator), result.values)[k:]
            )
    final = fit(p2, [list(result.values)], max_nfev=max_nfev, on_eval=on_eval)
    return _merge_starts(final, result), p2


def _tracks_only(shots: Shots, base, names, simulator) -> ShotsProblem:
    return ShotsProblem(
        Shots(trajectories=shots.trajectories), base, names, simulator, angles=False
    )


def _merge_starts(final: FitResult, stage1: FitResult) -> FitResult:
    """The stage-2 fit, keeping stage 1's starts, evaluation count and multi-start warnings."""
    extra = tuple(w for w in stage1.warnings if "another minimum" in w and w not in final.warnings)
    return replace(
        final,
        starts=stage1.starts + final.starts,
        nfev=stage1.nfev + final.nfev,
        warnings=final.warnings + extra,
    )


def outlier_warnings(
    problem: ShotsProblem, r: np.ndarray, factor: float = 4.0, most: int = 5
) -> list[str]:
    """Shots whose position RMS exceeds ``factor`` times the median shot's (worst first).

    The median is robust: one wild shot inflates the overall RMS but not the typical shot's.
    """
    per_shot = [
        (float(np.sqrt(np.mean(r[rows] ** 2))), kind, shot)
        for kind, shot, rows in problem.shot_rows()
    ]
    if len(per_shot) < 3:
        return []
    typical = float(np.median([e for e, _, _ in per_shot]))
    bad = sorted((t for t in per_shot if t[0] > factor * typical > 0), key=lambda t: -t[0])
    return [
        f"{kind} shot {shot.shot!r} (line {shot.line}) misfits by {e:.1f} mm RMS, "
        f"{e / typical:.0f}x the typical shot: mismeasured, or unusual (e.g. a grazing hit)?"
        for e, kind, shot in bad[:most]
    ]


def _rms(r: np.ndarray, mask: np.ndarray) -> float:
    v = r[mask]
    return float(math.sqrt(np.mean(v**2))) if v.size else 0.0


def stamp_for(
    cal: Calibration, board: BoardSpec, when: _dt.datetime | None = None
) -> dict[str, Any]:
    """Provenance written into the params file's ``[stamp]`` table."""
    when = when or _dt.datetime.now(_dt.UTC)
    stamp: dict[str, Any] = {
        "source": "jamsumo calibrate",
        "date": when.replace(microsecond=0).isoformat(),
        "board": board.name,
        "data_files": [f.name for f in cal.files],
        "data_sha256": [f.sha256 for f in cal.files],
        "fitted": list(cal.estimates),
    }
    for n, e in cal.estimates.items():
        stamp[f"{n}_value"] = e.value
        stamp[f"{n}_stderr"] = e.stderr
    if cal.rms_mm is not None:
        stamp["rms_mm"] = cal.rms_mm
    if cal.holdout_rms_mm is not None:
        stamp["holdout_rms_mm"] = cal.holdout_rms_mm
    stamp["shots"] = cal.shots
    return stamp


def write_params(cal: Calibration, board: BoardSpec, path: str | Path) -> None:
    """Write the fitted params file (all parameters; fitted ones replaced), stamped with its data.

    :func:`~jamsumo_sim.physics.params_file.dump_params` writes atomically (fileio.write_atomic): a killed run
    leaves the old file, never half a new one.
    """
    try:
        dump_params(cal.params, path, stamp_for(cal, board))
    except OSError as exc:
        raise UserError(f"cannot write params file {path}: {exc.strerror or exc}") from None
