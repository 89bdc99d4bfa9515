"""physics/compiled_guard.py: the compiled loop runs only on the platforms, pymunk releases and
struct layout its calls by address were built for; elsewhere evolve.COMPILED starts False with one
warning and the Python path gives the same results.  A pymunk older than 7.0 is refused in one line.
The version and the platform are given as arguments, or mocked in a fresh process."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import warnings

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics import compiled_guard as g
from jamsumo_sim.physics import compiled_steps, evolve

OK_VERSION = "7.3.1"


@pytest.mark.parametrize(
    ("machine", "system", "pointer", "ok"),
    [
        ("x86_64", "Linux", 8, True),
        ("x86_64", "Darwin", 8, True),  # Intel Mac (and Rosetta)
        ("aarch64", "Linux", 8, True),
        ("arm64", "Darwin", 8, True),  # Apple silicon
        ("AMD64", "Windows", 8, False),  # Windows x64 passes 16-byte structs by reference
        ("ARM64", "Windows", 8, False),
        ("x86", "Windows", 4, False),  # 32-bit Python on Windows (win32)
        ("i686", "Linux", 4, False),
        ("x86_64", "Linux", 4, False),  # a 32-bit Python on a 64-bit kernel
        ("aarch64", "Linux", 4, False),  # armhf userland on a 64-bit kernel
        ("armv7l", "Linux", 4, False),
        ("x86_64", "FreeBSD", 8, False),
        ("ppc64le", "Linux", 8, False),
        ("riscv64", "Linux", 8, False),
    ],
)
def test_platforms(machine, system, pointer, ok) -> None:
    verdict, reason = g.compiled_path_ok(OK_VERSION, machine, system, pointer)
    assert verdict is ok
    assert (reason == "") is ok
    if not ok:
        assert "built for" in reason and "\n" not in reason


def test_big_endian_is_refused() -> None:
    ok, reason = g.compiled_path_ok(OK_VERSION, "aarch64", "Linux", 8, byteorder="big")
    assert not ok and "big" in reason


def test_windows_reason_names_the_platform() -> None:
    _, reason = g.compiled_path_ok(OK_VERSION, "AMD64", "Windows", 8)
    assert "AMD64 on Windows" in reason


@pytest.mark.parametrize(
    ("version", "ok"),
    [
        ("6.11.1", False),
        ("6.6.0", False),
        ("7.0", True),
        ("7.0.0", True),
        ("7.0.1", True),
        ("7.2.0", True),
        ("7.3.1", True),
        ("7.4.0", False),  # newer than what was checked: the Python path until verified
        ("7.4.0.dev1", False),
        ("8.0", False),
        ("8.0.0", False),
        ("unknown", False),
    ],
)
def test_pymunk_versions(version, ok) -> None:
    verdict, reason = g.compiled_path_ok(version, "x86_64", "Linux", 8)
    assert verdict is ok
    if not ok:
        assert version in reason and ">=7.0,<7.4" in reason


@pytest.mark.parametrize("version", ["6.11.1", "6.6.0", "5.7.0"])
def test_pymunk_before_7_is_refused_in_one_line(version) -> None:
    with pytest.raises(UserError) as info:
        g.require_supported_pymunk(version)
    text = str(info.value)
    assert "\n" not in text and version in text and "pymunk>=7.0,<8" in text


@pytest.mark.parametrize("version", ["7.0.0", "7.3.1", "7.4.0", "8.0.0", "unknown"])
def test_pymunk_7_and_later_are_not_refused(version) -> None:
    g.require_supported_pymunk(version)  # (unverified ones take the Python path instead)


def test_installed_layout_is_the_expected_one() -> None:
    """The installed pymunk's cffi module describes the functions and structs as the loop's
    calls assume (a release that changes them fails here, and the guard turns the loop off)."""
    layout = g.read_layout()
    assert layout == g.expected_layout()
    assert g.compiled_path_ok(OK_VERSION, "x86_64", "Linux", 8, layout=layout) == (True, "")


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("cpShapeSetFilter", None, "no C function cpShapeSetFilter"),
        ("pmSpaceArbiterIteratorFuncBatched", None, "no C function"),
        ("cpShapeFilter.mask", ("unsigned int", 16), "cpShapeFilter.mask"),
        ("cpShapeFilter.categories", ("uint64_t", 8), "cpShapeFilter.categories"),
        ("cpVect", ("struct cpVect", 24), "cpVect"),
        ("pmIntArray.num", ("int", 8), "pmIntArray.num"),
        ("cpFloat", ("float", 4), "cpFloat"),
        ("cpBodySetVelocity", "void(*)(struct cpBody *, struct cpVect *)", "cpBodySetVelocity"),
    ],
)
def test_layout_mismatch_turns_the_loop_off(key, value, words) -> None:
    layout = g.expected_layout()
    layout[key] = value
    ok, reason = g.compiled_path_ok(OK_VERSION, "x86_64", "Linux", 8, layout=layout)
    assert not ok and words in reason


def test_guard_checks_every_function_the_loop_calls() -> None:
    names = compiled_steps._FUNC_NAMES + compiled_steps._SETTER_NAMES
    assert set(names) == set(g.FUNCTIONS)


def test_evolve_follows_the_guard() -> None:
    assert evolve.COMPILED is g.decide()[0]


def test_one_warning_per_process(monkeypatch) -> None:
    monkeypatch.setattr(g, "_warned", False)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert g.choose((True, "")) is True
        assert not seen
        assert g.choose((False, "it is built for x, not y")) is False
        assert g.choose((False, "it is built for x, not y")) is False
    assert len(seen) == 1
    assert issubclass(seen[0].category, g.CompiledPathWarning)
    text = str(seen[0].message)
    assert "built for x, not y" in text and "Python path" in text and "identical" in text


# --- in a fresh process: a mocked platform or pymunk release before the physics is imported ---

MOCKS = {
    "windows": (
        "import platform\nplatform.system = lambda: 'Windows'\nplatform.machine = lambda: 'AMD64'\n"
    ),
    "pymunk 7.4": (
        "import importlib.metadata as md\n"
        "_version = md.version\n"
        "md.version = lambda name: '7.4.0' if name == 'pymunk' else _version(name)\n"
    ),
    "pymunk 6.11": (
        "import importlib.metadata as md\n"
        "_version = md.version\n"
        "md.version = lambda name: '6.11.1' if name == 'pymunk' else _version(name)\n"
    ),
}

SIM = """
import json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    from tests_sim import run
    from jamsumo_sim.physics import compiled_guard, evolve
    compiled_guard.compiled_default()  # a second decision: no second warning
    checksum, steps = run()
texts = [str(x.message) for x in seen if issubclass(x.category, compiled_guard.CompiledPathWarning)]
print(json.dumps({"compiled": evolve.COMPILED, "warnings": texts, "checksum": checksum,
                  "steps": steps}))
"""

RUN = '''
import numpy as np
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World

def run():
    """A short break: a striker into a 2 x 3 block (contacts, first contacts, rest)."""
    w = World(rng=np.random.default_rng(11))
    a = 1.2 * w.params.die_size
    for k in range(6):
        i, j = divmod(k, 3)
        w.add_die(f"d{k}", i * a, 0.08 + (j - 1) * a, face=3)
    w.add_die("s", -0.12, 0.082, face=3)
    w.apply_flick(Flick("s", 0.0, 3.0 * w.params.die_mass, 0.2))
    res = w.run_until_rest(5.0)
    return w.checksum(), res.steps
'''


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (120, 125))


def _fresh(tmp_path, mock: str, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "tests_sim.py").write_text(RUN)
    return subprocess.run(
        [sys.executable, "-c", MOCKS[mock] + body],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        preexec_fn=_limit_cpu,
        timeout=600,  # a hang guard only (the CPU limit bounds the work)
    )


@pytest.mark.parametrize("mock", ["windows", "pymunk 7.4"])
def test_refused_loop_gives_the_same_break_on_the_python_path(mock, tmp_path, monkeypatch) -> None:
    out = _fresh(tmp_path, mock, SIM)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["compiled"] is False
    assert len(got["warnings"]) == 1
    assert ("Windows" if mock == "windows" else "7.4.0") in got["warnings"][0]
    # the same break here, on the compiled path where this machine has it
    monkeypatch.setattr(evolve, "COMPILED", g.decide()[0])
    ns: dict = {}
    exec(RUN, ns)
    checksum, steps = ns["run"]()
    assert steps > 20
    assert [got["checksum"], got["steps"]] == [checksum, steps]


def test_pymunk_6_is_one_line_from_the_cli(tmp_path) -> None:
    """pymunk 6.x: the CLI says which pymunk it needs in one line (exit 2), not a KeyError."""
    scenario = {
        "version": 1,
        "board": "standard",
        "dice": [{"id": "a", "x": 0.0, "y": 0.05, "face": 3}],
        "flicks": [],
    }
    (tmp_path / "s.json").write_text(json.dumps(scenario))
    body = "import sys\nfrom jamsumo_sim.cli import main\nsys.exit(main(['sim', 's.json']))\n"
    out = _fresh(tmp_path, "pymunk 6.11", body)
    assert out.returncode == 2, out.stderr[-2000:]
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "pymunk 6.11.1" in out.stderr and "pymunk>=7.0,<8" in out.stderr
