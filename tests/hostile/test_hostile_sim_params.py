"""Hostile physics input (issue 15): params and board TOML, scenarios, records' physics.

Each class of bad input runs the installed ``jamsumo`` (10 s of CPU, 1 GiB) and must end in one
stderr line, exit 2; the fuzz tests call the readers in-process on mutated input: only UserError may
escape.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import board_to_dict, load_board
from jamsumo_sim.physics.params import RANGES, PhysicsParams
from jamsumo_sim.physics.params_file import dump_params, load_params
from jamsumo_sim.scenario import build_world
from jamsumo_sim.world import World
from tests.child_limits import HANG_GUARD_S

from .harness import LIMITS, Outcome, assert_one_line_error, run_cli, script

SLIDE = {"version": 1, "dice": [{"id": "d", "x": 0.1, "y": -0.15, "vx": 0.5, "vy": 0.0}]}
LATIN1_PARAMS = b"version = 1\n# 16 mm = 16000 \xb5m\n[params]\nmu_board = 0.3\n"
LATIN1_BOARD = b"version = 1\nname = 'caf\xe9'\n"
PLATFORM = (
    "[[platforms]]\nname = '{name}'\nx = {x}\ny = {y}\nwidth = 0.02\ndepth = 0.02\nheight = 0.003\n"
)
BAD_BOARDS = {
    "empty": ("# a board file with nothing in it\n", "is empty"),
    "duplicate platform names": (
        "version = 1\n"
        + PLATFORM.format(name="a", x=0.1, y=0.1)
        + PLATFORM.format(name="a", x=-0.1, y=0.1),
        "two platforms are named 'a'",
    ),
    "platform over the hole": (
        "version = 1\n" + PLATFORM.format(name="p", x=0.0, y=0.01),
        "platform 'p' lies over the hole",
    ),
    "negative size": ("version = 1\n[board]\nside = -1.0\n", "side must be from"),
}


@pytest.fixture
def slide(tmp_path: Path) -> Path:
    f = tmp_path / "slide.json"
    f.write_text(json.dumps(SLIDE))
    return f


def _cmd_with_params(command: str, params: Path, tmp_path: Path, data: Path) -> list[str]:
    """The arguments of ``command`` reading the params file ``params`` (and nothing else odd)."""
    return {
        "sim": ["sim", str(data), "--params", str(params)],
        "match": ["match", "--seats", "random,random", "--params", str(params)],
        "play": ["play", "--frames", "1", "--params", str(params)],
        "calibrate": ["calibrate", str(data), "--params", str(params)],
    }[command]


@pytest.fixture
def calibration_csv(tmp_path: Path) -> Path:
    samples = Path(__file__).resolve().parents[2] / "calibration" / "samples"
    return samples / "trajectories.csv"


@pytest.mark.parametrize("command", ["sim", "match", "play", "calibrate"])
def test_params_file_not_utf8_in_every_command(tmp_path, slide, calibration_csv, command):
    params = tmp_path / "p.toml"
    params.write_bytes(LATIN1_PARAMS)
    data = calibration_csv if command == "calibrate" else slide
    out = run_cli(
        "jamsumo",
        *_cmd_with_params(command, params, tmp_path, data),
        cwd=tmp_path,
        env={"XDG_DATA_HOME": str(tmp_path / "data")},
    )
    assert_one_line_error(out, str(params), "not UTF-8", "line 2")


@pytest.mark.parametrize("command", ["sim", "match", "calibrate"])
def test_board_file_not_utf8_in_every_command(tmp_path, calibration_csv, command):
    board = tmp_path / "b.toml"
    board.write_bytes(LATIN1_BOARD)
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(dict(SLIDE, board="b.toml")))
    args = {
        "sim": ["sim", str(scenario)],
        "match": ["match", "--seats", "random,random", "--board", str(board)],
        "calibrate": ["calibrate", str(calibration_csv), "--board", str(board)],
    }[command]
    out = run_cli("jamsumo", *args, cwd=tmp_path)
    assert_one_line_error(out, "b.toml", "not UTF-8", "line 2")


@pytest.mark.parametrize("case", list(BAD_BOARDS))
def test_bad_board_files(tmp_path, case):
    text, fragment = BAD_BOARDS[case]
    (tmp_path / "b.toml").write_text(text)
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(dict(SLIDE, board="b.toml")))
    assert_one_line_error(
        run_cli("jamsumo", "sim", str(scenario), cwd=tmp_path), fragment, "b.toml"
    )


SCENARIO_TEXTS = {
    "huge number": ('{"version": 1, "max_time": 1' + "0" * 5000 + "}", "5001 digits"),
    "deep nesting": ('{"version": 1, "dice": ' + "[" * 50000 + "]" * 50000 + "}", "nested"),
    "version true": ('{"version": true}', "version true"),
    "float exponent overflow": ('{"version": 1, "max_time": 1e999}', "out of range"),
    "too many dice": (
        json.dumps(
            dict(
                SLIDE,
                board={"side": 5.0},
                dice=[{"id": f"d{i}", "x": 0, "y": 0} for i in range(999)],
            )
        ),
        "at most 64",
    ),
    "long max_time": (json.dumps(dict(SLIDE, max_time=1e9)), "max_time"),
}


@pytest.mark.parametrize("case", list(SCENARIO_TEXTS))
def test_hostile_scenarios(tmp_path, case):
    text, fragment = SCENARIO_TEXTS[case]
    f = tmp_path / "s.json"
    f.write_text(text)
    assert_one_line_error(run_cli("jamsumo", "sim", str(f)), fragment, str(f))


def test_hostile_scenario_on_stdin():
    text = '{"version": 1, "max_time": 1' + "0" * 5000 + "}"
    assert_one_line_error(run_cli("jamsumo", "sim", "-", stdin=text), "stdin", "5001 digits")


def test_scenario_on_stdin_not_utf8(tmp_path):
    f = tmp_path / "s.json"
    f.write_bytes(b'{"version": 1, "description": "\xb5"}')
    with f.open("rb") as handle:  # run_cli sends text: this one needs raw bytes on stdin
        proc = subprocess.run(
            [script("jamsumo"), "sim", "-"],
            stdin=handle,
            capture_output=True,
            text=True,
            timeout=HANG_GUARD_S,
            preexec_fn=LIMITS,
        )
    out = Outcome(proc.returncode, proc.stdout, proc.stderr)
    assert_one_line_error(out, "stdin", "not UTF-8", "0xb5")


def test_trace_out_of_bounds(slide):
    assert_one_line_error(run_cli("jamsumo", "sim", str(slide), "--trace", "1e-9"), "--trace")


# one value per class of out-of-range parameter: the hang (dt), the per-step work (the counts), the
# physically impossible (negative friction, bouncing beyond 1, huge masses), non-numbers
OUT_OF_RANGE = {
    "dt 1e-9": ("dt", "1e-9"),
    "huge patch_quadrature": ("patch_quadrature", "100000"),
    "huge solver_iterations": ("solver_iterations", "1000000000"),
    "negative friction": ("mu_die", "-0.5"),
    "restitution above 1": ("restitution", "1.5"),
    "nan": ("gravity", "nan"),
    "infinite count": ("patch_quadrature", "inf"),
}  # every parameter's both ends: tests/physics/test_board_params.py, in-process


@pytest.mark.parametrize("case", list(OUT_OF_RANGE))
def test_out_of_range_parameters(tmp_path, slide, case):
    name, value = OUT_OF_RANGE[case]
    params = tmp_path / "p.toml"
    params.write_text(f"version = 1\n[params]\n{name} = {value}\n")
    out = run_cli("jamsumo", "sim", str(slide), "--params", str(params))
    assert_one_line_error(out, str(params), f"parameter {name}")


def test_dt_in_scenario_and_in_a_match(tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(dict(SLIDE, params={"dt": 1e-9})))
    assert_one_line_error(run_cli("jamsumo", "sim", str(scenario)), "dt must be from 0.0001")
    params = tmp_path / "p.toml"
    params.write_text("version = 1\ndt = 1e-9\n")
    out = run_cli("jamsumo", "match", "--seats", "random,random", "--params", str(params))
    assert_one_line_error(out, "dt must be from 0.0001")


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = tmp_path_factory.mktemp("record")
    path = folder / "rec.json"
    out = run_cli(
        "jamsumo",
        "match",
        "--seats",
        "random,random",
        "--seed",
        "1",
        "--rounds",
        "1",
        "--max-turns",
        "1",
        "--record",
        str(path),
        cwd=folder,
    )
    assert out.code == 0, out.stderr
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda p: p["physics"].__setitem__("dt", 1e-9), "parameter dt must be from"),
        (lambda p: p["board"]["platforms"][1].__setitem__("name", "jam-south"), "two platforms"),
    ],
    ids=["dt 1e-9", "duplicate platform names"],
)
def test_replay_verify_of_a_record_with_bad_physics(tmp_path, record, change, fragment):
    from jamsumo_sim.replay import content_hash

    data = json.loads(json.dumps(record))
    change(data["params"])
    data["content_sha256"] = content_hash(data)  # a well-formed record, only its physics is bad
    f = tmp_path / "rec.json"
    f.write_text(json.dumps(data))
    assert_one_line_error(run_cli("jamsumo", "replay", "--verify", str(f)), fragment)


# --- fuzzing the readers in-process ---------------------------------------------------------------

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _mutate(data: bytes, edits: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for pos, byte in edits:
        if out:
            out[pos % len(out)] = byte
    return bytes(out)


@pytest.fixture(scope="module")
def params_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    f = tmp_path_factory.mktemp("p") / "p.toml"
    dump_params(load_params_default(), f, {"by": "fuzz"})
    return f.read_bytes()


def load_params_default():
    from jamsumo_sim.physics.params_file import default_params

    return default_params()


@FUZZ
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=6))
def test_fuzz_load_params(tmp_path, params_bytes, edits):
    f = tmp_path / "p.toml"
    f.write_bytes(_mutate(params_bytes, edits))
    try:
        load_params(f)
    except UserError as exc:
        assert "\n" not in str(exc)


def _number_like():
    return st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.integers(-(2**70), 2**70),
        st.booleans(),
        st.text(max_size=3),
        st.none(),
    )


@FUZZ
@given(name=st.sampled_from(list(RANGES)), value=_number_like())
@example(name="patch_quadrature", value=math.inf)  # was an OverflowError
def test_fuzz_param_values(tmp_path, name, value):
    f = tmp_path / "p.toml"
    if isinstance(value, float) and not math.isfinite(value):
        literal = "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    elif value is None:
        literal = "[]"
    else:
        literal = json.dumps(value)
    f.write_text(f"version = 1\n[params]\n{name} = {literal}\n")
    try:
        p = load_params(f)
    except UserError:
        return
    r = RANGES[name]
    assert r.low <= getattr(p, name) <= r.high


STANDARD_TOML = (
    Path(__file__).resolve().parents[2] / "jamsumo_sim" / "assets" / "boards" / "standard.toml"
).read_bytes()


@FUZZ
@given(edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=6))
def test_fuzz_load_board_file(tmp_path, edits):
    f = tmp_path / "b.toml"
    f.write_bytes(_mutate(STANDARD_TOML, edits))
    try:
        load_board(f)
    except UserError as exc:
        assert "\n" not in str(exc)


BOARD_DICT = board_to_dict(load_board("standard"))


def _paths(value, prefix=()):
    """Every (path, leaf) in a JSON-like value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))
    else:
        yield prefix, value


def _replace(value, path, new):
    value = json.loads(json.dumps(value))
    node = value
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return value


BOARD_LEAVES = [p for p, _ in _paths(BOARD_DICT) if p]


@FUZZ
@given(
    changes=st.lists(
        st.tuples(st.sampled_from(BOARD_LEAVES), _number_like()), min_size=1, max_size=3
    )
)
@example(changes=[(("legs", 0, "x"), 0.0), (("legs", 1, "x"), 0.0)])  # legs in a line
def test_fuzz_inline_board(changes):
    raw = BOARD_DICT
    for path, value in changes:
        raw = _replace(raw, path, value)
    try:
        board = load_board(raw)
        World(board, PhysicsParams.from_board(board))  # what a board is for: a world on it
    except UserError as exc:
        assert "\n" not in str(exc)


SCENARIO = {
    "version": 1,
    "board": "standard",
    "params": {"mu_board": 0.25, "dt": 0.002},
    "dice": [
        {
            "id": "a",
            "x": 0.1,
            "y": -0.1,
            "angle": 0.0,
            "vx": 0.0,
            "vy": 0.5,
            "omega": 0.0,
            "face": 4,
        },
        {"id": "b", "x": -0.1, "y": 0.1, "orientation": [1, 2, 3]},
    ],
    "flicks": [{"die": "a", "direction": 1.0, "impulse": 0.004, "offset": 0.0, "height": 0.5}],
    "max_time": 5.0,
}
SCENARIO_LEAVES = [p for p, _ in _paths(SCENARIO) if p]


@FUZZ
@given(
    changes=st.lists(
        st.tuples(
            st.sampled_from(SCENARIO_LEAVES),
            st.one_of(_number_like(), st.just([]), st.just({}), st.just({"side": 0.2})),
        ),
        min_size=1,
        max_size=3,
    )
)
@example(changes=[(("dice", 0, "x"), 10**400)])  # was an OverflowError
@example(changes=[(("params", "dt"), 10**400)])
def test_fuzz_build_world(changes):
    scenario = SCENARIO
    for path, value in changes:
        scenario = _replace(scenario, path, value)
    try:
        build_world(scenario)
    except UserError as exc:
        assert "\n" not in str(exc)
