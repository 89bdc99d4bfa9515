"""The smart bot against random players (a small sample; the benchmark gives the full figure)."""

from __future__ import annotations

from card_games.jumble_jam import GAME
from card_games.jumble_jam.bots import SmartAgent
from jamsumo_sim.turnloop import RandomAgent, play


def smart_wins(players: int, seeds: range, variant: str = "standard") -> int:
    wins = 0
    for seed in seeds:
        smart = seed % players
        agents = [
            SmartAgent(s, GAME) if s == smart else RandomAgent(s, GAME) for s in range(players)
        ]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        wins += smart in result.winners
    return wins


def test_smart_beats_random_two_players() -> None:
    assert smart_wins(2, range(16)) >= 13  # ≈100 % over 200 seeds; 65 % is the bar


def test_smart_beats_its_share_with_four_players() -> None:
    assert smart_wins(4, range(12), "kickstarter") >= 8  # the fair share would be 3


def test_bots_are_listed_and_stateless() -> None:
    assert set(GAME.bots()) == {"random", "smart"}
    # two fresh bots given the same view choose the same move (no memory between calls)
    state = GAME.new_initial_state({"players": 2}, seed=2)
    agents = [SmartAgent(s, GAME) for s in range(2)]
    first = play(GAME, agents, seed=2, params={"players": 2})
    again = play(GAME, [SmartAgent(s, GAME) for s in range(2)], seed=2, params={"players": 2})
    assert first.state.history == again.state.history
    assert state.current_player() != first.state.current_player()


def _orders_turn(hand: list[str], die: str, orders: tuple[str, ...]):
    from jamsumo_sim.turnloop import seat_view
    from tests.card_games.jumble_jam.helpers import (
        new_state,
        roll,
        set_hand,
        shuffle,
        to_orders_phase,
    )

    state = new_state(2)
    shuffle(state, (), orders)
    roll(state, die)
    to_orders_phase(state)
    seat = state.turns.seat
    set_hand(state, seat, hand)
    return state, seat, SmartAgent(seat, GAME), lambda: seat_view(state, seat)


def test_smart_prefers_the_exact_fill_with_fewest_and_cheapest_cards() -> None:
    state, seat, bot, view = _orders_turn(
        ["pie3-1", "pie2-1", "pie1-1", "jam1-1"], "cookie", ("O02", "O07", "O08")
    )
    action = bot.act(view())
    assert action.name.startswith("fill O02")
    state.apply_action(action)
    assert bot.act(view()).name == "add 3 pie"  # one card, exact, no jam


def test_smart_takes_exact_over_waste_and_spares_jam() -> None:
    state, seat, bot, view = _orders_turn(
        ["pie2-1", "pie2-2", "pie1-1", "jam1-1"], "cookie", ("O02", "O07", "O08")
    )
    state.apply_action(bot.act(view()))
    added = []
    while state.building is not None:
        action = bot.act(view())
        added.append(action.name)
        state.apply_action(action)
    assert sorted(added) == ["add 1 pie", "add 2 pie"]
    assert state.completed[seat][-1]["exact"] is True


def test_smart_counts_the_die_bonus() -> None:
    for die, wanted in (("doughnut", "fill O01"), ("pie", "fill O02")):
        _, _, bot, view = _orders_turn(["doughnut3-1", "pie3-1"], die, ("O01", "O02", "O08"))
        assert bot.act(view()).name.startswith(wanted)
