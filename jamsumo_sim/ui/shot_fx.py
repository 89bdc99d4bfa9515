"""What accompanies a shot on the move: fading trails, automatic slow motion at impacts, and the line
saying what was hit.  The App feeds it the Animator each frame; it never steps the physics itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jamsumo_sim.ui.shot_story import describe
from jamsumo_sim.ui.slow_motion import SlowMotion
from jamsumo_sim.ui.trails import Trails


class ShotFx:
    def __init__(self, trails: Trails | None = None, slow: SlowMotion | None = None) -> None:
        self.trails = trails or Trails()
        self.slow = slow or SlowMotion()
        self.start_events = 0
        self.clock = 0.0  # the animation clock (s, scaled by speed): trails age with the shot

    @classmethod
    def from_settings(cls, fx: Mapping[str, Any]) -> ShotFx:
        """From the theme's ``[shot_fx]`` section (defaults where a key is missing)."""
        slow = SlowMotion(
            bool(fx.get("slow_motion", True)),
            float(fx.get("slow_factor", 0.3)),
            float(fx.get("slow_hold", 0.35)),
        )
        return cls(Trails(float(fx.get("trail_time", 0.35))), slow)

    def start(self, world: Any) -> None:
        self.trails.clear()
        self.slow.reset(world)
        self.start_events = len(world.events)
        self.clock = 0.0

    def speed_factor(self, dt: float) -> float:
        """Multiplier of the playback speed this frame (slow motion after an impact)."""
        return self.slow.scale(dt)

    def after_advance(self, anim: Any) -> None:
        self.clock = float(anim.clock)
        self.slow.note(anim.world)
        self.trails.record(anim.poses(), self.clock)

    def story(self, world: Any, flicked: str) -> str:
        return describe(flicked, world.events[self.start_events :])
