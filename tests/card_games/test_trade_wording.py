"""Issue #35 (cards, noise): The Jam's auction and trade lines are worded for the reader: no
"high bid 0 by seat None", and seat 0 is never told of a "Trade with seat 0"."""

from __future__ import annotations

from card_games.the_jam.cards import load_cards
from card_games.the_jam.render import _trade_lines


def lines(obs, seat):
    return [t.plain for t in _trade_lines(load_cards(), obs, seat)]


def test_an_auction_without_a_bid_says_so():
    obs = {"auction": {"high": 0, "high_seat": None, "bidder": 1, "building": []}}
    assert lines(obs, 0) == ["Young man auction: no bid yet; seat 1 to bid"]
    assert lines(obs, 1) == ["Young man auction: no bid yet; you to bid"]
    obs["auction"].update(high=3, high_seat=0)
    assert lines(obs, 0) == ["Young man auction: high bid 3 by you; seat 1 to bid"]
    assert "None" not in " ".join(lines(obs, None))


def test_a_trade_is_worded_for_each_side_and_for_onlookers():
    obs = {"active": 1, "trade": {"partner": 0, "stage": "offer", "mine": 2, "theirs": 1}}
    to_partner = lines(obs, 0)[0]
    assert "Trade with seat 0" not in to_partner
    assert to_partner.startswith("Seat 1's trade with you (offer): you would get 2 hidden")
    assert lines(obs, 1)[0].startswith("Your trade with seat 0 (offer): you give 2 hidden")
    assert lines(obs, 2)[0].startswith("Trade between seat 1 and seat 0 (offer)")
