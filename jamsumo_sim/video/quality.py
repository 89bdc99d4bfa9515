"""Per-shot quality numbers and one figure per shot: the tracked path on the board, the outline misfit
and the markers' reprojection error frame by frame."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import fileio
from ..physics.board import BoardSpec
from .shots import Shot
from .track import Tracking

FACE_WINDOW = 0.05  # s after a die comes to rest over which its top face is read (majority)


def rest_face(tr: Tracking, colour: str, stop: int) -> int | None:
    n = max(3, round(FACE_WINDOW * tr.fps))
    faces = [f for f in tr.dice[colour].face[stop - 1 : stop - 1 + n] if f]
    if not faces:
        return None
    values, counts = np.unique(faces, return_counts=True)
    return int(values[np.argmax(counts)])


def measure(tr: Tracking, shot: Shot) -> dict:
    """Numbers a user checks before trusting a shot (lengths in mm, reprojection in px)."""
    out: dict = {"label": shot.label, "kind": shot.kind, "dice": {}}
    rms = np.array(tr.marker_rms)
    for seg in shot.segments:
        d = tr.dice[seg.colour]
        frames = seg.frames
        mis = np.array(d.misfit)[frames] * 1000
        out["dice"][seg.colour] = {
            "t_start": round(seg.start / tr.fps, 4),
            "t_rest": round(seg.stop / tr.fps, 4),
            "frames": len(frames),
            "seen_fraction": round(float(np.mean(np.isfinite(mis))), 3),
            "misfit_mm_median": _r(np.nanmedian(mis)),
            "misfit_mm_max": _r(np.nanmax(mis)),
            "marker_rms_px_max": _r(np.nanmax(rms[frames])),
            "rest_face": rest_face(tr, seg.colour, seg.stop),
        }
    out["warnings"] = list(shot.warnings)
    return out


def _r(v: float) -> float | None:
    return round(float(v), 3) if np.isfinite(v) else None


class Figures:
    """One quality figure per shot, drawn on one reused matplotlib figure: the board, labels and
    layout are made once, each shot only replaces the lines (a new figure per shot, with
    tight_layout and its ticks made anew, took most of the time of a tracking run of short
    shots)."""

    def __init__(self, board: BoardSpec):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.patches as patches
        from matplotlib.figure import Figure

        self._fig = Figure(figsize=(8, 3.6), dpi=80)
        ax0, ax1 = self._axes = self._fig.subplots(1, 2)
        self._fig.subplots_adjust(left=0.09, right=0.98, bottom=0.13, top=0.92, wspace=0.25)
        h = board.half
        ax0.add_patch(patches.Rectangle((-h, -h), 2 * h, 2 * h, fill=False, color="0.4"))
        ax0.add_patch(patches.Circle((0, 0), board.hole_radius, color="0.2"))
        ax0.set_aspect("equal")
        ax0.set_xlabel("x (m)")
        ax0.set_ylabel("y (m)")
        ax0.set_xlim(-h, h)
        ax0.set_ylim(-h, h)
        ax1.set_xlabel("t (s)")
        ax1.set_title("fit quality per frame (lower is better)", fontsize=9, y=1.0)

    def draw(self, tr: Tracking, shot: Shot, path: Path) -> Path:
        ax0, ax1 = self._axes
        for ax in self._axes:
            for line in list(ax.lines):
                line.remove()
            ax.set_prop_cycle(None)  # the same colours in every figure
        for seg in shot.segments:
            P = tr.dice[seg.colour].array()[seg.frames]
            ax0.plot(P[:, 0], P[:, 1], ".-", ms=3, lw=0.8, label=seg.colour)
            ax0.plot(*seg.before[:2], "o", mfc="none", color="k")
            ax0.plot(*seg.after[:2], "s", mfc="none", color="k")
            t = (np.array(seg.frames) - shot.segments[0].start) / tr.fps
            ax1.plot(
                t,
                np.array(tr.dice[seg.colour].misfit)[seg.frames] * 1000,
                label=f"{seg.colour} outline misfit (mm)",
            )
        frames = range(shot.segments[0].start, max(s.stop for s in shot.segments))
        t = (np.array(frames) - shot.segments[0].start) / tr.fps
        ax1.plot(t, np.array(tr.marker_rms)[list(frames)], "k:", label="markers rms (px)")
        ax1.relim()
        ax1.autoscale_view()
        ax0.set_title(f"shot {shot.label}: path (o start, □ rest)", fontsize=9, y=1.0)
        ax0.legend(fontsize=7)
        ax1.legend(fontsize=7)

        def save(handle) -> None:
            self._fig.savefig(handle, format="png")

        fileio.write_atomic(path, save, "quality figure", binary=True)
        return path


def figure(tr: Tracking, shot: Shot, board: BoardSpec, path: Path) -> Path:
    """One shot's quality figure (Figures draws many)."""
    return Figures(board).draw(tr, shot, path)
