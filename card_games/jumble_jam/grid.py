"""The card layout's geometry: slots, the internal edges a jam jar can sit on, and sliding down.

Slots are named by column letter (left to right) and row number (1 = the row next to the oven,
the top; the last row is the bottom, farthest from the oven), e.g. ``A1``. A jar edge joins two
orthogonally adjacent slots and is named by them, e.g. ``A1|B1`` or ``A1|A2``; outer borders
and corners are not edges at all, so they can never be chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Grid:
    columns: int
    rows: int
    slot_names: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    edge_names: tuple[str, ...]
    slot_edges: tuple[tuple[int, ...], ...]  # the edges around each slot

    def __deepcopy__(self, memo: dict[int, object]) -> Grid:
        return self  # immutable: clones of a state share it

    def slot(self, column: int, row: int) -> int:
        return column * self.rows + row

    def column_slots(self, column: int) -> list[int]:
        """The slots of one column from the top (oven) row down."""
        return [self.slot(column, r) for r in range(self.rows)]

    def fill_order(self) -> list[int]:
        """Where new cards go: columns left to right, each from its lowest empty slot upwards.

        Call it after sliding, so a column's empty slots are all at its top.
        """
        return [self.slot(c, r) for c in range(self.columns) for r in reversed(range(self.rows))]


@cache
def grid(columns: int, rows: int) -> Grid:
    names = tuple(f"{chr(ord('A') + c)}{r + 1}" for c in range(columns) for r in range(rows))
    edges: list[tuple[int, int]] = []
    for r in range(rows):
        for c in range(columns):
            here = c * rows + r
            if c + 1 < columns:
                edges.append((here, (c + 1) * rows + r))
            if r + 1 < rows:
                edges.append((here, here + 1))
    slot_edges = tuple(
        tuple(i for i, (a, b) in enumerate(edges) if s in (a, b)) for s in range(columns * rows)
    )
    return Grid(
        columns=columns,
        rows=rows,
        slot_names=names,
        edges=tuple(edges),
        edge_names=tuple(f"{names[a]}|{names[b]}" for a, b in edges),
        slot_edges=slot_edges,
    )


def slide_down(cells: list[str | None], g: Grid) -> list[str | None]:
    """Cards left on the table slide to the bottom of their column, keeping their order."""
    out: list[str | None] = [None] * len(cells)
    rows = g.rows
    for top in range(0, g.columns * rows, rows):  # a column's slots are consecutive, top first
        kept = [card for card in cells[top : top + rows] if card is not None]
        out[top + rows - len(kept) : top + rows] = kept
    return out
