"""Time-stamped physics events the rules read (collisions, holes, falls off the edge, tumbles, ...)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Event types
COLLISION = (
    "collision"  # data: impulse (N s), kind "die" (die struck die) or "wall" (platform wall)
)
HOLE = "hole"  # a die dropped through the hole
OFF_BOARD = "off_board"  # a die's centre of mass went past the board's edge
PLATFORM = "platform"  # data: platform, action "landed" | "left" | "rest"
TUMBLE = "tumble"  # data: before, after (top faces), cause "flick" | "rim" | "step" | "impact"
SKIM = "skim"  # crossed (part of) the hole without dropping; data: depth (m)
FLICK = "flick"  # a flick was applied; data: the flick's fields, face struck
HOP = "hop"  # a die left the surface; data: vz (m/s, upward)
LAND = "land"  # an airborne die came down; data: on ("board", a platform name or a die id)

EVENT_TYPES = (COLLISION, HOLE, OFF_BOARD, PLATFORM, TUMBLE, SKIM, FLICK, HOP, LAND)


@dataclass(frozen=True)
class Event:
    """Something that happened at time ``t`` (s, world time) to ``dice`` (die ids)."""

    t: float
    type: str
    dice: tuple[str, ...]
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Flat JSON object: t, type, dice, then the data fields."""
        out: dict[str, Any] = {"t": self.t, "type": self.type, "dice": list(self.dice)}
        for k, v in self.data.items():
            out.setdefault(k, v)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        data = {k: v for k, v in d.items() if k not in ("t", "type", "dice")}
        return cls(float(d["t"]), str(d["type"]), tuple(d["dice"]), data)
