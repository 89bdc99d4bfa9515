"""A wheel built from the repository runs from a fresh virtual environment outside the checkout.

Building and installing the wheel offline takes a few seconds: the new environment borrows the
test environment's third-party packages through a ``.pth`` file (which does not carry the
editable install of this project), and the project itself comes only from the wheel.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.wheel_helpers import REPO, make_env, pip_install, run_in


@pytest.fixture(scope="module")
def installed(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    env_dir = tmp_path_factory.mktemp("installed") / "venv"
    make_env(env_dir)
    pip_install(env_dir, str(built[0]))
    return env_dir


def test_the_wheel_brings_code_and_data(installed: Path, tmp_path: Path) -> None:
    py = str(installed / "bin" / "python")
    where = run_in(
        installed,
        py,
        "-c",
        "import jamsumo_sim, card_games; print(jamsumo_sim.__file__); print(card_games.__file__)",
        cwd=tmp_path,
    )
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert str(installed) in line and str(REPO) not in line
    board = run_in(
        installed,
        py,
        "-c",
        "from jamsumo_sim.physics.board import load_board; print(load_board('standard').side)",
        cwd=tmp_path,
    )
    assert board.returncode == 0, board.stderr
    assert float(board.stdout) > 0


def test_the_installed_scripts_run(installed: Path, tmp_path: Path) -> None:
    bin_dir = installed / "bin"
    assert run_in(installed, str(bin_dir / "jamsumo"), "--version", cwd=tmp_path).returncode == 0
    listing = run_in(installed, str(bin_dir / "card-games"), "list", cwd=tmp_path)
    assert listing.returncode == 0 and "the-jam" in listing.stdout, listing.stderr
    for game, players in [("jumble-jam", 2), ("jellyfish", 2), ("jumblejack", 4), ("the-jam", 2)]:
        out = run_in(
            installed,
            str(bin_dir / "card-games"),
            "play",
            game,
            "--players",
            str(players),
            "--seats",
            ",".join(["random"] * players),
            "--seed",
            "1",
            "--json",
            cwd=tmp_path,
        )
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["players"] == players
    scenario = tmp_path / "slide.json"
    scenario.write_text(
        json.dumps(
            {
                "version": 1,
                "board": "standard",
                "dice": [{"id": "d", "x": 0.1, "y": -0.15, "vx": 0.5, "vy": 0.0}],
            }
        )
    )
    sim = run_in(installed, str(bin_dir / "jamsumo"), "sim", str(scenario), cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["dice"][0]["id"] == "d"


SLIDE = {"version": 1, "dice": [{"id": "d", "x": 0.1, "y": -0.15, "vx": 0.5, "vy": 0.0}]}


def test_installing_twice_keeps_both_commands_working(
    built: tuple[Path, Path], tmp_path: Path
) -> None:
    """README's two install commands in a row (issue 15): the first install's run used to leave numba's
    cache files in site-packages/jamsumo_sim, which pip kept on the editable install; that folder then
    shadowed the checkout and both commands failed with ImportError."""
    wheel, src = built
    env_dir = tmp_path / "venv"
    purelib = make_env(env_dir)
    pip_install(env_dir, str(wheel))
    scenario = tmp_path / "slide.json"
    scenario.write_text(json.dumps(SLIDE))
    bin_dir = env_dir / "bin"
    sim = run_in(env_dir, str(bin_dir / "jamsumo"), "sim", str(scenario), cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    package = purelib / "jamsumo_sim"
    assert not [p.name for p in package.rglob("*.nb[ic]")], "kernel cache in the package folder"
    assert list((env_dir / "cache" / "jamsumo" / "numba").rglob("*.nbi")), "no kernel cache"
    pip_install(env_dir, "-e", str(src))
    for prog in ("jamsumo", "card-games"):
        out = run_in(env_dir, str(bin_dir / prog), "--version", cwd=tmp_path)
        assert out.returncode == 0 and out.stdout.startswith(prog), out.stderr[-2000:]
    again = run_in(env_dir, str(bin_dir / "jamsumo"), "sim", str(scenario), cwd=tmp_path)
    assert again.returncode == 0 and json.loads(again.stdout) == json.loads(sim.stdout)
