"""`jamsumo play`: headless screenshots, the no-display demo, autosave and resume."""

from __future__ import annotations

import json

import pygame
import pytest

from jamsumo_sim.cli import main
from jamsumo_sim.ui import autosave


def _is_wood(rgb) -> bool:
    r, g, b = rgb[:3]
    return r > 110 and r > g > b and r - b > 50


def test_screenshot_shows_the_board(tmp_path):
    out = tmp_path / "shot.png"
    code = main(
        [
            "play",
            "--mode",
            "sumo",
            "--seats",
            "human,human",
            "--seed",
            "0",
            "--frames",
            "3",
            "--screenshot",
            str(out),
            "--size",
            "1024x640",
        ]
    )
    assert code == 0
    assert out.stat().st_size > 10_000
    img = pygame.image.load(str(out))
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.ui.view import View, make_layout

    board = load_board("standard")
    view = View(board.side, make_layout(1024, 640).board_rect, 0)
    cx, cy = (round(v) for v in view.to_screen(0.0, 0.0))
    # the hole: dark at the centre
    assert sum(img.get_at((cx, cy))[:3]) < 90
    # wood tones across the playing area (between hole and the features)
    for x, y in ((0.09, 0.05), (-0.1, -0.07), (0.05, -0.12), (-0.06, 0.1)):
        px = tuple(round(v) for v in view.to_screen(x, y))
        assert _is_wood(img.get_at(px)), (x, y, img.get_at(px))
    # the side panel is not wood
    assert not _is_wood(img.get_at((1000, 600)))


def test_bad_arguments_are_one_line_errors(capsys):
    assert main(["play", "--seats", "human", "--frames", "1"]) == 2
    assert "2 to 4 seats" in capsys.readouterr().err
    assert main(["play", "--seats", "human,wizard", "--frames", "1"]) == 2
    assert main(["play", "--size", "800x600", "--frames", "1"]) == 2
    with pytest.raises(SystemExit) as exit_:  # argparse's own (one-line) usage error
        main(["play", "--seed", "-1", "--frames", "1"])
    assert exit_.value.code == 2


def test_unwritable_screenshot_is_one_line_error(tmp_path, capsys):
    (tmp_path / "no.png").write_bytes(b"")
    for argv, words in (
        (["play", "--seats", "random,random", "--frames", "1", "--screenshot", str(tmp_path)], ""),
        (
            ["play", "--frames", "1", "--screenshot", str(tmp_path / "no.png" / "x.png")],
            "is a file, not a folder",
        ),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert "--screenshot" in err and words in err and len(err.splitlines()) == 1


def test_without_a_display_a_demo_match_is_played(monkeypatch, capsys):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(var, raising=False)
    assert main(["play", "--mode", "sumo", "--seats", "random,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("jamsumo: no display found")
    assert "Result after" in out and "winner" in out


def test_autosave_round_trip_and_archive(tmp_path):
    from jamsumo_sim.ui.match_session import new_match

    assert autosave.load_match().data is None
    session = new_match("jam", ["human", "planner"], 3)
    path = autosave.save(session.save_data())
    assert path.parent.name == "jamsumo" and str(tmp_path) in str(path)
    loaded = autosave.load_match()
    assert loaded.problem is None and loaded.data["kind"] == "match"
    assert loaded.session.state.digest() == session.state.digest()
    assert "jam match" in autosave.describe(loaded.data)
    moved = autosave.archive()
    assert moved is not None and moved.exists() and not path.exists()


def test_a_damaged_autosave_is_kept_aside_not_trusted():
    path = autosave.autosave_path()
    path.parent.mkdir(parents=True)
    path.write_text("{ not json")
    loaded = autosave.load_match()
    assert loaded.session is None and "not valid JSON" in loaded.problem
    assert not path.exists()
    assert [p.read_text() for p in path.parent.glob("autosave-*.json")] == ["{ not json"]


def test_the_match_is_autosaved_after_a_shot_and_resumes(tmp_path):
    import math

    from jamsumo_sim.ui.app import App
    from jamsumo_sim.ui.match_session import new_match, resume_match
    from tests.ui.helpers import DT, aim_towards_hole, fast, post_drag, px, run_until_idle

    session = new_match("sumo", ["human", "human"], 5, sumo_setup="grid")  # flicks at once
    app = App(session, size=(1024, 640), sync_bots=True)
    app.frame(DT)
    run_until_idle(app)
    seat = app.session.to_move()
    st, d = aim_towards_hole(app.session, seat)
    view = app.view()
    post_drag(
        app,
        px(view.to_screen(st.x, st.y)),
        px(view.to_screen(st.x - 0.04 * math.cos(d), st.y - 0.04 * math.sin(d))),
    )
    fast(app)
    run_until_idle(app)
    data = autosave.read()
    saved = data["state"]["history"]
    assert saved == app.session.state.history
    again = resume_match(json.loads(json.dumps(data)))
    assert again.state.digest() == app.session.state.digest()
    # a new window offers the saved match; Y resumes it
    offer = (autosave.describe(data), lambda: resume_match(data))
    app2 = App(new_match("sumo", ["human", "human"], 9), size=(1024, 640), resume_offer=offer)
    app2.frame(DT)
    assert app2.human_to_move() is None  # waiting for the answer
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=0, unicode="y"))
    app2.frame(DT)
    assert app2.session.state.digest() == app.session.state.digest()


def test_resume_flag_needs_a_saved_match(capsys):
    assert main(["play", "--resume", "--frames", "1"]) == 2
    assert "no saved match" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["jam", "jamsumo"])
def test_other_modes_open(mode, tmp_path):
    out = tmp_path / f"{mode}.png"
    assert (
        main(
            [
                "play",
                "--mode",
                mode,
                "--seed",
                "0",
                "--frames",
                "2",
                "--screenshot",
                str(out),
                "--size",
                "1024x640",
            ]
        )
        == 0
    )
    assert out.stat().st_size > 10_000
