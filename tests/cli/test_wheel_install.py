"""A wheel built from the repository runs from a fresh virtual environment outside the checkout.

Building and installing the wheel offline takes a few seconds: the new environment borrows the
test environment's third-party packages through a ``.pth`` file (which does not carry the
editable install of this project), and the project itself comes only from the wheel.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the source copy it was built from)."""
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    # build from a copy: setuptools writes build/ beside the sources, and two test workers building
    # in the checkout at once trip over each other's files
    src = root / "src"
    shutil.copytree(
        REPO,
        src,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            "venv",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            ".*_cache",
            ".hypothesis",
            "out",
        ),  # fmt: skip
        symlinks=True,
    )
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(dist),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    return next(dist.glob("jamsumo-*.whl")), src


def make_env(env_dir: Path) -> Path:
    """A new virtual environment borrowing the test environment's third-party packages."""
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    borrowed = {sysconfig.get_paths()["purelib"], *site.getsitepackages()}
    Path(purelib, "borrowed_deps.pth").write_text("\n".join(sorted(borrowed)) + "\n")
    return Path(purelib)


def pip_install(env_dir: Path, *what: str) -> None:
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(env_dir / "bin" / "python"),
            "install",
            "--no-deps",
            "--no-index",
            "--no-build-isolation",
            "-q",
            *what,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr[-2000:]


@pytest.fixture(scope="module")
def installed(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    env_dir = tmp_path_factory.mktemp("installed") / "venv"
    make_env(env_dir)
    pip_install(env_dir, str(built[0]))
    return env_dir


def run_in(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    # the compiled-kernel cache of this environment's own copy goes to the user cache: here, beside it
    env.update(
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_CACHE_HOME=str(env_dir / "cache")
    )
    return subprocess.run(list(args), capture_output=True, text=True, cwd=cwd, env=env, timeout=300)


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
        "from jamsumo_sim.board import load_board; print(load_board('standard').side)",
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
