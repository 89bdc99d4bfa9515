"""The agreement plot: game/3D distance ratio and quarter turns per cell (matplotlib, Agg)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def write_plot(summary: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    heights = sorted({c["height"] for c in summary["cells"]})
    for h in heights:
        rows = [c for c in summary["cells"] if c["height"] == h]
        xs = [c["speed"] + 0.05 * c["offset"] for c in rows]
        ax1.plot(xs, [c["distance_ratio"] or 0 for c in rows], "o", label=f"height {h}")
        ax2.plot(
            [c["ref"]["quarter_turns"] for c in rows],
            [c["game"]["quarter_turns"] for c in rows],
            "o",
            label=f"height {h}",
        )
    ax1.axhline(1.0, color="k", lw=0.5)
    ax1.set_xlabel("launch speed (m/s)")
    ax1.set_ylabel("distance game / 3D")
    ax1.legend(fontsize=7)
    top = max([1] + [c["ref"]["quarter_turns"] for c in summary["cells"]])
    ax2.plot([0, top], [0, top], "k-", lw=0.5)
    ax2.set_xlabel("quarter turns, 3D")
    ax2.set_ylabel("quarter turns, game")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
