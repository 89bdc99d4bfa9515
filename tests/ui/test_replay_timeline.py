"""The replay viewer's timeline: scrub and step shot by shot, the flick drawn, events listed, the final
table at the end."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pygame
import pytest

from jamsumo_sim.turnloop import get_game, play
from jamsumo_sim.ui.replay_timeline import Timeline
from jamsumo_sim.ui.replay_viewer import ReplayApp, ReplaySession, load_states
from tests.ui.helpers import DT, key

SHOTS = Path(os.environ.get("JAMSUMO_UI_SHOTS", tempfile.gettempdir())) / "jamsumo-ui-shots"


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    from jamsumo_sim.replay import save_replay
    from jamsumo_sim.rules.match_cli import make_agents

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 1})
    result = play(game, make_agents(game, ["random", "random"]), seed=4, params=params)
    path = tmp_path_factory.mktemp("replays") / "sumo.json"
    save_replay(path, result.state, ["random", "random"])
    return load_states(str(path))


def test_timeline_maps_pixels_to_shots():
    tl = Timeline((100, 500, 400, 14), 8)
    assert tl.position_at(100) == 0 and tl.position_at(500) == 8
    assert tl.position_at(300) == 4 and tl.position_at(-50) == 0 and tl.position_at(900) == 8
    assert tl.x_of(4) == 300
    assert tl.hit((300, 507)) and not tl.hit((300, 300))


def click(app, pos, drag_to=None):
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    if drag_to is not None:
        pygame.event.post(
            pygame.event.Event(pygame.MOUSEMOTION, pos=drag_to, rel=(0, 0), buttons=(1, 0, 0))
        )
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=drag_to or pos, button=1))
    app.frame(DT)


def test_scrub_step_events_and_final_table(loaded):
    states, actions, seats = loaded
    app = ReplayApp(ReplaySession(states, actions, seats), size=(1024, 640))
    key(app, pygame.K_SPACE)  # paused
    tl = app.timeline()
    n = len(actions)
    # click in the middle of the bar: jump there; drag to the start
    mid = n // 2
    click(app, (round(tl.x_of(mid)), tl.rect[1] + 7))
    assert app.session.position == mid
    click(app, (round(tl.x_of(mid)), tl.rect[1] + 7), drag_to=(tl.rect[0], tl.rect[1] + 7))
    assert app.session.position == 0
    # the shot's events are listed in the panel, starting with what the flicked die did
    info = app.session.panel(app.theme)
    shown = app.session.flick_shown(0)
    assert shown is not None
    assert any(line.startswith(f"{shown.die} ") for line in info.log)
    key(app, pygame.K_RIGHT)
    assert app.session.position == 1
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / "replay_timeline.png"))
    # the end of the bar: the final table
    click(app, (tl.rect[0] + tl.rect[2], tl.rect[1] + 7))
    assert app.session.position == n
    table = app.session.table(app.theme)
    assert table is not None and table.rows
    app.frame(DT)
    app.screenshot(str(SHOTS / "replay_end_table.png"))
