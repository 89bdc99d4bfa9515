"""One scenario test per rule of Jelly Fish Toast & Jam, and the rulebook's own examples."""

from __future__ import annotations

import pytest

from card_games.jellyfish import GAME
from card_games.jellyfish.state import TURN_STEPS
from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.turnloop import CHANCE, TERMINAL
from tests.card_games.jellyfish.helpers import (
    A2,
    DECK,
    A,
    B,
    C,
    D,
    E,
    act,
    build,
    draw,
    kind,
    label,
    names,
)

# -- set-up and turn order ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_deals_one_face_up_card_each_and_seat_0_starts(players: int) -> None:
    state = GAME.new_initial_state({"players": players}, seed=0)
    for _ in range(players):
        assert state.current_player() == CHANCE
        state.apply_action(
            state.chance_outcomes().sample(__import__("numpy").random.default_rng(1))
        )
    assert [sum(len(g) for g in state.groups[s].values()) for s in range(players)] == [1] * players
    assert state.pile_size() == 80 - players
    assert state.active == 0 and state.tasks[0]["kind"] == "draw"
    assert state.current_player() == CHANCE  # the draw is a chance node
    obs = state.observation(1)
    assert all(p["covered"] is False for t in obs["tables"] for p in t["partial"])


def test_turn_is_draw_steal_cover_then_the_player_on_the_left() -> None:
    assert TURN_STEPS == ("draw", "steal", "cover")
    state = build(3, {0: {"partial": {A: 1}}, 1: {"partial": {B: 1}}, 2: {"partial": {C: 1}}})
    assert state.active == 0 and state.tasks[0]["kind"] == "draw"
    draw(state, D)
    assert state.tasks[0]["kind"] == "steal" and state.current_player() == 0
    act(state, f"steal {label(B)} from seat 1")
    assert state.tasks[0]["kind"] == "cover" and state.current_player() == 0
    act(state, f"cover your {label(A)}")
    assert state.current_player() == CHANCE  # the Cover card comes off the pile
    draw(state, E)
    assert state.active == 1 and state.tasks[0]["kind"] == "draw"
    for seat in (1, 2):
        draw(state, kind(5 + seat))
        act(state, names(state)[0])
        if state.tasks and state.tasks[0]["kind"] == "cover":
            act(state, names(state)[0])
            draw(state, kind(7 + seat))
        assert state.active == (seat + 1) % 3
    assert state.active == 0  # play goes left and wraps round


# -- draw -----------------------------------------------------------------------------------------


def test_drawn_card_joins_its_partial_set_or_starts_a_new_one() -> None:
    state = build(2, {0: {"partial": {A: 1}}, 1: {"partial": {B: 1}}})
    draw(state, A)
    assert len(state.groups[0][A]) == 2
    state = build(2, {0: {"partial": {A: 1}}, 1: {"partial": {B: 1}}})
    draw(state, A2)  # same character, other colour: a separate partial set
    assert len(state.groups[0][A]) == 1 and len(state.groups[0][A2]) == 1


def test_drawing_a_completed_character_must_be_given_to_an_eligible_player() -> None:
    # rulebook: "if a player already has a set of Fish cards and they draw a fish card, they must
    # give it to another player who does not already have a set of fish cards"
    state = build(
        5,
        {
            0: {"sets": [A]},
            1: {"partial": {B: 1}},
            2: {"sets": [A2]},
            3: {"partial": {C: 1}},
            4: {"partial": {D: 1}},
        },
    )
    draw(state, A)
    assert state.current_player() == 0
    assert names(state) == [f"give {label(A)} to seat {s}" for s in (1, 3, 4)]
    with pytest.raises(IllegalAction):
        state.apply_action(GAME.give_action(state.tasks[0]["card"], 2))  # seat 2 has that set
    act(state, f"give {label(A)} to seat 3")
    assert len(state.groups[3][A]) == 1 and A not in state.groups[0]
    assert state.tasks[0]["kind"] == "steal" and state.current_player() == 0


def test_same_character_other_colour_must_also_be_given_away() -> None:
    state = build(4, {0: {"sets": [A]}, 1: {"partial": {B: 1}}, 2: {}, 3: {}})
    draw(state, A2)
    assert names(state) == [f"give {label(A2)} to seat {s}" for s in (1, 2, 3)]


def test_a_give_with_one_eligible_player_happens_at_once() -> None:
    state = build(2, {0: {"sets": [A]}, 1: {"partial": {B: 1}}})
    draw(state, A2)
    assert len(state.groups[1][A2]) == 1
    assert state.tasks[0]["kind"] == "steal"


def test_nobody_can_take_it_so_it_goes_to_the_bottom_and_is_drawn_last() -> None:
    # seat 0 completes a covered set; its Cover card (an A) cannot go to seat 1, who has an A set
    state = build(2, {0: {"partial": {C: 3}, "covers": {C: A}}, 1: {"sets": [A2]}})
    draw(state, C)
    assert C in state.completed[0]
    card = state.bottom[0]
    assert DECK.kind_of[card] == A and state.pile_size() == 80 - 4 - 4 - 1 + 1
    assert "bottom of the draw pile" in " ".join(state.log_for(1))
    assert state.observation(1)["pile_bottom"] == [card]  # everyone saw it go there
    # once the unknown part is gone the known card is drawn without a chance node: seat 1 draws
    # it, has an A set, and must give it to seat 0 (the only one eligible)
    state.pile = []
    state._settle()
    assert any(f"Seat 1 draws {label(A)}" in line for line in state.log_for(None))
    assert state.groups[0].get(A) == [card] and state.bottom == []


# -- steal ----------------------------------------------------------------------------------------


def test_steal_takes_a_visible_card_rulebook_toast_example() -> None:
    # "Player 1 takes Player 2's Toast card ... so everyone can see that they have 2 Toast cards"
    state = build(2, {0: {"partial": {B: 1}}, 1: {"partial": {B: 1, C: 2}}}, step="steal")
    act(state, f"steal {label(B)} from seat 1")
    assert len(state.groups[0][B]) == 2 and B not in state.groups[1]
    assert state.observation(1)["tables"][0]["partial"][0] == {
        "kind": B,
        "cards": 2,
        "covered": False,
        "cover": None,
    }


def test_steal_restrictions() -> None:
    F = kind(5)
    state = build(
        3,
        {
            0: {"sets": [A], "partial": {E: 1}},
            1: {"partial": {A2: 2, B: 2, C: 1}, "covers": {B: D}, "sets": [F]},
            2: {"partial": {A2: 1, D: 1}},
        },
        step="steal",
    )
    legal = names(state)
    # covered cards no, their Cover card yes; not a completed set; not the thief's completed character
    assert f"steal {label(B)} from seat 1" not in legal
    assert "steal the Cover card on seat 1's " + label(B) in legal
    assert all(label(F) not in n for n in legal)
    assert (
        f"steal {label(A2)} from seat 1" not in legal
        and f"steal {label(A2)} from seat 2" not in legal
    )
    assert legal == [
        "steal the Cover card on seat 1's " + label(B),
        f"steal {label(C)} from seat 1",
        f"steal {label(D)} from seat 2",
    ]


def test_steal_is_skipped_when_nothing_may_be_stolen() -> None:
    state = build(2, {0: {"sets": [A], "partial": {B: 1}}, 1: {"partial": {A2: 2}}}, step="steal")
    assert state.tasks[0]["kind"] == "cover"
    assert "skips Steal" in state.log_for(None)[-1]


def test_stolen_cover_card_is_turned_up_and_joins_the_thief() -> None:
    state = build(
        2, {0: {"partial": {C: 2}}, 1: {"partial": {B: 2}, "covers": {B: C}}}, step="steal"
    )
    act(state, "steal the Cover card on seat 1's " + label(B))
    assert len(state.groups[0][C]) == 3 and state.covers[1] == {}
    assert f"turns it up: {label(C)}" in state.log_for(None)[-1]  # public
    assert f"steal {label(B)} from seat 0" not in names(state)  # own cards are not stealable


def test_stolen_cover_card_of_a_completed_character_is_given_away() -> None:
    state = build(
        3,
        {0: {"sets": [A]}, 1: {"partial": {B: 2}, "covers": {B: A2}}, 2: {"partial": {C: 1}}},
        step="steal",
    )
    act(state, "steal the Cover card on seat 1's " + label(B))
    assert state.current_player() == 0
    assert names(state) == [f"give {label(A2)} to seat 1", f"give {label(A2)} to seat 2"]
    act(state, f"give {label(A2)} to seat 2")
    assert len(state.groups[2][A2]) == 1 and A2 not in state.groups[0]


# -- cover ----------------------------------------------------------------------------------------


def test_cover_goes_on_an_uncovered_own_partial_set_only() -> None:
    state = build(
        2, {0: {"partial": {A: 2, B: 1, C: 1}, "covers": {B: D}, "sets": [E]}, 1: {}}, step="cover"
    )
    assert names(state) == [f"cover your {label(A)}", f"cover your {label(C)}"]


def test_cover_is_skipped_when_everything_is_covered() -> None:
    state = build(
        2, {0: {"partial": {A: 1}, "covers": {A: B}}, 1: {"partial": {C: 1}}}, step="cover"
    )
    assert state.active == 1  # seat 0's turn ended without a Cover draw
    assert "skips Cover" in " ".join(state.log_for(None))


def test_cover_card_is_drawn_unseen_by_everyone() -> None:
    state = build(2, {0: {"partial": {A: 2}}, 1: {"partial": {B: 1}}}, step="cover")
    act(state, f"cover your {label(A)}")
    draw(state, E)  # no E anywhere on the table
    for seat in (None, 0, 1):
        text = str(state.observation(seat)) + GAME.render(state.observation(seat), seat)
        assert label(E) not in text and E not in text
    assert state.observation(0)["tables"][0]["partial"][0]["covered"] is True


def test_covered_partial_set_still_grows_rulebook_fish_example() -> None:
    # "A player draws a Fish and already has one Fish card that is covered, they add the second
    # Fish to the pile, still covered"
    state = build(2, {0: {"partial": {A: 1}, "covers": {A: C}}, 1: {"partial": {B: 1}}})
    draw(state, A)
    assert len(state.groups[0][A]) == 2 and A in state.covers[0]


def test_completed_covered_set_owner_looks_and_gives_the_cover_card_away() -> None:
    state = build(
        3,
        {0: {"partial": {A: 3}, "covers": {A: E}}, 1: {"partial": {B: 1}}, 2: {"partial": {C: 1}}},
    )
    draw(state, A)
    assert A in state.completed[0] and A not in state.covers[0]
    assert state.current_player() == 0
    assert state.observation(0)["giving"]["card"] is not None
    assert label(E) in state.log_for(0)[-2]  # the owner looked
    for seat in (1, 2, None):  # nobody else knows it yet
        obs = state.observation(seat)
        assert obs["giving"]["card"] is None
        assert label(E) not in str(obs) + GAME.render(obs, seat)
    assert names(state) == [f"give {label(E)} to seat 1", f"give {label(E)} to seat 2"]
    act(state, f"give {label(E)} to seat 1")
    assert len(state.groups[1][E]) == 1
    assert state.tasks[0]["kind"] == "steal" and state.current_player() == 0


# -- sets and the end -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 4), (3, 4), (4, 4), (5, 3), (6, 3)])
def test_set_size_depends_on_player_count(players: int, size: int) -> None:
    state = build(players, {0: {"partial": {A: size - 2}}, 1: {"partial": {B: 1}}})
    draw(state, A)
    assert A not in state.completed[0]
    state = build(players, {0: {"partial": {A: size - 1}}, 1: {"partial": {B: 1}}})
    draw(state, A)
    assert A in state.completed[0] and A not in state.groups[0]
    assert len(state.completed[0][A]) == size
    assert state.observation(1)["tables"][0]["sets"] == [A]


def test_completed_sets_can_no_longer_be_touched_and_one_set_per_character() -> None:
    # seat 0 completed A: it may not steal A2 (same character), so Steal is skipped
    state = build(2, {0: {"sets": [A], "partial": {A2: 3}}, 1: {"partial": {A2: 1}}}, step="steal")
    assert state.tasks[0]["kind"] == "cover" and "skips Steal" in state.log_for(None)[-1]
    # cards in someone's completed set are never on offer
    state = build(2, {0: {"partial": {B: 1}}, 1: {"sets": [A], "partial": {C: 1}}}, step="steal")
    assert names(state) == [f"steal {label(C)} from seat 1"]


def test_third_set_wins_at_once_even_on_someone_elses_turn() -> None:
    state = build(2, {0: {"sets": [A]}, 1: {"sets": [B, C], "partial": {A2: 3}}})
    draw(state, A2)  # seat 0 must give it to seat 1, whose third set it completes
    assert state.current_player() == TERMINAL
    assert state.winners() == [1] and state.returns() == [1.0, 3.0]
    assert "completed 3 sets" in state.end_reason


def test_pile_running_out_ends_the_game_ranked_by_sets_then_partial_cards() -> None:
    state = build(
        3,
        {
            0: {"sets": [A], "partial": {B: 1}},
            1: {"sets": [C], "partial": {D: 3}},
            2: {"sets": [E]},
        },
    )
    state.pile = []
    state._settle()
    assert state.current_player() == TERMINAL and "ran out" in state.end_reason
    assert state.winners() == [1]
    # equal sets and equal partial cards: the tied seats share the win
    state = build(2, {0: {"partial": {B: 2}}, 1: {"partial": {D: 1, C: 1}}})
    state.pile = []
    state._settle()
    assert state.winners() == [0, 1]


def test_cover_step_with_an_empty_pile_ends_the_game() -> None:
    state = build(2, {0: {"partial": {A: 1}}, 1: {"partial": {B: 1}}}, step="steal")
    state.pile = []
    act(state, f"steal {label(B)} from seat 1")
    assert state.is_terminal()


def test_safety_turn_limit_ends_a_game_that_cannot_end(monkeypatch: pytest.MonkeyPatch) -> None:
    import card_games.jellyfish.state as rules

    monkeypatch.setattr(rules, "MAX_TURNS", 2)
    state = build(2, {0: {"partial": {A: 1}}, 1: {"partial": {B: 1}}})
    for _ in range(40):
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            draw(state, C)
        else:
            act(state, names(state)[0])
    assert state.is_terminal() and "safety" in state.end_reason


def test_max_game_length_bounds_the_history() -> None:
    from card_games.jellyfish.state import ENTRIES_PER_TURN, MAX_TURNS

    assert GAME.max_game_length({"players": 6}) >= 6 + MAX_TURNS * ENTRIES_PER_TURN
    assert DECK.set_size(4) == 4 and DECK.set_size(5) == 3


def test_a_gift_completing_a_covered_set_makes_the_receiver_give_its_cover_card() -> None:
    state = build(
        3,
        {0: {"sets": [A]}, 1: {"partial": {A2: 3}, "covers": {A2: C}}, 2: {"partial": {B: 1}}},
    )
    draw(state, A2)
    act(state, f"give {label(A2)} to seat 1")
    assert A2 in state.completed[1]
    # seat 1 decides now, in the middle of seat 0's turn
    assert state.active == 0 and state.current_player() == 1
    assert state.observation(0)["giving"] == {"seat": 1, "why": "cover", "card": None}
    assert names(state) == [f"give {label(C)} to seat 2", f"give {label(C)} to seat 0"]
    act(state, f"give {label(C)} to seat 0")
    assert "gives the Cover card" in state.log_for(2)[-1]
    assert state.groups[0][C] and state.current_player() == 0 and state.tasks[0]["kind"] == "steal"


def test_a_cover_card_from_the_known_bottom_is_public() -> None:
    state = build(2, {0: {"partial": {B: 1}}, 1: {"partial": {C: 1}}}, step="cover")
    known = state.pile.pop()  # pretend it was put back at the bottom for everyone to see
    state.bottom.append(known)
    state.pile = []
    act(state, f"cover your {label(B)}")
    assert state.covers[0][B] == {"card": known, "public": True}
    obs = state.observation(1)
    assert obs["tables"][0]["partial"][0]["cover"] == known
    assert "covered: " + DECK.label(known) in GAME.render(obs, 1)


def test_a_known_cover_card_of_a_completed_character_may_not_be_stolen() -> None:
    state = build(
        2, {0: {"sets": [A], "partial": {D: 1}}, 1: {"partial": {B: 1, C: 1}}}, step="steal"
    )
    card = next(c for c in state.pile if DECK.kind_of[c] == A2)
    state.pile.remove(card)
    state.covers[1][B] = {"card": card, "public": True}
    state.covers[1][C] = {"card": state.pile.pop(), "public": False}
    assert names(state) == ["steal the Cover card on seat 1's " + label(C)]
