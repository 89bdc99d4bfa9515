"""`jamsumo markers`: the board's ArUco markers on an A4 page at true scale, with a 10 cm check line."""

from __future__ import annotations

from pathlib import Path

from .. import fileio
from ..errors import UserError
from ..physics.board import BoardSpec
from .markers import DICTIONARY, board_markers, dictionary

A4_MM = (210.0, 297.0)
MARGIN_MM = 15.0
BORDER_CELLS = 1.0  # white border around each marker, in marker cells (6 cells across a 4x4 marker)
CHECK_MM = 100.0
MARKER_PIXELS = 600  # rendered pixels across a marker (drawn with nearest: edges stay sharp)


def write_markers_pdf(board: BoardSpec, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from .cvload import cv2

    cv = cv2()
    markers = board_markers(board)
    w, h = A4_MM
    fig = plt.figure(figsize=(w / 25.4, h / 25.4))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, w)
    ax.set_ylim(0, h)
    ax.axis("off")
    x, y_top = MARGIN_MM, h - MARGIN_MM - 10
    row_h = 0.0
    for m in markers:
        size = m.size * 1000
        pad = size / 6 * BORDER_CELLS
        cell = size + 2 * pad
        if x + cell > w - MARGIN_MM:
            x, y_top = MARGIN_MM, y_top - row_h - 12
            row_h = 0.0
        if y_top - cell < MARGIN_MM + 30:
            raise UserError(f"board {board.name!r}: its markers do not fit on one A4 page")
        img = cv.aruco.generateImageMarker(dictionary(), m.id, MARKER_PIXELS)
        ax.add_patch(plt.Rectangle((x, y_top - cell), cell, cell, fc="white", ec="0.8", lw=0.3))
        ax.imshow(img, cmap="gray", vmin=0, vmax=255, interpolation="nearest", aspect="auto", zorder=2,
                  extent=(x + pad, x + pad + size, y_top - cell + pad, y_top - pad))  # fmt: skip
        ax.text(x, y_top - cell - 4, f"id {m.id}: centre at ({m.x:+.3f}, {m.y:+.3f}) m,\n"
                f"this side up = +y (away from seat 0)", fontsize=6, va="top")  # fmt: skip
        x += cell + 20
        row_h = max(row_h, cell)
    ax.plot([MARGIN_MM, MARGIN_MM + CHECK_MM], [MARGIN_MM + 10] * 2, "k", lw=1)
    for end in (MARGIN_MM, MARGIN_MM + CHECK_MM):
        ax.plot([end, end], [MARGIN_MM + 7, MARGIN_MM + 13], "k", lw=1)
    ax.text(MARGIN_MM, MARGIN_MM + 15, "check: this line is 100 mm; print at 100 % (no 'fit to page')",
            fontsize=7)  # fmt: skip
    ax.text(MARGIN_MM, h - MARGIN_MM, f"JamSumo tracking markers ({DICTIONARY}), board {board.name!r}; "
            f"cut along the grey lines, keep the white border", fontsize=8, va="top")  # fmt: skip

    ax.set_xlim(0, w)  # imshow moved the limits to its last image: the page again, 1 unit = 1 mm
    ax.set_ylim(0, h)

    def save(handle) -> None:
        fig.savefig(handle, format=path.suffix.lstrip(".").lower() or "pdf")

    try:
        return fileio.write_atomic(path, save, "markers PDF", binary=True)
    finally:
        plt.close(fig)
