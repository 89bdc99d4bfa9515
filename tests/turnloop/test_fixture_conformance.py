"""The conformance kit applied to the fixture game, plus checks that the kit can fail."""

from __future__ import annotations

import pytest

from jamsumo_sim.turnloop import Action, RandomAgent, play, register_game, state_from_json
from jamsumo_sim.turnloop.conformance import ConformanceError, check_game, random_playout
from tests.turnloop.fixture_game import GAME, FixtureState

register_game("fixture", GAME)
SETUP = "import tests.turnloop.fixture_game as f; from jamsumo_sim.turnloop import register_game; register_game('fixture', f.GAME)"


def test_fixture_passes_the_kit() -> None:
    played = check_game(GAME, players=[2, 3, 4], seeds=range(6), setup=SETUP)
    assert played == 2 * 3 * 6


def test_kit_catches_a_leaky_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky(self: FixtureState, seat: int | None) -> dict:
        return {"hands": [sorted(h) for h in self.hands]}

    monkeypatch.setattr(FixtureState, "observation", leaky)
    with pytest.raises(ConformanceError, match="hidden information"):
        random_playout(GAME, GAME.validate_params({"players": 2}), seed=1)


def test_kit_catches_unstable_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    original = FixtureState._legal_actions

    def unstable(self: FixtureState, seat: int) -> list[Action]:
        calls["n"] += 1
        acts = original(self, seat)
        return acts if calls["n"] % 2 else list(reversed(acts))

    monkeypatch.setattr(FixtureState, "_legal_actions", unstable)
    with pytest.raises(ConformanceError, match="not stable"):
        random_playout(GAME, GAME.validate_params({"players": 3}), seed=2)


def test_kit_catches_a_game_that_never_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(type(GAME), "max_game_length", lambda self, params: 5)
    with pytest.raises(ConformanceError, match="bound"):
        random_playout(GAME, GAME.validate_params({"players": 2}), seed=3)


def test_resume_continues_exactly() -> None:
    agents = [RandomAgent(s, GAME) for s in range(3)]
    whole = play(GAME, agents, seed=11, params={"players": 3})
    # stop a third of the way, save, restore, finish: same game
    partial = GAME.new_initial_state(GAME.validate_params({"players": 3}), seed=11)
    from jamsumo_sim.turnloop import step

    for _ in range(len(whole.state.history) // 3):
        step(partial, agents)
    restored = state_from_json(partial.to_json())
    assert restored.turns.to_dict() == partial.turns.to_dict()
    resumed = play(GAME, agents, seed=11, state=restored)
    assert resumed.state.history == whole.state.history
    assert resumed.returns == whole.returns
