"""A hosted match's journal: every move and every seat token, appended and fsync'd one by one.

The record (``--record FILE``) is the match's replay, written at the start, now and then, and at the
end; the journal beside it (``FILE.journal``) gets each move *before* any client is told of it, and
each seat's token before its player is welcomed. After a crash (``kill -9``), ``--resume FILE``
takes the record, plays the journal's further moves onto it (chance outcomes as they were drawn)
and gives each player their own seat back. The journal holds the seat tokens: it is made readable
by its owner only.

Format (JSON lines): a header ``{"format": "jamsumo-net-journal", "version": 1, "game", "seed",
"match"}``, then ``{"at": N, "entry": ...}`` for the move at position N and ``{"seat": S, "token":
T}`` for a seat's token. A last line cut short by a crash was never fsync'd, so nobody was told of
it: it is ignored.
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop.serialize import replay_history
from jamsumo_sim.turnloop.state import State

FORMAT = "jamsumo-net-journal"
VERSION = 1


def journal_path(record: str | os.PathLike[str]) -> Path:
    path = Path(record)
    return path.with_name(path.name + ".journal")


class Journal:
    """Append-only: each line is written and fsync'd before the call returns."""

    def __init__(self, path: Path, state: State, match: str, fresh: bool) -> None:
        self.path = path
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if fresh else 0)
        try:
            self.fd: int | None = os.open(path, flags, 0o600)
        except OSError as exc:
            raise UserError(f"{path}: cannot write the journal: {exc.strerror or exc}") from None
        if fresh or os.fstat(self.fd).st_size == 0:
            header = {"format": FORMAT, "version": VERSION, "game": state.game.name}
            self._write({**header, "seed": state.seed, "match": match})

    def _write(self, data: dict[str, Any]) -> None:
        if self.fd is None:
            return
        line = (json.dumps(data, separators=(",", ":")) + "\n").encode()
        os.write(self.fd, line)  # O_APPEND: one write, at the end, whatever else happened
        os.fsync(self.fd)

    def move(self, at: int, entry: dict[str, Any]) -> None:
        self._write({"at": at, "entry": entry})

    def token(self, seat: int, token: str) -> None:
        self._write({"seat": seat, "token": token})

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


@dataclass
class Resumed:
    match: str = field(default_factory=lambda: secrets.token_hex(8))
    tokens: dict[int, str] = field(default_factory=dict)
    moves: int = 0  # moves the journal added to the record


def resume(state: State, path: Path) -> Resumed:
    """Play the journal's moves beyond ``state`` onto it; the match's name and seat tokens. No
    journal: nothing to add (a record from before journals, or one never hosted)."""
    try:
        lines = path.read_bytes().split(b"\n")
    except FileNotFoundError:
        return Resumed()
    except OSError as exc:
        raise UserError(f"{path}: cannot read the journal: {exc.strerror or exc}") from None
    rows: list[Any] = []
    for number, raw in enumerate(lines):
        if not raw.strip():
            continue
        try:
            rows.append(json.loads(raw))
        except ValueError:
            if number == len(lines) - 1:  # the last line, cut by a crash: never told to anyone
                break
            raise UserError(f"{path}: line {number + 1} is not JSON") from None
    header = rows[0] if rows else {}
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise UserError(f"{path}: not a jamsumo journal")
    if header.get("version") != VERSION:
        raise UserError(
            f"{path}: journal version {str(header.get('version'))[:20]} is not supported "
            f"(this version reads {VERSION}); move the file away to resume from the record alone"
        )
    if header.get("game") != state.game.name or header.get("seed") != state.seed:
        raise UserError(f"{path}: this journal belongs to another match than the record")
    out = Resumed(match=str(header.get("match", ""))[:32] or secrets.token_hex(8))
    for row in rows[1:]:
        if not isinstance(row, dict):
            raise UserError(f"{path}: a line is not a JSON object")
        if "token" in row:
            seat, token = row.get("seat"), row.get("token")
            if isinstance(seat, int) and isinstance(token, str):
                out.tokens[seat] = token
        elif row.get("at") == len(state.history):  # earlier ones the record already has
            replay_history(state, [row.get("entry")], f"{path}: move {row['at'] + 1}")
            out.moves += 1
        elif not isinstance(row.get("at"), int) or row["at"] > len(state.history):
            raise UserError(f"{path}: a move is missing before position {str(row.get('at'))[:20]}")
    return out
