"""`card-games play … --json` says how each game ended (`"end"`), by each game's real end
conditions; records of an older Jelly Fish rules version are refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_games.cli import main
from card_games.registry import resolve
from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import RandomAgent, play
from jamsumo_sim.turnloop.recording import load_record, save_record

# each game's end conditions (rulebook ends first, then this engine's fallbacks and limits)
ENDS = {
    "jellyfish": {"three_sets", "pile_exhausted", "turn_limit"},
    "jumble-jam": {"four_exact_orders", "orders_exhausted", "pastry_exhausted", "round_limit"},
    "jumblejack": {"exact_match", "final_ritual"},
    "the-jam": {"deck_out"},
}


@pytest.mark.parametrize("name", sorted(ENDS))
def test_json_result_names_the_end(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    players = str(resolve(name).min_players)
    seen = set()
    for seed in range(3):
        code = main(["play", name, "--players", players, "--seed", str(seed), "--json"])
        assert code == 0
        seen.add(json.loads(capsys.readouterr().out)["end"])
    assert seen and seen <= ENDS[name]


@pytest.mark.parametrize("name", sorted(ENDS))
def test_end_code_agrees_with_the_final_state(name: str) -> None:
    game = resolve(name)
    for seed in range(6):
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = play(
            game, [RandomAgent(s, game) for s in range(n)], seed=seed, params={"players": n}
        ).state
        end = state.end_code()
        assert end in ENDS[name]
        text = " ".join(state.log_for(None))
        if name == "jellyfish":
            assert (end == "three_sets") == (max(len(c) for c in state.completed) == 3)
        elif name == "jumblejack":
            assert (end == "final_ritual") == ("Final Ritual at seat" in text)
        elif name == "jumble-jam":
            assert (end == "four_exact_orders") == ("4 exact orders" in state.end_reason)


def test_a_jellyfish_game_of_the_old_split_can_end_by_the_pile() -> None:
    # the old 10 x 2 x 4 split (variant) mostly ends when the pile runs out
    game = resolve("jellyfish")
    params = {"players": 4, "variant": "10x2x4"}
    state = play(game, [RandomAgent(s, game) for s in range(4)], seed=1, params=params).state
    assert state.end_code() == "pile_exhausted" and "ran out" in state.end_reason


def test_a_version_1_jellyfish_record_is_refused_in_one_line(tmp_path: Path) -> None:
    game = resolve("jellyfish")
    state = play(
        game, [RandomAgent(s, game) for s in range(2)], seed=2, params={"players": 2}
    ).state
    path = tmp_path / "old.json"
    save_record(path, state, ["random", "random"])
    data = json.loads(path.read_text())
    data["version"] = 1  # written before the split became data: its "standard" was 10 x 2 x 4
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match=r"rules version 1 is not supported .*version 2") as err:
        load_record(path)
    assert "\n" not in str(err.value)
