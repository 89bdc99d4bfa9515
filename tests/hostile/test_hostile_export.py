"""Hostile input to `jamsumo export` and `card-games export`: every bad replay, record, option or
output path is one line on stderr and exit 2, before any frame is rendered and with no file written.

The installed console scripts are run (harness) for the main kinds of trouble; the many option
cases run in this process through the same ``main`` (each would otherwise cost an interpreter)."""

from __future__ import annotations

import json
import os

import pytest

from tests.hostile.harness import assert_one_line_error, run_cli


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    from jamsumo_sim.replay import save_replay
    from jamsumo_sim.rules.match_cli import make_agents
    from jamsumo_sim.turnloop import get_game, play

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 1})
    result = play(game, make_agents(game, ["random", "random"]), seed=4, params=params)
    path = tmp_path_factory.mktemp("hostile-export") / "sumo.json"
    save_replay(path, result.state, ["random", "random"])
    return path


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    from card_games.cli import main

    path = tmp_path_factory.mktemp("hostile-export-cards") / "jam.json"
    assert main(["play", "the-jam", "--players", "2", "--record", str(path), "--json"]) == 0
    return path


def _export(*args: object, cwd=None):
    return run_cli("jamsumo", "export", *[str(a) for a in args], cwd=cwd)


def test_missing_and_tampered_replays(replay, tmp_path):
    out = tmp_path / "shot.mp4"
    assert_one_line_error(
        _export(tmp_path / "nope.json", "--shot", 1, "--out", out), "no such file"
    )
    data = json.loads(replay.read_text())
    data["seats"][0] = "planner"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(data))
    assert_one_line_error(_export(bad, "--all", "--out", out), "checksum")
    assert not out.exists()


def test_unwritable_output_is_refused_before_rendering(replay, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = _export(replay, "--all", "--out", blocker / "x.mp4")
    assert_one_line_error(out, "is a file")
    assert "rendering" not in out.stderr and out.stdout == ""


def _in_process(capsys, *args: object) -> str:
    """``jamsumo export ARGS`` through the CLI's main: exit 2 and one stderr line (returned)."""
    from jamsumo_sim.cli import main

    try:
        code = main(["export", *[str(a) for a in args]])
    except SystemExit as exc:  # argparse's usage errors
        code = exc.code
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert code == 2 and len(err) == 1 and "Traceback" not in err[0], (code, err)
    return err[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--shot", "99", "--out", "x.mp4"), "has "),
        (("--shot", "0", "--out", "x.mp4"), "--shot"),
        (("--out", "x.mp4"), "--shot N"),
        (("--all", "--out", "x.png"), "one shot"),
        (("--shot", "1", "--out", "x.gif", "--fps", "60"), "GIF"),
        (("--shot", "1", "--out", "x.avi"), ".avi"),
        (("--shot", "1", "--out", "x.mp4", "--size", "10x10"), "--size"),
        (("--shot", "1", "--out", "x.mp4", "--size", "641x480"), "even"),
        (("--shot", "1", "--out", "x.mp4", "--size", "9" * 40), "--size"),
        (("--shot", "1", "--out", "x.mp4", "--speed", "nan"), "--speed"),
        (("--shot", "1", "--out", "x.mp4", "--trails", "-1"), "--trails"),
        (("--shot", "1", "--out", "x.mp4", "--hold", "inf"), "--hold"),
        (("--shot", "1", "--out", "x.mp4", "--fps", "100000"), "--fps"),
        (("--shot", "1", "--out", ""), "empty"),
    ],
)
def test_bad_options(replay, tmp_path, monkeypatch, capsys, args, fragment):
    monkeypatch.chdir(tmp_path)
    assert fragment in _in_process(capsys, replay, *args)
    assert not list(tmp_path.iterdir())


def test_bad_replays_and_paths_in_process(replay, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x89PNG\r\n")
    assert "UTF-8" in _in_process(capsys, junk, "--out", "p.html")
    folder = tmp_path / "d.png"
    folder.mkdir()
    assert "directory" in _in_process(capsys, replay, "--shot", 1, "--out", folder)
    assert "also an input" in _in_process(capsys, replay, "--shot", 1, "--out", replay)
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir(mode=0o500)
        assert "cannot be written" in _in_process(
            capsys, replay, "--shot", 1, "--out", ro / "x.gif"
        )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.png", "junk.json"] + (
        [] if os.geteuid() == 0 else ["ro"]
    )


def test_card_games_export_bad_inputs(record, tmp_path):
    ok = tmp_path / "game.html"
    assert_one_line_error(
        run_cli("card-games", "export", str(tmp_path / "none.json"), "--out", str(ok)),
        "no such file",
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "turnloop-match"}')
    assert_one_line_error(run_cli("card-games", "export", str(bad), "--out", str(ok)))
    assert_one_line_error(
        run_cli("card-games", "export", str(record), "--out", str(tmp_path / "g.pdf")), ".pdf"
    )
    assert not ok.exists()
