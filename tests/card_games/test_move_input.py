"""Typing moves at the terminal: numbers that stay put within a step, typed names, grouped and
filtered lists, and the moves of a several-step choice sent one by one (scripted input, no tty)."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field

from card_games.terminal.input import (
    LONG_LIST,
    CardInput,
    Extension,
    MenuLine,
    MoveNumbers,
    fit,
    format_menu,
)
from card_games.the_jam import GAME
from card_games.the_jam.cards import JAM, PIE, SALAD
from jamsumo_sim.turnloop import Action, ConsoleAgent, seat_view
from jamsumo_sim.turnloop.agents import MAX_TYPED_LINE, QuitRequest
from tests.card_games.the_jam.helpers import CARDS, act, filler, names, pick, position


def person(lines: str, seat: int = 0) -> tuple[ConsoleAgent, io.StringIO]:
    out = io.StringIO()
    agent = ConsoleAgent(
        seat, GAME, stdin=io.StringIO(lines), stdout=out, show_table=lambda obs, s: "TABLE"
    )
    return agent, out


def twins_position():
    """Seat 0 holds two copies of one recipe and two other recipes; seat 1 a pie."""
    labels = Counter(c.label for c in CARDS.values() if c.kind in (JAM, SALAD))
    twin = next(lbl for lbl, k in labels.items() if k >= 2)
    mine = [c.id for c in CARDS.values() if c.label == twin][:2]
    while len(mine) < 4:
        mine.append(pick(lambda c: c.is_recipe and c.label not in {CARDS[x].label for x in mine}))
    theirs = [pick(lambda c: c.kind == PIE, mine)]
    other = filler(6, [*mine, *theirs])
    st = position(hands=[other[:1], other[1:2]], made=[mine, theirs], deck=other[3:5])
    return st, mine, theirs


def test_a_number_typed_twice_never_picks_another_move() -> None:
    # the reported bug: at a proposal's build step "2" added a recipe, then the list shifted
    # and the same "2" cancelled the proposal
    st, mine, _ = twins_position()
    act(st, "propose a trade to seat 1")  # the step-by-step build, as after a failed send
    agent, out = person("2\n2\n3\n")
    second = names(st)[1]
    for _ in range(2):
        st.apply_action(agent.act(seat_view(st, 0)))
    assert st.trade is not None, "the second '2' cancelled the proposal"
    assert second.startswith("give my") and len(st.trade["mine"]) == 2
    assert f"Move 2 ({second}) is no longer possible" in out.getvalue()


def test_a_retired_number_says_so_and_new_moves_get_new_numbers() -> None:
    numbers = MoveNumbers()
    a, b, c = (Action.make(n) for n in ("cancel", "give my plum jam", "give my fig pie"))
    assert numbers.assign([a, b], continuing=False) == [1, 2]
    assert numbers.assign([a, c], continuing=True) == [1, 3]
    assert numbers.retired(2) == "give my plum jam"
    assert numbers.assign([c], continuing=False) == [1]  # another step: numbered afresh


def test_typed_names_in_words_and_a_word_lists_the_moves_it_matches() -> None:
    st, mine, _ = twins_position()
    hand = CARDS[st.hands[0][0]].label
    words = hand.replace("(", "").replace(")", "").split()
    # one word: the matching moves are listed with their numbers; then the name in other words
    agent, out = person("put\n" + " ".join(reversed(words)) + " in basket put\n")
    action = agent.act(seat_view(st, 0))
    assert action.get("play") == "ingredient" and CARDS[action["pick"]].label == hand
    text = out.getvalue()
    assert "match 'put'" in text and f". put {hand} in the basket" in text


def test_long_lists_are_grouped_by_kind_and_big_groups_folded() -> None:
    actions = [Action.make(f"make jam {i}") for i in range(20)]
    actions += [Action.make(f"put card {i} in the basket") for i in range(3)]
    lines = [MenuLine(i + 1, a) for i, a in enumerate(actions)]
    text = format_menu(lines)
    assert len(lines) > LONG_LIST
    assert "make (20):" in text and "put (3):" in text
    assert "18 more: type 'make' to list them" in text
    assert "21. put card 0 in the basket" in text  # small groups shown whole
    assert len(text.splitlines()) < 12
    assert "20. make jam 19" in format_menu(lines, everything=True)


def test_the_rest_of_a_move_is_sent_unasked_and_dropped_if_no_longer_legal() -> None:
    st, mine, theirs = twins_position()
    line = f"offer {CARDS[mine[3]].label} for seat 1's {CARDS[theirs[0]].label}\nsend\n"
    agent, out = person(line)
    first = agent.act(seat_view(st, 0))
    assert first.get("trade") == "start" and agent.queued == 3
    before = out.getvalue()
    st.apply_action(first)
    st.apply_action(agent.act(seat_view(st, 0)))
    assert out.getvalue() == before  # no prompt, no table for a step already chosen
    assert agent.queued == 2
    # a queued step that is not legal (the table changed under it) is dropped and the person asked
    agent._queue = [Action.make("no such move")]
    agent.stdin = io.StringIO("cancel\n")
    assert agent.act(seat_view(st, 0)).get("trade") == "cancel"
    assert "was not sent" in out.getvalue()


def test_an_overlong_line_is_dropped_whole_and_the_person_asked_again() -> None:
    st, _, _ = twins_position()
    # without a bound the pasted line would be read whole, and its tail never as a move
    agent, out = person("put " * (MAX_TYPED_LINE // 2) + "\nput\n1\n")
    action = agent.act(seat_view(st, 0))
    assert action.get("play") == "ingredient"
    assert f"over {MAX_TYPED_LINE} characters; it was ignored" in out.getvalue()


def test_hot_seat_view_is_wiped_after_the_last_step_of_a_move() -> None:
    st, mine, theirs = twins_position()
    out = io.StringIO()
    line = f"\noffer {CARDS[mine[3]].label} for seat 1's {CARDS[theirs[0]].label}\nsend\n"
    agent = ConsoleAgent(
        0, GAME, stdin=io.StringIO(line), stdout=out, handover=True, show_table=lambda o, s: "T"
    )
    st.apply_action(agent.act(seat_view(st, 0)))
    assert not out.getvalue().endswith("Seat 0 has moved.\n")  # more of the move to come
    while agent.queued:
        st.apply_action(agent.act(seat_view(st, 0)))
    assert out.getvalue().endswith(ConsoleAgent.CLEAR + "Seat 0 has moved.\n")


class Screen:
    """A console for ``CardInput`` alone: scripted answers, what is said kept."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.stdout = io.StringIO()

    def ask(self, prompt: str) -> str:
        if not self.answers:
            raise QuitRequest()
        return self.answers.pop(0)

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def show_view(self, view) -> None:  # pragma: no cover - not called by the menu
        pass


@dataclass
class StubView:
    seat: int
    history_length: int
    legal_actions: list[Action]
    observation: dict = field(default_factory=dict)

    def parse(self, text: str) -> None:
        return None


class TwoStep(Extension):
    """A dialogue that turns the first fill into two moves (as a fill or an offer does)."""

    def expand(self, view, action, console):
        return [action, Action.make("second step")] if action.name == "fill O1" else [action]


def test_after_a_dialogue_the_next_list_starts_at_1_again() -> None:
    a, b, c = (Action.make(n) for n in ("fill O1", "fill O2", "pass"))
    menu = CardInput(TwoStep())
    two = menu.decide(StubView(0, 10, [a, b, c]), Screen(["1"]))
    assert two == [a, Action.make("second step")]
    # the same seat next, right after the dialogue's two moves: its "1" is the first listed
    screen = Screen(["1"])
    assert menu.decide(StubView(0, 12, [b, c]), screen) == [b]
    assert "no longer possible" not in screen.stdout.getvalue()
    # a one-move choice keeps the step's numbers: its retired number is refused, list renumbered
    menu = CardInput()
    assert menu.decide(StubView(0, 10, [a, b, c]), Screen(["1"])) == [a]
    screen = Screen(["1", "1"])
    assert menu.decide(StubView(0, 11, [b, c]), screen) == [b]
    assert "Move 1 (fill O1) is no longer possible. The moves, numbered afresh:\n  1. fill O2" in (
        screen.stdout.getvalue()
    )


def test_long_lines_wrap_to_the_tables_width(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")  # the width table.terminal_width gives the tables
    long = Action.make("bake strawberry pie (cherry) from the basket with my strawberry jam")
    screen = Screen(["help", "1"])
    assert CardInput().decide(StubView(0, 1, [long, Action.make("pass")]), screen) == [long]
    said = screen.stdout.getvalue().splitlines()
    assert max(len(line) for line in said) <= 40, said
    start = next(i for i, line in enumerate(said) if line.startswith("  1. bake"))
    assert said[start + 1].startswith("     ") and "strawberry" in said[start + 1]  # under the name
    assert fit("  12. " + "jam " * 30, 40).splitlines()[1].startswith("      jam")
