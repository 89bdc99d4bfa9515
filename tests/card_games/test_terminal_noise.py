"""Less noise at the card table (issue 35): typos get a suggestion, JumbleJack's secret pirate is
worded without ambiguity and a Piece of Eight that is gone is not revealed as "none"."""

from __future__ import annotations

from typing import Any

import pytest

from card_games.cli import build_agents
from card_games.jumblejack import render as jj_render
from card_games.registry import resolve
from card_games.terminal.input import Menu, did_you_mean
from jamsumo_sim.turnloop import play
from jamsumo_sim.turnloop.actions import Action


def menu_of(*names: str) -> Menu:
    menu = Menu()
    menu.show([Action.make(n) for n in names], continuing=False)
    return menu


@pytest.mark.parametrize(
    ("typed", "suggested"),
    [("mkae", "make"), ("qiut", "quit"), ("pass tunr", "pass turn"), ("bkae 3", "bake")],
)
def test_a_typo_gets_did_you_mean(typed: str, suggested: str) -> None:
    menu = menu_of("make jam", "bake pie", "pass turn")
    if typed == "mkae":  # a kind of moves, as the grouped menu names them
        menu = menu_of(*(f"make jam {i}" for i in range(3)), "pass turn")
    answer = menu.resolve(typed)
    print(answer)
    assert isinstance(answer, str) and f"did you mean {suggested!r}?" in answer


def test_nothing_close_gets_no_guess() -> None:
    menu = menu_of("make jam", "pass turn")
    assert did_you_mean("xylophone", menu.lines) == ""
    assert "did you mean" not in str(menu.resolve("xylophone"))


def _finished_jumblejack() -> Any:
    game = resolve("jumblejack")
    agents = build_agents(game, 4, "random,random,random,random", False)
    return play(game, agents, seed=3, params={"players": 4}).state


def test_secret_pirate_and_gone_piece_of_eight() -> None:
    state = _finished_jumblejack()
    real = state.full_state()
    assert real["tokens"][0] is None  # this game's Pieces of Eight are gone by the end
    reveal = jj_render.report(state)["reveal"]
    print(reveal)
    assert "Piece of Eight" not in reveal[0]  # was "Piece of Eight: none"
    assert all(" wears " in row["pirate"] for row in reveal if row["pirate"] != "none")
    table = "\n".join(
        str(part) for part in jj_render.build(state.game, state.observation(0), 0, jj_render.Look())
    )
    print(table)
    assert "Your secret pirate wears" in table and "secret pirate:" not in table
