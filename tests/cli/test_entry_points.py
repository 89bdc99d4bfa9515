"""The two console scripts and their ``python -m`` twins."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import jamsumo_sim
from jamsumo_sim import __version__
from jamsumo_sim.physics import kernel_cache
from tests.child_limits import cpu_limited, hang_guard


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=hang_guard(120),
        preexec_fn=cpu_limited(120),
    )


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


# --- the installed console scripts, not `python -m` (issue 15) --------------------------------


def installed_script(name: str) -> Path:
    path = Path(sys.executable).with_name(name)
    assert path.exists(), f"console script {name} is not installed beside {sys.executable}"
    return path


def run_script(name: str, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    full.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **env)
    return subprocess.run(
        [str(installed_script(name)), *args],
        capture_output=True,
        text=True,
        timeout=hang_guard(120),
        preexec_fn=cpu_limited(120),
        cwd=cwd,
        env=full,
    )


@pytest.mark.parametrize("prog", ["jamsumo", "card-games"])
def test_installed_console_scripts_run(prog: str, tmp_path: Path) -> None:
    out = run_script(prog, "--version", cwd=tmp_path)  # outside the checkout: no cwd on sys.path
    assert out.returncode == 0 and out.stdout.strip() == f"{prog} {__version__}", out.stderr
    out = run_script(prog, "--help", cwd=tmp_path)
    assert out.returncode == 0 and f"usage: {prog}" in out.stdout


def test_kernel_cache_goes_to_the_user_cache_not_the_package(tmp_path: Path) -> None:
    package = Path(jamsumo_sim.__file__).parent
    before = {p: p.stat().st_mtime_ns for p in package.rglob("*.nb[ic]")}
    scenario = tmp_path / "slide.json"
    scenario.write_text(
        json.dumps({"version": 1, "dice": [{"id": "d", "x": 0.1, "y": -0.15, "vx": 0.5}]})
    )
    cache_home = tmp_path / "cache"
    out = run_script("jamsumo", "sim", str(scenario), cwd=tmp_path, XDG_CACHE_HOME=str(cache_home))
    assert out.returncode == 0, out.stderr
    assert list((cache_home / "jamsumo" / "numba").rglob("*.nbi")), "no kernel cache written"
    after = {p: p.stat().st_mtime_ns for p in package.rglob("*.nb[ic]")}
    assert after == before, "kernel cache files written inside the package folder"


def test_kernel_cache_path_in_process() -> None:
    from jamsumo_sim.physics import step_kernels

    package = Path(jamsumo_sim.__file__).parent.resolve()
    cache_path = Path(step_kernels.kick._cache._cache_path).resolve()
    assert package not in cache_path.parents, cache_path


def test_unwritable_cache_folder_turns_caching_off(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # configure() sets numba's copy too: restore it afterwards
        monkeypatch.setattr(numba_config, "CACHE_DIR", numba_config.CACHE_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file: no folder can be made in it
    assert kernel_cache.configure() is False  # numba would fall back to the package folder
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    assert kernel_cache.configure() is True
    # a subfolder per version of the kernels' sources (a stale kernel is never loaded)
    key = kernel_cache.source_key()
    assert kernel_cache.cache_dir() == tmp_path / "c" / "jamsumo" / "numba" / key
    assert kernel_cache.configure() is True  # again: the same folder, not one more level
    assert kernel_cache.cache_dir() == tmp_path / "c" / "jamsumo" / "numba" / key


def test_a_changed_kernel_source_gets_a_fresh_cache(tmp_path: Path, monkeypatch) -> None:
    """Numba checks a cached kernel against its own file only: run_steps (physics/
    compiled_steps.py) kept calling an old step_kernels.kick from the cache after kick changed.
    The cache folder is named by all kernel sources, so any change there starts afresh."""
    root = tmp_path / "pkg"
    for rel in kernel_cache.KERNEL_SOURCES:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("x = 1\n")
    monkeypatch.setattr(kernel_cache, "__file__", str(root / "physics" / "kernel_cache.py"))
    first = kernel_cache.source_key()
    for rel in kernel_cache.KERNEL_SOURCES:
        (root / rel).write_text("x = 2\n")
        assert kernel_cache.source_key() != first, rel
        (root / rel).write_text("x = 1\n")
    assert kernel_cache.source_key() == first
