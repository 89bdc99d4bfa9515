"""Records and saved games made by version 0.2.0, whose trade step listed ``no trade`` instead of
the plays, still re-play exactly and resume (the files in ``data/`` were written by 0.2.0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_games.the_jam import GAME
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import RandomAgent, play
from jamsumo_sim.turnloop.recording import load_record, verify_record

DATA = Path(__file__).parent / "data"


def test_a_finished_0_2_0_record_verifies() -> None:
    path = DATA / "the_jam_0.2.0_standard_2p.json"
    state, data = load_record(path)
    assert data["package_version"] == "0.2.0"
    assert any(e.get("action", {}).get("name") == "no trade" for e in state.history)
    ok, message = verify_record(path)
    assert ok, message


@pytest.mark.parametrize(
    "name", ["the_jam_0.2.0_standard_3p_unfinished.json", "the_jam_0.2.0_travel_3p_unfinished.json"]
)
def test_an_unfinished_0_2_0_game_resumes_to_the_end(name: str) -> None:
    state, data = load_record(DATA / name)
    assert not data["finished"] and state.digest() == data["digest"]
    seats = state.num_players
    result = play(GAME, [RandomAgent(s, GAME) for s in range(seats)], seed=state.seed, state=state)
    assert result.finished and len(result.winners) >= 1


def test_a_file_of_an_unknown_rules_version_is_one_clear_line(tmp_path: Path) -> None:
    data = json.loads((DATA / "the_jam_0.2.0_standard_3p_unfinished.json").read_text())
    data["version"] = 99
    path = tmp_path / "future.json"
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match=r"rules version 99 is not supported .*version 3"):
        load_record(path)
