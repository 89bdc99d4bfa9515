"""The Jam: a whole trade offer in one line, previewed and editable, sent as the very moves of a
step-by-step proposal; cancelling before sending uses no proposal."""

from __future__ import annotations

import io
import re

import pytest

from card_games.the_jam import GAME
from card_games.the_jam.trade_parse import OfferError, OfferText, parse_offer
from jamsumo_sim.turnloop import ConsoleAgent, QuitRequest, RandomAgent, seat_view, step
from jamsumo_sim.turnloop.serialize import state_from_json
from tests.card_games.test_move_input import twins_position
from tests.card_games.the_jam.helpers import CARDS, act


@pytest.mark.parametrize(
    "line,expected",
    [
        (
            "offer 2 cards: raspberry-jam, apple-pie for seat 3's cherry",
            OfferText(3, ("raspberry jam", "apple pie"), ("cherry",)),
        ),
        (  # the partner's side first
            "offer seat 3's cherry for my raspberry jam",
            OfferText(3, ("raspberry jam",), ("cherry",)),
        ),
        (
            "offer seat 2: 2x cherry jam and peach pie for nothing",
            OfferText(2, ("cherry jam", "cherry jam", "peach pie"), ()),
        ),
        ("offer for seat 1s plum pie", OfferText(1, (), ("plum pie",))),
    ],
)
def test_offer_lines_are_read_in_any_order(line: str, expected: OfferText) -> None:
    assert parse_offer(line) == expected


@pytest.mark.parametrize(
    "line,message",
    [
        ("offer 3 cards: a, b for seat 1's c", "says 3 cards but lists 2"),
        ("offer seat 1's a for seat 2's b", "one partner"),
        ("give a for b", "starts with 'offer'"),
    ],
)
def test_bad_offer_lines_say_why(line: str, message: str) -> None:
    with pytest.raises(OfferError, match=message):
        parse_offer(line)


def short(card_id: str) -> str:
    """The recipe half of a card's label ("apple jam"), as a person would type it."""
    return CARDS[card_id].label.split(" (")[0]


def run_turn(st, lines: str):
    """Let seat 0 (a person typing ``lines``) choose, and send every step of its choice."""
    out = io.StringIO()
    agent = ConsoleAgent(
        0, GAME, stdin=io.StringIO(lines), stdout=out, show_table=lambda obs, seat: "TABLE"
    )
    first = agent.act(seat_view(st, 0))
    sent = [first]
    st.apply_action(first)
    while agent.queued:
        sent.append(agent.act(seat_view(st, 0)))
        st.apply_action(sent[-1])
    return sent, out.getvalue()


def test_one_line_offer_previews_and_sends_the_step_by_step_moves() -> None:
    st, mine, theirs = twins_position()
    twin, other = CARDS[mine[0]].label, CARDS[mine[3]].label
    # cards named in the reverse of the order the rules build a side in, copies with "2x"
    line = f"offer 3 cards: {other}, 2x {twin} for seat 1's {short(theirs[0])}\nsend\n"
    sent, text = run_turn(st, line)
    points = CARDS[mine[0]].points, CARDS[mine[3]].points
    assert f"Seat 1 gets from you: {other} {points[1]}pt" in text
    assert f"2 × {twin} {points[0]}pt" in text and " points in all)" in text
    assert "You get from seat 1:" in text
    assert st.current_player() == 1 and st.trade["stage"] == "respond"
    assert sorted(CARDS[c].label for c in st.trade["mine"]) == sorted([twin, twin, other])
    assert [CARDS[c].label for c in st.trade["theirs"]] == [CARDS[theirs[0]].label]
    assert st.proposals == 1
    names = [a.name for a in sent]
    assert names[0] == "propose a trade to seat 1" and names[-1] == "propose"


def real_trade_step():
    """A random 2-player game (with its whole record) at seat 0's trade step, both seats
    holding made recipes."""
    for seed in range(40):
        st = GAME.new_initial_state(GAME.validate_params({"players": 2}), seed=seed)
        bots = [RandomAgent(0, GAME), RandomAgent(1, GAME)]
        while not st.is_terminal():
            starts = any(a.get("trade") == "start" for a in st.legal_actions())
            if st.current_player() == 0 and starts and len(st.made[0]) >= 2 and st.made[1]:
                return st
            step(st, bots)
    raise AssertionError("no trade step found")  # pragma: no cover


def test_a_sent_offer_is_recorded_as_step_moves_and_the_record_replays() -> None:
    st = real_trade_step()
    give = [CARDS[r["card"]].label for r in st.made[0]][::-1]  # against the rules' order
    get = CARDS[st.made[1][0]["card"]].label
    sent, _ = run_turn(st, f"offer {', '.join(give)} for seat 1's {get}\nsend\n")
    assert [e["action"]["name"] for e in st.history[-len(sent) :]] == [a.name for a in sent]
    assert sorted(CARDS[c].label for c in st.trade["mine"]) == sorted(give)
    replayed = state_from_json(st.to_json())
    assert replayed.digest() == st.digest() and replayed.proposals == 1


def test_cancelling_before_sending_uses_no_proposal() -> None:
    st, mine, theirs = twins_position()
    offer = f"offer {CARDS[mine[3]].label} for seat 1's {short(theirs[0])}"
    history = len(st.history)
    # an offer typed, cancelled; then one opened from the menu and cancelled; then one sent
    lines = f"{offer}\ncancel\npropose a trade to seat 1\ncancel\n{offer}\nsend\n"
    sent, text = run_turn(st, lines)
    assert text.count("nothing was sent, no proposal used") == 2
    assert len(st.history) == history + len(sent)  # nothing of the cancelled offers reached it
    assert st.proposals == 1 and st.trade["stage"] == "respond"
    act(st, "refuse")
    assert st.proposals == 1 and any(a.get("trade") == "start" for a in st.legal_actions())


def test_an_offer_is_edited_before_it_is_sent() -> None:
    st, mine, theirs = twins_position()
    twin, other = CARDS[mine[0]].label, CARDS[mine[3]].label
    lines = (
        f"offer {twin}, {other} for seat 1's {short(theirs[0])}\n"
        f"take back my {other}\n"
        f"give my {CARDS[mine[2]].label}\n"
        "undo\n"
        "send\n"
    )
    _, text = run_turn(st, lines)
    assert [CARDS[c].label for c in st.trade["mine"]] == [twin]
    assert text.count("Seat 1 gets from you:") == 4  # a preview after every change


def test_an_offer_that_does_not_fit_the_table_is_explained_and_nothing_is_sent() -> None:
    st, mine, theirs = twins_position()
    lines = (
        f"offer 3x {CARDS[mine[0]].label} for seat 1's {short(theirs[0])}\n"
        "offer seat 1's banana for nothing\n"
        "offer for seat 1's pie\n"
        "cancel\n"
        "put\n"
    )
    out = io.StringIO()
    agent = ConsoleAgent(0, GAME, stdin=io.StringIO(lines), stdout=out)
    with pytest.raises(QuitRequest):  # end of input at the last list: nothing was chosen
        agent.act(seat_view(st, 0))
    text = out.getvalue()
    assert "you have only 2 ×" in text and "no recipe matching 'banana'" in text
    assert st.proposals == 0 and st.trade is None


def test_offer_lines_are_read_only_where_a_trade_can_open() -> None:
    from card_games.terminal.input_jam import JamInput

    st, mine, theirs = twins_position()
    act(st, "propose a trade to seat 1")  # the build stage: no trade can be opened here
    said = JamInput().typed(seat_view(st, 0), f"offer {CARDS[mine[3]].label}", None)
    assert said == "No trade now: a proposal is under way; answer or finish it first."


class FirstListed(io.TextIOBase):
    """A person who always types the number of the first move listed since the last prompt
    (never anything else): a dialogue whose first listed move is refused traps them."""

    def __init__(self, screen: io.StringIO, opening: list[str], limit: int = 40) -> None:
        self.screen, self.opening, self.left = screen, opening, limit

    def readline(self, size: int = -1) -> str:
        if self.opening:
            return self.opening.pop(0) + "\n"
        self.left -= 1
        if self.left < 0:
            return ""  # end of input: the test fails with QuitRequest
        tail = re.split(r"\S+> ", self.screen.getvalue())[-2]  # since the last answer
        return re.findall(r"^\s*(\d+)\.\s", tail, re.MULTILINE)[0] + "\n"


@pytest.mark.parametrize("answer", ["first listed", "always 1"])
def test_an_empty_offer_is_not_sendable_and_the_first_listed_move_goes_forward(
    answer: str,
) -> None:
    st, mine, theirs = twins_position()
    out = io.StringIO()
    opening = ["propose a trade to seat 1", "send"]
    stdin = (
        FirstListed(out, opening)
        if answer == "first listed"
        else io.StringIO("\n".join([*opening, *["1"] * 5]) + "\n")
    )
    agent = ConsoleAgent(0, GAME, stdin=stdin, stdout=out, show_table=lambda obs, seat: "T")
    st.apply_action(agent.act(seat_view(st, 0)))
    while agent.queued:
        st.apply_action(agent.act(seat_view(st, 0)))
    text = out.getvalue()
    opened = text[text.index("Offer to seat 1") : text.index("offer> ")]
    assert "send the offer" not in opened  # nothing to send: not listed
    assert "Nothing to send yet: add a card to give or to ask for first" in text
    assert "  0. send the offer" in text  # listed first once the offer holds a card
    assert st.trade["stage"] == "respond" and st.proposals == 1 and st.trade["mine"]


def test_save_inside_the_offer_editor_warns_and_keeps_the_offer() -> None:
    st, mine, theirs = twins_position()
    offer = f"offer {CARDS[mine[3]].label} for seat 1's {short(theirs[0])}"
    sent, text = run_turn(st, f"{offer}\nsave\nquit\nsend\n")
    assert "'save' now drops your unsent offer" in text
    assert "'quit' now drops your unsent offer" in text
    assert st.trade["stage"] == "respond" and [CARDS[c].label for c in st.trade["mine"]] == [
        CARDS[mine[3]].label
    ]
