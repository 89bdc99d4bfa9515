"""Hostile input to `jamsumo match` and `jamsumo replay` (issue 15).

Each class of bad input runs the installed ``jamsumo`` (10 s of CPU, 1 GiB) and must end in one
stderr line and exit 2; a real Ctrl-C must say where the match was saved; the fuzz tests call the
replay reader (and the re-play) in-process on mutated files: only UserError may escape.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.replay import content_hash, load_replay, save_replay, verify_replay
from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.rules.game import JAM
from jamsumo_sim.turnloop import play
from tests.child_limits import HANG_GUARD_S, cpu_limited

from .harness import CPU_LIMIT_S, LIMITS, assert_one_line_error, run_cli, script

SHORT = {"players": 2, "rounds": 1, "max_turns": 3, "shot_time": 1.5}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A short finished Jam replay, as a JSON document."""
    result = play(JAM, [RandomBot(s, JAM) for s in range(2)], seed=4, params=SHORT)
    path = tmp_path_factory.mktemp("rec") / "r.json"
    save_replay(path, result.state, ["random", "random"])
    return json.loads(path.read_text())


def _write(tmp_path: Path, data: Any, rehash: bool = True, name: str = "r.json") -> Path:
    if rehash and isinstance(data, dict):
        data = {**data, "content_sha256": content_hash(data)}
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _changed(recorded: dict[str, Any], change) -> dict[str, Any]:
    data = json.loads(json.dumps(recorded))
    change(data)
    return data


def _verify(path: Path) -> str:
    return assert_one_line_error(run_cli("jamsumo", "replay", str(path), "--verify"))


# --- replay files ------------------------------------------------------------------------------------


def test_replay_number_with_thousands_of_digits(tmp_path: Path, recorded) -> None:
    text = json.dumps(recorded).replace('"seed": 4', '"seed": ' + "9" * 5000)
    path = tmp_path / "r.json"
    path.write_text(text)
    _verify(path)  # fileio: "a number with 5000 digits"


def test_replay_nested_deeply(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested deeper" in _verify(path)


def test_replay_not_utf8(tmp_path: Path, recorded) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(json.dumps(recorded).replace("random", "rand\xe9m").encode("latin-1"))
    assert "not UTF-8" in _verify(path)


def test_replay_malformed_flick_is_exit_2_not_a_divergence(tmp_path: Path, recorded) -> None:
    path = _write(tmp_path, _changed(recorded, lambda d: d["shots"][0].update(move=[1])))
    assert "shots[0].move must be" in _verify(path)


def test_replay_unknown_top_level_key(tmp_path: Path, recorded) -> None:
    path = _write(tmp_path, _changed(recorded, lambda d: d.update(notes="mine")))
    assert "unknown field 'notes'" in _verify(path)


def test_replay_seed_out_of_range(tmp_path: Path, recorded) -> None:
    path = _write(tmp_path, _changed(recorded, lambda d: d.update(seed=2**64)))
    assert "field 'seed' must be from 0 to 2**64-1" in _verify(path)


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["params"]["physics"].update(dt=1e-9), "dt"),  # hung `replay --verify`
        (lambda d: d["params"].update(rounds=10**12), "params.rounds"),  # filled memory
    ],
    ids=["dt-1e-9", "rounds-1e12"],
)
def test_replay_params_out_of_range(tmp_path: Path, recorded, change, fragment: str) -> None:
    assert fragment in _verify(_write(tmp_path, _changed(recorded, change)))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--speed", "inf"], "argument --speed"),
        (["--frames", str(10**12)], "argument --frames"),
        (["--frames", "1", "--screenshot", "shot.xyz"], "unsupported file type"),
    ],
    ids=["speed-inf", "frames-huge", "screenshot-type"],
)
def test_replay_viewer_arguments(tmp_path: Path, recorded, args: list[str], fragment: str) -> None:
    path = _write(tmp_path, recorded)
    out = run_cli("jamsumo", "replay", str(path), *args, cwd=tmp_path)
    assert fragment in assert_one_line_error(out)


# --- jamsumo match ------------------------------------------------------------------------------------

MATCH = ["match", "--mode", "jam", "--seats", "random,random", "--rounds", "1", "--max-turns", "3"]
MATCH += ["--seed", "0"]


@pytest.mark.parametrize(
    ("record", "fragment"),
    [("X.toml", "is also an input"), ("", "the path is empty"), ("f/x.json", "f is a file")],
    ids=["record-is-the-params", "record-empty", "record-under-a-file"],
)
def test_match_output_paths_checked_first(tmp_path: Path, record: str, fragment: str) -> None:
    params = tmp_path / "X.toml"
    params.write_text("version = 1\n[params]\nmu_board = 0.3\n")
    (tmp_path / "f").write_text("")
    out = run_cli("jamsumo", *MATCH, "--params", "X.toml", "--record", record, cwd=tmp_path)
    assert fragment in assert_one_line_error(out)
    assert params.read_text().startswith("version = 1")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--rounds", "1e12"], "invalid int value"),
        (["--rounds", str(10**12)], "--rounds must be a whole number from 1 to 20"),
        (["--seed", str(2**64)], "2**64-1"),
    ],
    ids=["rounds-1e12", "rounds-10**12", "seed-2**64"],
)
def test_match_counts_out_of_range(args: list[str], fragment: str) -> None:
    assert fragment in assert_one_line_error(run_cli("jamsumo", *MATCH, *args))


def test_match_resume_with_another_seed(tmp_path: Path, recorded) -> None:
    unfinished = _changed(recorded, lambda d: None)
    state = load_replay(_write(tmp_path, unfinished)).initial_state()  # nothing played yet
    save_replay(tmp_path / "s.json", state, ["random", "random"])
    out = run_cli("jamsumo", "match", "--resume", "s.json", "--seed", "5", cwd=tmp_path)
    assert "the saved match has seed 4, not 5" in assert_one_line_error(out)


def test_match_resume_of_a_malformed_replay(tmp_path: Path, recorded) -> None:
    bad = _changed(recorded, lambda d: d["history"][-1].update(seat="0"))
    out = run_cli("jamsumo", "match", "--resume", str(_write(tmp_path, bad)))
    assert "seat must be a seat number" in assert_one_line_error(out)


def test_ctrl_c_says_where_the_match_is_saved(tmp_path: Path) -> None:
    """A real SIGINT to the installed script: exit 130, one line naming the file, which holds
    every whole move so far and verifies."""
    rec = tmp_path / "m.json"
    argv = ["match", "--mode", "jam", "--seats", "random,random", "--seed", "7"]
    proc = subprocess.Popen(
        [script("jamsumo"), *argv, "--record", str(rec)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=LIMITS,  # a match that never records its shots runs out of CPU and ends
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    try:
        hang_guard = time.monotonic() + HANG_GUARD_S
        while time.monotonic() < hang_guard and proc.poll() is None:
            try:
                if len(json.loads(rec.read_text())["shots"]) >= 2:
                    break
            except (OSError, ValueError, KeyError):
                pass
            time.sleep(0.05)
        assert proc.poll() is None, "the match ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert len(lines) == 1 and f"saved in {rec}" in lines[0] and "--resume" in lines[0], lines
    replay = load_replay(rec)
    assert not replay.data["finished"] and len(replay.shots) >= 2
    check = run_cli("jamsumo", "replay", str(rec), "--verify")  # the same program re-plays it
    assert check.code == 0 and "OK" in check.stdout, check.stderr


def test_new_records_get_the_umask_mode(tmp_path: Path) -> None:
    proc = subprocess.run(
        [script("jamsumo"), *MATCH, "--record", "m.json"],
        cwd=tmp_path,
        capture_output=True,
        timeout=HANG_GUARD_S,
        preexec_fn=cpu_limited(CPU_LIMIT_S, then=lambda: os.umask(0o027)),
        env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "m.json").stat().st_mode & 0o777 == 0o640


# --- fuzzing the reader and the re-play in-process ------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


# Subtrees whose values only feed the physics or are informational: mutations there are checked by
# PhysicsParams and the board reader (fuzzed elsewhere); the fuzz here aims at the replay's structure.
_NOT_FUZZED = {("params", "board"), ("start", "dice"), ("content_sha256",)}


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON document (a key or index path) outside :data:`_NOT_FUZZED`."""
    if prefix in _NOT_FUZZED:
        return []
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):  # the first few entries of long lists are enough
            out.extend(_paths(v, (*prefix, i)))
    return out


def _replace(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return doc


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_replay_fields(tmp_path: Path, recorded, data: st.DataObject) -> None:
    """Any one value anywhere replaced by any JSON value, the file re-hashed (so the structure
    checks, not the content hash, must catch it): loading and verifying raise only UserError."""
    doc = json.loads(json.dumps(recorded))
    where = data.draw(st.sampled_from(_paths(doc)))
    doc = _replace(doc, where, data.draw(JSON_VALUES))
    path = _write(tmp_path, doc)
    try:
        verify_replay(path)  # load, then re-play what loads: a report or a UserError
    except UserError as exc:
        assert "\n" not in str(exc)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(cut=st.integers(min_value=0), flips=st.lists(st.tuples(st.integers(0), st.integers(0, 255))))
def test_fuzz_replay_bytes(tmp_path: Path, recorded, cut: int, flips: list) -> None:
    """Truncated or byte-flipped files: only UserError."""
    raw = bytearray(json.dumps(recorded).encode())
    for pos, byte in flips:
        raw[pos % len(raw)] = byte
    path = tmp_path / "r.json"
    path.write_bytes(bytes(raw[: max(1, len(raw) - cut % len(raw))]))
    try:
        load_replay(path)
    except UserError as exc:
        assert "\n" not in str(exc)
