"""The terminal tables (issue 19): every prompt shows whose turn and what step, the running
score, the events since the person last looked (each once), lines that fit the terminal, cards
with their values; colour only repeats what the words say; JumbleJack hides earlier statements
unless ``--aid``."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from card_games.registry import resolve
from card_games.terminal.display import TableDisplay
from card_games.terminal.table import Look
from jamsumo_sim.turnloop import RandomAgent, step
from jamsumo_sim.turnloop.recording import load_record

from .tables_helpers import play_as_person

ANSI = re.compile(r"\x1b\[")


def test_each_event_is_shown_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Jumble Jam printed every event twice (streamed as it happened, then again in the table's
    recent log): now each public event appears at most as often as it happened."""
    record = tmp_path / "game.json"
    out = play_as_person(monkeypatch, tmp_path, "jumble-jam", "--record", str(record))
    state, _ = load_record(record)
    # lines short enough never to wrap at 80 columns (a wrapped one is not found as a whole)
    happened = Counter(line for line in state.log_for(0) if len(line) < 60)
    shown = Counter()
    for line in out.splitlines():
        text = line.strip().removeprefix("- ").strip()
        if text in happened:
            shown[text] += 1
    assert sum(shown.values()) >= 0.95 * sum(happened.values()), "events go missing"
    twice = {line: n for line, n in shown.items() if n > happened[line]}
    assert not twice, f"shown more often than they happened: {list(twice)[:3]}"


@pytest.mark.parametrize("game", ["jellyfish", "jumble-jam", "jumblejack", "the-jam"])
def test_tables_fit_the_width_and_carry_no_colour_when_piped(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: str,
) -> None:
    tables: list[str] = []  # every table drawn (the move menus around them are not ours)
    for name in ("show", "end"):
        original = getattr(TableDisplay, name)

        def spy(self, *args, _original=original):  # type: ignore[no-untyped-def]
            text = _original(self, *args)
            tables.append(text)
            return text

        monkeypatch.setattr(TableDisplay, name, spy)
    out = play_as_person(monkeypatch, tmp_path, game, width=72)
    assert not ANSI.search(out), "colour codes in piped output"
    assert len(tables) > 3 and all(table in out for table in tables)
    wide = [ln for table in tables for ln in table.splitlines() if len(ln) > 72]
    assert not wide, wide[:3]
    assert all("to move" in table for table in tables[:-1])  # whose turn, at every prompt
    assert "GAME OVER" in tables[-1]


def _midgame(name: str, players: int, moves: int, variant: str | None = None):  # type: ignore[no-untyped-def]
    game = resolve(name)
    params = game.validate_params({"players": players, "variant": variant or game.variants[0]})
    state = game.new_initial_state(params, 5)
    agents = [RandomAgent(s, game) for s in range(players)]
    while len(state.history) < moves and not state.is_terminal():
        step(state, agents)
    return game, state


@pytest.mark.parametrize(
    ("name", "players", "score_words"),
    [
        ("jellyfish", 4, ["sets", "face-up", "step:"]),
        ("jumble_jam", 4, ["coins", "jars left", "exact"]),
        ("jumblejack", 5, ["Rings", "top card"]),
        ("the_jam", 3, ["points showing", "Your score if the game ended now", "step:"]),
    ],
)
def test_every_prompt_shows_turn_step_and_score(
    name: str, players: int, score_words: list[str]
) -> None:
    game, state = _midgame(name, players, 40)
    text = TableDisplay(game, Look(width=80)).show(state.observation(0), 0)
    assert "(you)" in text and "to move" in text
    for word in score_words:
        assert word in text, word
    assert max(len(line) for line in text.splitlines()) <= 80


def test_the_jam_cards_show_points_and_what_the_brackets_mean() -> None:
    game, state = _midgame("the_jam", 2, 30)
    obs = state.observation(0)
    text = game.render(obs, 0)
    hand = [game.cards.cards[c] for c in obs["hand"] if game.cards.cards[c].is_recipe]
    assert hand, "a hand with recipes"
    for card in hand:
        assert f"{card.label} {card.points}pt" in text.replace("\n    ", " ")
    assert "the fruit in brackets is its ingredient" in text


def test_colour_repeats_the_words_and_plain_has_none() -> None:
    game, state = _midgame("jellyfish", 3, 20)
    obs = state.observation(0)
    coloured = TableDisplay(game, Look(plain=False, width=90)).show(obs, 0)
    plain = TableDisplay(game, Look(plain=True, width=90)).show(obs, 0)
    assert ANSI.search(coloured) and not ANSI.search(plain)
    assert ANSI.sub("", re.sub(r"\x1b\[[0-9;]*m", "", coloured)).count("(you)") == 1
    assert plain.count("(you)") == 1 and plain.count("to move") == 1


def _earlier_statement(state) -> tuple[int, str] | None:  # type: ignore[no-untyped-def]
    """A seat's statement that is no longer on top of its stack, as the aid words it."""
    obs = state.observation(0)
    for seat in range(obs["players"]):
        said = [d for d in obs["declarations"] if d["seat"] == seat and d["card"]]
        if len(said) >= 2:
            old, top = said[0], said[-1]
            if (old["accessory"], old["has"]) != (top["accessory"], top["has"]):
                verb = "has" if old["has"] else "has no"
                return seat, f"r{old['round']}: {verb} {old['accessory']}"
    return None


def test_jumblejack_hides_earlier_statements_unless_aid() -> None:
    game, state = _midgame("jumblejack", 4, 10)
    found = None
    while found is None and not state.is_terminal():
        step(state, [RandomAgent(s, game) for s in range(4)])
        found = _earlier_statement(state)
    assert found is not None
    _, words = found
    obs = state.observation(0)
    bare = words.split(": ", 1)[1]  # "has no cloak": how the old "said:" line put it
    assert bare not in game.render(obs, 0).split("Recent events:")[0]
    assert words in TableDisplay(game, Look(width=140, aid=True)).show(obs, 0)
    assert "--aid lists every statement" in game.render(obs, 0)


def test_json_output_is_unchanged_by_the_display(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from card_games.cli import main

    args = ["play", "jumblejack", "--players", "4", "--seats", "random,random,random,random"]
    args += ["--seed", "0"]  # the same game both times: only the display differs
    assert main([*args, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*args, "--json", "--plain", "--aid"]) == 0
    assert json.loads(capsys.readouterr().out) == plain
