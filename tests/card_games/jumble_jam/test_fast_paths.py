"""The speed-ups of Jumble Jam and the play driver change nothing a player or a record can see."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from itertools import product

import pytest

from card_games.jumble_jam import GAME
from card_games.jumble_jam.bots import SmartAgent
from card_games.jumble_jam.state import (
    ORDERS,
    PASS,
    _strict_majority,
    action_json,
    add_action,
    fill_action,
    jar_actions,
    kitty_action,
    token_action,
)
from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.turnloop import (
    Action,
    MatchEvent,
    PhaseSpec,
    RandomAgent,
    Repeat,
    RoundSpec,
    Seating,
    TurnTracker,
    play,
)
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


def test_shared_moves_write_their_own_json_as_a_new_dict_each_time() -> None:
    """A shared move's history entry is copied from its remembered JSON: equal to ``to_json``,
    and a new dict each time (changing one record's entry must not change another's)."""
    state = GAME.new_initial_state({"players": 4, "variant": "kickstarter"}, seed=3)
    moves = [*jar_actions(state.grid), PASS, token_action("doughnut"), kitty_action(2, True)]
    moves += [fill_action(o) for o in state.cat.orders.values()]
    moves += [add_action("1 doughnut", "croissant", True), add_action("2 muffin", "muffin", False)]
    for move in moves:
        first, second = action_json(move), action_json(move)
        assert first == move.to_json() == second
        first["name"] = "changed"
        first.get("args", {})["edge"] = -1
        assert second == move.to_json() and action_json(move) == move.to_json()


def test_events_report_every_history_entry_and_log_line_once() -> None:
    """The driver's loop makes a seat's move without the detour through ``step``; the events it
    reports still carry each move's history entry and new log lines, in order."""
    entries: list[dict[str, object]] = []
    lines: list[str] = []

    def on_event(event: MatchEvent) -> None:
        entries.append(event.entry)
        lines.extend(e.text for e in event.log)

    agents = [SmartAgent(0, GAME), RandomAgent(1, GAME), RandomAgent(2, GAME)]
    result = play(GAME, agents, seed=11, params={"players": 3}, on_event=on_event)
    assert entries == result.state.history
    assert all(a is b for a, b in zip(entries, result.state.history, strict=True))
    assert lines == [e.text for e in result.state.log]


def test_remembered_pieces_and_additions_match_a_fresh_search() -> None:
    """The moves adding a piece are remembered per situation (what the order lacks and the
    pieces that could go to it); each must be what working them out afresh gives, and the free
    edges what a scan gives."""
    adds = 0
    for seed, variant in product(range(4), ("standard", "kickstarter")):
        state = GAME.new_initial_state({"players": 4, "variant": variant}, seed=seed)
        agents = [RandomAgent(s, GAME) for s in range(4)]
        while not state.is_terminal():
            player = state.current_player()
            if player >= 0 and state.phase_name() == ORDERS and state.building is not None:
                exact = state.exact_only()
                fresh = state._work_out_adds(player, state.remaining_needs(), exact)
                assert state._build_actions(player) == fresh
                adds += 1
            if state._free is None:
                layout, jars, edges = state.layout, state.jars, state.grid.edges
                scan = [
                    i
                    for i, (a, b) in enumerate(edges)
                    if layout[a] is not None and layout[b] is not None and jars[i] is None
                ]
                assert state._free_edges() == scan
            every = jar_actions(state.grid)  # the jar moves follow the free edges jar by jar
            assert state._free_jars == [every[e] for e in state._free_edges()]
            step(state, agents)
    assert adds > 20


@pytest.mark.parametrize(
    ("repeat", "times", "ends_after"),
    [
        (Repeat.ONCE, 1, 3),
        (Repeat.TIMES, 2, 6),
        (Repeat.UNTIL_ALL_PASS, 1, 3),  # every move below passes
        (Repeat.UNTIL_ENDED, 1, None),
        (Repeat.SIMULTANEOUS, 1, 1),
    ],
)
def test_the_turn_tracker_ends_each_kind_of_phase_when_it_should(
    repeat: Repeat, times: int, ends_after: int | None
) -> None:
    spec = RoundSpec(phases=(PhaseSpec("a", repeat=repeat, times=times), PhaseSpec("b")))
    tracker = TurnTracker.start(Seating(3), spec, {"first_player": 0})
    seats, ended = [], None
    for move in range(1, 10):
        seats.append(tracker.seat)
        if tracker.advance(passed=True) != "turn":
            ended = move
            break
    assert ended == ends_after
    if repeat is not Repeat.SIMULTANEOUS:
        assert seats[:4] == [0, 1, 2, 0][: len(seats[:4])]


def test_public_log_lines_are_shared_and_private_ones_stay_private() -> None:
    """``say`` shares one immutable entry per public line (from game to game); a line for some
    seats is its own entry, readable by them only."""
    first = GAME.new_initial_state({"players": 2}, seed=1)
    second = GAME.new_initial_state({"players": 2}, seed=2)
    first.say("seat 1 passes")
    second.say("seat 1 passes")
    second.say("seat 1 passes", to=1)
    assert first.log[-1] is second.log[-2]
    assert first.log[-1].visible_to(0) and first.log[-1].visible_to(None)
    assert second.log[-1] is not second.log[-2]
    assert second.log[-1].visible_to(1) and not second.log[-1].visible_to(0)
    assert second.log_for(0)[-1:] == ["seat 1 passes"] and len(second.log_for(1)) == 2
