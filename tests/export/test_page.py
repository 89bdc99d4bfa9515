"""The shared HTML page in a real browser (headless Chromium): it loads from file:// with no network,
its controls step and scrub the match, and its pixels show the dice where the replay puts them."""

from __future__ import annotations

import json
import math
import re

import pytest

from jamsumo_sim.ui.theme import load_theme
from tests.export.browser import Browser, chromium_or_skip
from tests.export.helpers import (
    blob_centre,
    executed_world,
    export,
    positions_after,
    recorded_shot,
)

DATASET = "JSON.stringify(document.getElementById('player').dataset)"


@pytest.fixture(scope="module")
def page(table_replay, tmp_path_factory):
    out = tmp_path_factory.mktemp("page") / "match.html"
    assert export(table_replay, "--out", out) == 0
    return out


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    b = Browser(chromium_or_skip(), tmp_path_factory.mktemp("chromium-profile"))
    yield b
    b.close()


def _data(page) -> dict:
    text = page.read_text(encoding="utf-8")
    blob = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S)
    return json.loads(blob.group(1))


def test_page_is_self_contained(page):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"https?://", text), "the page must not reach the network"
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text)
    data = _data(page)
    assert data["shots"] and all(s["rate"] >= 60 for s in data["shots"])


def _state(browser) -> dict:
    return json.loads(browser.evaluate(DATASET))


def _scrub(browser, value: float) -> None:
    browser.evaluate(
        "(() => { const tl = document.getElementById('timeline'); "
        f"tl.value = '{value!r}'; tl.dispatchEvent(new Event('input')); }})()"
    )


def test_controls_step_play_and_scrub(page, browser):
    browser.open(page)
    state = _state(browser)
    data = _data(page)
    assert state["shot"] == "1" and state["time"] == "0.0000" and state["playing"] == "false"
    assert state["shots"] == str(len(data["shots"]))
    browser.click("#next")
    browser.click("#next")
    assert _state(browser)["shot"] == "3"
    browser.click("#prev")
    assert _state(browser)["shot"] == "2"
    browser.key(" ", "Space", " ")  # Space plays: time runs in the shot
    browser.wait_for("parseFloat(document.getElementById('player').dataset.time) > 0")
    browser.click("#play")  # pause
    paused = _state(browser)
    assert paused["playing"] == "false"
    # the timeline is the whole match: the start of shot 3 is the sum of the first two shots
    start3 = data["shots"][0]["duration"] + data["shots"][1]["duration"]
    _scrub(browser, start3 + 0.01)
    state = _state(browser)
    assert state["shot"] == "3" and abs(float(state["time"]) - 0.01) < 1e-3
    scores = browser.evaluate("document.querySelectorAll('#scores tbody tr').length")
    assert scores == 2


def test_pixels_show_the_dice_where_the_replay_puts_them(page, browser, table_replay):
    data = _data(page)

    def spreads(i: int) -> list[float]:
        """How far the executed flick's die is from the aimed one's at each frame of shot ``i``
        while the dice move, the first and the settled last frame left out (m; 0 off the board)."""
        shot = data["shots"][i]
        rec = recorded_shot(table_replay, shot["number"])
        die = rec.action.get("die")
        if rec.execution is None or die is None:
            return [0.0] * len(shot["times"])
        aimed, executed = rec.state.preview(rec.action), executed_world(rec)
        out, done = [0.0], 0
        for t in shot["times"][1:-1]:
            for _ in range(round(t / rec.state.physics.step) - done):
                aimed.step()
                executed.step()
                done += 1
            a, e = aimed.state(die), executed.state(die)
            on = a.status == e.status == "on_board"
            out.append(math.hypot(a.x - e.x, a.y - e.y) if on else 0.0)
        return [*out, 0.0]

    # the shot and the frame where the execution error has moved the flicked die furthest from the
    # aimed one's path while the dice move (which shot and frame depend on the physics, not the
    # test; model 0.13: seed 3's shot 8, red4, 65 mm apart at frame 15 of 0-16, while no shot's
    # middle frame shows more than 21 mm)
    spread = {(i, k): d for i in range(len(data["shots"])) for k, d in enumerate(spreads(i))}
    index, k = max(spread, key=spread.__getitem__)
    shot = data["shots"][index]
    offset = sum(s["duration"] for s in data["shots"][:index])
    browser.open(page)
    _scrub(browser, offset + shot["times"][k])
    state = _state(browser)
    assert state["shot"] == str(index + 1) and state["frame"] == str(k), state
    browser.evaluate("document.getElementById('trails').click()")  # trails off: dice only
    canvas = browser.evaluate(
        "(() => { const c = document.getElementById('board'); const r = c.getBoundingClientRect();"
        " return [r.x, r.y, +c.dataset.scale, +c.dataset.originX, +c.dataset.originY]; })()"
    )
    left, top, scale, ox, oy = canvas
    picture = browser.screenshot()

    recorded = recorded_shot(table_replay, shot["number"])
    assert recorded.execution is not None  # the table level: an execution error was recorded
    steps = round(shot["times"][k] / recorded.state.physics.step)
    where = positions_after(executed_world(recorded), steps)
    aimed = positions_after(recorded.state.preview(recorded.action), steps)
    theme = load_theme()
    half = recorded.state.physics.die_size * scale / 2
    checked = 0
    for die, (x, y) in where.items():
        px, py = left + ox + x * scale, top + oy - y * scale
        rgb = theme.dice_colour(die.rstrip("0123456789"))
        found = blob_centre(picture, (px, py), rgb, radius=2 * half)
        assert found is not None, f"{die} not drawn near ({px:.1f}, {py:.1f})"
        assert abs(found[0] - px) <= 2 and abs(found[1] - py) <= 2, (die, found, (px, py))
        checked += 1
    assert checked >= 4
    # the page shows the shot as executed, not as aimed: this seed's error moves the flicked die
    # far from the aimed path, and nothing of its colour is drawn where the aimed flick would be
    die = recorded.action.get("die")
    (ax, ay), (ex, ey) = aimed[die], where[die]
    assert math.hypot(ax - ex, ay - ey) * scale > 4 * half
    px, py = left + ox + ax * scale, top + oy - ay * scale
    rgb = theme.dice_colour(die.rstrip("0123456789"))
    assert blob_centre(picture, (px, py), rgb, radius=2) is None
