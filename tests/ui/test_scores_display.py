"""Scores say the same thing everywhere: the panel's header and cells, the round and end tables and
`jamsumo match`'s table use one set of words (rules.scoring.score_words) in every mode."""

from __future__ import annotations

import re

import pygame
import pytest

from jamsumo_sim.rules import scoring
from jamsumo_sim.rules.match_cli import score_lines
from jamsumo_sim.ui.match_session import new_match
from jamsumo_sim.ui.panel import draw_panel, draw_table, font
from jamsumo_sim.ui.theme import load_theme

SHOTS = "/tmp/jamsumo-shots"


def _number(text: str) -> int:
    return int(text.replace("−", "-"))


def scripted(mode: str, results):
    session = new_match(mode, ["human", "human"], 1)
    session.state.results = list(results)
    return session


@pytest.mark.parametrize(
    ("mode", "results", "head", "better"),
    [
        ("jam", [{"mode": "jam", "scores": [4, 0], "capped": False}], "penalties", "lowest"),
        ("sumo", [{"mode": "sumo", "scores": [9, 3], "capped": False}], "points", "highest"),
        ("jamsumo", [{"mode": "jam", "scores": [4, 0], "capped": False}], "score", "highest"),
    ],
)
def test_panel_header_cells_and_rule_agree(mode, results, head, better):
    session = scripted(mode, results)
    theme = load_theme()
    info = session.panel(theme)
    assert info.score_head == head
    assert f"{better} wins" in info.round_text
    totals = session.state.totals()
    current = session.state.current_scores()
    for row in info.players:
        m = re.fullmatch(r"(−?\d+) \(([+−]\d+)\)", row.score)
        assert m, row.score
        assert _number(m.group(1)) == totals[row.seat]
        # the bracket is what the round in play adds to this very total
        change = _number(m.group(2).replace("+", ""))
        assert change == scoring.contribution(mode, session.state.mode, current[row.seat])
    if mode == "jamsumo":
        # a JamSumo Jam round takes points away: −4 is behind 0, and the panel says so
        assert [r.score.split()[0] for r in info.players] == ["−4", "0"]
        assert all("(−" in r.score for r in info.players)
        assert "Sumo points − Jam penalties" in info.round_text


def test_end_table_and_match_cli_say_the_same(tmp_path):
    results = [
        {"mode": "jam", "scores": [4, 10], "capped": False},
        {"mode": "sumo", "scores": [9, 3], "capped": False},
    ]
    session = scripted("jamsumo", results)
    session.state.over = True
    table = session.match_table()
    assert table.header == ("player", "R1 Jam −penalties", "R2 Sumo +points", "score")
    assert table.rows[0] == ("Red", "−4", "+9", "5")
    assert table.rows[1] == ("Blue", "−10", "+3", "−7")
    assert "highest wins" in table.footer and "Red" in table.footer
    names = ["Red", "Blue"]
    summary = {"rounds": results, "totals": session.state.totals()}
    text = score_lines("jamsumo", names, summary)
    assert "score = Sumo points − Jam penalties (highest wins): Red 5, Blue −7" in text
    assert "round 1 jam: penalties Red 4, Blue 10 → Red −4, Blue −10" in text
    jam = score_lines("jam", names, {"rounds": results[:1], "totals": [4, 10]})
    assert "total penalties (lowest wins): Red 4, Blue 10" in jam
    # look at it: the end table and the panel as drawn
    pygame.init()
    font.cache_clear()  # fonts made before an earlier test's pygame.quit() are dead
    surf = pygame.Surface((1024, 640))
    theme = load_theme()
    draw_table(surf, pygame.Rect(0, 0, 700, 640), table, theme)
    draw_panel(surf, pygame.Rect(724, 0, 300, 640), session.panel(theme), theme)
    from pathlib import Path

    Path(SHOTS).mkdir(exist_ok=True)
    pygame.image.save(surf, str(Path(SHOTS) / "scores.png"))
