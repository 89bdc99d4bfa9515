"""Verify re-derives every chance outcome from the seed and compares the final state; the kit checks
that the seed matters; malformed records are one-line errors naming the file and the move."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import RandomAgent, driver, keys, play, register_game
from jamsumo_sim.turnloop.conformance import (
    ConformanceError,
    check_seed_matters,
    first_chance_outcomes,
    random_playout,
)
from jamsumo_sim.turnloop.recording import load_record, save_record, verify_record
from tests.turnloop.fixture_game import GAME

register_game("fixture", GAME)
PARAMS = GAME.validate_params({"players": 2})


def _record(tmp_path: Path, seed: int = 9) -> tuple[Path, dict[str, Any]]:
    agents = [RandomAgent(0, GAME), RandomAgent(1, GAME)]
    result = play(GAME, agents, seed=seed, params={"players": 2})
    path = tmp_path / "game.json"
    save_record(path, result.state, ["random", "random"])
    return path, json.loads(path.read_text())


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data))
    return path


# --- the seed gives every chance outcome -----------------------------------------------------------


def test_a_swapped_deal_ending_in_the_same_state_fails_verify(tmp_path: Path) -> None:
    """Two cards of one hand swapped in the recorded deal: a different game with the same end (the
    hand is a set), which a final-state check alone accepts."""
    path, data = _record(tmp_path)
    deal = next(e for e in data["history"] if e.get("chance", {}).get("name") == "deal")
    order = deal["chance"]["args"]["order"]
    order[0], order[1] = order[1], order[0]  # both cards are seat 0's
    _write(path, data)
    state, _ = load_record(path)  # it loads and re-plays to the recorded final state …
    assert state.digest() == data["digest"]
    ok, message = verify_record(path)  # … but it is not the game seed 9 gives
    assert not ok
    index = data["history"].index(deal) + 1
    assert f"move {index}: the recorded chance outcome is not what seed 9 gives" in message
    assert "order[0]" in message and str(path) in message


def test_every_outcome_of_a_record_is_re_derived(tmp_path: Path) -> None:
    """Not only the first: the last die roll edited to another possible face fails too."""
    path, data = _record(tmp_path)
    rolls = [e for e in data["history"] if e.get("chance", {}).get("name", "").startswith("roll")]
    last = rolls[-1]["chance"]
    value = last["args"]["value"] % 6 + 1
    last.update(name=f"roll {value}", args={"value": value})
    _write(path, data)
    ok, message = verify_record(path)
    assert not ok and "not what seed 9 gives" in message
    assert f"move {data['history'].index(rolls[-1]) + 1}:" in message


def test_verify_ok_names_the_chance_outcomes(tmp_path: Path) -> None:
    path, data = _record(tmp_path)
    ok, message = verify_record(path)
    chances = sum("chance" in e for e in data["history"])
    assert ok and f"all {chances} chance outcomes from seed 9" in message


def test_the_kit_sees_different_outcomes_for_different_seeds() -> None:
    outcomes = {json.dumps(first_chance_outcomes(GAME, PARAMS, s, 2)) for s in range(20)}
    assert len(outcomes) > 10
    check_seed_matters(GAME, PARAMS)


def test_the_kit_catches_a_driver_that_ignores_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    # the planted fault of issue 25: every seed gets the chance outcomes of seed 0
    monkeypatch.setattr(driver, "chance_rng", lambda state: keys.rng_for(0, 0, len(state.history)))
    with pytest.raises(ConformanceError, match="seed is ignored"):
        check_seed_matters(GAME, PARAMS)
    with pytest.raises(ConformanceError, match="documented derivation"):
        random_playout(GAME, PARAMS, seed=3, check_every=10**6)


def test_the_kit_catches_a_driver_that_drifts_from_its_documentation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # still seeded (different seeds differ), but not by the documented key
    monkeypatch.setattr(
        driver, "chance_rng", lambda state: keys.rng_for(state.seed, 7, len(state.history))
    )
    check_seed_matters(GAME, PARAMS)
    with pytest.raises(ConformanceError, match="documented derivation"):
        random_playout(GAME, PARAMS, seed=3, check_every=10**6)


def test_seeds_beyond_64_bits_are_refused_not_folded() -> None:
    assert keys.mix_key(2**64 - 1) != keys.mix_key(0)
    with pytest.raises(UserError, match="2\\*\\*64-1"):
        keys.mix_key(2**64)  # would equal mix_key(0) if folded
    with pytest.raises(UserError, match="2\\*\\*64-1"):
        keys.rng_for(-1)


# --- the final state ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("digest", "0123456789abcdef", "digest"),
        ("finished", False, "finished=false"),
        ("result", None, "recorded result"),
        ("result", "scores", "recorded result"),  # edited below into other scores
    ],
)
def test_an_edited_final_state_fails_verify(
    tmp_path: Path, field: str, value: Any, fragment: str
) -> None:
    path, data = _record(tmp_path)
    if value == "scores":
        value = dict(data["result"], scores=[s + 1 for s in data["result"]["scores"]])
    data[field] = value
    ok, message = verify_record(_write(path, data))
    assert not ok, message
    assert "the final state differs from the recorded one" in message and fragment in message


def test_an_unfinished_record_claiming_to_be_finished_fails(tmp_path: Path) -> None:
    state = GAME.new_initial_state(PARAMS, seed=2)
    agents = [RandomAgent(0, GAME), RandomAgent(1, GAME)]
    for _ in range(6):
        driver.step(state, agents)
    path = tmp_path / "saved.json"
    save_record(path, state, ["random", "random"])
    assert verify_record(path)[0]
    data = json.loads(path.read_text())
    data["finished"] = True
    ok, message = verify_record(_write(path, data))
    assert not ok and "finished=true" in message and "not finished" in message


# --- malformed records -------------------------------------------------------------------------


def test_a_move_after_the_end_says_the_game_is_over(tmp_path: Path) -> None:
    path, data = _record(tmp_path)
    last = next(e for e in reversed(data["history"]) if "action" in e)
    data["history"].append(last)
    n = len(data["history"])
    with pytest.raises(UserError) as info:
        load_record(_write(path, data))
    assert str(info.value) == (
        f"{path}: move {n} cannot be replayed: recorded seat {last['seat']} but the game is over"
    )


@pytest.mark.parametrize(
    ("edit", "move", "words"),
    [
        (lambda h: h.pop(1), 2, "but a chance outcome is due"),  # a bid where the deal was
        (lambda h: h.insert(2, h[0]), 3, "a chance outcome is recorded but seat"),  # a roll more
    ],
)
def test_misplaced_entries_name_who_is_to_move(
    tmp_path: Path, edit: Any, move: int, words: str
) -> None:
    path, data = _record(tmp_path)
    edit(data["history"])
    with pytest.raises(UserError, match=words) as info:
        load_record(_write(path, data))
    prefix = f"{path}: move {move} cannot be replayed: "
    assert str(info.value).startswith(prefix)
    reason = str(info.value)[len(prefix) :]
    assert "-1" not in reason and "-3" not in reason


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("params", [1], "'params' must be an object"),
        ("params", {"players": 2, "speed": 3}, "unknown parameter 'speed'"),
        ("params", {"players": True}, "takes 2–4 players"),
        ("params", {"players": 2, "variant": ["short"]}, "no variant"),
        ("game", 5, "'game' must be a game's name"),
        ("game", "x" * 10_000, "'game' must be a game's name"),
        ("game", "chess", "unknown game 'chess'"),
        ("version", True, "'version' must be a whole number"),
        ("format", "1", "'format' must be a whole number"),
        ("seed", 2**64, "'seed' must be from 0 to 2**64-1"),
        ("seed", -1, "'seed' must be from 0 to 2**64-1"),
        ("seed", [5], "'seed' must be a whole number"),
        ("history", {"0": {}}, "'history' must be a list"),
        ("history", [5], "move 1 cannot be replayed: entry is not an object"),
        ("history", [{"seat": "0", "action": {"name": "pass"}}], "move 1 cannot be replayed"),
        ("history", [{"chance": [1]}], "malformed action"),
        ("history", [{"chance": {"name": "roll 1", "args": [1]}}], "'args' must be an object"),
        ("history", [{"nothing": 1}], "none of 'action', 'chance', 'joint'"),
        ("seats", "random,random", "'seats' must be a list"),
        ("seats", ["random"], "1 seats listed for 2 players"),
        ("finished", "yes", "'finished' must be true or false"),
        ("result", 5, "'result' must be an object or null"),
        ("digest", 5, "'digest' must be a string"),
        ("package_version", 1.5, "'package_version' must be a string"),
        ("record_version", True, "record version 'True' is not supported"),
        ("kind", ["x"], "not a match record"),
        ("extra", 1, "unknown field 'extra'"),
    ],
)
def test_a_field_of_the_wrong_type_is_one_line_naming_the_file(
    tmp_path: Path, field: str, value: Any, fragment: str
) -> None:
    path, data = _record(tmp_path)
    data[field] = value
    _write(path, data)
    for reader in (load_record, verify_record):
        with pytest.raises(UserError) as info:
            reader(path)
        message = str(info.value)
        assert fragment in message and str(path) in message and "\n" not in message
        assert len(message) < 300


def test_a_joint_move_with_a_bad_seat_name(tmp_path: Path) -> None:
    path, data = _record(tmp_path)
    joint = next(e for e in data["history"] if "joint" in e)
    joint["joint"] = {"x": joint["joint"]["0"], "1": joint["joint"]["1"]}
    with pytest.raises(UserError, match="'joint' names seat 'x'"):
        load_record(_write(path, data))


def test_a_recorded_outcome_that_is_not_possible_is_malformed(tmp_path: Path) -> None:
    """An impossible outcome (a seventh face) is a bad file (exit 2), not a divergence."""
    path, data = _record(tmp_path)
    data["history"][0] = {"chance": {"name": "roll 7", "args": {"value": 7}}}
    with pytest.raises(UserError, match="not a possible chance outcome") as info:
        verify_record(_write(path, data))
    assert info.value.exit_code == 2


def test_documented_derivation_is_what_the_driver_applies() -> None:
    """The formula in driver.py's comment, written out: a record keeps this meaning."""
    state = GAME.new_initial_state(PARAMS, seed=12345)
    rng = np.random.Generator(np.random.PCG64(keys.mix_key(12345, keys.CHANCE_STREAM, 0)))
    expected = state.chance_outcomes().sample(rng)
    driver.step(state, [RandomAgent(0, GAME), RandomAgent(1, GAME)])
    assert state.history[0] == {"chance": expected.to_json()}
