"""Hostile input to ``card-games`` (issue 15): records, saved games, seeds and output paths.

Each class of bad input runs the installed ``card-games`` (10 s of CPU, 1 GiB) and must end in one
stderr line, exit 2; the fuzz tests call the record readers in-process on mutated input: only
UserError may escape.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from card_games.jumble_jam import GAME as JUMBLE_JAM
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import Action, RandomAgent, play
from jamsumo_sim.turnloop.recording import load_record, make_record, verify_record
from jamsumo_sim.turnloop.serialize import state_from_json

from .harness import assert_one_line_error, run_cli

COMMANDS = (("replay",), ("replay", "--verify"), ("resume", "--seats", "random,random"))


def _record_data(players: int = 2, seed: int = 3, finished: bool = True) -> dict[str, Any]:
    agents = [RandomAgent(s, JUMBLE_JAM) for s in range(players)]
    result = play(JUMBLE_JAM, agents, seed=seed, params={"players": players}, max_steps=None)
    state = result.state
    if not finished:  # the first few moves only: a saved game to resume
        state = JUMBLE_JAM.new_initial_state(state.params, seed=seed)
        from jamsumo_sim.turnloop.serialize import replay_history

        replay_history(state, result.state.history[:12])
    return make_record(state, ["random"] * players)


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    return _record_data()


@pytest.fixture(scope="module")
def unfinished() -> dict[str, Any]:
    return _record_data(finished=False)


def _run_all(path: Path, *fragments: str) -> None:
    """Every command that reads a record: one line naming the file, exit 2."""
    for command in COMMANDS:
        _run(path, *fragments, command=command)


def _run(path: Path, *fragments: str, command: tuple[str, ...] = ("replay", "--verify")) -> None:
    """One command reading the record (they share the reader; ``_run_all`` shows it)."""
    args = [command[0], str(path), *command[1:]]
    assert_one_line_error(run_cli("card-games", *args), str(path), *fragments)


def _write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


def test_a_record_that_is_not_utf8(tmp_path: Path, unfinished: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(json.dumps(unfinished).replace("jumble_jam", "jumbl\xe9").encode("latin-1"))
    _run_all(path, "is not UTF-8 text", "byte 0xe9")


@pytest.mark.parametrize("where", ["seed", "players", "history"])
def test_numbers_with_thousands_of_digits(
    tmp_path: Path, unfinished: dict[str, Any], where: str
) -> None:
    big = "9" * 5000
    text = json.dumps(unfinished)
    if where == "seed":
        text = text.replace(f'"seed": {unfinished["seed"]}', f'"seed": {big}')
    elif where == "players":
        text = text.replace('"players": 2', f'"players": {big}.5e{big}')
    else:
        text = text.replace('"history": [', f'"history": [{big}, ')
    _run(_write(tmp_path, text), "not valid JSON", "digits" if where != "players" else "")


def test_deeply_nested_json(tmp_path: Path, unfinished: dict[str, Any]) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    text = json.dumps(unfinished).replace('"history": [', f'"history": [{deep}, ')
    _run(_write(tmp_path, text), "nested deeper than", command=("resume",))


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("params", [1], "'params' must be an object"),
        ("seed", 2**64, "'seed' must be from 0 to 2**64-1"),
        ("finished", "no", "'finished' must be true or false"),
    ],
)
def test_a_record_field_of_the_wrong_type(
    tmp_path: Path, unfinished: dict[str, Any], field: str, value: Any, fragment: str
) -> None:
    """Three of the fields here (all of them, in-process: tests/turnloop/test_verify_and_seed.py)."""
    path = _write(tmp_path, {**unfinished, field: value})
    if field == "params":
        _run_all(path, fragment)
    else:
        _run(path, fragment)


def test_an_entry_that_cannot_be_replayed_says_who_is_to_move(
    tmp_path: Path, finished: dict[str, Any]
) -> None:
    history = finished["history"]
    last = next(e for e in reversed(history) if "action" in e)
    path = _write(tmp_path, {**finished, "history": [*history, last]})
    n = len(history) + 1
    for verify in ([], ["--verify"]):
        out = run_cli("card-games", "replay", str(path), *verify)
        assert_one_line_error(out, f"{path}: move {n} cannot be replayed", "the game is over")


@pytest.mark.parametrize("text", ["", '{"kind": "turnloop-match"', "null"])
def test_not_a_record(tmp_path: Path, text: str) -> None:
    _run(_write(tmp_path, text))


def test_a_file_too_large_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:  # sparse: 65 MiB of nothing, written instantly
        handle.truncate(65 * 2**20)
    _run(path, "too large", command=("replay",))


@pytest.mark.parametrize(
    "args",
    [
        ["play", "jellyfish", "--players", "2", "--seed", str(2**64)],
        ["play", "jellyfish", "--players", "2", "--seed", "-1"],
        ["play", "jellyfish", "--players", "2", "--seed", "9" * 5000],
        ["play", "jellyfish", "--players", "9" * 5000],
        ["play", "jellyfish", "--players", "1e9"],
        ["play", "jellyfish", "--players", "2", "--seats", "random," * 10_000],
        ["play", "jellyfish"],
        ["play", "chess", "--players", "2"],
    ],
    ids=[
        "seed-2^64",
        "seed-negative",
        "seed-digits",
        "players-digits",
        "players-float",
        "seats-many",
        "players-missing",
        "unknown-game",
    ],  # fmt: skip
)
def test_bad_command_line_values(args: list[str]) -> None:
    assert_one_line_error(run_cli("card-games", *args))


def test_an_unwritable_record_path_is_refused_before_play(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "game.json"
    args = ["play", "the-jam", "--players", "2", "--seats", "random,random", "--record"]
    out = run_cli("card-games", *args, str(target))
    assert_one_line_error(out, str(target), "is a file, not a folder")
    assert out.stdout == ""


def test_typing_save_to_an_unwritable_path_goes_on_playing(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    bad = tmp_path / "file" / "x.json"
    record = tmp_path / "game.json"
    out = run_cli(
        "card-games", "play", "jellyfish", "--players", "2", "--seats", "human,random",
        "--record", str(record), "--seed", "0", stdin=f"save {bad}\n1\nquit\n",
    )  # fmt: skip
    assert out.code == 0 and "Traceback" not in out.stderr, out.stderr
    assert f"Could not save: cannot write record {bad}" in out.stderr
    assert f"Saved to {record}" in out.stderr
    assert json.loads(record.read_text())["finished"] is False


def test_a_swapped_shuffle_fails_verify_naming_the_move(
    tmp_path: Path, finished: dict[str, Any]
) -> None:
    data = json.loads(json.dumps(finished))
    index, deal = next(
        (i, e)
        for i, e in enumerate(data["history"])
        if "order" in e.get("chance", {}).get("args", {})
    )
    order = deal["chance"]["args"]["order"]
    j = next(j for j in range(1, len(order)) if order[j] != order[0])
    order[0], order[j] = order[j], order[0]
    path = _write(tmp_path, data)
    out = run_cli("card-games", "replay", str(path), "--verify")
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    assert out.code == 1 and out.stdout == "" and len(lines) == 1, out
    assert f"move {index + 1}: the recorded chance outcome is not what seed 3 gives" in lines[0]


# --- fuzzing the readers in-process --------------------------------------------------------------

JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
JSON_VALUE = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (keys and indices), the value itself first."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:30]):  # the history is long: its head is enough
            out += _paths(v, (*prefix, i))
    return out


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.data())
def test_fuzz_state_from_json_with_any_value_anywhere(
    unfinished: dict[str, Any], data: st.DataObject
) -> None:
    # half the time a top-level field (few, each decisive), else any place in the record
    top = [(key,) for key in unfinished]
    path = data.draw(st.one_of(st.sampled_from(top), st.sampled_from(_paths(unfinished))))
    mutated = _replace(unfinished, path, data.draw(JSON_VALUE))
    for check in (False, True):
        with contextlib.suppress(UserError):
            state_from_json(mutated, "fuzz", check_chance=check)


@FUZZ
@given(data=st.data())
def test_fuzz_record_files_with_mutated_text(
    tmp_path: Path, unfinished: dict[str, Any], data: st.DataObject
) -> None:
    text = json.dumps(unfinished)
    cut = data.draw(st.integers(0, min(len(text), 4000)))
    kind = data.draw(st.sampled_from(["delete", "insert", "flip"]))
    noise = data.draw(st.text(alphabet='{}[]",:0123456789.eE-tfnul \\', min_size=1, max_size=8))
    if kind == "delete":
        text = text[:cut] + text[cut + len(noise) :]
    elif kind == "insert":
        text = text[:cut] + noise + text[cut:]
    else:
        text = text[:cut] + noise + text[cut + len(noise) :]
    path = tmp_path / f"fuzz-{os.getpid()}.json"
    path.write_text(text)
    for reader in (load_record, verify_record):
        try:
            reader(path)
        except UserError as exc:
            assert "\n" not in str(exc)


@FUZZ
@given(value=JSON_VALUE)
def test_fuzz_action_from_json(value: Any) -> None:
    with contextlib.suppress(UserError):
        Action.from_json(value)
    with contextlib.suppress(UserError):
        Action.from_json({"name": "x", "args": value})
