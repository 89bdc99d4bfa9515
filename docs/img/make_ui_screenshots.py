"""Regenerate the window screenshots of docs/ui.md (headless): python docs/img/make_ui_screenshots.py

Plain scenes come from `jamsumo play --frames N --screenshot PATH`; the aiming scene drives the window
with real mouse events, as the tests do.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("XDG_DATA_HOME", "/tmp/jamsumo-doc-shots")

import pygame  # noqa: E402

from jamsumo_sim.cli import main  # noqa: E402

HERE = Path(__file__).resolve().parent
DT = 1 / 60


def aiming(path: Path) -> None:
    from jamsumo_sim.ui.app import App
    from jamsumo_sim.ui.match_session import new_match

    app = App(
        new_match("jam", ["human", "planner"], 2),
        size=(1280, 800),
        sync_bots=True,
        autosave_enabled=False,
    )
    app.frame(DT)
    while app.turning is not None:  # let the board turn to the player first
        app.frame(DT)
    seat = app.session.to_move()
    view = app.view()
    slot = app.hand_slots(seat)[2]
    zone = min(app.session.board.platforms, key=lambda p: view.to_screen(p.x, p.y)[1] * -1)
    events = [
        (pygame.MOUSEBUTTONDOWN, view.to_screen(slot.x, slot.y)),
        (pygame.MOUSEMOTION, view.to_screen(zone.x, zone.y)),
        (pygame.MOUSEBUTTONUP, view.to_screen(zone.x, zone.y)),
    ]
    for kind, pos in events:
        pos = (round(pos[0]), round(pos[1]))
        extra = (
            {"button": 1} if kind != pygame.MOUSEMOTION else {"rel": (0, 0), "buttons": (1, 0, 0)}
        )
        pygame.event.post(pygame.event.Event(kind, pos=pos, **extra))
        app.frame(DT)
    p = app.placement
    d = math.atan2(-p.y, -p.x) + 0.12
    press = view.to_screen(p.x + 0.003, p.y)
    pull = view.to_screen(p.x + 0.003 - 0.06 * math.cos(d), p.y - 0.06 * math.sin(d))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tuple(map(round, press)), button=1)
    )
    app.frame(DT)
    pygame.event.post(
        pygame.event.Event(
            pygame.MOUSEMOTION, pos=tuple(map(round, pull)), rel=(0, 0), buttons=(1, 0, 0)
        )
    )
    app.frame(DT)
    app.screenshot(str(path))
    pygame.quit()


def main_shots() -> None:
    shots = [
        (
            ["play", "--mode", "sumo", "--seats", "human,planner", "--seed", "0", "--frames", "3"],
            "play_sumo_start.png",
        ),
        (
            [
                "play",
                "--mode",
                "sumo",
                "--seats",
                "planner,planner,random",
                "--seed",
                "4",
                "--frames",
                "420",
            ],
            "play_sumo_bots.png",
        ),
        (
            [
                "play",
                "--mode",
                "jam",
                "--seats",
                "planner,planner",
                "--seed",
                "1",
                "--frames",
                "600",
            ],
            "play_jam_bots.png",
        ),
    ]
    for args, name in shots:
        assert main([*args, "--screenshot", str(HERE / name)]) == 0, name
    aiming(HERE / "play_aiming.png")
    record = Path(os.environ["XDG_DATA_HOME"]) / "doc-replay.json"
    args = [
        "match",
        "--mode",
        "sumo",
        "--seats",
        "planner,random",
        "--seed",
        "3",
        "--record",
        str(record),
    ]
    assert main(args) == 0
    assert (
        main(
            [
                "replay",
                str(record),
                "--frames",
                "400",
                "--screenshot",
                str(HERE / "replay_viewer.png"),
            ]
        )
        == 0
    )


if __name__ == "__main__":
    main_shots()
    sys.exit(0)
