"""Small things a newcomer met first (issue 31): an empty output path is the same one-line error in
every command; `card-games` checks every argument before its bot-seat notice; `card-games export`
and `resume` explain themselves, and export's examples run as written."""

from __future__ import annotations

import os
import resource
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from card_games import export as card_export
from card_games.cli import RESUME_EPILOG
from card_games.cli import main as cards_main
from jamsumo_sim.cli import main as jamsumo_main

EMPTY_OUTPUTS = [
    (jamsumo_main, ["match", "--record", ""]),
    (jamsumo_main, ["tournament", "--matches", "1", "--out", ""]),
    (jamsumo_main, ["sweep", "spec.toml", "--out", ""]),
    (jamsumo_main, ["calibrate", "data.csv", "--out", ""]),
    (jamsumo_main, ["export", "replay.json", "--out", ""]),
    (jamsumo_main, ["markers", "--out", ""]),
    (jamsumo_main, ["track", "video.mp4", "--out", ""]),
    (jamsumo_main, ["track", "video.mp4", "--out", "d", "--preview", " "]),
    (jamsumo_main, ["host", "--record", ""]),
    (jamsumo_main, ["replay", "replay.json", "--screenshot", ""]),
    (jamsumo_main, ["play", "--screenshot", ""]),
    (cards_main, ["play", "jellyfish", "--players", "2", "--record", ""]),
    (cards_main, ["resume", "game.json", "--record", ""]),
    (cards_main, ["export", "game.json", "--out", ""]),
    (cards_main, ["host", "jellyfish", "--record", ""]),
    (cards_main, ["tournament", "jellyfish", "--out", ""]),
]


@pytest.mark.parametrize(
    "main,argv", EMPTY_OUTPUTS, ids=[" ".join(a[:2]) for _, a in EMPTY_OUTPUTS]
)
def test_an_empty_output_path_is_one_line_and_exit_2(main, argv, capsys) -> None:  # noqa: ANN001
    assert main(argv) == 2
    captured = capsys.readouterr()
    option = next(a for a in argv if a.startswith("--") and argv[argv.index(a) + 1].strip() == "")
    assert captured.err.endswith(f"error: {option}: the path is empty\n"), captured.err
    assert captured.err.count("\n") == 1 and captured.out == ""


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def card_games(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command as a person's shell without a terminal on stdin runs it."""
    return subprocess.run(
        [sys.executable, "-m", "card_games", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "XDG_DATA_HOME": str(cwd / "data")},
        timeout=300,  # a hang guard only
        preexec_fn=_limit_cpu,
    )


def test_a_bad_argument_without_a_terminal_is_the_only_line(tmp_path: Path) -> None:
    """No bot-seat notice before an error: every argument is checked first."""
    (tmp_path / "a-file").write_text("")
    for bad in (["--record", "a-file/x.json"], ["--variant", "nope"], ["--aid"]):
        out = card_games("play", "jellyfish", "--players", "2", *bad, cwd=tmp_path)
        assert out.returncode == 2 and out.stdout == ""
        assert out.stderr.count("\n") == 1 and "error:" in out.stderr, out.stderr
    # and with good arguments the notice still comes, once, before the game
    out = card_games("play", "jellyfish", "--players", "2", "--seed", "1", cwd=tmp_path)
    assert out.returncode == 0
    assert out.stderr.count("seat 0 is played by the smart bot because stdin") == 1


@pytest.mark.parametrize("command", ["export", "resume"])
def test_help_says_what_the_file_is_with_examples(command: str, capsys) -> None:  # noqa: ANN001
    with pytest.raises(SystemExit):
        cards_main([command, "--help"])
    text = capsys.readouterr().out
    assert "RECORD" in text and "JSON" in text and "examples:" in text
    assert "--record FILE" in text and "jamsumo/saves/" in text
    assert f"card-games {command} " in text.split("examples:")[1]


def test_export_examples_run_as_written(tmp_path: Path) -> None:
    commands = [
        shlex.split(line.split("(")[0])
        for line in card_export.EPILOG.split("examples:")[1].splitlines()
        if line.strip().startswith("card-games ")
    ]
    assert [c[1] for c in commands] == ["play", "export", "replay"]
    for argv in commands:
        out = card_games(*argv[1:], cwd=tmp_path)
        assert out.returncode == 0, (argv, out.stderr)
    page = next(tmp_path.glob("*.html")).read_text(encoding="utf-8")
    assert "Score breakdown" in page and "Game log" in page


def test_resume_examples_name_real_commands() -> None:
    lines = [ln.strip() for ln in RESUME_EPILOG.split("examples:")[1].splitlines()]
    commands = [ln.split()[1] for ln in lines if ln.startswith("card-games ")]
    assert commands == ["play", "resume", "resume", "replay"]


def test_the_wheel_ships_the_example_scenarios(built: tuple[Path, Path]) -> None:
    """`jamsumo sim --example NAME` reads package data: an installed user has the examples too."""
    import zipfile

    from jamsumo_sim.scenario import EXAMPLES

    wheel, _ = built
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in EXAMPLES:
        assert f"jamsumo_sim/assets/scenarios/{name}.json" in names, sorted(names)[:20]
