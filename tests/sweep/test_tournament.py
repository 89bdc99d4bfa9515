"""Tournaments: seats rotated, Wilson intervals, ratings, and the two commands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from card_games.cli import main as cards_main
from jamsumo_sim.cli import main as jamsumo_main
from jamsumo_sim.errors import UserError
from jamsumo_sim.sweep import tournament as T
from jamsumo_sim.turnloop import get_game


def cards_spec(matches: int = 12, lineup=("smart", "random")) -> T.TournamentSpec:
    game = get_game("jellyfish")
    params = game.validate_params(game.default_params(len(lineup)))
    return T.TournamentSpec("jellyfish", tuple(lineup), matches, 5, params)


def test_every_entry_plays_every_seat_equally_often() -> None:
    counts = [[0] * 3 for _ in range(3)]
    for m in range(9):
        for seat, entry in enumerate(T.seating(3, m)):
            counts[entry][seat] += 1
    assert counts == [[3] * 3] * 3


def test_wilson_interval() -> None:
    lo, hi = T.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert T.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert T.wilson(10, 10)[1] == pytest.approx(1.0, abs=1e-12)


def test_summary_is_the_same_whatever_the_chunks() -> None:
    spec = cards_spec()
    text = json.dumps(spec.to_json())
    whole = T.play_matches(text, 0, spec.matches)
    pieces = [r for a in (8, 4, 0) for r in T.play_matches(text, a, min(spec.matches, a + 4))]
    assert T.summarise(spec, pieces) == T.summarise(spec, whole)
    s = T.summarise(spec, whole)
    assert sum(r["wins"] for r in s["bots"]) == pytest.approx(spec.matches)
    smart, rnd = s["bots"]
    assert (smart["win_rate"] > rnd["win_rate"]) == (smart["mu"] > rnd["mu"])


def test_a_bot_twice_gets_two_labels_and_bad_bots_are_refused() -> None:
    assert cards_spec(lineup=("random", "random")).labels() == ["random#1", "random#2"]
    with pytest.raises(UserError, match="unknown bot"):
        T.check(cards_spec(lineup=("smart", "genius")))
    with pytest.raises(UserError, match="players"):
        T.check(cards_spec(lineup=("smart",) * 9))


def test_card_games_tournament_command(tmp_path: Path, capsys) -> None:
    out = tmp_path / "t"
    args = ["tournament", "jellyfish", "--matches", "6", "--seed", "2", "--json"]
    assert cards_main([*args, "--out", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert [b["bot"] for b in summary["bots"]] == ["smart", "random"]
    saved = json.loads((out / "tournament.json").read_text())
    assert len(saved["records"]) == 6 and saved["spec"]["seed"] == 2
    assert (out / "tournament.png").read_bytes()[:4] == b"\x89PNG"


def test_jamsumo_tournament_command(capsys) -> None:
    args = ["tournament", "--mode", "jam", "--rounds", "1", "--max-turns", "2"]
    args += ["--seed", "0"]
    assert jamsumo_main([*args, "--seats", "random,random", "--matches", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["game"] == "jam" and sum(b["games"] for b in summary["bots"]) == 4
