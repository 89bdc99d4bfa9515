"""Jelly Fish and Jumble Jam keep how a game ended as a code (the ``end`` of ``--json``); the
log's wording is made from the code, so rewording an end reason cannot change the code."""

from __future__ import annotations

import pytest

from card_games.jellyfish import state as jellyfish_state
from card_games.jumble_jam import state as jumble_jam_state
from card_games.registry import resolve
from jamsumo_sim.turnloop import RandomAgent, play

MODULES = {"jellyfish": jellyfish_state, "jumble-jam": jumble_jam_state}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_the_end_code_survives_new_wording(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    reasons = MODULES[name].END_REASONS
    # every reason reworded (its details kept): a code read from the words would now be lost
    reworded = {code: f"({code}) {text} (reworded)" for code, text in reasons.items()}
    monkeypatch.setattr(MODULES[name], "END_REASONS", reworded)
    game = resolve(name)
    seen = set()
    for seed in range(4):
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        agents = [RandomAgent(s, game) for s in range(players)]
        state = play(game, agents, seed=seed, params={"players": players}).state
        code = state.end_code()
        assert code in reasons
        assert state.end_reason.startswith(f"({code}) ")
        assert f"({code}) " in " ".join(state.log_for(None))  # the log says it in the new words
        seen.add(code)
    assert seen


@pytest.mark.parametrize("name", sorted(MODULES))
def test_a_game_going_on_has_no_end_code(name: str) -> None:
    game = resolve(name)
    state = game.new_initial_state(game.validate_params({"players": game.min_players}), seed=1)
    assert state.end_code() is None and state.end_reason == ""
