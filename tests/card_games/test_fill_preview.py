"""Jumble Jam: before each piece of a fill, whether it stays exact or wastes and what it pays;
the pieces can be undone until the fill is committed, and nothing is sent before that."""

from __future__ import annotations

import io

import pytest

from card_games.jumble_jam import GAME, fill_preview
from jamsumo_sim.turnloop import ConsoleAgent, QuitRequest, seat_view
from tests.card_games.jumble_jam.helpers import new_state, roll, set_hand, shuffle, to_orders_phase

HAND = ["pie2-1", "pie2-2", "pie1-1", "jam1-1"]


def orders_turn(die: str = "cookie"):
    state = new_state(2)
    shuffle(state, (), ("O02", "O07", "O08"))
    roll(state, die)
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, HAND)
    state.invalidate()
    return state, seat


def person(seat: int, lines: str) -> tuple[ConsoleAgent, io.StringIO]:
    out = io.StringIO()
    agent = ConsoleAgent(
        seat, GAME, stdin=io.StringIO(lines), stdout=out, show_table=lambda obs, s: "TABLE"
    )
    return agent, out


def test_the_outlook_says_exact_or_waste_and_the_pay_with_the_die_bonus() -> None:
    state, seat = orders_turn(die="pie")  # O02 (3 pie) shows the die's type: +1
    obs = state.observation(seat)
    outlook = fill_preview.start(obs, "O02")
    assert (outlook.pays(True), outlook.pays(False)) == (4, 3)
    assert fill_preview.step_note(outlook, "pie", 2) == "still needs 1 pie"
    two = outlook.add("pie", 2)
    assert fill_preview.step_note(two, "pie", 1) == "completes it exactly: pays 4"
    assert fill_preview.step_note(two, "pie", 2) == (
        "completes it with 1 wasted: pays 3 (exact would pay 4)"
    )
    wide = fill_preview.start(obs, "O07")  # 2 pie + 2 pancake
    assert fill_preview.step_note(wide, "pie", 3).startswith("pie covered, 1 wasted (pays")
    note = fill_preview.order_note(obs, seat, "O02", GAME.catalog)
    assert note.startswith("exact possible: pays 4")


def test_a_fill_is_built_with_previews_undone_and_sent_only_on_commit() -> None:
    state, seat = orders_turn()
    before = len(state.history)
    lines = "fill O02\nadd 2 pie\nadd 2 pie\nundo\nadd 1 pie\ncommit\n"
    agent, out = person(seat, lines)
    first = agent.act(seat_view(state, seat))
    text = out.getvalue()
    assert len(state.history) == before  # the person chose; nothing has reached the rules yet
    assert "fill O02: 3 pie  — exact possible: pays 3" in text
    assert "add 2 pie  — completes it with 1 wasted: pays 2 (exact would pay 3)" in text
    assert "add 1 pie  — completes it exactly: pays 3" in text
    assert "Filling O02 (3 pie; exact pays 3, waste pays 2): placed pie 2 (exact so far)" in text
    state.apply_action(first)
    while agent.queued:
        state.apply_action(agent.act(seat_view(state, seat)))
    assert state.completed[seat][-1] == {"order": "O02", "exact": True, "coins": 3}
    added = [e["action"]["name"] for e in state.history[before:] if e.get("seat") == seat]
    assert added == ["fill O02: 3 pie", "add 2 pie", "add 1 pie"]


def test_undoing_every_piece_takes_back_the_order_choice_too() -> None:
    state, seat = orders_turn()
    agent, out = person(seat, "fill O02\nadd 2 pie\nundo\nundo\npass\n")
    action = agent.act(seat_view(state, seat))
    assert action.name == "pass" and agent.queued == 0
    assert state.building is None and "O02" in state.display


def test_fill_menu_numbers_stay_put_through_pieces_and_undo() -> None:
    state, seat = orders_turn()
    # 1 = add 1 pie; typed again it is gone (never "add 2 pie" moved up): said, and the list
    # numbered afresh (1 = add 2 pie, 3 = undo); after undo "add 1 pie" comes back as a new
    # number (5) while the others keep theirs; 1 = add 2 pie; 5 = add 1 pie completes; 1 = commit
    agent, out = person(seat, "fill O02\n1\n1\n3\n1\n5\n1\n")
    first = agent.act(seat_view(state, seat))
    text = out.getvalue()
    assert "Move 1 (add 1 pie) is no longer possible. The moves, numbered afresh:" in text
    assert "  5. add 1 pie  — still needs 2 pie" in text
    state.apply_action(first)
    while agent.queued:
        state.apply_action(agent.act(seat_view(state, seat)))
    assert state.completed[seat][-1]["exact"] is True
    added = [e["action"]["name"] for e in state.history if e.get("seat") == seat][-2:]
    assert added == ["add 2 pie", "add 1 pie"]


def test_the_commit_question_always_lists_a_way_out() -> None:
    state, seat = orders_turn()
    agent, out = person(seat, "fill O02\nadd 2 pie\nadd 1 pie\ncancel\npass\n")
    action = agent.act(seat_view(state, seat))
    assert "3. cancel this fill (nothing is sent)" in out.getvalue()
    assert action.name == "pass" and agent.queued == 0 and state.building is None


def test_quit_inside_a_fill_warns_and_keeps_the_fill_unless_typed_again() -> None:
    state, seat = orders_turn()
    agent, out = person(seat, "fill O02\nadd 2 pie\nquit\nsave\nadd 1 pie\ncommit\n")
    state.apply_action(agent.act(seat_view(state, seat)))
    while agent.queued:
        state.apply_action(agent.act(seat_view(state, seat)))
    text = out.getvalue()
    assert "'quit' now drops your unsent fill" in text
    assert "'save' now drops your unsent fill" in text
    assert state.completed[seat][-1] == {"order": "O02", "exact": True, "coins": 3}
    # typed twice, it goes through (the driver saves the match)
    agent, _ = person(seat, "fill O02\nquit\nquit\n")
    with pytest.raises(QuitRequest):
        agent.act(seat_view(state, seat))
