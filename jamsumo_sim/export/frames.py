"""The moments a video shows of one shot, from the window's own :class:`Animator`.

Frame ``k`` of a shot shows the animation ``k · speed / fps`` simulated seconds after the flick (the
Animator interpolates between physics steps and fades dice leaving play, as in the window); the last
frame is the settled rest state. So a shot that comes to rest after ``T`` simulated seconds has
``1 + ceil(T · fps / speed)`` frames (plus the still frames of ``--hold`` before and after).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from jamsumo_sim.ui.animator import Animator, Pose, rest_poses

FADE_TIME = 0.45  # s, as the window (assets/ui_theme.toml [animation] fade_time)


@dataclass(frozen=True)
class Moment:
    """What one frame shows: the dice, the animation clock (trails age by it), whether at rest."""

    poses: tuple[Pose, ...]
    clock: float
    moving: bool  # False for the still frames (start and rest): the window draws no trails then


def rest_steps(world: object, shot_time: float, dt: float) -> int:
    """Physics steps until ``world`` (a copy is stepped) rests, capped like the rules' shot."""
    probe = world.copy()  # type: ignore[attr-defined]
    budget = math.ceil(shot_time / dt - 1e-9)
    steps = 0
    while steps < budget:
        probe.step()
        steps += 1
        if probe.at_rest():
            break
    return steps


def frame_count(steps: int, dt: float, fps: int, speed: float) -> int:
    """Frames of a shot resting after ``steps`` physics steps (no hold)."""
    return 1 + math.ceil(steps * dt * fps / speed - 1e-6)


def start_poses(world: object) -> tuple[Pose, ...]:
    """The dice as the window draws them before the first step (the flick applied, not stepped)."""
    return tuple(rest_poses(world))


def moments(world: object, shot_time: float, dt: float, fps: int, speed: float) -> Iterator[Moment]:
    """Steps ``world`` (it is changed) and yields each frame's dice; the last one at rest."""
    anim = Animator(world, dt, FADE_TIME, shot_time)
    anim.speed = speed
    yield Moment(start_poses(world), 0.0, False)
    frame_dt = 1.0 / fps
    while anim.running:
        anim.advance(frame_dt)
        if anim.running:
            yield Moment(tuple(anim.poses()), anim.clock, True)
    world.run_until_rest(0.0)  # type: ignore[attr-defined]  # settles as the rules' run does
    yield Moment(tuple(rest_poses(world)), anim.clock, False)
