"""Params files: a TOML file of physics parameters (``version = 1`` and a ``[params]`` table) read
over the standard board's defaults (:func:`load_params`) and written so it reads back exactly
(:func:`dump_params`).  Above :mod:`.board` (the defaults come from a board) and :mod:`.params`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..fileio import read_toml, write_atomic
from .board import BoardSpec, load_board
from .params import PARAMS_VERSION, PhysicsParams, _short


def default_params(board: BoardSpec | None = None) -> PhysicsParams:
    """The standard board's parameters (or ``board``'s)."""
    if board is None:
        board = load_board("standard")
    return PhysicsParams.from_board(board)


def load_params(path: str | Path, base: PhysicsParams | None = None) -> PhysicsParams:
    """Read a params TOML file: ``version = 1`` plus a ``[params]`` table (or top-level numbers).

    Parameters not in the file keep ``base``'s (default: the standard board's) values.  An optional
    ``[stamp]`` table (provenance: who fitted it, when, from which data) is ignored here.
    """
    p = Path(path)
    raw = read_toml(p, "params file")
    version = raw.get("version")
    if type(version) is not int or version != PARAMS_VERSION:  # true == 1 in Python, not here
        raise UserError(
            f"params file {p}: unsupported or missing version {_short(version)} "
            f"(expected {PARAMS_VERSION})"
        )
    table = raw.get("params")
    if table is None:
        table = {k: v for k, v in raw.items() if k not in ("version", "stamp")}
    elif not isinstance(table, dict):
        raise UserError(f"params file {p}: params must be a table")
    else:
        extra = sorted(set(raw) - {"version", "stamp", "params"})
        if extra:  # a number beside the [params] table would be silently ignored
            raise UserError(f"params file {p}: unknown key {extra[0]!r} outside [params]")
    base = base or default_params()
    try:
        return base.with_overrides(table)
    except UserError as exc:
        raise UserError(f"params file {p}: {exc}") from None


def dump_params(
    params: PhysicsParams, path: str | Path, stamp: Mapping[str, Any] | None = None
) -> None:
    """Write ``params`` as a params TOML file (``version``, ``[stamp]``, ``[params]``)."""
    lines = [
        "# jamsumo physics parameters (SI units); read with jamsumo_sim.physics.params_file.load_params",
        f"version = {PARAMS_VERSION}",
        "",
    ]
    if stamp:
        lines.append("[stamp]")
        for k, v in stamp.items():
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
        lines.append("")
    lines.append("[params]")
    for k, v in params.to_dict().items():
        lines.append(f"{k} = {_toml_value(v)}")
    write_atomic(path, "\n".join(lines) + "\n", "params file")


def _toml_key(k: Any) -> str:
    k = str(k)
    if k and all(c.isalnum() or c in "-_" for c in k):
        return k
    return _toml_string(k)


def _toml_string(s: str) -> str:
    out = ['"']
    for c in s:
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _toml_value(v: Any) -> str:
    """A TOML scalar (or flat array of scalars) that reads back to exactly ``v``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        r = repr(v)  # shortest repr round-trips exactly; TOML needs a '.' or exponent
        return r if any(c in r for c in ".en") else r + ".0"
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise UserError(f"cannot write {type(v).__name__} value {v!r} to a params file")
