"""Automatic slow motion around impacts: for a moment after dice strike each other, time runs slower."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class SlowMotion:
    """``factor`` (< 1) of normal speed for ``hold`` s of wall time after each die-on-die impact."""

    enabled: bool = True
    factor: float = 0.3
    hold: float = 0.35
    left: float = 0.0  # s of slow motion still to run
    seen: int = 0  # events of the current world already looked at

    def reset(self, world: Any) -> None:
        self.seen = len(world.events)
        self.left = 0.0

    def note(self, world: Any) -> None:
        """Look at the world's new events: an impact starts (or extends) the slow motion."""
        new = world.events[self.seen :]
        self.seen = len(world.events)
        if self.enabled and any(e.type == "collision" and e.data.get("kind") == "die" for e in new):
            self.left = self.hold

    def scale(self, dt: float) -> float:
        """The speed multiplier for this frame (and count its wall time down)."""
        if self.left <= 0.0 or not self.enabled:
            return 1.0
        self.left = max(0.0, self.left - dt)
        return self.factor
