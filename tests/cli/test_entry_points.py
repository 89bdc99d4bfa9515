"""The two console scripts and their ``python -m`` twins."""

from __future__ import annotations

import subprocess
import sys

import pytest

from jamsumo_sim import __version__


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module,prog", [("jamsumo_sim", "jamsumo"), ("card_games", "card-games")])
def test_version_and_help(module: str, prog: str) -> None:
    out = run("-m", module, "--version")
    assert out.returncode == 0 and out.stdout.strip() == f"{prog} {__version__}"
    out = run("-m", module, "--help")
    assert out.returncode == 0 and f"usage: {prog}" in out.stdout


def test_jamsumo_lists_every_subcommand() -> None:
    out = run("-m", "jamsumo_sim", "--help")
    for command in ("play", "match", "replay", "sim", "calibrate"):
        assert command in out.stdout, f"jamsumo has no {command!r} subcommand"


def test_card_games_list_names_the_four_games() -> None:
    out = run("-m", "card_games", "list")
    assert out.returncode == 0, out.stderr
    for name in ("jumble-jam", "jellyfish", "jumblejack", "the-jam"):
        assert name in out.stdout


def test_bad_input_is_one_line_and_exit_2() -> None:
    out = run("-m", "card_games", "play", "chess", "--players", "2")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "unknown game 'chess'" in out.stderr
    out = run("-m", "card_games", "replay", "/nonexistent/file.json")
    assert out.returncode == 2 and "no such file" in out.stderr
