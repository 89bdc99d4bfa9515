"""`card-games export RECORD --out game.html`: the game's log and final table as a readable page."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

import pytest

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
    assert "http" not in text and not re.search(r"<(script|link|img)[^>]+(src|href)=", text)
    assert "<title>Jelly Fish Toast &amp; Jam" in text  # escaped, not raw markup
    assert parser.items == state.log_for(None)  # the whole public log, in order
    winners = state.winners()
    assert f'Winner: <span class="win">{" and ".join(f"seat {s}" for s in winners)}' in text
    assert text.count("<tr>") >= 2 * (state.num_players + 1)  # breakdown and reveal tables
    assert html.escape("Final table") in text and 'id="final-table"' in text
    assert "wrote" in capsys.readouterr().out


def _record(tmp_path, game: str = "jellyfish", players: int = 3, seed: int = 5):
    record = tmp_path / f"{game}.json"
    args = ["play", game, "--players", str(players), "--seed", str(seed), "--json"]
    assert main([*args, "--record", str(record)]) == 0
    out = tmp_path / f"{game}.html"
    assert main(["export", str(record), "--out", str(out)]) == 0
    return record, out


def _steps(page) -> list[dict]:
    text = page.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="steps-data">(.*?)</script>', text, re.S)
    return json.loads(blob.group(1).replace("<\\/", "</"))


@pytest.mark.parametrize(("game", "players"), [("jellyfish", 3), ("the-jam", 2), ("jumblejack", 4)])
def test_the_page_holds_every_step_of_the_game(tmp_path, game, players):
    # issue 35: "the HTML export of a card game is static: make it step through the game"
    record, page = _record(tmp_path, game, players)
    state, data = load_record(record)
    steps = _steps(page)
    moves = sum(1 for h in data["history"] if "chance" not in h)
    assert len(steps) - 1 in (moves, moves + 1)  # a step per move (and a closing deal, if any)
    # every public event in exactly one step, in order; the last step is the final table
    assert [line for s in steps for line in s["events"]] == state.log_for(None)
    assert steps[0]["move"] == "start" and steps[1]["move"].startswith("seat")
    assert len({s["table"] for s in steps}) > len(steps) // 2  # the table changes as play goes
    final = steps[-1]["table"]
    assert final.splitlines()[0].strip() and all(len(line) <= 100 for line in final.splitlines())
    # nothing hidden: a spectator's view (Jelly Fish: no face-down Cover card named mid-game)
    if game == "jellyfish":
        assert all(
            "[covered:" not in s["table"] for s in steps[:-1] if "Game over" not in s["table"]
        )


def test_the_stepper_steps_in_a_browser(tmp_path):
    from tests.export.browser import Browser, chromium_or_skip

    _, page = _record(tmp_path)
    steps = _steps(page)
    browser = Browser(chromium_or_skip(), tmp_path / "profile")
    try:
        browser.call("Page.navigate", url=page.resolve().as_uri())
        browser.wait_for(
            "!!document.getElementById('stepper') && !document.getElementById('stepper').hidden"
        )
        at = lambda: int(browser.evaluate("document.getElementById('stepper').dataset.step"))  # noqa: E731
        shown = lambda: browser.evaluate("document.getElementById('step-table').textContent")  # noqa: E731
        assert at() == 0 and shown() == steps[0]["table"]
        browser.click("#next")
        browser.click("#next")
        assert at() == 2 and shown() == steps[2]["table"]
        events = browser.evaluate(
            "[...document.querySelectorAll('#step-events li')].map(l => l.textContent)"
        )
        assert events == steps[2]["events"]
        browser.click("#prev")
        assert at() == 1
        browser.key("ArrowRight", "ArrowRight")
        browser.key("ArrowRight", "ArrowRight")
        assert at() == 3
        browser.key("End", "End")
        assert at() == len(steps) - 1 and shown() == steps[-1]["table"]
        browser.evaluate(
            "(() => { const s = document.getElementById('step-slider'); s.value = '5'; "
            "s.dispatchEvent(new Event('input')); })()"
        )
        assert at() == 5 and shown() == steps[5]["table"]
        browser.key("Home", "Home")
        assert at() == 0
        assert browser.evaluate("document.getElementById('prev').disabled") is True
    finally:
        browser.close()
