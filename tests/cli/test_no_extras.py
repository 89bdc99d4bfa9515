"""The core install (`pip install .`, no extra) runs every command that needs no extra, and each
command that needs one says which in one line (issue 31).

The wheel goes into a fresh virtual environment that borrows the test environment's packages
(tests/cli/wheel_helpers.py) but sees only the core dependencies and theirs: every other package is
hidden as if it were not installed. The installed console scripts run there, as on a machine that
ran README's first command, with no display and stdin not a terminal.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.child_limits import NUMBA_COMPILE_S, cpu_limited, ended, hang_guard
from tests.cli.wheel_helpers import REPO, hide_extras, make_env, pip_install

# CPU budgets of one command: a --help or a refusal imports the package (well under 2 s); a run may
# be the first to call the physics kernels since the cache was made, and then compiles them
HELP_CPU_S = 20.0
RUN_CPU_S = 60.0 + NUMBA_COMPILE_S

CORE_MODULES = ("numpy", "pymunk", "pygame", "numba", "scipy", "matplotlib", "PIL", "rich", "tqdm")
EXTRA_MODULES = {
    "rl": ("pettingzoo", "gymnasium", "pyspiel", "open_spiel", "shimmy"),
    "sweep": ("dask", "distributed", "openskill"),
    "video": ("cv2",),
    "export": ("imageio", "imageio_ffmpeg"),
    "net": ("websockets",),
    "reference": ("mujoco",),
}
# what a machine without a display passes on: the demo match, not a window
NOT_PASSED_ON = ("PYTHONPATH", "NUMBA_CACHE_DIR", "DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
TINY_SWEEP = """version = 1
board = "standard"
mode = "jam"
repeats = 2
noise = "table"
seed = 1

[die]
x = 0.0
y = -0.18

[aim]
from = 1.4
to = 1.7
steps = 2

[speed]
from = 1.0
to = 2.0
steps = 2
"""


@dataclass(frozen=True)
class CoreEnv:
    root: Path  # the environment's folder; its home, data and compiled-kernel cache beside it

    @property
    def bin(self) -> Path:
        return self.root / "venv" / "bin"

    def run(
        self, prog: str, *args: str, cwd: Path, cpu_s: float = RUN_CPU_S
    ) -> subprocess.CompletedProcess[str]:
        """An installed console script (or ``python``) of the environment, limited by CPU time."""
        env = {k: v for k, v in os.environ.items() if k not in NOT_PASSED_ON}
        env.update(
            HOME=str(self.root / "home"),
            XDG_DATA_HOME=str(self.root / "data"),  # saves and autosaves stay here
            XDG_CACHE_HOME=str(self.root / "cache"),  # one kernel cache for every run here
            SDL_AUDIODRIVER="dummy",
        )
        return subprocess.run(
            [str(self.bin / prog), *args],
            stdin=subprocess.DEVNULL,  # not a terminal: bots play, as `jamsumo play` says
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=hang_guard(cpu_s),
            preexec_fn=cpu_limited(cpu_s),
        )


@pytest.fixture(scope="module")
def core(built: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> CoreEnv:
    root = tmp_path_factory.mktemp("core")
    purelib = make_env(root / "venv")
    pip_install(root / "venv", str(built[0]))
    hidden = hide_extras(purelib, built[0])
    visible = set(importlib.metadata.packages_distributions()) - set(hidden)
    extras = {m for modules in EXTRA_MODULES.values() for m in modules}
    assert visible & extras == set(), "an extra's module is among the core dependencies"
    (root / "home").mkdir()
    return CoreEnv(root)


@pytest.fixture(scope="module")
def record(core: CoreEnv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short recorded Jam match (`jamsumo match`), for the export commands."""
    path = tmp_path_factory.mktemp("record") / "match.json"
    out = core.run(
        "jamsumo", "match", "--mode", "jam", "--max-turns", "2", "--seed", "5",
        "--record", str(path), cwd=path.parent,
    )  # fmt: skip
    assert out.returncode == 0, f"{ended(out.returncode)}: {out.stderr[-2000:]}"
    assert "winner" in out.stdout and path.exists(), out.stdout
    return path


def subcommands(core: CoreEnv, tmp_path: Path) -> dict[str, list[str]]:
    """Each script's subcommands, from its installed parser (a new one is covered at once)."""
    code = (
        "import argparse, json, jamsumo_sim.cli as j, card_games.cli as c\n"
        "def names(p):\n"
        "    return list(next(a for a in p._actions\n"
        "        if isinstance(a, argparse._SubParsersAction)).choices)\n"
        "print(json.dumps({'jamsumo': names(j.build_parser()),"
        " 'card-games': names(c.build_parser())}))\n"
    )
    out = core.run("python", "-c", code, cwd=tmp_path, cpu_s=HELP_CPU_S)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.splitlines()[-1])


def test_only_the_core_dependencies_import(core: CoreEnv, tmp_path: Path) -> None:
    code = (
        "import importlib, json, sys\n"
        "def imports(name):\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ImportError:\n"
        "        return False\n"
        "    return True\n"
        "print(json.dumps({m: imports(m) for m in sys.argv[1:]}))\n"
        "import jamsumo_sim, card_games\n"
        "print(jamsumo_sim.__file__)\n"
    )
    extras = [m for modules in EXTRA_MODULES.values() for m in modules]
    out = core.run("python", "-c", code, *CORE_MODULES, *extras, cwd=tmp_path, cpu_s=HELP_CPU_S)
    assert out.returncode == 0, out.stderr[-2000:]
    *_, found, where = out.stdout.splitlines()  # after what pygame says on import
    imports = json.loads(found)
    assert [m for m in CORE_MODULES if not imports[m]] == []
    assert [m for m in extras if imports[m]] == []
    assert str(core.root) in where and str(REPO) not in where  # the wheel's copy, not the checkout


def test_the_parser_leaves_out_no_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """A subcommand module that does not import is an error, not a command missing from --help."""
    import jamsumo_sim.cli as cli

    monkeypatch.setattr(cli, "SUBCOMMAND_MODULES", (*cli.SUBCOMMAND_MODULES, "jamsumo_sim.gone"))
    with pytest.raises(ModuleNotFoundError):
        cli.build_parser()


def test_every_subcommand_help_runs(core: CoreEnv, tmp_path: Path) -> None:
    commands = subcommands(core, tmp_path)
    assert {"play", "match", "host", "join"} <= set(commands["jamsumo"])
    assert {"play", "host", "join"} <= set(commands["card-games"])
    failed = []
    for prog, names in commands.items():
        for name in names:
            out = core.run(prog, name, "--help", cwd=tmp_path, cpu_s=HELP_CPU_S)
            if out.returncode != 0 or f"usage: {prog} {name}" not in out.stdout:
                failed.append(f"{prog} {name} --help: {ended(out.returncode)}: {out.stderr[-300:]}")
    assert failed == []


CARD_GAMES = [("jumble-jam", 2), ("jellyfish", 2), ("jumblejack", 4), ("the-jam", 2)]


def test_commands_without_an_extra_run(core: CoreEnv, record: Path, tmp_path: Path) -> None:
    # README's first command on a machine without a display: a demo match between bots
    play = core.run("jamsumo", "play", "--seed", "3", cwd=tmp_path)
    assert play.returncode == 0, f"{ended(play.returncode)}: {play.stderr[-2000:]}"
    assert "headless demo match" in play.stdout and "winner" in play.stdout, play.stdout[-2000:]
    assert not (core.root / "data" / "jamsumo" / "autosave.json").exists()
    match = core.run("jamsumo", "match", "--seed", "1", "--json", cwd=tmp_path)
    assert match.returncode == 0, f"{ended(match.returncode)}: {match.stderr[-2000:]}"
    assert json.loads(match.stdout)["seed"] == 1
    # GIF (Pillow) and HTML need no extra; MP4 does (below)
    for out_name, more in [("shot.gif", ["--shot", "1", "--size", "320x200"]), ("page.html", [])]:
        export = core.run(
            "jamsumo", "export", str(record), "--out", out_name, "--quiet", *more, cwd=tmp_path
        )
        assert export.returncode == 0, f"{out_name}: {export.stderr[-2000:]}"
        assert (tmp_path / out_name).stat().st_size > 0
    # without --workers a sweep runs on Dask only when it is installed; here in this process
    (tmp_path / "tiny.toml").write_text(TINY_SWEEP)
    sweep = core.run("jamsumo", "sweep", "tiny.toml", "--out", "tiny", "--json", cwd=tmp_path)
    assert sweep.returncode == 0, f"{ended(sweep.returncode)}: {sweep.stderr[-2000:]}"
    assert len(json.loads(sweep.stdout)["cells"]) == 4
    for game, players in CARD_GAMES:
        seats = ",".join(["random"] * players)
        out = core.run(
            "card-games", "play", game, "--players", str(players), "--seats", seats,
            "--seed", "2", "--json", cwd=tmp_path,
        )  # fmt: skip
        assert out.returncode == 0, f"{game}: {ended(out.returncode)}: {out.stderr[-2000:]}"
        assert json.loads(out.stdout)["players"] == players
    # ratings need openskill (the sweep extra): without it a tournament gives win rates
    tour = core.run(
        "card-games", "tournament", "jellyfish", "--matches", "4", "--seed", "1", cwd=tmp_path
    )
    assert tour.returncode == 0, f"{ended(tour.returncode)}: {tour.stderr[-2000:]}"
    assert "no ratings" in tour.stdout and "jamsumo[sweep]" in tour.stdout


# (command line, the extra it needs): every command that needs one, refused before any other work
NEEDS_AN_EXTRA: list[tuple[str, str]] = [
    ("jamsumo host --seed 1 --port 0", "net"),
    ("jamsumo join ws://127.0.0.1:8765 --bot random", "net"),
    ("card-games host jellyfish --players 2 --seed 1 --port 0", "net"),
    ("card-games join ws://127.0.0.1:8765 --bot smart", "net"),
    ("jamsumo sweep tiny.toml --workers 2 --out sw", "sweep"),
    ("jamsumo sweep tiny.toml --scheduler tcp://127.0.0.1:8786 --out sw", "sweep"),
    ("jamsumo tournament --matches 2 --seed 1 --workers 2", "sweep"),
    ("card-games tournament jellyfish --seed 1 --workers 2", "sweep"),
    ("card-games tournament jellyfish --seed 1 --scheduler tcp://127.0.0.1:8786", "sweep"),
    ("jamsumo validate --quick", "reference"),
    ("jamsumo markers --out markers.pdf", "video"),
    ("jamsumo track board.mp4 --out tracked", "video"),
    ("jamsumo export match.json --shot 1 --out shot.mp4", "export"),
    ("card-games play jellyfish --players 2 --seats ismcts,random --seed 1", "rl"),
]


def test_commands_needing_an_extra_say_which_in_one_line(
    core: CoreEnv, record: Path, tmp_path: Path
) -> None:
    (tmp_path / "tiny.toml").write_text(TINY_SWEEP)
    shutil.copy(record, tmp_path / "match.json")
    commands = subcommands(core, tmp_path)
    wrong = []
    for line, extra in NEEDS_AN_EXTRA:
        prog, *args = line.split()
        assert args[0] in commands[prog], f"{prog} has no {args[0]!r} any more: update this table"
        out = core.run(prog, *args, cwd=tmp_path, cpu_s=HELP_CPU_S)
        lines = out.stderr.splitlines()
        said = f"needs the {extra} extra: pip install 'jamsumo[{extra}]'"
        if not (
            out.returncode == 2
            and len(lines) == 1
            and lines[0].startswith(f"{prog}: error: ")
            and said in lines[0]
            and out.stdout == ""
        ):
            wrong.append(f"{line}: {ended(out.returncode)}, stderr {out.stderr[-500:]!r}")
    assert wrong == [], "\n".join(wrong)
