"""Actions: small immutable values with a stable, human-readable name."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from jamsumo_sim.errors import UserError

# Sentinels returned by ``State.current_player()`` for nodes where no single seat moves.
CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -3


def _freeze(value: Any) -> Any:
    """Turn JSON-like data into hashable tuples so that actions can be compared and hashed."""
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, float | int | str | bool) or value is None:
        return value
    raise TypeError(f"action argument of unsupported type {type(value).__name__}")


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, order=True)
class Action:
    """One move (or chance outcome).

    ``name`` is what a person types and what a replay file shows; it is unique among the legal
    actions of a decision. ``args`` carries the exact parameters (JSON-able, frozen into tuples)
    so the engine never has to parse the name.
    """

    name: str
    args: tuple[tuple[str, Any], ...] = field(default=())

    def __eq__(self, other: object) -> bool:
        # by hand rather than generated: legality checks compare a move against whole lists,
        # and names differ first in almost every comparison
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self.name == other.name and self.args == other.args  # type: ignore[attr-defined]

    @classmethod
    def make(cls, name: str, /, **args: Any) -> Action:
        """Build an action; keyword arguments become its frozen ``args``."""
        return cls(name, tuple(sorted((k, _freeze(v)) for k, v in args.items())))

    def get(self, key: str, default: Any = None) -> Any:
        """Return one argument (tuples stay tuples)."""
        for k, v in self.args:
            if k == key:
                return v
        return default

    def __getitem__(self, key: str) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.args:
            out["args"] = {k: _thaw(v) for k, v in self.args}
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise UserError(f"malformed action {json.dumps(data)[:80]}: needs a 'name' string")
        args = data.get("args", {})
        if not isinstance(args, Mapping):
            raise UserError(f"malformed action {data['name'][:40]!r}: 'args' must be an object")
        return cls.make(data["name"], **args)

    def __str__(self) -> str:
        return self.name
