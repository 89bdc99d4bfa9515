"""The speed-ups of Jumble Jam and the play driver change nothing a player or a record can see."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from itertools import product

import pytest

from card_games.jumble_jam import GAME
from card_games.jumble_jam.bots import SmartAgent
from card_games.jumble_jam.state import ORDERS, _strict_majority
from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.turnloop import Action, RandomAgent, play
from jamsumo_sim.turnloop.driver import seeded_outcome, step

# (players, variant, seed, final-state digest, history checksum), recorded with the code before
# the speed-ups: the same seed must still give the same game and the same record
GOLDEN = [
    (2, "standard", 0, "292d976511e6d0f3", "830d1cfcdd06a240"),
    (3, "kickstarter", 1, "91812fb5ddada2da", "b1e171f085be7162"),
    (4, "standard", 2, "0c896dbee829b6ed", "b52ac37e00d62660"),
    (5, "kickstarter", 3, "cb66ada6088c823d", "862ef3de45b25140"),
    (5, "standard", 4, "e5769a0a312fb874", "390eec162aaa5f8d"),
]


@pytest.mark.parametrize(("players", "variant", "seed", "digest", "history"), GOLDEN)
def test_same_seed_same_game_and_record(
    players: int, variant: str, seed: int, digest: str, history: str
) -> None:
    agents = [SmartAgent(0, GAME)] + [RandomAgent(s, GAME) for s in range(1, players)]
    result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
    recorded = json.dumps(result.state.to_json()["history"]).encode()
    assert result.state.digest() == digest
    assert hashlib.sha256(recorded).hexdigest()[:16] == history


def _majority_by_counting(seats: list[int]) -> int | None:
    ranked = Counter(seats).most_common()
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def test_strict_majority_on_every_small_jar_pattern() -> None:
    # a card has at most four edges; every pattern of up to four jars from five seats
    for size in range(5):
        for seats in product(range(5), repeat=size):
            assert _strict_majority(list(seats)) == _majority_by_counting(list(seats)), seats


def test_remembered_fills_match_a_fresh_search() -> None:
    """Which orders a hand can fill is remembered per hand, tokens and die; every answer must be
    the one a fresh search of that hand gives (kickstarter tokens and Grandma's die included)."""
    checked = differ = 0
    first: list[Action] = []
    for seed, variant in product(range(6), ("standard", "kickstarter")):
        state = GAME.new_initial_state({"players": 3, "variant": variant}, seed=seed)
        agents = [RandomAgent(s, GAME) for s in range(3)]
        while not state.is_terminal():
            player = state.current_player()
            if player >= 0 and state.phase_name() == ORDERS and state.building is None:
                die = state.die
                for face in (die, state.cat.grandma):  # the same hand, waste allowed or not
                    state.die = face
                    pieces, exact = state._pieces(player), state.exact_only()
                    fresh = [
                        state._tables.fills[oid]
                        for oid in state.display
                        if pieces.can_cover(state.cat.orders[oid].needs, exact)
                    ]
                    assert state._fill_actions(player) == fresh
                    checked += 1
                    differ += exact and fresh != first
                    first = fresh
                state.die = die
            step(state, agents)
    assert checked > 100 and differ > 5  # hands whose answer depends on the die were among them


def test_a_move_equal_to_a_listed_one_is_accepted_and_an_unlisted_one_checked() -> None:
    state = GAME.new_initial_state({"players": 2}, seed=5)
    while state.is_chance_node():
        step(state, [RandomAgent(s, GAME) for s in range(2)])
    legal = state.legal_actions()
    twin = Action(legal[-1].name, legal[-1].args)  # equal, not the listed object
    assert twin is not legal[-1]
    state.apply_action(twin, known_legal=legal)
    assert state.history[-1]["action"] == legal[-1].to_json()
    with pytest.raises(IllegalAction):
        state.apply_action(
            Action("jar nowhere", (("edge", 999),)), known_legal=state.legal_actions()
        )


def test_a_chance_outcome_not_vouched_for_is_still_checked() -> None:
    state = GAME.new_initial_state({"players": 2}, seed=7)
    outcome = seeded_outcome(state)
    forged = Action(outcome.name, (("order", ("not-a-card",) * len(outcome["order"])),))
    with pytest.raises(IllegalAction):
        state.apply_action(forged)
    with pytest.raises(IllegalAction):  # a list naming other outcomes vouches for none of them
        state.apply_action(forged, known_legal=[outcome])
    state.apply_action(outcome, known_legal=[outcome])
    assert state.history[-1] == {"chance": outcome.to_json()}
