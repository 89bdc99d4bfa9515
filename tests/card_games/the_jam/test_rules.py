"""One scenario per rule, on positions built from cards chosen by their properties.

The rulebook gives no numbered worked examples; the situations it spells out (a duplicate ingredient
turned up for the basket, a pie taken from the basket, a recipe traded with its ingredient on it, the
Young man won or lost by the drawer, everybody passing, a tie for the Bear, the deck running out) each
have a scenario below.
"""

from __future__ import annotations

import io
from collections import Counter

from card_games.the_jam import GAME, moves
from card_games.the_jam.cards import BEAR, JAM, PIE, SALAD, SPECIAL, YOUNG_MAN
from jamsumo_sim.turnloop import CHANCE, TERMINAL, Action, ConsoleAgent, seat_view
from tests.card_games.the_jam.helpers import (
    CARDS,
    act,
    bottom,
    filler,
    find,
    jam_of,
    label,
    names,
    pick,
    pie_of,
    pinecone_jam,
    position,
    salad,
)


def setup_state(players: int, variant: str = "standard", seed: int = 0):
    from jamsumo_sim.turnloop import play
    from jamsumo_sim.turnloop.driver import chance_rng

    st = GAME.new_initial_state(
        GAME.validate_params({"players": players, "variant": variant}), seed=seed
    )
    while st.current_player() == CHANCE:
        st.apply_action(st.chance_outcomes().sample(chance_rng(st)))
    del play
    return st


# -- set-up ---------------------------------------------------------------------------------------
def test_setup_basket_hands_and_tasks() -> None:
    for seed in range(6):
        for players in (2, 3, 4):
            st = setup_state(players, seed=seed)
            assert all(len(h) in (4, 5) for h in st.hands)  # the first player has drawn already
            assert len(st.basket) == 8
            assert len({CARDS[c].bottom for c in st.basket}) == 8  # 8 distinct ingredients
            assert not any(CARDS[c].kind == SPECIAL for c in st.basket)
            per = 2 if players == 2 else 1
            for s in range(players):
                assert {k: len(v) for k, v in st.tasks[s].items()} == {
                    "winter": per,
                    "grandma": per,
                    "yumyum": per,
                }


def test_set_aside_cards_go_back_into_the_deck() -> None:
    st = GAME.new_initial_state(GAME.validate_params({"players": 2}), seed=0)
    for _ in range(4):  # who starts, three task deals
        st.apply_action(st.chance_outcomes().sample(__import__("numpy").random.default_rng(1)))
    # deal an order with both specials and a duplicate ingredient right after the hands
    ids = list(CS_IDS)
    hands = ids[:8]
    first = hands + [YOUNG_MAN]
    basket_seen: set[str] = set()
    rest = [c for c in ids if c not in first and c != BEAR]
    order = first + [BEAR] + rest
    st.apply_action(Action.make("shuffle the deck", order=order))
    assert YOUNG_MAN not in st.basket and BEAR not in st.basket
    assert st.current_player() == CHANCE  # the set-aside cards are shuffled back
    assert YOUNG_MAN in st.incoming and BEAR in st.incoming
    for c in st.basket:
        assert CARDS[c].bottom not in basket_seen
        basket_seen.add(CARDS[c].bottom)


CS_IDS = GAME.cards.game_card_ids()


def test_kids_variant_removes_specials_pinecones_tasks_and_trading() -> None:
    st = setup_state(2, "kids")
    everything = st.deck + st.basket + [c for h in st.hands for c in h]
    assert YOUNG_MAN not in everything and BEAR not in everything
    assert not any(CARDS[c].kind == JAM and CARDS[c].top == "pinecone" for c in everything)
    assert all(not v for t in st.tasks for v in t.values())


# -- making jam -------------------------------------------------------------------------------------
def test_make_jam_recipe_from_hand_ingredient_from_basket() -> None:
    r = jam_of()
    fruit = CARDS[r].top
    ing = bottom(fruit, exclude=[r])
    other = filler(6, [r, ing])
    st = position(hands=[[r, other[0]], other[1:3]], basket=[ing], deck=[other[3]])
    a = find(st, play="jam", recipe=r, ingredient=ing, source="hand")
    turn = st.turn_no
    st.apply_action(a)
    assert st.made[0][-1] == {"card": r, "under": [ing], "since": turn}
    assert ing not in st.basket and r not in st.hands[0]


def test_make_jam_recipe_from_basket_ingredient_from_hand() -> None:
    r = jam_of()
    ing = bottom(CARDS[r].top, exclude=[r])
    other = filler(4, [r, ing])
    st = position(hands=[[ing], other[:2]], basket=[r], deck=[other[2]])
    st.apply_action(find(st, play="jam", recipe=r, ingredient=ing, source="basket"))
    assert st.made[0][-1]["card"] == r and r not in st.basket


def test_jam_cannot_use_two_cards_from_the_same_place() -> None:
    r = jam_of()
    ing = bottom(CARDS[r].top, exclude=[r], kind="salad")
    unrelated = filler(4, [r, ing], avoid=[CARDS[r].top])
    st = position(hands=[[r, ing], unrelated[:1]], basket=unrelated[1:3], deck=[unrelated[3]])
    assert not [a for a in st.legal_actions() if a.get("play") == "jam"]
    # both in the basket: not playable either (the recipe must come from somewhere)
    st = position(hands=[unrelated[:1], unrelated[1:2]], basket=[r, ing], deck=[unrelated[3]])
    assert not [a for a in st.legal_actions() if a.get("play") == "jam"]


def test_pinecone_jam_made_from_any_ingredient() -> None:
    p = pinecone_jam()
    others = filler(4, [p])
    st = position(hands=[[p], others[:1]], basket=others[1:3], deck=[others[3]])
    jams = [a for a in st.legal_actions() if a.get("play") == "jam"]
    assert len(jams) == len({CARDS[c].label for c in others[1:3]})


# -- pies ---------------------------------------------------------------------------------------------
def test_bake_pie_from_hand_with_own_jam_whose_ingredient_goes_to_the_basket() -> None:
    pie = pie_of()
    jam = jam_of(CARDS[pie].top)
    under = bottom(CARDS[jam].top, exclude=[jam, pie])
    other = filler(5, [pie, jam, under])
    st = position(hands=[[pie], other[:1]], made=[[jam], []], deck=[other[2]])
    st.made[0][0]["under"] = [under]
    turn = st.turn_no
    st.apply_action(find(st, play="pie", recipe=pie, jam=jam, source="hand"))
    assert st.made[0] == [{"card": pie, "under": [jam], "since": turn}]
    assert under in st.basket  # the jam's own ingredient is discarded at once


def test_pie_from_basket_costs_a_card_from_hand_at_turn_end() -> None:
    pie = pie_of()
    jam = jam_of(CARDS[pie].top)
    other = filler(6, [pie, jam])
    st = position(hands=[[other[0]], other[1:2]], basket=[pie], made=[[jam], []], deck=[other[3]])
    before = len(st.hands[0])
    st.apply_action(find(st, play="pie", recipe=pie, source="basket"))
    assert st.step == "pay" and st.current_player() == 0 and len(st.hands[0]) == before
    st.apply_action(st.legal_actions()[0])
    assert len(st.hands[0]) == before - 1 and st.active == 1


def test_pinecone_jam_bakes_any_pie_and_pies_need_a_made_jam() -> None:
    pie = pie_of()
    pine = pinecone_jam()
    other = filler(5, [pie, pine])
    st = position(hands=[[pie], other[:1]], deck=[other[2]])
    assert not [a for a in st.legal_actions() if a.get("play") == "pie"]
    st = position(hands=[[pie], other[:1]], made=[[pine], []], deck=[other[2]])
    assert [a for a in st.legal_actions() if a.get("play") == "pie"]


def test_fruit_salad_takes_its_three_ingredients_from_the_basket() -> None:
    sal = salad()
    fruits = CARDS[sal].fruits
    ings: list[str] = []
    for f in fruits:
        ings.append(bottom(f, exclude=[sal, *ings]))
    other = filler(4, [sal, *ings])
    st = position(hands=[[sal], other[:1]], basket=ings[:2], deck=[other[2]])
    assert not [a for a in st.legal_actions() if a.get("play") == "salad"]
    st = position(hands=[[sal], other[:1]], basket=ings, deck=[other[2]])
    st.apply_action(find(st, play="salad", recipe=sal))
    assert st.made[0][-1]["card"] == sal and sorted(st.made[0][-1]["under"]) == sorted(ings)
    assert not st.basket


def test_an_ingredient_can_always_be_played_to_the_basket() -> None:
    other = filler(4, [])
    st = position(hands=[other[:2], other[2:3]], deck=[other[3]])
    playable = [a for a in st.legal_actions() if a.get("play") == "ingredient"]
    assert len(playable) == len({CARDS[c].label for c in st.hands[0]})
    st.apply_action(playable[0])
    assert playable[0]["pick"] in st.basket


# -- discard phase ---------------------------------------------------------------------------------
def test_old_ingredients_are_discarded_fresh_ones_stay() -> None:
    old_jam = jam_of()
    old_under = bottom(CARDS[old_jam].top, exclude=[old_jam])
    r = jam_of(exclude=[old_jam])
    ing = bottom(CARDS[r].top, exclude=[r, old_jam, old_under])
    other = filler(6, [old_jam, old_under, r, ing])
    st = position(
        hands=[[r], other[:1]], basket=[ing], made=[[old_jam], []], deck=[other[2], other[3]]
    )
    st.made[0][0]["under"] = [old_under]
    st.made[0][0]["since"] = st.turn_no - 2
    st.apply_action(find(st, play="jam", recipe=r, source="hand"))
    assert old_under in st.basket  # made before this turn: to the basket, on its own
    assert st.made[0][0]["under"] == [] and st.made[0][1]["under"] == [ing]


# -- trading -------------------------------------------------------------------------------------------
def _trade_position():
    a, b = jam_of(), pie_of()
    ua = bottom(CARDS[a].top, exclude=[a, b])
    other = filler(8, [a, b, ua])
    st = position(hands=[other[:1], other[1:2]], made=[[a], [b]], deck=[other[3], other[4]])
    st.made[0][0]["under"] = [ua]
    return st, a, b, ua


def test_trade_proposal_accepted_moves_recipes_with_their_ingredients() -> None:
    st, a, b, ua = _trade_position()
    assert st.step == "trade"
    act(st, "propose a trade to seat 1")
    act(st, "give my")
    act(st, "ask for seat 1's")
    act(st, "propose")
    assert st.current_player() == 1  # the other seat decides
    act(st, "accept")
    assert [r["card"] for r in st.made[0]] == [b]
    assert st.made[1][0]["card"] == a and st.made[1][0]["under"] == [ua]
    # the received recipe keeps its ingredient until the receiver's own discard phase
    st.apply_action(find(st, play="ingredient"))
    assert st.active == 1 and st.made[1][0]["under"] == [ua]
    st.apply_action(find(st, play="ingredient"))
    assert st.made[1][0]["under"] == [] and ua in st.basket


def test_trade_refused_changes_nothing_and_proposals_are_limited() -> None:
    st, a, b, _ = _trade_position()
    for _ in range(2):
        act(st, "propose a trade to seat 1")
        act(st, "give my")
        act(st, "ask for seat 1's")
        act(st, "propose")
        act(st, "refuse")
    assert [r["card"] for r in st.made[0]] == [a] and st.step == "play"  # no third proposal
    assert len(st.refused) == 2


def test_the_trade_step_lists_the_trades_and_every_play_and_a_play_ends_it() -> None:
    st, a, b, _ = _trade_position()
    legal = st.legal_actions()
    assert st.step == "trade" and "no trade" not in names(st)
    assert [x.name for x in legal if x.get("trade") is not None] == ["propose a trade to seat 1"]
    plays = [x for x in legal if x.get("play") is not None]
    assert plays == list(moves.play_actions(st, 0))  # the play step's list, every move of it
    st.apply_action(find(st, play="ingredient"))
    assert st.active == 1 and st.proposals == 0  # the card ended the trade step and the turn


def test_no_trade_is_listed_only_without_a_card_to_play_and_may_always_be_typed() -> None:
    st, a, b, _ = _trade_position()
    typed = st.parse_action(0, "no trade")
    assert typed == moves.NO_TRADE and typed not in st.legal_actions() and st.is_legal(0, typed)
    assert st.parse_action(1, "no trade") is None  # not seat 1's move
    out = io.StringIO()
    person = ConsoleAgent(0, GAME, stdin=io.StringIO("no trade\n"), stdout=out)
    assert person.act(seat_view(st, 0)) == typed  # typed at the prompt, though not listed
    assert "step: trade, or play a card" in out.getvalue()
    st.apply_action(typed)
    assert st.step == "play" and all(x.get("play") for x in st.legal_actions())
    assert not st.is_legal(0, moves.NO_TRADE)  # the trade step is over
    # an empty hand at the trade step (the Young man drawn as the last card): nothing to play,
    # so declining the trade is listed
    st, a, b, _ = _trade_position()
    st.hands[0] = []
    assert names(st) == ["propose a trade to seat 1", "no trade"]
    act(st, "no trade")
    assert st.active == 1


def _big_trade_position(mine: int = 4, theirs: int = 1):
    """Seat 0 has ``mine`` made recipes (two copies of one recipe among them), seat 1 ``theirs``
    pies."""
    labels = Counter(c.label for c in CARDS.values() if c.kind in (JAM, SALAD))
    twin = next(lbl for lbl, k in labels.items() if k >= 2)
    copies = [c.id for c in CARDS.values() if c.label == twin]
    a = copies[:2]
    while len(a) < mine:
        a.append(pick(lambda c: c.is_recipe and c.label not in {CARDS[x].label for x in a}, a))
    b: list[str] = []
    while len(b) < theirs:
        b.append(pick(lambda c: c.kind == PIE, [*a, *b]))
    other = filler(6, [*a, *b])
    st = position(hands=[other[:1], other[1:2]], made=[a[:mine], b], deck=[other[3], other[4]])
    return st, a[:mine], b


def _everything(st) -> tuple:
    return (
        Counter(st.all_cards()),
        [sorted(r["card"] for r in m) for m in st.made],
        [list(h) for h in st.hands],
        list(st.basket),
        list(st.deck),
    )


def test_a_four_for_one_trade_is_accepted_and_executed() -> None:
    st, a, b = _big_trade_position(4, 1)
    before = Counter(st.all_cards())
    act(st, "propose a trade to seat 1")
    for _ in range(4):
        st.apply_action(next(x for x in st.legal_actions() if x.get("trade") == "mine"))
    assert not [x for x in st.legal_actions() if x.get("trade") == "mine"]  # all four added
    act(st, "ask for seat 1's")
    act(st, "propose")
    assert sorted(st.trade["mine"]) == sorted(a) and st.trade["theirs"] == b
    assert st.current_player() == 1
    act(st, "accept")
    assert [r["card"] for r in st.made[0]] == b
    assert sorted(r["card"] for r in st.made[1]) == sorted(a)
    assert Counter(st.all_cards()) == before  # no recipe lost or duplicated
    assert all(r["since"] == st.turn_no for r in st.made[1])


def test_a_refused_big_trade_leaves_everything_unchanged() -> None:
    st, a, b = _big_trade_position(4, 3)
    before = _everything(st)
    act(st, "propose a trade to seat 1")
    for _ in range(3):
        st.apply_action(next(x for x in st.legal_actions() if x.get("trade") == "mine"))
    for _ in range(3):
        st.apply_action(next(x for x in st.legal_actions() if x.get("trade") == "theirs"))
    assert len(st.trade["mine"]) == 3 and len(st.trade["theirs"]) == 3  # more than the old cap
    act(st, "propose")
    act(st, "refuse")
    assert _everything(st) == before
    assert st.trade is None and st.proposals == 1 and len(st.refused) == 1
    assert len(st.refused[0]["mine"]) == 3 and len(st.refused[0]["theirs"]) == 3


def test_a_bundle_side_is_built_in_one_order_and_copies_can_be_added() -> None:
    st, a, b = _big_trade_position(4, 1)
    act(st, "propose a trade to seat 1")
    assert "propose" not in names(st)  # an empty bundle cannot be proposed
    mine = [x for x in st.legal_actions() if x.get("trade") == "mine"]
    assert len(mine) == 3  # one move per distinct card: the two copies are listed once
    rank = st.cs_rank
    first = next(x for x in mine if label(x["pick"]) == label(a[0]))  # one of the two copies
    st.apply_action(first)
    later = [x["pick"] for x in st.legal_actions() if x.get("trade") == "mine"]
    assert all(rank[c] > rank[first["pick"]] for c in later)  # only cards after it in the order
    assert [c for c in later if label(c) == label(a[0])]  # the second copy is still on offer
    last = max(later, key=rank.__getitem__)
    st.apply_action(find(st, trade="mine", pick=last))
    assert not [x for x in st.legal_actions() if x.get("trade") == "mine"]
    assert "cancel the proposal" in names(st) and "propose" in names(st)


def test_a_one_sided_trade_is_a_gift_the_other_seat_may_accept() -> None:
    st, a, b = _big_trade_position(2, 1)
    before = Counter(st.all_cards())
    act(st, "propose a trade to seat 1")
    st.apply_action(next(x for x in st.legal_actions() if x.get("trade") == "mine"))
    act(st, "propose")  # nothing asked in return
    assert st.log[-1].text.endswith(" for nothing.")
    act(st, "accept")
    assert len(st.made[0]) == 1 and len(st.made[1]) == 2
    assert Counter(st.all_cards()) == before
    # and a request for nothing in return, refused
    act(st, "propose a trade to seat 1")
    st.apply_action(next(x for x in st.legal_actions() if x.get("trade") == "theirs"))
    act(st, "propose")
    act(st, "refuse")
    assert len(st.made[0]) == 1 and len(st.made[1]) == 2
    assert st.step == "play"  # two proposals made: the trade step is over


def test_the_length_bound_covers_the_biggest_trades() -> None:
    from card_games.the_jam.game import MAX_TURNS
    from card_games.the_jam.rules import MAX_PROPOSALS

    for n in (2, 3, 4):
        params = GAME.validate_params({"players": n})
        # every recipe of the game in one bundle, every proposal of every turn
        assert GAME.max_game_length(params) >= MAX_TURNS * (1 + MAX_PROPOSALS * (1 + 72 + 2))


def test_no_trade_step_without_recipes_to_trade() -> None:
    other = filler(5, [])
    st = position(hands=[other[:1], other[1:2]], deck=[other[3]])
    assert st.step == "play"


# -- the Young man ---------------------------------------------------------------------------------
def _auction_position(made0: list[str], made1: list[str], players: int = 2):
    other = filler(12, [*made0, *made1])
    hands = [other[i : i + 1] for i in range(players)]
    made = [made0, made1] + [[] for _ in range(players - 2)]
    return position(players, hands=hands, made=made, deck=[other[5], other[6], YOUNG_MAN])


def test_young_man_goes_to_the_highest_bid_and_bid_jams_are_shuffled_in() -> None:
    j0 = jam_of()
    j1a, j1b = jam_of(exclude=[j0]), jam_of(exclude=[j0, jam_of(exclude=[j0])])
    st = _auction_position([j0], [j1a, j1b])
    assert st.auction is not None and st.current_player() == 0  # the drawer bids first
    act(st, "offer")
    act(st, "bid")
    assert st.current_player() == 1
    high = CARDS[j0].points
    # seat 1 must beat it: offering jams until the total is higher
    for cid in (j1a, j1b):
        st.apply_action(
            find(st, bid="add", pick=cid)
            if any(a.get("pick") == cid for a in st.legal_actions())
            else find(st, bid="add")
        )
        if any(a.get("bid") == "place" for a in st.legal_actions()):
            break
    total = sum(CARDS[c].points for c in st.auction["building"])
    assert total > high
    act(st, "bid")
    assert st.young_man == 1
    assert st.current_player() == CHANCE  # the winner's jams are shuffled into the deck
    assert [r["card"] for r in st.made[0]] == [j0]  # the loser takes theirs back
    st.apply_action(st.chance_outcomes().sample(__import__("numpy").random.default_rng(0)))
    assert st.active == 0 and len(st.hands[0]) == 2  # the drawer drew again and goes on


def test_young_man_drawer_wins_and_the_turn_ends() -> None:
    j0 = jam_of()
    st = _auction_position([j0], [])
    act(st, "offer")
    act(st, "bid")  # seat 1 has no jam and passes automatically
    assert st.young_man == 0
    st.apply_action(st.chance_outcomes().sample(__import__("numpy").random.default_rng(0)))
    assert st.active == 1  # no trade, no play: the turn ended


def test_bids_must_be_higher() -> None:
    j0 = jam_of()
    small = min((c for c in CARDS.values() if c.kind == JAM), key=lambda c: c.points).id
    st = _auction_position([j0], [small] if CARDS[small].points <= CARDS[j0].points else [])
    act(st, "offer")
    act(st, "bid")
    assert st.young_man == 0  # seat 1 could not beat the bid: passed automatically


def test_young_man_all_pass_drawer_discards_a_jam_and_he_goes_back() -> None:
    j0 = jam_of()
    st = _auction_position([j0], [])
    act(st, "pass")
    assert st.young_man is None and j0 in st.basket and not st.made[0]
    assert YOUNG_MAN in st.held and len(st.hands[0]) == 2  # drew again
    st.apply_action(find(st, play="ingredient"))
    assert st.current_player() == CHANCE and YOUNG_MAN in st.incoming  # shuffled back at turn end


def test_unclaimed_special_leaves_the_game_when_nothing_else_is_left() -> None:
    other = filler(4, [])
    st = position(hands=[other[:1], other[1:2]], deck=[BEAR])
    assert BEAR in st.removed and not st.deck


# -- the Bear ---------------------------------------------------------------------------------------
def test_bear_goes_to_most_pies_ties_to_the_drawer_then_clockwise() -> None:
    p1, p2, p3 = pie_of(), pie_of(exclude=[pie_of()]), None
    p3 = pie_of(exclude=[p1, p2])
    other = filler(10, [p1, p2, p3])
    # seat 1 and seat 2 tie with one pie each; seat 0 draws: priority goes clockwise to seat 1
    st = position(
        3,
        hands=[other[:1], other[1:2], other[2:3]],
        made=[[], [p1], [p2]],
        deck=[other[5], other[6], BEAR],
    )
    assert st.bear == 1 and not st.made[1]
    assert st.current_player() == CHANCE
    st.apply_action(st.chance_outcomes().sample(__import__("numpy").random.default_rng(0)))
    assert st.active == 0 and len(st.hands[0]) == 2  # not the drawer's: draw again
    # the drawer tied for most pies keeps priority, and their turn ends
    st = position(
        3, hands=[other[:1], other[1:2], other[2:3]], made=[[p3], [p1], []], deck=[other[5], BEAR]
    )
    assert st.bear == 0
    st.apply_action(st.chance_outcomes().sample(__import__("numpy").random.default_rng(0)))
    assert st.active == 1


def test_bear_with_no_pies_is_shuffled_back() -> None:
    other = filler(6, [])
    st = position(hands=[other[:1], other[1:2]], deck=[other[3], other[4], BEAR])
    assert st.bear is None and BEAR in st.held and len(st.hands[0]) == 2


def test_bear_winner_chooses_which_pie_to_give_back() -> None:
    p1 = pie_of()
    p2 = pie_of(
        exclude=[p for p in CARDS if CARDS[p].kind == PIE and CARDS[p].label == CARDS[p1].label]
    )
    other = filler(6, [p1, p2])
    st = position(hands=[other[:1], other[1:2]], made=[[], [p1, p2]], deck=[other[3], BEAR])
    assert st.current_player() == 1 and len(names(st)) == 2
    st.apply_action(find(st, pick=p2))
    assert [r["card"] for r in st.made[1]] == [p1] and p2 in st.incoming


# -- the end ------------------------------------------------------------------------------------------
def test_game_ends_when_deck_empty_and_hands_played_out() -> None:
    other = filler(4, [])
    st = position(hands=[other[:1], other[1:3]], deck=[])
    st.apply_action(find(st, play="ingredient"))
    assert st.active == 1
    st.apply_action(find(st, play="ingredient"))
    assert st.active == 1  # seat 0 has no card left: skipped
    st.apply_action(find(st, play="ingredient"))
    assert st.current_player() == TERMINAL


def test_winner_tie_broken_by_yum_yum() -> None:
    y = [t for t in GAME.cards.tasks.values() if t.type == "yumyum"][0]
    fav = y.favourite
    a = next(c.id for c in CARDS.values() if c.kind == JAM and c.bottom == fav)
    b = next(
        c.id
        for c in CARDS.values()
        if c.kind == JAM and c.bottom != fav and c.points == CARDS[a].points + 1
    )
    st = position(
        hands=[[], []],
        deck=[],
        made=[[a], [b]],
        tasks=[
            {"winter": [], "grandma": [], "yumyum": [y.id]},
            {"winter": [], "grandma": [], "yumyum": [y.id]},
        ],
    )
    assert st.current_player() == TERMINAL
    assert st.returns()[0] == st.returns()[1]
    assert st.winners() == [0]


def test_kids_scores_count_recipes() -> None:
    other = filler(6, [])
    st = position(2, "kids", hands=[[], []], deck=[], made=[other[:3], other[3:5]])
    assert st.returns() == [3.0, 2.0] and st.winners() == [0]


# -- travel ---------------------------------------------------------------------------------------
def test_travel_basket_stacks_and_salads_go_to_the_bottom() -> None:
    sal = salad()
    fruit = CARDS[sal].bottom
    c1 = bottom(fruit, exclude=[sal], kind="jam")
    other = [c for c in filler(10, [sal, c1]) if CARDS[c].bottom != fruit]
    st = position(
        2, "travel", hands=[[other[0]], [other[1]]], basket=[c1], deck=[other[3], other[4]]
    )
    st.to_basket(sal)
    assert st.accessible_basket() == [c1]  # the salad went under the jam
    c2 = bottom(fruit, exclude=[sal, c1], kind="pie")
    st.to_basket(c2)
    assert c2 in st.accessible_basket() and c1 not in st.accessible_basket()


def test_travel_blind_swap_cannot_be_refused() -> None:
    a, b = jam_of(), pie_of()
    other = filler(6, [a, b])
    st = position(
        2, "travel", hands=[other[:1], other[1:2]], made=[[a], [b]], deck=[other[3], other[4]]
    )
    assert st.step == "trade"
    assert "refuse" not in names(st)
    act(st, "blind swap 1 with seat 1")  # both piles hold one card: the choices are forced
    assert [r["card"] for r in st.made[0]] == [b] and [r["card"] for r in st.made[1]] == [a]
    assert st.step == "play"  # once per turn


def test_card_totals_are_conserved_in_a_scenario() -> None:
    st = setup_state(3, seed=4)
    everything = Counter(st.all_cards())
    assert everything == Counter(GAME.cards.game_card_ids())


def test_specials_dealt_into_a_hand_are_set_aside_and_shuffled_back() -> None:
    st = GAME.new_initial_state(GAME.validate_params({"players": 2, "variant": "standard"}), seed=0)
    rng = __import__("numpy").random.default_rng(1)
    for _ in range(4):
        st.apply_action(st.chance_outcomes().sample(rng))
    ids = [c for c in CS_IDS if c not in (YOUNG_MAN, BEAR)]
    st.apply_action(Action.make("shuffle the deck", order=[YOUNG_MAN, BEAR, *ids]))
    assert all(len(h) == 4 for h in st.hands)
    assert not any(CARDS[c].kind == SPECIAL for h in st.hands for c in h)
    assert {YOUNG_MAN, BEAR} <= set(st.incoming)


def test_legal_actions_are_cached_per_state_version_and_renewed_by_every_move() -> None:
    st, a, b = _big_trade_position(2, 1)
    first = st.legal_actions()
    assert st.legal_actions() is first  # the same version: the cached list
    act(st, "propose a trade to seat 1")
    second = st.legal_actions()
    assert second is not first and "cancel the proposal" in names(st)
    st.apply_action(next(x for x in second if x.get("trade") == "mine"))
    assert st.legal_actions() is not second and "propose" in names(st)
    clone = st.clone()
    assert clone.legal_actions() == st.legal_actions()
    act(clone, "cancel the proposal")
    assert "propose" in names(st) and "propose" not in names(clone)
