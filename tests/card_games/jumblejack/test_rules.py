"""One scenario per rule of the JumbleJack rulebook, plus its worked examples."""

from __future__ import annotations

import pytest

from card_games.jumblejack.state import JumbleJackState
from jamsumo_sim.errors import IllegalAction
from jamsumo_sim.turnloop import CHANCE, SIMULTANEOUS, TERMINAL, Action
from tests.card_games.jumblejack.helpers import (
    ACC,
    C,
    by_name,
    dealt,
    declare_all,
    fixed_tokens,
    names,
    new_state,
    pid,
    point,
)

# -- set-up ------------------------------------------------------------------------------------


def test_setup_is_chance_doll_then_pirates_then_tokens() -> None:
    state = new_state(5)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes().label == "dress the Doll"
    state.apply_action(Action.make("dress the Doll", order=[pid("hat", "hook")]))
    assert state.doll == C.mask_of(["hat", "hook"])
    assert pid("hat", "hook") not in state.box_pirates  # the card goes to the box, out of play
    deal = state.chance_outcomes()
    assert pid("hat", "hook") not in deal.items and deal.take == 5
    with pytest.raises(IllegalAction):  # the Doll's card cannot be dealt
        state.apply_action(Action.make("deal pirates", order=[pid("hat", "hook")] + ["x"] * 4))


@pytest.mark.parametrize(
    ("players", "disguises", "mirrors"),
    [(4, 3, 0), (5, 4, 0), (6, 4, 1), (7, 4, 2), (8, 4, 3)],
)
def test_pieces_of_eight_by_player_count(players: int, disguises: int, mirrors: int) -> None:
    state = dealt(players, pid(), [p for p, _ in C.pirates[1 : players + 1]])
    kinds = [C.token(t) for t in state.tokens if t is not None]
    assert len(kinds) == players
    assert sum(t.first_player for t in kinds) == 1
    assert sum(t.kind == "disguise" for t in kinds) == disguises
    assert sum(t.kind == "mirror" and not t.first_player for t in kinds) == mirrors
    if players == 4:  # one Disguise left in the box, unseen
        assert len([t for t in state.box_tokens if C.token(t).kind == "disguise"]) == 1


def test_four_players_draw_three_disguises_at_random() -> None:
    state = new_state(4)
    state.apply_action(Action.make("dress the Doll", order=[pid()]))
    state.apply_action(
        Action.make("deal pirates", order=[pid("hat"), pid("cloak"), pid("hook"), pid("sword")])
    )
    chance = state.chance_outcomes()
    assert chance.label == "choose disguises" and chance.take == 3 and len(chance.items) == 4


def test_first_player_reveals_and_takes_the_doll_then_rings() -> None:
    tokens = fixed_tokens(5)
    tokens = tokens[2:3] + tokens[:2] + tokens[3:]  # seat 1 gets the First Player token
    state = dealt(
        5, pid(), [pid("hat"), pid("cloak"), pid("hook"), pid("sword"), pid("hat", "hook")], tokens
    )
    assert state.first_player == 1 and state.doll_holder == 1
    assert "Seat 1 reveals the First Player token" in " ".join(state.log_for(3))
    assert state.fingers == [1] * 5 and state.centre == 12
    assert state.box_rings == 20 - 12 - 5


def test_declarations_clockwise_from_first_player_true_side_only() -> None:
    tokens = fixed_tokens(5)
    tokens = tokens[1:3] + tokens[:1] + tokens[3:]  # seat 2 is First Player
    pirates = [pid("hat"), pid("cloak"), pid("hook", "sword"), pid(), pid("hat", "cloak", "hook")]
    state = dealt(5, pid("sword"), pirates, tokens)
    order = []
    while state.stage == "declare":
        seat = state.current_player()
        order.append(seat)
        if seat == 2:
            # exactly the four true statements about hook+sword
            assert names(state) == [
                "I don't have the hat",
                "I don't have the cloak",
                "I have the hook",
                "I have the sword",
            ]
            by_name(state, "I have the hook")
        else:
            state.apply_action(state.legal_actions()[0])
    assert order == [2, 3, 4, 0, 1]
    hook = ACC.index("hook")
    assert state.stacks[2] == [(hook, True)]  # brown side up
    assert state.piles[hook] == C.accessory_cards[hook] - 1
    assert state.declarations[0] == {
        "seat": 2,
        "accessory": "hook",
        "has": True,
        "kind": "setup",
        "round": 1,
        "card": True,
    }


def test_rulebook_example_declarations() -> None:
    """'I have the hat' brown side up; 'I don't have the cloak' red side up."""
    state = dealt(4, pid("sword"), [pid("hat"), pid("hook"), pid(), pid("cloak")])
    by_name(state, "I have the hat")
    by_name(state, "I don't have the cloak")
    assert state.stacks[0] == [(ACC.index("hat"), True)]
    assert state.stacks[1] == [(ACC.index("cloak"), False)]
    assert "I have the cloak" not in names(state)  # seat 2 has nothing: cannot lie


# -- a round -------------------------------------------------------------------------------------


def started(
    players: int = 5, pirates: list[str] | None = None, doll: str | None = None
) -> JumbleJackState:
    pirates = pirates or [pid("hat"), pid("cloak"), pid("hook"), pid("sword"), pid("hat", "hook")]
    state = dealt(players, doll or pid("cloak", "sword"), pirates)
    declare_all(state)
    return state


def test_everyone_but_the_doll_holder_points_at_once() -> None:
    state = started()
    assert state.current_player() == SIMULTANEOUS
    assert state.simultaneous_seats() == [1, 2, 3, 4]  # seat 0 holds the Doll
    assert state.legal_actions(0) == []
    assert names(state, 2) == ["point at seat 3", "point at seat 4", "point at seat 1"]


def test_target_is_highest_ring_sum_not_most_fingers() -> None:
    state = started()
    state.fingers[4] = 3  # a position: seat 4 has gained two Rings
    point(state, {1: 2, 2: 3, 3: 2, 4: 1})  # two fingers (2 Rings) at seat 2, 3 Rings at seat 1
    assert state.stage == "dress" and state.target == 1
    assert state.current_player() == 0


def test_tie_is_broken_by_the_doll_holder_among_the_tied() -> None:
    state = started()
    point(state, {1: 2, 2: 1, 3: 4, 4: 3})  # every one of seats 1-4 has one Ring pointing
    assert state.stage == "tie" and state.current_player() == 0
    assert names(state) == ["target seat 1", "target seat 2", "target seat 3", "target seat 4"]
    state2 = started()
    point(state2, {1: 2, 2: 1, 3: 2, 4: 1})
    assert names(state2) == ["target seat 1", "target seat 2"]
    by_name(state2, "target seat 2")
    assert state2.target == 2 and state2.stage == "dress"


def test_doll_holder_adds_or_removes_exactly_one_accessory() -> None:
    state = started()  # Doll: cloak, sword
    point(state, {1: 2, 2: 3, 3: 2, 4: 2})
    assert names(state) == ["add the hat", "remove the cloak", "add the hook", "remove the sword"]
    by_name(state, "remove the cloak")
    assert state.doll == C.mask_of(["sword"])
    assert state.current_player() == 2 and state.stage == "respond"


def test_exact_match_curses_the_target_and_everyone_else_wins() -> None:
    state = started()  # seat 3 is the sword pirate; Doll cloak+sword
    point(state, {1: 3, 2: 3, 3: 1, 4: 3})
    by_name(state, "remove the cloak")
    # seat 3 holds the Disguise (hook): a match offers the reveal or that token, nothing else
    assert names(state) == ["exact match: reveal my pirate", "Disguise (hook): I have the hook"]
    assert not [n for n in names(state) if n.startswith("mismatch")]
    by_name(state, "exact match: reveal my pirate")
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, 1.0, 1.0, 0.0, 1.0]
    assert state.winners() == [0, 1, 2, 4]
    assert state.observation(0)["revealed"] == {"3": {"id": pid("sword"), "wears": ["sword"]}}


def test_mismatch_declares_a_true_difference_takes_card_ring_and_doll() -> None:
    """Rulebook: compare (hat, no cloak, hook, no sword) with the Doll; declare one difference."""
    pirates = [pid("sword"), pid("hat", "hook"), pid("cloak"), pid("hook"), pid("hat")]
    state = started(pirates=pirates, doll=pid("hat", "cloak", "sword"))
    point(state, {1: 2, 2: 1, 3: 1, 4: 1})  # seat 1 (hat, hook) is the target
    by_name(state, "remove the sword")  # Doll: hat, cloak
    responses = [n for n in names(state) if n.startswith("mismatch")]
    assert responses == ["mismatch: I don't have the cloak", "mismatch: I have the hook"]
    cards_before = len(state.stacks[1])
    by_name(state, "mismatch: I don't have the cloak")
    assert (
        state.stacks[1][-1] == (ACC.index("cloak"), False)
        and len(state.stacks[1]) == cards_before + 1
    )
    assert state.fingers[1] == 2 and state.centre == 11
    assert state.doll_holder == 1 and state.stage == "point"
    assert state.simultaneous_seats() == [2, 3, 4, 0]
    assert state.doll == C.mask_of(["hat", "cloak"])  # the Doll stays as it was dressed


def test_empty_pile_means_the_difference_is_just_stated() -> None:
    pirates = [pid("sword"), pid("hat", "hook"), pid("cloak"), pid("hook"), pid("hat")]
    state = started(pirates=pirates, doll=pid("hat", "cloak", "sword"))
    state.piles[ACC.index("hook")] = 0  # a position: the hook cards are all used
    point(state, {1: 2, 2: 1, 3: 1, 4: 1})
    by_name(state, "remove the sword")
    before = list(state.stacks[1])
    by_name(state, "mismatch: I have the hook")
    assert state.stacks[1] == before
    assert state.declarations[-1]["card"] is False and state.fingers[1] == 2
    assert "just said" in state.log_for(None)[-2]


# -- Pieces of Eight -------------------------------------------------------------------------------


def test_disguise_may_lie_takes_ring_no_card_and_stays_face_up() -> None:
    # seat 1 holds Disguise (hat) and is the hat pirate; the Doll will have the hat
    pirates = [pid("sword"), pid("hat"), pid("cloak"), pid("hook"), pid("hat", "hook")]
    state = started(pirates=pirates, doll=pid("hat", "cloak"))
    point(state, {1: 2, 2: 1, 3: 1, 4: 1})
    by_name(state, "remove the cloak")  # Doll: hat — an exact match for seat 1
    assert names(state) == ["exact match: reveal my pirate", "Disguise (hat): I don't have the hat"]
    cards = len(state.stacks[1])
    by_name(state, "Disguise (hat): I don't have the hat")  # a lie, allowed with a Disguise
    assert len(state.stacks[1]) == cards and state.fingers[1] == 2 and state.centre == 11
    assert state.doll_holder == 1 and state.token_used[1]
    assert state.declarations[-1]["kind"] == "disguise"
    assert state.observation(3)["tokens_used"] == {
        "1": {
            "id": "disguise_hat",
            "name": "Disguise (hat)",
            "kind": "disguise",
            "accessory": "hat",
        }
    }
    # once only: next time seat 1 is matched it has to reveal
    point(state, {2: 3, 3: 2, 4: 2, 0: 2})
    by_name(state, "add the cloak")
    by_name(state, "mismatch: I don't have the hat")  # seat 2, the cloak pirate
    point(state, {0: 1, 1: 0, 3: 1, 4: 1})
    by_name(state, "remove the cloak")  # Doll: hat again
    assert names(state) == ["exact match: reveal my pirate"]


def test_mirror_passes_the_ritual_unchanged_and_can_be_mirrored_again() -> None:
    tokens = fixed_tokens(6)  # seat 0 First Player, 1-4 Disguises, 5 Mirror 6
    tokens = [
        tokens[1],
        tokens[0],
        tokens[2],
        tokens[3],
        tokens[4],
        tokens[5],
    ]  # seat 1 First Player
    pirates = [
        pid("sword"),
        pid("hat"),
        pid("cloak"),
        pid("hook"),
        pid("hat", "hook"),
        pid("cloak", "hook"),
    ]
    state = dealt(6, pid("hat", "cloak"), pirates, tokens)
    declare_all(state)
    # seat 1 holds the Doll; target seat 5 (Mirror 6)
    point(state, {0: 5, 2: 5, 3: 5, 4: 5, 5: 0})
    by_name(state, "remove the hat")  # Doll: cloak
    mirror_moves = [n for n in names(state) if n.startswith("mirror")]
    assert mirror_moves == [
        "mirror to seat 0",
        "mirror to seat 2",
        "mirror to seat 3",
        "mirror to seat 4",
    ]
    by_name(state, "mirror to seat 2")  # seat 2 is the cloak pirate
    assert state.current_player() == 2 and state.doll == C.mask_of(["cloak"])
    assert state.mirrors == [{"from": 5, "to": 2}] and state.token_used[5]
    by_name(state, "exact match: reveal my pirate")
    assert state.result == {"cursed": 2}

    # a mirrored target may mirror again (the First Player token is a Mirror)
    state = dealt(6, pid("hat", "cloak"), pirates, tokens)
    declare_all(state)
    point(state, {0: 2, 2: 0, 3: 0, 4: 0, 5: 0})
    by_name(state, "remove the hat")
    by_name(state, "mismatch: I have the sword")  # seat 0 now holds the Doll
    point(state, {1: 5, 2: 5, 3: 5, 4: 5, 5: 1})
    by_name(state, "add the sword")
    by_name(state, "mirror to seat 1")
    assert "mirror to seat 0" not in names(state)  # not the round's first Doll holder
    by_name(state, "mirror to seat 3")
    assert state.current_player() == 3 and state.token_used[1]
    assert [m["to"] for m in state.mirrors] == [1, 3]


# -- the end -------------------------------------------------------------------------------------


def run_to_final(state: JumbleJackState) -> None:
    """Play mismatches (first legal choices, never a reveal) until the Final Ritual."""
    while state.stage not in ("final_dress", "over"):
        if state.current_player() == SIMULTANEOUS:
            state.apply_actions({s: state.legal_actions(s)[0] for s in state.simultaneous_seats()})
            continue
        legal = state.legal_actions()
        safe = [a for a in legal if a.get("response") != "match"]
        state.apply_action(safe[0] if safe else legal[0])


def test_final_ritual_when_the_rings_run_out() -> None:
    state = started(
        pirates=[pid("hat"), pid("cloak"), pid("hook"), pid("sword"), pid("hat", "hook")],
        doll=pid(),
    )
    run_to_final(state)
    assert state.stage == "final_dress" and state.centre == 0
    assert all(t is None for t in state.tokens) and len(state.discarded_tokens) == 5
    assert sum(state.fingers) == 5 + 12
    assert len(state.legal_actions()) == 16  # dress the Doll freely
    holder = state.current_player()
    by_name(state, "dress as: hook")
    assert len(names(state)) == 4 and f"cast at seat {holder}" not in names(state)
    return_state = state.clone()
    by_name(state, "cast at seat 2")  # seat 2 is the hook pirate
    assert state.result == {"cursed": 2}
    assert state.returns() == [0.0 if s == 2 else 1.0 for s in range(5)]
    target = 0 if holder != 0 else 1
    by_name(return_state, f"cast at seat {target}")  # a miss: the target alone wins
    assert return_state.result == {"sole_winner": target}
    assert return_state.winners() == [target]


def test_game_ends_within_the_stated_bound() -> None:
    state = started()
    run_to_final(state)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    from card_games.jumblejack import GAME

    assert len(state.history) <= GAME.max_game_length(state.params)
