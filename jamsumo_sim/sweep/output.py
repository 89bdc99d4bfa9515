"""A sweep's outputs: the data file (npz: spec, program version, per-shot outcomes, per-cell
summaries; no pickles) and heat maps over aim x speed (matplotlib, averaged over offset/height)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np

from .. import __version__
from ..fileio import write_atomic
from .run import SweepResult, code_fingerprint
from .spec import spec_json

DATA_FORMAT_VERSION = 1
DATA_NAME = "sweep.npz"
HEAT_MAPS = ("p_hole", "p_off", "p_platform", "p_struck")  # plus the score map
_TITLES = {
    "p_hole": "P(in the hole)",
    "p_off": "P(off the board)",
    "p_platform": "P(on a JAM platform)",
    "p_struck": "P(struck another die)",
    "mean_penalty": "mean Jam penalty",
    "mean_points": "mean Sumo points",
}


def data_arrays(result: SweepResult) -> dict[str, np.ndarray]:
    spec = result.spec
    arrays: dict[str, np.ndarray] = {
        "format_version": np.array(DATA_FORMAT_VERSION),
        "program_version": np.array(__version__),
        "code_sha256": np.array(code_fingerprint()),  # the sources that computed it
        "spec": np.array(spec_json(spec)),
        "aim": spec.aim.values(),
        "speed": spec.speed.values(),
        "offset": spec.offset.values(),
        "height": spec.height.values(),
    }
    for k, v in result.outcomes.items():
        arrays[f"shot_{k}"] = v.reshape(*spec.shape, spec.repeats)
    for k, v in result.metrics().items():
        arrays[k] = v
    return arrays


def write_data(result: SweepResult, folder: Path) -> Path:
    arrays = data_arrays(result)
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return write_atomic(folder / DATA_NAME, buf.getvalue(), "sweep data file")


def read_data(path: str | Path) -> dict[str, object]:
    """The data file's arrays (no pickles) with the spec parsed back."""
    with np.load(path, allow_pickle=False) as z:
        out: dict[str, object] = {k: z[k] for k in z.files}
    out["spec"] = json.loads(str(out["spec"]))
    return out


def write_heat_maps(result: SweepResult, folder: Path) -> list[Path]:
    """One PNG per summary: aim (x) against finger speed (y), averaged over offset and height."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    spec = result.spec
    metrics = result.metrics()
    names = [*HEAT_MAPS, "mean_penalty" if spec.mode == "jam" else "mean_points"]
    aims = np.degrees(spec.aim.values())
    speeds = spec.speed.values()
    paths = []
    for name in names:
        grid = metrics[name].mean(axis=(2, 3)).T  # rows: speed, columns: aim
        fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=100)
        prob = name.startswith("p_")
        im = ax.imshow(
            grid,
            origin="lower",
            aspect="auto",
            extent=_extent(aims, speeds),
            cmap="viridis",
            vmin=0.0 if prob else None,
            vmax=1.0 if prob else None,
            interpolation="nearest",
        )
        fig.colorbar(im, ax=ax, label=_TITLES[name])
        ax.set_xlabel("aim (degrees)")
        ax.set_ylabel("finger speed (m/s)")
        ax.set_title(
            f"{_TITLES[name]} — {spec.repeats} shots a cell, noise {spec.noise!r}, seed {spec.seed}"
        )
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        plt.close(fig)
        paths.append(write_atomic(folder / f"{name}.png", buf.getvalue(), "heat map"))
    return paths


def _extent(xs: np.ndarray, ys: np.ndarray) -> tuple[float, float, float, float]:
    """Image extent with each grid value at its cell's centre (a lone value gets a unit cell)."""

    def edges(v: np.ndarray) -> tuple[float, float]:
        if len(v) < 2:
            half = 0.5
            return float(v[0] - half), float(v[0] + half)
        step = (v[-1] - v[0]) / (len(v) - 1)
        return float(v[0] - step / 2), float(v[-1] + step / 2)

    return (*edges(xs), *edges(ys))
