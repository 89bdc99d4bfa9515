"""Things a person met playing the installed `card-games` (QA report): the seat a bot takes
without a terminal, the step named as the rules allow it, The Jam's offer editor (undo, why no
offer, points said once), `play --help` and `--json`'s game name, Jelly Fish in 60 columns."""

from __future__ import annotations

import io
import json

import pytest

from card_games.jellyfish.render import _partial, deck_of
from card_games.registry import resolve
from card_games.terminal.display import TableDisplay
from card_games.terminal.table import Look
from card_games.the_jam import GAME
from card_games.the_jam.trade_parse import Bundle, describe_offer
from jamsumo_sim.turnloop import ConsoleAgent, RandomAgent, seat_view, step
from jamsumo_sim.turnloop.agents import QuitRequest
from tests.card_games.test_move_input import twins_position
from tests.card_games.the_jam.helpers import CARDS, filler, pick, position


def _typed(st, lines: str) -> str:  # type: ignore[no-untyped-def]
    """What seat 0 is told typing ``lines`` until its input ends (nothing chosen)."""
    out = io.StringIO()
    agent = ConsoleAgent(0, GAME, stdin=io.StringIO(lines), stdout=out)
    with pytest.raises(QuitRequest):
        agent.act(seat_view(st, 0))
    return out.getvalue()


def test_no_terminal_says_which_seat_a_bot_plays(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from card_games.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # not a terminal
    args = ["play", "the-jam", "--players", "2", "--variant", "kids", "--json", "--seed", "0"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "seat 0" in lines[0] and "stdin is not a terminal" in lines[0]
    assert "--seats" in lines[0]
    assert json.loads(out)["game"] == "the-jam"  # the name typed, not the registry's "the_jam"


def test_play_help_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    from card_games.cli import build_parser

    play = build_parser()._subparsers._group_actions[0].choices["play"]  # type: ignore[union-attr]
    for action in play._actions:
        if action.option_strings and action.dest != "help":
            assert action.help, action.option_strings


def test_jellyfish_step_is_named_as_the_rules_allow() -> None:
    game = resolve("jellyfish")
    for seed in range(20):
        state = game.new_initial_state(game.validate_params({"players": 2}), seed)
        agents = [RandomAgent(s, game) for s in range(2)]
        while not state.is_terminal():
            obs = state.observation(None)
            if not state.is_chance_node() and obs["step"] in ("steal", "cover"):
                seat = state.current_player()
                text = TableDisplay(game, Look(width=100)).show(state.observation(seat), seat)
                status = next(ln for ln in text.splitlines() if "step:" in ln)
                moves = {a.name.split()[0] for a in state.legal_actions()}
                assert moves == {obs["step"]}, moves  # no skip move exists...
                assert "skip" not in status and "compulsory" in status  # ...nor is offered
                return
            step(state, agents)
    raise AssertionError("no steal or cover decision found")  # pragma: no cover


def test_jellyfish_partial_sets_read_whole_at_60_columns() -> None:
    game = resolve("jellyfish")
    state = game.new_initial_state(game.validate_params({"players": 4}), 5)
    agents = [RandomAgent(s, game) for s in range(4)]
    while len(state.history) < 40:
        step(state, agents)
    obs = state.observation(0)
    text = TableDisplay(game, Look(width=60)).show(obs, 0)
    assert max(len(line) for line in text.splitlines()) <= 60
    deck = deck_of(game, obs)
    partials = [_partial(deck, e) for t in obs["tables"] for e in t["partial"]]
    assert partials and all(any(p in line for line in text.splitlines()) for p in partials)


def test_undo_after_a_typed_offer_goes_back_to_empty_then_says_nothing_is_left() -> None:
    st, mine, theirs = twins_position()
    other = CARDS[mine[3]].label
    text = _typed(st, f"offer my {other} for seat 1's {CARDS[theirs[0]].label}\nundo\nundo\n")
    after = text.split("offer> ", 1)[1]
    assert "Seat 1 gets from you: nothing" in after  # the typed offer undone
    assert "Nothing to undo" in after


def test_an_offer_at_a_step_without_trades_says_why() -> None:
    hand = filler(2, [])
    st = position(hands=[hand[:1], hand[1:]], deck=filler(4, hand)[2:])  # no made recipes
    assert st.step == "play"
    jam = CARDS[pick(lambda c: c.kind != "pie" and c.is_recipe)].label
    text = _typed(st, f"offer {jam} to seat 1 for nothing\n")
    assert "not a legal move" not in text
    assert "No trade now: trades are of made recipes and you have none" in text


def test_offer_preview_says_each_cards_points_once() -> None:
    one = describe_offer(
        Bundle(1, ("gooseberry jam (cherry)",), ()), {"gooseberry jam (cherry)": 3}
    )
    assert one[0] == "Seat 1 gets from you: gooseberry jam (cherry) 3pt"
    two = describe_offer(Bundle(1, ("a", "a", "b"), ()), {"a": 3, "b": 2})
    assert two[0] == "Seat 1 gets from you: 2 × a 3pt, b 2pt (8 points in all)"
