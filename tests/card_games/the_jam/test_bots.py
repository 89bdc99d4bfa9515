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
    view = seat_view(state, seat)
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
    first = SmartAgent(seat, GAME).act(seat_view(st, seat))
    again = SmartAgent(seat, GAME).act(seat_view(st.clone(), seat))
    assert first == again and first in st.legal_actions()


def _winter_scenario():
    """Seat 0 (smart) holds one jam of a winter card and two jams nobody's visible task needs;
    seat 1 holds two more jams of that card. Only a two-for-two trade completes the card."""
    w = next(t for t in GAME.cards.tasks.values() if t.type == "winter")
    need = [jam_of(f) for f in w.jams[:3]]
    spare = sorted(
        (
            c
            for c in CARDS.values()
            if c.kind == "jam" and c.top not in w.jams and c.top != "pinecone"
        ),
        key=lambda c: (-c.points, c.id),
    )
    gifts = [spare[0].id, next(c.id for c in spare if c.label != spare[0].label)]
    other = filler(6, [*need, *gifts])
    st = position(
        hands=[other[:1], other[1:2]],
        made=[[need[0], *gifts], need[1:]],
        deck=[other[3], other[4]],
    )
    st.tasks = [
        {"winter": [w.id], "grandma": [], "yumyum": []},
        {"winter": [], "grandma": [], "yumyum": []},
    ]
    return st, need, gifts


def test_smart_proposes_a_bundle_bigger_than_one_for_one() -> None:
    st, need, gifts = _winter_scenario()
    assert st.step == "trade"
    for _ in range(12):
        move = _choose(st, 0)
        st.apply_action(move)
        if move.name == "propose" or move.get("trade") is None:  # proposed, or played
            break
    assert move.name == "propose"
    labels = sorted(CARDS[c].label for c in st.trade["theirs"])
    assert labels == sorted(CARDS[c].label for c in need[1:])  # both missing jams asked for
    assert len(st.trade["mine"]) >= 1


def test_smart_opens_a_trade_before_any_play_only_when_the_trade_pays() -> None:
    st, need, gifts = _winter_scenario()
    assert any(a.get("play") for a in st.legal_actions())  # the plays are listed beside it
    assert _choose(st, 0).name == "propose a trade to seat 1"
    st, need, gifts = _winter_scenario()
    st.tasks[0]["winter"] = []  # nothing to gain: it plays a card, which ends the trade step
    move = _choose(st, 0)
    assert move.get("play") is not None
    st.apply_action(move)
    assert st.active == 1 and st.proposals == 0


def test_smart_judges_whole_bundles_when_answering() -> None:
    st, need, gifts = _winter_scenario()
    # seat 0 (driven by hand here) gives its two spare jams for nothing: seat 1 gains their points
    act(st, "propose a trade to seat 1")
    for cid in sorted(gifts, key=st.cs_rank.__getitem__):
        st.apply_action(next(a for a in st.legal_actions() if a.get("pick") == cid))
    act(st, "propose")
    assert _choose(st, 1).name == "accept"  # a gift of two jams
    st2, need, gifts = _winter_scenario()
    act(st2, "propose a trade to seat 1")
    for cid in sorted(need[1:], key=st2.cs_rank.__getitem__):
        st2.apply_action(
            next(
                a
                for a in st2.legal_actions()
                if a.get("trade") == "theirs" and a.get("pick") == cid
            )
        )
    act(st2, "propose")
    assert _choose(st2, 1).name == "refuse"  # asked for two jams, nothing in return


class _Refuser(RandomAgent):
    """Refuses every proposal; otherwise plays at random."""

    kind = "refuser"

    def act(self, view):  # type: ignore[no-untyped-def]
        refuse = [a for a in view.legal_actions if a.get("trade") == "refuse"]
        return refuse[0] if refuse else super().act(view)


def test_smart_never_repeats_a_refused_offer_in_a_game() -> None:
    # a refusal is remembered for the game, per partner and offer (not only for the turn)
    offered = repeats = 0
    for seed in range(6):
        agents = [SmartAgent(0, GAME), _Refuser(1, GAME)]
        state = play(GAME, agents, seed=seed, params={"players": 2}).state
        offers = [
            tuple(tuple(sorted(side.split(", "))) for side in e.text[21:-1].split(" for "))
            for e in state.log
            if e.text.startswith("Seat 0 offers seat 1 ")
        ]
        offered += len(offers)
        repeats += len(offers) - len(set(offers))
    assert offered >= 6 and repeats == 0, (offered, repeats)
