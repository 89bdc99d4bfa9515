"""E / Shift+E in the replay viewer: the shot as MP4 and the match as a page, written next to the
replay under a name that never replaces a file, with the progress in the panel meanwhile."""

from __future__ import annotations

import shutil
import time

import pygame
import pytest

from jamsumo_sim.ui import replay_export
from jamsumo_sim.ui.replay_viewer import ReplayApp, ReplaySession, load_states
from tests.child_limits import HANG_GUARD_S
from tests.ui.helpers import DT, key
from tests.ui.test_replay_viewer import replay_file  # noqa: F401 - the shared recorded match
from tests.ui.test_views import SHOTS


def _viewer(path) -> ReplayApp:
    states, actions, seats = load_states(str(path))
    app = ReplayApp(ReplaySession(states, actions, seats), size=(1024, 640), replay_path=path)
    app.export_size = (320, 200)  # small: a quick video
    key(app, pygame.K_SPACE)  # paused: the shot stays on screen
    return app


def _shift_e(app: ReplayApp) -> None:
    pygame.event.post(
        pygame.event.Event(pygame.KEYDOWN, key=pygame.K_e, mod=pygame.KMOD_LSHIFT, unicode="E")
    )
    app.frame(DT)


def _until_exported(app: ReplayApp) -> list[str]:
    """Frames until the export is done; the panel's status lines seen meanwhile."""
    statuses = []
    hang_guard = time.monotonic() + HANG_GUARD_S
    while app.export_job is not None and time.monotonic() < hang_guard:
        app.frame(DT)
        statuses.append(app._decorate(app.session.panel(app.theme), None).message)
        if "%" in statuses[-1] and not any("%" in s for s in statuses[:-1]):
            SHOTS.mkdir(exist_ok=True)
            app.screenshot(str(SHOTS / "replay_exporting.png"))  # the progress in the panel
        time.sleep(0.01)
    assert app.export_job is None, "the export did not finish"
    return statuses


@pytest.fixture()
def copied(replay_file, tmp_path):  # noqa: F811
    path = tmp_path / "match.json"
    shutil.copy(replay_file, path)
    return path


def test_e_exports_the_shot_on_screen_as_a_video_without_replacing_a_file(copied):
    import imageio.v2 as imageio

    from jamsumo_sim.export import render
    from jamsumo_sim.export.shots import iter_scenes
    from jamsumo_sim.replay import load_replay

    suffix = replay_export.video_suffix()
    taken = copied.parent / f"match-shot2{suffix}"
    taken.write_bytes(b"someone else's file")
    app = _viewer(copied)
    key(app, pygame.K_RIGHT)  # shot 2 on screen
    frames_before = app.frames
    key(app, pygame.K_e)
    job = app.export_job
    assert job is not None and job.out.name == f"match-shot2-2{suffix}"
    statuses = _until_exported(app)
    SHOTS.mkdir(exist_ok=True)
    app.screenshot(str(SHOTS / "replay_exported.png"))
    assert app.frames - frames_before > len(statuses) > 0  # the window kept drawing
    # the panel's message line carries the percentage (it used to stay "Exporting … to ……")
    assert any(f"Exporting shot 2 to match-shot2-2{suffix}: " in s and "%" in s for s in statuses)
    assert app.message == f"Exported shot 2 to match-shot2-2{suffix}"
    assert taken.read_bytes() == b"someone else's file"
    out = copied.parent / f"match-shot2-2{suffix}"
    replay = load_replay(copied)
    scenes = list(iter_scenes(replay, 2))
    plan = render.plan_video(scenes, 30 if suffix == ".mp4" else 25, 1.0, 0.35, 0.5)
    reader = imageio.get_reader(out)
    try:
        count = reader.count_frames() if suffix == ".mp4" else len(list(reader))
        assert reader.get_data(0).shape[:2] == (200, 320)
    finally:
        reader.close()
    assert count == plan.total == job.total == job.done


def test_shift_e_exports_the_match_as_a_page(copied):
    app = _viewer(copied)
    key(app, pygame.K_RIGHT)
    key(app, pygame.K_RIGHT)
    _shift_e(app)
    assert app.export_job is not None and app.export_job.out.name == "match.html"
    _until_exported(app)
    assert app.message == "Exported the match to match.html"
    page = (copied.parent / "match.html").read_text(encoding="utf-8")
    assert 'id="player"' in page and 'id="replay-data"' in page
    assert "<script src=" not in page  # self-contained


def test_names_never_replace_a_file(tmp_path):
    assert replay_export.free_name(tmp_path, "m", ".html") == tmp_path / "m.html"
    (tmp_path / "m.html").write_text("x")
    (tmp_path / "m-2.html").write_text("x")
    assert replay_export.free_name(tmp_path, "m", ".html") == tmp_path / "m-3.html"


def test_a_failed_export_is_one_line(copied, tmp_path):
    app = _viewer(copied)
    copied.unlink()  # the replay is gone by the time the export reads it
    key(app, pygame.K_e)
    _until_exported(app)
    assert app.message.startswith("Export failed: ") and "\n" not in app.message
    assert not list(tmp_path.glob("match-shot*"))
