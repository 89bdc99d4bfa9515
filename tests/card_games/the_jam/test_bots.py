"""The smart bot: beats random, bids when the Young man pays, trades only to gain."""

from __future__ import annotations

from card_games.the_jam import GAME
from card_games.the_jam.bots import SmartAgent
from jamsumo_sim.turnloop import RandomAgent, play, seat_view
from tests.card_games.the_jam.helpers import CARDS, act, filler, jam_of, position


def _wins(players: int, variant: str, seeds: range) -> int:
    wins = 0
    for seed in seeds:
        agents = [SmartAgent(0, GAME)] + [RandomAgent(s, GAME) for s in range(1, players)]
        result = play(GAME, agents, seed=seed, params={"players": players, "variant": variant})
        wins += 0 in result.winners
    return wins


def test_smart_beats_random_two_players() -> None:
    # the full figure over 200 seeds is in benchmarks/bench_the_jam.py (all 100 % so far)
    assert _wins(2, "standard", range(100, 103)) >= 2
    assert _wins(2, "travel", range(100, 103)) >= 2


def test_smart_beats_its_share_with_three_players() -> None:
    assert _wins(3, "standard", range(200, 203)) >= 2


def _choose(state, seat: int):
    view = seat_view(state, seat, GAME)
    return SmartAgent(seat, GAME).act(view)


def test_smart_bids_for_the_young_man_when_it_pays() -> None:
    cheap = min(
        (c for c in CARDS.values() if c.kind == "jam" and c.top != "pinecone"),
        key=lambda c: c.points,
    ).id
    other = filler(6, [cheap])
    st = position(
        hands=[other[:1], other[1:2]], made=[[cheap], []], deck=[other[3], "special:young_man"]
    )
    st.tasks = [{"winter": [], "grandma": [], "yumyum": []} for _ in range(2)]
    assert st.auction is not None
    first = _choose(st, 0)
    assert first.get("bid") == "add"
    st.apply_action(first)
    assert _choose(st, 0).get("bid") == "place"


def test_smart_passes_when_the_bid_would_cost_more_than_seven() -> None:
    # every jam is needed for a completed Jam-for-winter card: bidding loses 7 + points
    w = next(t for t in GAME.cards.tasks.values() if t.type == "winter")
    jams: list[str] = []
    for fruit in w.jams[:3]:
        jams.append(jam_of(fruit, exclude=jams))
    other = filler(6, jams)
    st = position(
        hands=[other[:1], other[1:2]], made=[jams, []], deck=[other[3], "special:young_man"]
    )
    st.tasks = [
        {"winter": [w.id], "grandma": [], "yumyum": []},
        {"winter": [], "grandma": [], "yumyum": []},
    ]
    assert _choose(st, 0).get("bid") == "pass"


def test_smart_accepts_only_gainful_trades() -> None:
    w = next(t for t in GAME.cards.tasks.values() if t.type == "winter")
    have: list[str] = []
    for fruit in w.jams[:2]:
        have.append(jam_of(fruit, exclude=have))
    missing = jam_of(w.jams[2], exclude=have)
    useless = next(
        c.id
        for c in CARDS.values()
        if c.kind == "jam" and c.top not in w.jams and c.points <= CARDS[missing].points
    )
    other = filler(6, [*have, missing, useless])
    # seat 0 (random's seat) offers seat 1 the missing jam for the useless one: seat 1 completes winter
    st = position(
        hands=[other[:1], other[1:2]], made=[[missing], [*have, useless]], deck=[other[3], other[4]]
    )
    st.tasks = [
        {"winter": [], "grandma": [], "yumyum": []},
        {"winter": [w.id], "grandma": [], "yumyum": []},
    ]
    act(st, "propose a trade to seat 1")
    st.apply_action(next(a for a in st.legal_actions() if a.get("trade") == "mine"))
    st.apply_action(
        next(
            a for a in st.legal_actions() if a.get("trade") == "theirs" and a.get("pick") == useless
        )
    )
    act(st, "propose")
    assert _choose(st, 1).name == "accept"
    # the reverse: asked to give a jam its winter card needs, for nothing useful
    st = position(
        hands=[other[:1], other[1:2]], made=[[useless], [*have, missing]], deck=[other[3], other[4]]
    )
    st.tasks = [
        {"winter": [], "grandma": [], "yumyum": []},
        {"winter": [w.id], "grandma": [], "yumyum": []},
    ]
    act(st, "propose a trade to seat 1")
    st.apply_action(next(a for a in st.legal_actions() if a.get("trade") == "mine"))
    st.apply_action(
        next(
            a for a in st.legal_actions() if a.get("trade") == "theirs" and a.get("pick") == missing
        )
    )
    act(st, "propose")
    assert _choose(st, 1).name == "refuse"


def test_smart_is_stateless_and_deterministic_per_view() -> None:
    from jamsumo_sim.turnloop.driver import chance_rng

    st = GAME.new_initial_state(GAME.validate_params({"players": 2}), seed=9)
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes().sample(chance_rng(st)))
    seat = st.current_player()
    first = SmartAgent(seat, GAME).act(seat_view(st, seat, GAME))
    again = SmartAgent(seat, GAME).act(seat_view(st.clone(), seat, GAME))
    assert first == again and first in st.legal_actions()
