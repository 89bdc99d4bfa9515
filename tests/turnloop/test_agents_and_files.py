"""The console agent, match records and file errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import (
    ConsoleAgent,
    QuitRequest,
    RandomAgent,
    play,
    register_game,
    seat_view,
)
from jamsumo_sim.turnloop.recording import load_record, save_record, verify_record
from jamsumo_sim.turnloop.serialize import read_json_file, state_from_json, write_json_atomic
from tests.turnloop.fixture_game import GAME

register_game("fixture", GAME)


def _bid_state():
    state = GAME.new_initial_state(GAME.validate_params({"players": 2}), seed=3)
    agents = [RandomAgent(0, GAME), RandomAgent(1, GAME)]
    from jamsumo_sim.turnloop import step

    while state.is_chance_node():
        step(state, agents)
    return state


def test_console_agent_reprompts_until_a_legal_choice() -> None:
    state = _bid_state()
    out = io.StringIO()
    agent = ConsoleAgent(0, GAME, stdin=io.StringIO("7\nbogus\nra\n"), stdout=out)
    action = agent.act(seat_view(state, 0))
    assert action.name == "raise to 1"
    text = out.getvalue()
    assert "There is no move 7" in text and "'bogus' is not a legal move" in text
    assert "1. pass" in text and "2. raise to 1" in text


def test_console_agent_number_and_quit_on_end_of_input() -> None:
    state = _bid_state()
    agent = ConsoleAgent(0, GAME, stdin=io.StringIO("1\n"), stdout=io.StringIO())
    assert agent.act(seat_view(state, 0)).name == "pass"
    agent = ConsoleAgent(0, GAME, stdin=io.StringIO(""), stdout=io.StringIO())
    with pytest.raises(QuitRequest):
        agent.act(seat_view(state, 0))


def test_quitting_saves_and_the_save_resumes(tmp_path: Path) -> None:
    saved: list[Path] = []

    def on_save(state, path):
        target = tmp_path / "save.json"
        save_record(target, state, ["human", "random"])
        saved.append(target)

    agents = [
        ConsoleAgent(0, GAME, stdin=io.StringIO("1\n"), stdout=io.StringIO()),
        RandomAgent(1, GAME),
    ]
    result = play(GAME, agents, seed=4, params={"players": 2}, on_save=on_save)
    assert result.stopped and saved
    state, data = load_record(saved[0])
    assert state.to_json()["history"] == result.state.history
    assert state.current_player() == result.state.current_player()
    assert state.turns.to_dict() == result.state.turns.to_dict()
    finished = play(GAME, [RandomAgent(0, GAME), RandomAgent(1, GAME)], seed=4, state=state)
    assert finished.finished


def test_record_verify_and_tampering(tmp_path: Path) -> None:
    result = play(GAME, [RandomAgent(0, GAME), RandomAgent(1, GAME)], seed=9, params={"players": 2})
    path = tmp_path / "game.json"
    save_record(path, result.state, ["random", "random"])
    ok, message = verify_record(path)
    assert ok, message
    data = json.loads(path.read_text())
    data["result"]["scores"][0] += 1
    path.write_text(json.dumps(data))
    ok, message = verify_record(path)
    assert not ok and "result" in message
    joint = next(e for e in data["history"] if "joint" in e)
    joint["joint"]["0"]["args"]["card"] = "c9z"
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match="cannot be replayed"):
        verify_record(path)


def test_file_errors_are_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("")
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "fixture",\n "params": }')
    for path, fragment in [
        (empty, "empty"),
        (bad, "line 2"),
        (tmp_path / "nope.json", "no such file"),
    ]:
        with pytest.raises(UserError) as info:
            read_json_file(path)
        assert fragment in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(UserError, match="unknown game"):
        state_from_json({"game": "chess", "params": {}, "history": []})
    with pytest.raises(UserError, match="format version"):
        state_from_json({"game": "fixture", "format": 99, "params": {"players": 2}, "history": []})
    with pytest.raises(UserError, match="takes 2–4 players"):
        state_from_json({"game": "fixture", "params": {"players": 9}, "history": []})


def test_atomic_write_never_leaves_a_half_file(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    write_json_atomic(path, {"a": 1})

    class Boom:
        pass

    with pytest.raises(TypeError):
        write_json_atomic(path, {"a": Boom()})
    assert json.loads(path.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]


def test_hot_seat_hides_each_view_from_the_next_person() -> None:
    """With several people at one terminal, a seat's private view is shown only after a
    hand-over pause and wiped once it has moved."""
    state = _bid_state()
    out = io.StringIO()
    agent = ConsoleAgent(0, GAME, stdin=io.StringIO("\n1\n"), stdout=out, handover=True)
    assert agent.act(seat_view(state, 0)).name == "pass"
    text = out.getvalue()
    hand = " ".join(state.hands[0])
    pause = text.index("pass the terminal to seat 0")
    shown = text.index(hand)
    wiped = text.rindex(ConsoleAgent.CLEAR)
    assert pause < shown < wiped
    assert text.index(ConsoleAgent.CLEAR) < pause
    assert hand not in text[wiped:]


def test_verify_notices_an_edited_seed(tmp_path: Path) -> None:
    result = play(GAME, [RandomAgent(0, GAME), RandomAgent(1, GAME)], seed=5, params={"players": 2})
    path = tmp_path / "game.json"
    save_record(path, result.state, ["random", "random"])
    data = json.loads(path.read_text())
    data["seed"] = 6
    path.write_text(json.dumps(data))
    ok, message = verify_record(path)
    # the first roll is not what seed 6 gives: a different game from its very first move
    assert not ok and "move 1" in message and "seed 6" in message
    for bad in (True, -1, 2**64, "5", 5.0):
        data["seed"] = bad
        path.write_text(json.dumps(data))
        with pytest.raises(UserError, match="'seed'"):
            verify_record(path)


def test_a_jamsumo_replay_is_pointed_to_its_own_command(tmp_path: Path) -> None:
    from jamsumo_sim.replay import REPLAY_KIND

    path = tmp_path / "shots.json"
    path.write_text(json.dumps({"kind": REPLAY_KIND}))
    with pytest.raises(UserError, match="jamsumo replay"):
        load_record(path)


def test_no_move_is_legal_for_a_seat_out_of_turn() -> None:
    state = _bid_state()
    mover = state.current_player()
    other = 1 - mover
    move = state.legal_actions()[0]
    assert state.is_legal(mover, move)
    # a seat probing moves out of turn learns nothing about the mover's options
    assert not state.is_legal(other, move)
    assert seat_view(state, other).check(move) is not None


def test_a_failed_save_on_a_typed_quit_returns_to_the_game() -> None:
    """on_save returning False: after a typed `quit` the person is asked again (the match goes on);
    at the end of input nobody is left to ask, so the driver stops (the callback raises there)."""
    from jamsumo_sim.turnloop.driver import SaveOrder

    orders: list[SaveOrder] = []

    def on_save(state, order: SaveOrder) -> bool:
        orders.append(order)
        return False

    agents = [
        ConsoleAgent(0, GAME, stdin=io.StringIO("quit\nsave x.json\n1\n"), stdout=io.StringIO()),
        RandomAgent(1, GAME),
    ]
    result = play(GAME, agents, seed=4, params={"players": 2}, on_save=on_save)
    assert result.stopped
    assert orders == [
        SaveOrder(None, quitting=True, can_go_on=True),  # typed quit: not saved, the game goes on
        SaveOrder("x.json", quitting=False, can_go_on=True),
        SaveOrder(None, quitting=True, can_go_on=False),  # end of input
    ]
    assert len(result.state.history) > 3  # the person moved after the failed quit
