"""Building the project's wheel and installing it into fresh virtual environments (tests/cli).

A new environment borrows the test environment's third-party packages through a ``.pth`` file
(which does not carry the editable install of this project), so installing takes a few seconds
offline; the project itself comes only from the wheel. :func:`hide_extras` then makes every
package outside the core dependencies unimportable there, as on a machine that ran a plain
``pip install .``.
"""

from __future__ import annotations

import email.parser
import importlib.metadata
import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.child_limits import cpu_limited, hang_guard

REPO = Path(__file__).resolve().parents[2]


def build_wheel(root: Path) -> tuple[Path, Path]:
    """(the wheel, the source copy it was built from), both under ``root``."""
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
        timeout=hang_guard(300),
        preexec_fn=cpu_limited(300),
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
        timeout=hang_guard(60),
        preexec_fn=cpu_limited(60),
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
        timeout=hang_guard(300),
        preexec_fn=cpu_limited(300),
    )
    assert install.returncode == 0, install.stderr[-2000:]


def run_in(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    # the compiled-kernel cache of this environment's own copy goes to the user cache: here, beside it
    env.update(
        SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", XDG_CACHE_HOME=str(env_dir / "cache")
    )
    return subprocess.run(
        list(args),
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=hang_guard(300),
        preexec_fn=cpu_limited(300),  # a fresh kernel cache: the first command compiles
    )


# --- an environment with the core dependencies only ---------------------------------------------


def wheel_requirements(wheel: Path) -> list[Requirement]:
    """The wheel's own Requires-Dist (the sources as built, not the editable install's metadata)."""
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(zf.read(name).decode())
    return [Requirement(r) for r in meta.get_all("Requires-Dist") or []]


def core_closure(wheel: Path) -> set[str]:
    """Canonical names of the distributions a plain ``pip install`` of ``wheel`` brings: its
    requirements without an extra, and theirs (with the extras they ask for), recursively, as
    installed in the test environment."""
    env = {"extra": ""}
    todo = [r for r in wheel_requirements(wheel) if r.marker is None or r.marker.evaluate(env)]
    seen: set[str] = {"jamsumo"}
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = importlib.metadata.distribution(req.name)
        except importlib.metadata.PackageNotFoundError:
            continue  # a platform-only dependency that this machine does not have
        for text in dist.requires or []:
            sub = Requirement(text)
            wanted = [""] + sorted(req.extras)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in wanted):
                todo.append(sub)
    return seen


def hidden_modules(allowed: set[str]) -> tuple[list[str], list[str]]:
    """(top-level modules, distributions) of the test environment outside ``allowed``
    distributions. A top-level name that an allowed distribution also provides (a namespace
    package) stays importable."""
    modules: list[str] = []
    for module, dists in importlib.metadata.packages_distributions().items():
        if not {canonicalize_name(d) for d in dists} & allowed:
            modules.append(module)
    dists = {
        canonicalize_name(d.metadata["Name"])
        for d in importlib.metadata.distributions()
        if d.metadata["Name"]
    }
    return sorted(modules), sorted(dists - allowed)


HIDER = '''"""Written by tests/cli/wheel_helpers.py: hides the packages that only extras bring."""
import importlib.machinery
import json
import pathlib
import re
import sys

_HIDDEN = json.loads(pathlib.Path(__file__).with_suffix(".json").read_text())
_MODULES = frozenset(_HIDDEN["modules"])
_DISTS = frozenset(_HIDDEN["dists"])
_Path = importlib.machinery.PathFinder


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


class HidingPathFinder:
    """The path finder, blind to the hidden packages: importing one fails as if it were not
    installed, find_spec gives None, and importlib.metadata does not list it."""

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname.partition(".")[0] in _MODULES:
            return None
        return _Path.find_spec(fullname, path, target)

    @classmethod
    def invalidate_caches(cls):
        _Path.invalidate_caches()

    @classmethod
    def find_distributions(cls, *args, **kwargs):
        for dist in _Path.find_distributions(*args, **kwargs):
            if _canonical(dist.metadata["Name"] or "") not in _DISTS:
                yield dist


sys.meta_path[:] = [HidingPathFinder if f is _Path else f for f in sys.meta_path]
'''


def hide_extras(purelib: Path, wheel: Path) -> list[str]:
    """Make the environment at ``purelib`` see only the core dependencies of ``wheel`` (and the
    standard library); returns the hidden top-level modules."""
    modules, dists = hidden_modules(core_closure(wheel))
    Path(purelib, "_hide_extras.json").write_text(json.dumps({"modules": modules, "dists": dists}))
    Path(purelib, "_hide_extras.py").write_text(HIDER)
    # .pth files run in name order: this one after borrowed_deps.pth (it needs no path of it)
    Path(purelib, "zz_hide_extras.pth").write_text("import _hide_extras\n")
    return modules
