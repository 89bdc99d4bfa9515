"""Plots of a calibration: measured against simulated rest points and tracks, with residual arrows.

Residuals of a millimetre are invisible on a board-sized plot, so the arrows are magnified by a
stated factor (in the legend).
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..errors import UserError
from ..fileio import write_atomic
from .data import COLLISION, REST, TRAJECTORY

if TYPE_CHECKING:  # the fit module pulls in scipy: keep it out of the CLI's early output checks
    from .fit import TiltFit

# Formats matplotlib writes without extra tools (pgf needs LaTeX; raw/rgba are headerless pixel dumps).
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")
PLOT_DPI = 110


def _arrow_scale(sim: np.ndarray, meas: np.ndarray, span: float) -> float:
    """Magnification making the median residual arrow about 4 % of the plot's span."""
    d = np.hypot(*(meas - sim).T) if len(sim) else np.zeros(0)
    med = float(np.median(d)) if d.size else 0.0
    if med <= 0:
        return 1.0
    raw = 0.06 * span / med
    if raw <= 1:
        return 1.0
    decade = 10 ** math.floor(math.log10(raw))
    return float(max(m * decade for m in (1, 2, 5) if m * decade <= raw))


def _shots_panel(ax, board, blocks, title: str, kinds: frozenset[str]) -> bool:
    """Draw rest (and collision) points of ``blocks`` = [(problem, x, label, colour)]; False if none."""
    drew = False
    pairs = []
    for problem, x, label, colour in blocks:
        if problem is None:
            continue
        sims = problem.simulate(problem.params_at(np.asarray(x)), np.asarray(x), kinds)
        if REST in sims:
            meas = problem._rest_meas[:, :2]
            sim = np.asarray(sims[REST])[:, :2]
            launch = problem._rest_launch[:, :2]
            pairs.append((launch, sim, meas, label, colour, "o"))
        if COLLISION in sims:
            s = np.asarray(sims[COLLISION])
            m = problem._col_meas
            pairs.append(
                (
                    problem._col_strikers[:, :2],
                    s[:, 0:2],
                    m[:, 0:2],
                    f"{label} striker",
                    colour,
                    "s",
                )
            )
            pairs.append(
                (problem._col_targets[:, :2], s[:, 3:5], m[:, 3:5], f"{label} target", colour, "^")
            )
    if not pairs:
        return False
    allpts = np.concatenate([np.concatenate([a, b, c]) for a, b, c, *_ in pairs])
    span = float(np.ptp(allpts, axis=0).max()) or board.side
    sims_all = np.concatenate([p[1] for p in pairs])
    meas_all = np.concatenate([p[2] for p in pairs])
    k = _arrow_scale(sims_all, meas_all, span)
    for launch, sim, meas, label, colour, marker in pairs:
        ax.scatter(launch[:, 0], launch[:, 1], s=6, color="0.5")
        ax.scatter(
            meas[:, 0], meas[:, 1], s=18, color=colour, marker=marker, label=f"{label} measured"
        )
        ax.scatter(sim[:, 0], sim[:, 1], s=18, color=colour, marker="x", label=f"{label} simulated")
        d = (meas - sim) * k
        ax.quiver(
            sim[:, 0],
            sim[:, 1],
            d[:, 0],
            d[:, 1],
            angles="xy",
            scale_units="xy",
            scale=1,
            color=colour,
            width=0.003,
        )
        drew = True
    ax.set_title(f"{title} (residual arrows ×{k:g})")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize=6, loc="best")
    return drew


def _tracks_panel(ax, problem, x) -> bool:
    if problem is None or not problem.shots.trajectories:
        return False
    x = np.asarray(x)
    sims = problem.simulate(problem.params_at(x), x, frozenset({TRAJECTORY}))[TRAJECTORY]
    for i, (shot, sim) in enumerate(zip(problem.shots.trajectories, sims, strict=True)):
        c = f"C{i % 10}"
        ax.plot(shot.x, shot.y, ".", ms=2, color=c)
        ax.plot(np.r_[shot.x[0], sim[:, 0]], np.r_[shot.y[0], sim[:, 1]], "-", lw=0.8, color=c)
    ax.set_title("trajectories: measured (dots) vs simulated (lines)")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_aspect("equal", adjustable="datalim")
    return True


def _tilt_panel(ax, cal) -> bool:
    tilt: TiltFit | None = cal.tilt
    if tilt is None:
        return False
    from scipy.stats import norm

    trials = [t for f in cal.files if f.kind == "tilt" for t in f.items]
    a = np.array([t.angle_deg for t in trials])
    s = np.array([t.slipped for t in trials], dtype=float)
    jitter = (np.random.default_rng(0).random(a.size) - 0.5) * 0.06
    ax.scatter(a, s + jitter, s=10, color="C0", label="trials (1 = slipped)")
    grid = np.linspace(a.min() - 1, a.max() + 1, 200)
    if tilt.spread_deg > 0:
        ax.plot(
            grid,
            norm.cdf((grid - tilt.slip_angle_deg) / tilt.spread_deg),
            color="C1",
            label="fitted P(slip)",
        )
    ax.axvline(
        tilt.slip_angle_deg, color="C1", ls="--", label=f"slip angle {tilt.slip_angle_deg:.2f}°"
    )
    ax.set_title(f"tilt tests: mu_static = {tilt.mu_static:.3f} ± {tilt.stderr:.3f}")
    ax.set_xlabel("tilt (degrees)")
    ax.legend(fontsize=6)
    return True


def plot_calibration(cal, board, path: str | Path | None = None):
    """Draw ``cal`` (a :class:`~jamsumo_sim.calibrate.Calibration`); save to ``path`` if given.

    Returns the matplotlib Figure.
    """
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(12, 11))
    axes = axes.ravel()
    x = cal.fit.x if cal.fit else ()
    blocks = [(cal.problem, x, "fit", "C0")]
    if cal.holdout_problem is not None:
        blocks.append((cal.holdout_problem, cal.holdout_x, "held out", "C3"))
    used = [
        _shots_panel(axes[0], board, blocks, "rest poses", frozenset({REST})),
        _shots_panel(axes[1], board, blocks, "collisions", frozenset({COLLISION})),
        _tracks_panel(axes[2], cal.problem, x),
        _tilt_panel(axes[3], cal),
    ]
    for ax, u in zip(axes, used, strict=True):
        if not u:
            ax.set_axis_off()
            ax.text(
                0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, color="0.5"
            )
    fig.tight_layout()
    if path is not None:
        try:
            save_figure(fig, path)
        finally:
            plt.close(fig)
    return fig


def plot_format(path: str | Path) -> str:
    """The image format named by ``path``'s ending; a one-line UserError if it is not one we write."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in PLOT_FORMATS:
        kind = f"{fmt!r} file" if fmt else "file without an ending"
        raise UserError(
            f"plot {path}: cannot draw a {kind} (use one of {', '.join('.' + f for f in PLOT_FORMATS)})"
        )
    return fmt


def save_figure(fig, path: str | Path, dpi: int = PLOT_DPI) -> None:
    """Render ``fig`` in memory in the format ``path`` names, then write it atomically."""
    fmt = plot_format(path)
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format=fmt, dpi=dpi)
    except (ValueError, RuntimeError, OSError) as exc:  # e.g. an image library lacking the format
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"cannot draw plot {path}: {msg}") from None
    write_atomic(path, buf.getvalue(), "plot")
