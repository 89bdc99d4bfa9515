"""How many frames a video export will have, known before any frame is drawn, and the one-line
refusal when that is more than the limits of :mod:`jamsumo_sim.export.options` allow.

A shot's frames follow from its simulated time (docs/export.md), which needs its physics run to
rest, but no drawing. First, with nothing simulated, the fewest frames any shot can have (it rests
after one physics step) and the most (it runs the rules' whole shot time) settle most requests:
too many even at the fewest is refused at once, few enough even at the most needs no counting
before the drawing. Otherwise the shots are counted one by one, and the count stops as soon as the
frames counted plus the fewest the remaining shots can add pass the limit: a refusal never costs
more than the shots it took to pass it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from jamsumo_sim.errors import UserError
from jamsumo_sim.export import options as opt
from jamsumo_sim.export.frames import frame_count, rest_steps

if TYPE_CHECKING:
    from jamsumo_sim.export.shots import ShotScene


@dataclass(frozen=True)
class Ask:
    """A video export as asked: the file, its kind (``.mp4``/``.gif``) and the timing options."""

    out: Path
    suffix: str
    fps: int
    speed: float
    hold: float
    dt: float  # s: the physics step
    shot_time: float  # s: the rules' cap on a shot's simulated time

    @property
    def limit(self) -> int:
        return opt.MAX_GIF_FRAMES if self.suffix == ".gif" else opt.MAX_VIDEO_FRAMES

    @property
    def hold_frames(self) -> int:
        return round(self.hold * self.fps)

    def frames(self, steps: int) -> int:
        """Frames of a shot resting after ``steps`` physics steps, the held stills included."""
        return frame_count(steps, self.dt, self.fps, self.speed) + 2 * self.hold_frames

    @property
    def fewest(self) -> int:
        return self.frames(1)

    @property
    def most(self) -> int:
        return self.frames(math.ceil(self.shot_time / self.dt - 1e-9))


def playing_time(frames: int, fps: int) -> str:
    """``~1 h 38 min``, ``~12 min``, ``~45 s``: how long ``frames`` play."""
    seconds = frames / fps
    if seconds >= 3600:
        hours, minutes = divmod(round(seconds / 60), 60)
        return f"~{hours} h {minutes} min"
    if seconds >= 60:
        return f"~{round(seconds / 60)} min"
    return f"~{math.ceil(seconds)} s"


def refusal(ask: Ask, frames: int, how: str = "") -> UserError:
    """The one line: the estimate, the limit and what to change."""
    kind = "a GIF" if ask.suffix == ".gif" else "an MP4"
    return UserError(
        f"--out {ask.out}: the export would be {how}{frames:,} frames "
        f"({playing_time(frames, ask.fps)} at {ask.fps} fps); {kind} may have at most "
        f"{ask.limit:,}: lower --fps or --hold, raise --speed, or pick fewer shots"
    )


def check_fewest(ask: Ask, shots: int) -> bool:
    """Refuse when even the fewest frames ``shots`` shots can have are too many (nothing is
    simulated); True when even the most fit, so the shots need no counting first."""
    if shots * ask.fewest > ask.limit:
        raise refusal(ask, shots * ask.fewest, "at least ")
    return shots * ask.most <= ask.limit


def count_frames(
    ask: Ask, scenes: Iterable[ShotScene], shots: int
) -> tuple[list[ShotScene], tuple[int, ...]]:
    """The scenes and each one's frames; stops with the refusal (the total extrapolated from the
    shots counted) once the limit is certainly passed, before the remaining shots are simulated."""
    kept: list[ShotScene] = []
    counts: list[int] = []
    for scene in scenes:
        kept.append(scene)
        counts.append(ask.frames(rest_steps(scene.world(), scene.shot_time, scene.dt)))
        total, left = sum(counts), shots - len(counts)
        if total + left * ask.fewest > ask.limit:
            if not left:
                raise refusal(ask, total)
            guess = total + round(total / len(counts) * left)  # the shots so far as typical
            guess = max(int(float(f"{guess:.3g}")), total + left * ask.fewest)
            raise refusal(ask, guess, "about ")
    return kept, tuple(counts)
