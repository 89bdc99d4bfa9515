"""Shots to pictures: the frames of a video (with a tqdm bar) and the still of a PNG."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from jamsumo_sim.export.frames import frame_count, moments, rest_steps
from jamsumo_sim.export.scene import SceneRenderer, pixels
from jamsumo_sim.export.shots import ShotScene
from jamsumo_sim.ui.animator import rest_poses, states_of
from jamsumo_sim.ui.trails import Trails


@dataclass(frozen=True)
class VideoPlan:
    """How many frames each shot gets (known before any frame is drawn)."""

    fps: int
    speed: float
    trails: float
    hold_frames: int  # still frames added before and after each shot
    counts: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.counts)


def plan_video(
    scenes: Sequence[ShotScene], fps: int, speed: float, trails: float, hold: float
) -> VideoPlan:
    hold_frames = round(hold * fps)
    counts = tuple(
        frame_count(rest_steps(s.world(), s.shot_time, s.dt), s.dt, fps, speed) + 2 * hold_frames
        for s in scenes
    )
    return VideoPlan(fps, speed, trails, hold_frames, counts)


def video_frames(
    scenes: Sequence[ShotScene], renderer: SceneRenderer, plan: VideoPlan, progress: bool = True
) -> Iterator[np.ndarray]:
    """Every frame of every shot, in order (drawn one at a time: a video is streamed)."""
    from tqdm import tqdm

    bar = tqdm(
        total=plan.total,
        unit="frame",
        desc="rendering",
        file=sys.stderr,
        disable=None if progress else True,
    )
    try:
        for scene in scenes:
            trails = Trails(plan.trails) if plan.trails > 0 else None
            shown = moments(scene.world(), scene.shot_time, scene.dt, plan.fps, plan.speed)
            # one moment of look-ahead tells the last (rest) one: the moments of a long slow shot
            # are never all held at once
            m, k = next(shown), 0
            for following in itertools.chain(shown, (None,)):
                last = following is None
                if m.moving and trails is not None:
                    trails.record(m.poses, m.clock)
                renderer.board_picture(m.poses, trails if m.moving else None, m.clock)
                renderer.decorate(scene, after=last, clock=m.clock)
                picture = pixels(renderer.surface)
                still = k == 0 or last
                for _ in range(1 + (plan.hold_frames if still else 0)):
                    bar.update(1)
                    yield picture
                if following is not None:
                    m, k = following, k + 1
    finally:
        bar.close()


def still_picture(scene: ShotScene, renderer: SceneRenderer) -> np.ndarray:
    """The shot's rest state with the whole trajectory of every die that moved (a PNG for reports)."""
    world = scene.world()
    paths: dict[str, list[tuple[float, float]]] = {
        i: [(s.x, s.y)] for i, s in states_of(world).items() if s.status == "on_board"
    }
    for _ in range(rest_steps(world, scene.shot_time, scene.dt)):
        world.step()
        for i, s in states_of(world).items():
            path = paths.setdefault(i, [])
            if not path or (s.x, s.y) != path[-1]:
                path.append((s.x, s.y))
    world.run_until_rest(0.0)
    moved = {i: p for i, p in paths.items() if len(p) > 1}
    renderer.board_picture(())
    renderer.traces(moved)
    renderer.dice(rest_poses(world))
    renderer.decorate(scene, after=True)
    return pixels(renderer.surface)
