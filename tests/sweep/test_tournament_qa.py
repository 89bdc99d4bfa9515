"""Tournament and sweep commands as a user meets them (QA): exact interval ends, a core install
without openskill, default line-ups that fill the game, progress only on a terminal, the line
before a Dask cluster starts."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from card_games.cli import main as cards_main
from jamsumo_sim.errors import UserError
from jamsumo_sim.sweep import dask_runner
from jamsumo_sim.sweep import tournament as T

JELLYFISH = ["tournament", "jellyfish", "--matches", "3", "--seed", "1"]


class Terminal(io.StringIO):
    """A stderr that says it is a terminal (tqdm draws on it)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("n", range(1, 60))
def test_wilson_ends_are_exact(n: int) -> None:
    lo, hi = T.wilson(0, n)
    assert lo == 0.0 and 0.0 < hi < 1.0
    lo, hi = T.wilson(n, n)
    assert hi == 1.0 and 0.0 < lo < 1.0
    for wins in (0.5, n / 3, n - 0.5):
        lo, hi = T.wilson(wins, n)
        assert 0.0 <= lo <= wins / n <= hi <= 1.0


def test_plot_clips_error_bars_of_a_rounded_interval() -> None:
    bots = [
        {"bot": "a", "win_rate": 0.0, "ci95": [2.8e-17, 0.4], "rating": 1.0},
        {"bot": "b", "win_rate": 1.0, "ci95": [0.6, 1.0 - 1e-16], "rating": 2.0},
    ]
    png = T.plot({"game": "jam", "matches": 6, "bots": bots})
    assert png[:4] == b"\x89PNG"


def test_a_zero_win_bot_gets_a_zero_interval_end(tmp_path: Path, capsys) -> None:
    # smart wins all three of these jellyfish games: random's interval starts at exactly 0
    argv = [*JELLYFISH, "--json", "--out", str(tmp_path / "t")]
    assert cards_main(argv) == 0
    bots = {b["bot"]: b for b in json.loads(capsys.readouterr().out)["bots"]}
    assert bots["random"]["wins"] == 0 and bots["random"]["ci95"][0] == 0.0
    assert (tmp_path / "t" / "tournament.png").is_file()


def test_without_openskill_win_rates_only(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "openskill", None)  # import openskill fails, as uninstalled
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    assert not T.have_ratings()
    assert cards_main([*JELLYFISH, "--json"]) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    assert [b["rating"] for b in bots] == [None, None] and sum(b["games"] for b in bots) == 6
    assert cards_main(JELLYFISH) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "no ratings: they need openskill" in out


def test_default_lineup_fills_the_game(capsys) -> None:
    argv = ["tournament", "jumblejack", "--matches", "1", "--seed", "0", "--json"]
    assert cards_main(argv) == 0
    bots = json.loads(capsys.readouterr().out)["bots"]
    assert [b["bot"] for b in bots] == ["smart", "random#1", "random#2", "random#3"]


def test_progress_only_on_a_terminal(monkeypatch, capsys) -> None:
    """The bar only on a terminal; the line with the expected time (issue 31) anywhere."""
    assert cards_main(JELLYFISH) == 0  # capsys: stderr is not a terminal
    err = capsys.readouterr().err
    assert err.startswith("card-games: 3 matches, about ") and err.count("\n") == 1, err
    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    assert cards_main(JELLYFISH) == 0
    assert "3/3" in tty.getvalue() and "match" in tty.getvalue()
    tty.seek(0)
    tty.truncate()
    assert cards_main([*JELLYFISH, "--json"]) == 0
    assert tty.getvalue() == ""


def test_a_line_and_an_empty_bar_before_the_cluster_starts(monkeypatch) -> None:
    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)

    def no_cluster(*_args, **_kw):
        raise UserError("no cluster here")

    monkeypatch.setattr(dask_runner, "client_for", no_cluster)
    assert cards_main([*JELLYFISH, "--workers", "2"]) == 2
    shown = tty.getvalue()
    assert shown.index("starting 2 Dask workers…") < shown.index("0/3") < shown.index("no cluster")
    tty.seek(0)
    tty.truncate()
    assert cards_main([*JELLYFISH, "--workers", "2", "--json"]) == 2
    assert "starting" not in tty.getvalue() and "0/3" not in tty.getvalue()


def test_a_card_games_cluster_loads_no_physics_kernels(monkeypatch) -> None:
    """card-games tournament --workers never steps the physics: its cluster is asked not to load
    (or, on a cold cache, compile for ~26 s) the step kernels; a jamsumo tournament's is."""
    asked = []

    def recording(workers, scheduler, physics=True):
        asked.append(physics)
        raise UserError("no cluster here")

    monkeypatch.setattr(dask_runner, "client_for", recording)
    assert cards_main([*JELLYFISH, "--workers", "2", "--json"]) == 2
    from jamsumo_sim.cli import main as jamsumo_main

    args = ["tournament", "--mode", "jam", "--rounds", "1", "--matches", "2", "--seed", "0"]
    assert jamsumo_main([*args, "--workers", "2", "--json"]) == 2
    assert asked == [False, True]
