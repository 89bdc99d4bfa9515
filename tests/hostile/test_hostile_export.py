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
    argv = ["play", "the-jam", "--players", "2", "--seed", "0", "--record", str(path), "--json"]
    assert main(argv) == 0
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


# --- a request far too long: refused up front (issue 31) -------------------------------------------

REFUSAL_CPU_S = 4  # now ~1.4 s; the old exporter simulated all 166 shots twice first: 5.4 s


@pytest.fixture(scope="module")
def long_replay(tmp_path_factory):
    """A 20-round Sumo match (166 shots)."""
    from jamsumo_sim.replay import save_replay
    from jamsumo_sim.rules.match_cli import make_agents
    from jamsumo_sim.turnloop import get_game, play

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 20, "noise": "table"})
    result = play(game, make_agents(game, ["random", "random"]), seed=3, params=params)
    path = tmp_path_factory.mktemp("hostile-export-long") / "sumo20.json"
    save_replay(path, result.state, ["random", "random"])
    # the refusal counts shots by stepping them; the kernels that takes are compiled (and cached)
    # here, not in the child timed below
    from jamsumo_sim.export.frames import rest_steps
    from jamsumo_sim.replay import load_replay

    shot = next(load_replay(path).iter_shots())
    rest_steps(shot.preview(), shot.state.shot_time, shot.state.physics.step)
    return path


@pytest.mark.parametrize(
    ("options", "how"),
    [
        # ~690,000 frames: the shots are counted until the limit is passed (about 25 of them)
        (("--fps", 120, "--speed", 0.01), "about "),
        # ~400,000: the held stills alone are too many; nothing is simulated
        (("--fps", 120, "--hold", 10), "at least "),
    ],
)
def test_a_huge_video_is_refused_before_the_work(long_replay, tmp_path, options, how):
    import re
    import signal

    from tests.export.child import run_export
    from tests.hostile.harness import MEMORY_LIMIT_BYTES, Outcome

    out = tmp_path / "long.mp4"
    run = run_export(
        long_replay, "--all", "--out", out, *options,
        cpu_s=REFUSAL_CPU_S, memory_bytes=MEMORY_LIMIT_BYTES,
    )  # fmt: skip
    assert run.code != -signal.SIGXCPU, f"not refused within {REFUSAL_CPU_S} CPU seconds"
    line = assert_one_line_error(
        Outcome(run.code, run.stdout, run.stderr), how, "an MP4 may have at most 100,000", "--fps"
    )
    frames = re.search(r"would be (?:about |at least )([\d,]+) frames", line)
    assert frames and int(frames.group(1).replace(",", "")) > 300_000, line
    assert not out.exists()
