"""One scenario per rule, built by scripting chance outcomes and moves."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from card_games.jumble_jam import JumbleJamGame
from card_games.jumble_jam.cards import parse_catalog
from card_games.jumble_jam.state import MAX_ROUNDS
from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.turnloop import CHANCE, TERMINAL, Action
from tests.card_games.jumble_jam.helpers import (
    deck_for,
    give,
    names,
    new_state,
    play,
    play_prefix,
    roll,
    set_hand,
    shuffle,
    to_orders_phase,
)

# A 2-player layout (3x3) used by several scenarios.
CELLS = {
    "A1": "pie2-1", "B1": "jam2-1", "C1": "cookie1-1",
    "A2": "pie1-1", "B2": "doughnut3-1", "C2": "cookie2-1",
    "A3": "pancake1-1", "B3": "jam1-1", "C3": "croissant2-1",
}  # fmt: skip


def started(players: int = 2, cells: dict[str, str] | None = None, orders=("O06", "O01", "O16")):
    state = new_state(players)
    shuffle(state, deck_for(state, cells or {}), orders)
    return state


# -- set-up and new batch ----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_kitties_layout_orders_and_grandchildren(players: int) -> None:
    state = new_state(players)
    assert state.current_player() == CHANCE
    deck = state.chance_outcomes()
    assert len(deck.items) == 60 + players  # one Kitty card per player shuffled in
    assert sum(1 for c in deck.items if c.startswith("kitty")) == players
    shuffle(state)
    layout = state.cat.layouts[players]
    assert all(state.layout) and len(state.layout) == layout.columns * layout.rows
    assert len(state.display) == players + 1
    assert len(state.deck) == 60 + players - len(state.layout)
    assert state.turns.holder("first_player") == 0
    assert state.turns.holder("efficient") == players - 1  # the first player's right
    assert state.phase_name() == "grandma" and state.current_player() == CHANCE


def test_new_batch_fills_from_the_deck_left_to_right() -> None:
    state = started(cells=CELLS)
    names_at = {state.grid.slot_names[s]: c for s, c in enumerate(state.layout)}
    assert names_at == CELLS


def test_leftover_cards_slide_down_and_unfilled_orders_stay() -> None:
    state = started(cells=CELLS)
    roll(state, "pie")
    # seat 0 wins column A, seat 1 column C, column B ties or has no jars and stays
    for edge in ("A1|B1", "B1|C1", "A1|A2", "C1|C2", "A3|B3", "B3|C3", "A2|A3", "C2|C3"):
        play(state, f"jar {edge}")
    assert sorted(state.hands[0]) == sorted(["pie2-1", "pie1-1", "pancake1-1"])
    assert sorted(state.hands[1]) == sorted(["cookie1-1", "cookie2-1", "croissant2-1"])
    # nobody can fill an order or has a Kitty: both pass by themselves, the Efficient first
    log = state.log_for(None)
    assert log.index("seat 1 passes (nothing to do)") < log.index("seat 0 passes (nothing to do)")
    # next round: column B kept, the deck fills A and C; the three orders stay
    cells = {state.grid.slot_names[s]: c for s, c in enumerate(state.layout)}
    assert (cells["B1"], cells["B2"], cells["B3"]) == (
        "jam2-1",
        "doughnut3-1",
        "jam1-1",
    )  # ties stay
    assert state.log_for(None)[-2].startswith("round 2: new batch")
    # the deck's next cards fill column A, then C, each from the bottom up
    rest = [c for c in state.cat.pastry_ids if c not in CELLS.values()]
    assert [cells[n] for n in ("A3", "A2", "A1", "C3", "C2", "C1")] == rest[:6]
    assert state.display == ["O06", "O01", "O16"]
    assert state.turns.holder("first_player") == 1 and state.turns.holder("efficient") == 0


def test_reshuffle_is_a_chance_node_when_the_deck_runs_out() -> None:
    state = started(cells=CELLS)
    give(state, 0, ["kitty-1"])  # a Kitty to use: seat 0 is not passed automatically
    roll(state, "pie")
    for edge in ("A1|B1", "B1|C1", "A1|A2", "C1|C2", "A3|B3", "B3|C3", "A2|A3", "C2|C3"):
        play(state, f"jar {edge}")
    # leave only two cards in the deck; the rest go to the discard pile
    state.discard, state.deck = state.deck[2:], state.deck[:2]
    play(state, "pass")  # seat 1 (nothing to do) passed by itself; seat 0 passes
    assert state.current_player() == CHANCE
    reshuffle = state.chance_outcomes()
    assert reshuffle.label == "reshuffle the discard pile"
    state.apply_action(reshuffle.sample(__import__("numpy").random.default_rng(1)))
    assert all(state.layout) and state.discard == []
    assert state.phase_name() == "grandma"


def test_an_empty_slot_has_no_jar_edges() -> None:
    state = started(cells=CELLS)
    state.layout[state.grid.slot_names.index("B2")] = None
    state.deck.append("doughnut3-1")
    roll(state, "pie")
    jars = names(state)
    assert "jar A1|B1" in jars
    assert not [j for j in jars if "B2" in j]
    assert len(jars) == 12 - 4


# -- Grandma's die -----------------------------------------------------------------------------
def test_pastry_face_adds_a_coin_to_orders_with_that_pastry() -> None:
    state = started(cells=CELLS)
    roll(state, "doughnut")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["doughnut3-2"])
    play_prefix(state, "fill O01")
    play(state, "add 3 doughnut")
    assert state.coins[seat] == 3 + 1


def test_grandma_face_allows_only_exact_orders() -> None:
    state = started(cells=CELLS)
    roll(state, "grandma")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["doughnut2-1", "doughnut2-2"])  # 4 doughnuts for a 3-doughnut order
    assert not [n for n in names(state) if n.startswith("fill")]
    give(state, seat, ["jam1-2"])  # 2 + 1 jam = exactly 3
    play_prefix(state, "fill O01")
    assert names(state) == ["add 2 doughnut", "add 1 jam as doughnut"]
    play(state, "add 2 doughnut")
    assert names(state) == ["add 1 jam as doughnut"]  # a second 2 would overshoot
    play(state, "add 1 jam as doughnut")
    assert state.completed[seat] == [{"order": "O01", "exact": True, "coins": 3}]


# -- get to work -------------------------------------------------------------------------------
def test_jars_go_clockwise_from_the_proactive_grandchild_four_each() -> None:
    state = started(players=3)
    roll(state, "pie")
    movers = []
    while state.phase_name() == "get to work":
        movers.append(state.current_player())
        before = len(names(state))
        state.apply_action(state.legal_actions()[0])
        if state.phase_name() == "get to work":
            assert len(names(state)) == before - 1  # an occupied edge is no longer free
    assert movers == [0, 1, 2] * 4


def test_an_occupied_edge_is_illegal() -> None:
    state = started(cells=CELLS)
    roll(state, "pie")
    play(state, "jar A1|B1")
    with pytest.raises(IllegalAction):
        state.apply_action(Action("jar A1|B1", (("edge", 0),)))


def test_strict_majority_wins_a_card_and_a_tie_leaves_it() -> None:
    state = started(cells=CELLS)
    roll(state, "pie")
    for edge in ("A1|B1", "B1|C1", "A1|A2", "C1|C2", "A3|B3", "B3|C3", "A2|A3", "C2|C3"):
        play(state, f"jar {edge}")
    slots = {state.grid.slot_names[s]: c for s, c in enumerate(state.layout)}
    assert slots["B1"] == "jam2-1"  # one jar each: nobody takes it
    assert "pie2-1" in state.hands[0]  # two jars to none
    assert state.observation(1)["hand_sizes"] == [3, 3]


def test_hand_limit_the_owner_discards_one_card_at_a_time() -> None:
    state = started(cells=CELLS)
    give(state, 0, ["pie3-1", "pie3-2", "cookie3-1", "cookie3-2", "jam2-2", "kitty-1"])
    roll(state, "pie")
    for edge in ("A1|B1", "B1|C1", "A1|A2", "C1|C2", "A3|B3", "B3|C3", "A2|A3", "C2|C3"):
        play(state, f"jar {edge}")
    assert len(state.hands[0]) == 9
    assert state.phase_name() == "hand limit" and state.current_player() == 0
    assert "discard kitty" in names(state) and "discard 3 pie" in names(state)
    play(state, "discard kitty")
    assert state.current_player() == 0
    play(state, "discard 3 cookie")
    assert len(state.hands[0]) == 7 and state.discard == ["kitty-1", "cookie3-1"]
    assert state.phase_name() == "getting orders ready" and state.discard_queue == []


# -- getting orders ready ----------------------------------------------------------------------
def test_orders_go_counter_clockwise_from_the_efficient_grandchild_until_all_pass() -> None:
    state = started(players=4)
    roll(state, "pie")
    to_orders_phase(state)
    movers = []
    while state.phase_name() == "getting orders ready":
        movers.append(state.current_player())
        play(state, "pass")
    assert movers == [3, 2, 1, 0]


def test_exact_fill_pays_the_exact_reward_and_cards_are_discarded() -> None:
    state = started(cells=CELLS)
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["doughnut2-1", "pie1-2", "pie1-3", "cookie3-1"])
    play_prefix(state, "fill O06")
    play(state, "add 2 doughnut")
    play(state, "add 1 pie")
    assert state.building is not None
    play(state, "add 1 pie")
    assert state.building is None
    assert state.coins[seat] == 4 and state.hands[seat] == ["cookie3-1"]
    assert state.discard[-3:] == ["doughnut2-1", "pie1-2", "pie1-3"]
    assert "O06" not in state.display
    assert state.current_player() == 1 - seat  # one order per turn


def test_overfilled_order_pays_the_waste_reward() -> None:
    state = started(cells=CELLS)
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["doughnut3-1", "pie2-2"])
    play_prefix(state, "fill O06")
    play(state, "add 3 doughnut")
    play(state, "add 2 pie")
    assert state.completed[seat] == [{"order": "O06", "exact": False, "coins": 3}]


def test_fewer_pastries_cannot_complete_an_order() -> None:
    state = started(cells=CELLS)
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["doughnut1-1", "pie2-2"])
    assert names(state) == ["pass"]


def test_rulebook_jam_example_completes_exactly() -> None:
    # the rulebook's order: 3 cookies, 2 croissants and 2 pies (replacing O20 in a copy of the data)
    text = (resources.files("card_games.jumble_jam") / "cards.toml").read_text(encoding="utf-8")
    text = text.replace(
        "needs = { cookie = 2, doughnut = 2, pie = 2 }",
        "needs = { cookie = 3, croissant = 2, pie = 2 }",
    )
    game = JumbleJamGame(parse_catalog(tomllib.loads(text), "test copy"))
    state = game.new_initial_state({"players": 2})
    shuffle(state, deck_for(state, CELLS), ("O20", "O01", "O02"))
    roll(state, "doughnut")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["cookie3-1", "croissant2-2", "jam2-2"])
    play_prefix(state, "fill O20")
    play(state, "add 3 cookie")
    play(state, "add 2 croissant")
    play(state, "add 2 jam as pie")
    assert state.completed[seat] == [{"order": "O20", "exact": True, "coins": 7}]


def test_one_jam_card_covers_one_type_and_two_can_share_one() -> None:
    state = started(cells=CELLS)
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, ["jam1-2", "jam2-2", "cookie3-1"])
    play_prefix(state, "fill O01")  # 3 doughnuts from a 1-jam and a 2-jam
    play(state, "add 1 jam as doughnut")
    play(state, "add 2 jam as doughnut")
    assert state.completed[seat][-1] == {"order": "O01", "exact": True, "coins": 3}
    # a lone 2-jam never covers the missing 1 doughnut + 1 pie of O06 (2 doughnut + 2 pie) …
    other = state.turns.seat
    assert other != seat
    set_hand(state, other, ["jam2-3", "doughnut1-3", "pie1-4"])
    assert not [n for n in names(state) if n.startswith("fill O06")]
    # … but it may cover one type with waste
    set_hand(state, other, ["jam2-3", "doughnut2-3", "pie1-4"])
    assert [n for n in names(state) if n.startswith("fill O06")]


def test_kitty_takes_a_random_card_seen_only_by_the_two_seats() -> None:
    state = started(players=3)
    roll(state, "pie")
    to_orders_phase(state)
    seat = state.turns.seat
    victim = (seat + 1) % 3
    set_hand(state, seat, ["kitty-1", "kitty-2"])
    set_hand(state, victim, ["jam2-2", "pie3-1"])
    play(state, f"kitty on seat {victim}")
    assert state.current_player() == CHANCE
    draw = state.chance_outcomes()
    assert set(draw.items) == {"jam2-2", "pie3-1"} and draw.take == 1
    state.apply_action(Action.make(draw.label, order=["jam2-2"]))
    assert state.hands[seat] == ["jam2-2", "kitty-2"] and state.hands[victim] == ["pie3-1"]
    assert "kitty-1" in state.discard
    secret = "the Kitty moved 2 jam"
    assert any(secret in line for line in state.log_for(seat))
    assert any(secret in line for line in state.log_for(victim))
    third = (seat + 2) % 3
    assert not any(secret in line for line in state.log_for(third))
    assert not any(secret in line for line in state.log_for(None))
    assert state.current_player() == seat  # still their turn: they may fill an order now


def test_a_kitty_drawn_into_the_layout_can_be_won() -> None:
    cells = dict(CELLS, A1="kitty-1")
    state = started(cells=cells)
    roll(state, "pie")
    for edge in ("A1|B1", "B1|C1", "A1|A2", "C1|C2", "A3|B3", "B3|C3", "A2|A3", "C2|C3"):
        play(state, f"jar {edge}")
    assert "kitty-1" in state.hands[0]


# -- end of the round and of the game ---------------------------------------------------------
def test_both_grandchildren_pass_left_each_round() -> None:
    state = started(players=3)
    holders = []
    for _ in range(3):
        roll(state, "pie")
        holders.append((state.turns.holder("first_player"), state.turns.holder("efficient")))
        to_orders_phase(state)
        while state.phase_name() == "getting orders ready":
            play(state, "pass")
    assert holders == [(0, 2), (1, 0), (2, 1)]


def test_fourth_exact_order_ends_the_game_at_once() -> None:
    state = started(cells=CELLS)
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    state.completed[seat] = [{"order": o, "exact": True, "coins": 3} for o in ("O02", "O03", "O04")]
    for o in ("O02", "O03", "O04"):
        state.order_deck.remove(o)
    state.coins[seat] = 9
    set_hand(state, seat, ["doughnut3-1"])
    play_prefix(state, "fill O01")
    play(state, "add 3 doughnut")
    assert state.current_player() == TERMINAL
    assert "4 exact orders" in state.end_reason
    assert state.winners() == [seat] and state.returns()[seat] == 12.0


def test_game_ends_when_no_order_is_left() -> None:
    state = started(cells=CELLS)
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    state.order_deck = []
    state.display = ["O01"]
    set_hand(state, seat, ["doughnut3-1"])
    play_prefix(state, "fill O01")
    play(state, "add 3 doughnut")
    assert state.is_terminal() and state.end_reason == "every order has been completed"


def test_tie_break_most_exact_orders_then_shared() -> None:
    state = started()
    state.coins = [10, 10]
    state.completed = [
        [{"order": "O01", "exact": True, "coins": 5}, {"order": "O02", "exact": False, "coins": 5}],
        [{"order": "O03", "exact": True, "coins": 5}, {"order": "O04", "exact": True, "coins": 5}],
    ]
    assert state.winners() == [1]
    state.completed[0][1]["exact"] = True
    assert state.winners() == [0, 1]
    state.coins = [11, 10]
    assert state.winners() == [0]


# -- Kickstarter variant -----------------------------------------------------------------------
def test_kickstarter_each_player_takes_a_different_pastry_type_in_setup_order() -> None:
    state = new_state(3, "kickstarter")
    assert state.phase_name() == "set-up" and state.current_player() == 0
    assert len(names(state)) == 5
    play(state, "take pie tokens")
    assert state.current_player() == 1 and "take pie tokens" not in names(state)
    play(state, "take cookie tokens")
    play(state, "take doughnut tokens")
    assert state.token_type == ["pie", "cookie", "doughnut"]
    assert state.pastry_tokens == [2, 2, 2] and state.kitty_tokens == [1, 1, 1]
    assert state.current_player() == CHANCE


def test_kickstarter_tokens_fill_orders_and_kitty_tokens_steal() -> None:
    state = new_state(2, "kickstarter")
    play(state, "take doughnut tokens")
    play(state, "take pie tokens")
    shuffle(state, deck_for(state, CELLS), ("O06", "O01", "O16"))
    roll(state, "cookie")
    to_orders_phase(state)
    seat = state.turns.seat
    assert seat == 1
    set_hand(state, seat, ["doughnut2-1"])
    assert "kitty token on seat 0" in names(state)
    play_prefix(state, "fill O06")  # 2 doughnut + 2 pie: the card and both pie tokens
    play(state, "add 2 doughnut")
    play(state, "add pie token")
    play(state, "add pie token")
    assert state.completed[1] == [{"order": "O06", "exact": True, "coins": 4}]
    assert state.pastry_tokens == [2, 0]
    # a Kitty token is used like a Kitty card, and tokens are never stolen (they are not cards)
    assert state.current_player() == 0
    set_hand(state, 0, [])
    set_hand(state, 1, ["cookie1-2"])
    play(state, "kitty token on seat 1")
    assert state.kitty_tokens[0] == 0
    assert state.chance_outcomes().items == ("cookie1-2",)


# -- guards ------------------------------------------------------------------------------------
def test_no_free_edge_skips_get_to_work() -> None:
    state = started(cells=CELLS)
    for name in ("A2", "B1", "B3", "C2", "B2"):  # leave only the four corners: no two adjacent
        slot = state.grid.slot_names.index(name)
        state.discard.append(state.layout[slot])
        state.layout[slot] = None
    roll(state, "pie")
    # no jar could be placed, nobody took a card, nobody could fill: on to the next batch
    log = state.log_for(None)
    assert not [line for line in log if "jar" in line or "takes" in line]
    assert state.turns.round == 2 and state.phase_name() == "grandma"
    assert all(state.hands[s] == [] for s in range(2))


def test_round_limit_ends_a_stalled_game() -> None:
    state = started(cells=CELLS)
    roll(state, "pie")
    to_orders_phase(state)
    state.turns.round = MAX_ROUNDS
    while not state.is_terminal():
        play(state, "pass")
    assert state.end_reason == f"the {MAX_ROUNDS}-round limit is reached"


def test_no_pastry_card_left_outside_the_hands_ends_the_game() -> None:
    state = started(cells=CELLS)
    roll(state, "pie")
    to_orders_phase(state)
    loose = state.deck + state.discard + [c for c in state.layout if c]
    state.deck, state.discard, state.layout = [], [], [None] * len(state.layout)
    state.hands[0].extend(loose)  # (an impossible position: the guard must still end the game)
    state.invalidate()
    while not state.is_terminal():
        play(state, "pass")
    assert state.end_reason == "no pastry cards are left to bake"
