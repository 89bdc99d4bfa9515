"""The data a shared HTML page replays: the board's geometry, the theme's colours, and every shot's
trajectories sampled from the re-simulation at ``HTML_MIN_RATE`` Hz or more, with captions and scores."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from jamsumo_sim.export.options import HTML_MIN_RATE
from jamsumo_sim.export.shots import ShotScene
from jamsumo_sim.rules.seats import COLOURS
from jamsumo_sim.ui.animator import states_of
from jamsumo_sim.ui.draw_dice import PIPS
from jamsumo_sim.ui.palette import MARKS
from jamsumo_sim.ui.theme import Theme

PAGE_KIND = "jamsumo-export-page"
PAGE_VERSION = 1
POSITION_DIGITS = 5  # 10 µm: far below a pixel at any size the page is drawn
ANGLE_DIGITS = 4
THEME_COLOURS = (
    "table",
    "wood_light",
    "wood_dark",
    "wood_edge",
    "dish_shadow",
    "hole",
    "hole_rim",
    "platform_light",
    "platform_dark",
    "platform_text",
    "sumo_line",
    "sumo_text",
    "panel",
    "panel_line",
    "text",
    "text_dim",
    "highlight",
    "aim_face",
)


def stride_for(dt: float) -> int:
    """Physics steps between two samples: as many as keep the rate at least HTML_MIN_RATE."""
    return max(1, math.floor(1.0 / (HTML_MIN_RATE * dt) + 1e-9))


def _sample(world: Any, ids: Sequence[str]) -> list[float]:
    states = states_of(world)
    out: list[float] = []
    for i in ids:
        s = states.get(i)
        if s is None:
            out += [0.0, 0.0, 0.0, 1, 0]
            continue
        on = 1 if s.status == "on_board" else 0
        out += [
            round(s.x, POSITION_DIGITS),
            round(s.y, POSITION_DIGITS),
            round(s.angle, ANGLE_DIGITS),
            int(s.face),
            on,
        ]
    return out


def shot_track(scene: ShotScene) -> dict[str, Any]:
    """One shot's samples: every ``stride`` physics steps, then the settled rest state."""
    world = scene.world()
    ids = sorted(states_of(world))
    stride = stride_for(scene.dt)
    budget = math.ceil(scene.shot_time / scene.dt - 1e-9)
    frames = [_sample(world, ids)]
    times = [0.0]
    steps = 0
    while steps < budget:
        world.step()
        steps += 1
        if world.at_rest():
            break
        if steps % stride == 0:
            frames.append(_sample(world, ids))
            times.append(round(steps * scene.dt, 6))
    world.run_until_rest(0.0)
    frames.append(_sample(world, ids))
    times.append(round(steps * scene.dt, 6))
    return {
        "ids": ids,
        "rate": 1.0 / (stride * scene.dt),
        "times": times,
        "frames": frames,
        "duration": times[-1],
    }


def page_data(
    title: str,
    scenes: Sequence[ShotScene],
    board: Any,
    die_size: float,
    theme: Theme,
    finished: str,
) -> dict[str, Any]:
    shots = []
    for scene in scenes:
        shots.append(
            {
                "number": scene.number,
                "seat": scene.seat,
                "die": scene.die,
                "title": scene.title,
                "story": scene.story,
                "timeline": [[round(t, 6), text] for t, text in scene.timeline],
                "log": list(scene.log),
                "verdict": scene.verdict,
                "before": [asdict(r) for r in scene.scores_before],
                "after": [asdict(r) for r in scene.scores_after],
                **shot_track(scene),
            }
        )
    return {
        "kind": PAGE_KIND,
        "version": PAGE_VERSION,
        "title": title,
        "finished": finished,
        "score_head": scenes[0].score_head if scenes else "",
        "die_size": die_size,
        "board": {
            "side": board.side,
            "hole_radius": board.hole_radius,
            "dish_radius": board.dish_radius,
            "platforms": [[p.x, p.y, p.width, p.depth] for p in board.platforms],
            "sumo": [[a.x, a.y, a.width, a.depth] for a in board.sumo_areas],
        },
        "colours": {name: list(theme.dice_colour(name)) for name in COLOURS},
        "marks": dict(MARKS),
        "pips": {str(k): [list(p) for p in v] for k, v in PIPS.items()},
        "theme": {name: list(theme.colour(name)) for name in THEME_COLOURS},
        "shots": shots,
    }
