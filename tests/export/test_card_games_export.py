"""`card-games export RECORD --out game.html`: the game's log and final table as a readable page."""

from __future__ import annotations

import html
from html.parser import HTMLParser

from card_games.cli import main
from jamsumo_sim.turnloop.recording import load_record


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.items: list[str] = []
        self._in_li = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self._in_li = tag == "li"
        if tag == "li":
            self.items.append("")

    def handle_endtag(self, tag):
        if tag == "li":
            self._in_li = False

    def handle_data(self, data):
        if self._in_li:
            self.items[-1] += data


def test_finished_game_page(tmp_path, capsys):
    record = tmp_path / "jelly.json"
    assert (
        main(
            [
                "play",
                "jellyfish",
                "--players",
                "3",
                "--seed",
                "5",
                "--record",
                str(record),
                "--json",
            ]
        )
        == 0
    )
    out = tmp_path / "jelly.html"
    assert main(["export", str(record), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    state, _ = load_record(record)
    parser = _Text()
    parser.feed(text)
    assert "script" not in parser.tags and "http" not in text  # a plain, offline page
    assert "<title>Jelly Fish Toast &amp; Jam" in text  # escaped, not raw markup
    assert parser.items == state.log_for(None)  # the whole public log, in order
    winners = state.winners()
    assert f'Winner: <span class="win">{" and ".join(f"seat {s}" for s in winners)}' in text
    assert text.count("<tr>") >= 2 * (state.num_players + 1)  # breakdown and reveal tables
    assert html.escape("Final table") in text and 'id="final-table"' in text
    assert "wrote" in capsys.readouterr().out
