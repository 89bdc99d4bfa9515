"""Hostile input to `jamsumo sweep` (issue 20): every bad spec, flag or path is one stderr line,
exit 2, no traceback, within the harness's 10 s of CPU and 1 GiB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jamsumo_sim.cli import main

from .harness import assert_one_line_error, run_cli

GOOD = {
    "version": 1,
    "die": {"x": 0.0, "y": -0.18, "face": 4},
    "aim": {"from": 1.4, "to": 1.7, "steps": 2},
    "speed": {"from": 1.0, "to": 2.0, "steps": 2},
    "repeats": 1,
}

BAD_SPECS = {
    "top-level list": ("[1, 2]", "must be an object"),
    "not json": ("{version: 1", "spec"),
    "no version": (json.dumps({k: v for k, v in GOOD.items() if k != "version"}), "version"),
    "future version": (json.dumps({**GOOD, "version": 9}), "unsupported version"),
    "unknown key": (json.dumps({**GOOD, "wind": 3}), "unknown key 'wind'"),
    "no aim": (json.dumps({k: v for k, v in GOOD.items() if k != "aim"}), "lacks 'aim'"),
    "zero steps": (json.dumps({**GOOD, "aim": {"from": 0, "to": 1, "steps": 0}}), "aim.steps"),
    "float steps": (json.dumps({**GOOD, "aim": {"from": 0, "to": 1, "steps": 2.5}}), "aim.steps"),
    "too many shots": (
        json.dumps({**GOOD, "aim": {"from": 0, "to": 1, "steps": 1000}, "repeats": 99999}),
        "at most",
    ),
    "huge number": (json.dumps({**GOOD, "speed": 10**400}), "digits"),
    "big int speed": (json.dumps({**GOOD, "speed": 10**30}), "speed"),
    "negative speed": (json.dumps({**GOOD, "speed": -1.0}), "speed"),
    "string aim": (json.dumps({**GOOD, "aim": "north"}), "aim"),
    "bad noise": (json.dumps({**GOOD, "noise": "x" * 5000}), "noise"),
    "bad seed": (json.dumps({**GOOD, "seed": 2**70}), "seed"),
    "bad mode": (json.dumps({**GOOD, "mode": ["jam"]}), "mode"),
    "die off the board": (json.dumps({**GOOD, "die": {"x": 3.0, "y": 0.0}}), "not on the board"),
    "bad face": (json.dumps({**GOOD, "die": {"x": 0.0, "y": 0.0, "face": 7}}), "face"),
    "dice not a list": (json.dumps({**GOOD, "dice": {"a": 1}}), "dice"),
    "overlapping dice": (
        json.dumps({**GOOD, "dice": [{"id": "a", "x": 0.0, "y": -0.18}]}),
        "overlapping",
    ),
    "unknown board": (json.dumps({**GOOD, "board": "nowhere"}), "board"),
    "nested": ("[" * 100_000, "spec"),
    "bad description": (json.dumps({**GOOD, "description": 5}), "description"),
}


# the installed script on a few (a process each costs a second of CPU); the rest in-process
IN_A_PROCESS = ("not json", "die off the board", "nested")


@pytest.mark.parametrize("name", IN_A_PROCESS)
def test_bad_spec_is_one_line(tmp_path: Path, name: str) -> None:
    text, fragment = BAD_SPECS[name]
    spec = tmp_path / "spec.json"
    spec.write_text(text)
    out = run_cli("jamsumo", "sweep", str(spec), "--workers", "0", "--out", str(tmp_path / "o"))
    assert_one_line_error(out, fragment)


@pytest.mark.parametrize("name", sorted(set(BAD_SPECS) - set(IN_A_PROCESS)))
def test_bad_spec_in_process(tmp_path: Path, name: str, capsys) -> None:
    text, fragment = BAD_SPECS[name]
    spec = tmp_path / "spec.json"
    spec.write_text(text)
    code = main(["sweep", str(spec), "--workers", "0", "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and fragment in err, err
    assert not (tmp_path / "o").exists()  # nothing written


def in_process(prog: str, argv: list[str], capsys) -> tuple[int, str]:
    """Run a command in this process: (exit code, stderr); argparse's usage errors included."""
    from card_games.cli import main as cards_main

    entry = main if prog == "jamsumo" else cards_main
    try:
        code = entry(argv)
    except SystemExit as exc:
        code = exc.code
    return code, capsys.readouterr().err


def assert_one_line(code: int, err: str, fragment: str = "") -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "Traceback" not in err, err
    assert fragment in lines[0], lines[0]


def test_bad_toml_spec(tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text("version = 1\n[aim\n")
    out = run_cli("jamsumo", "sweep", str(spec), "--workers", "0")
    assert_one_line_error(out, "spec.toml")


def test_missing_spec_file(tmp_path: Path, capsys) -> None:
    assert_one_line(*in_process("jamsumo", ["sweep", str(tmp_path / "none.json")], capsys))


@pytest.mark.parametrize(
    "flags",
    [
        ["--workers", "-1"],
        ["--workers", "1" * 40],
        ["--chunk-cells", "0"],
        ["--scheduler", "http://example.com"],
        ["--workers", "2", "--scheduler", "tcp://127.0.0.1:8786"],
    ],
)
def test_bad_flags(tmp_path: Path, flags: list[str], capsys) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(GOOD))
    argv = ["sweep", str(spec), *flags, "--out", str(tmp_path / "o")]
    assert_one_line(*in_process("jamsumo", argv, capsys))


def test_bad_flag_in_a_process(tmp_path: Path) -> None:
    out = run_cli("jamsumo", "sweep", "s.json", "--workers", "many")
    assert_one_line_error(out, "--workers")


def test_out_is_a_file(tmp_path: Path, capsys) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(GOOD))
    blocker = tmp_path / "file"
    blocker.write_text("x")
    argv = ["sweep", str(spec), "--workers", "0", "--out", str(blocker)]
    assert_one_line(*in_process("jamsumo", argv, capsys), "is a file")


def test_unreachable_scheduler(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(GOOD))
    out = run_cli(
        "jamsumo", "sweep", str(spec), "--scheduler", "tcp://127.0.0.1:9", "--out", str(tmp_path)
    )
    assert_one_line_error(out, "cannot connect")


@pytest.mark.parametrize(
    ("prog", "args", "fragment"),
    [
        ("jamsumo", ["tournament", "--matches", "0"], "--matches"),
        ("card-games", ["tournament", "jellyfish", "--seats", ",".join(["random"] * 9)], "players"),
        ("card-games", ["tournament", "poker"], "unknown game"),
        ("card-games", ["tournament", "jellyfish", "--scheduler", "x"], "not an address"),
        ("card-games", ["tournament", "jellyfish", "--seats", ""], "--seats"),
    ],
)
def test_bad_tournaments(prog: str, args: list[str], fragment: str, capsys) -> None:
    assert_one_line(*in_process(prog, args, capsys), fragment)


def test_bad_tournament_in_a_process() -> None:
    out = run_cli("jamsumo", "tournament", "--seats", "planner,genius")
    assert_one_line_error(out, "unknown bot")
