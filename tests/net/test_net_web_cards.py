"""`card-games host GAME --web`: the card page on the host's own port; a phone-sized headless Chromium
plays a whole game by tapping the host's legal moves against the host's bots (reloading once and
rejoining its seat), and the host's record verifies; a browser watches a joined bot's game."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from tests.child_limits import HANG_GUARD_S, cpu_limited
from tests.export.browser import Browser, chromium_or_skip
from tests.hostile.harness import script
from tests.net.test_net_web import DESKTOP, PHONE, SHOTS_DIR, Phone, _get, _save

CPU_S = 60.0  # the host of a card game: dealing, checking and three quick bots
# (game, seats): one browser seat and the host's bots, the smallest table of each game
GAMES = [
    ("jellyfish", "remote,smart"),
    ("jumblejack", "remote,smart,smart,smart"),
    ("jumble-jam", "remote,smart"),
    ("the-jam", "remote,smart,smart"),
]
MIN_TARGET_PX = 44


def _spawn_host(game: str, seats: str, *extra: str) -> tuple[subprocess.Popen, int]:
    host = subprocess.Popen(
        [script("card-games"), "host", game, "--players", str(len(seats.split(","))),
         "--seats", seats, "--port", "0", "--web", "--json", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=cpu_limited(CPU_S),
    )  # fmt: skip
    assert host.stderr is not None
    for line in host.stderr:  # until the host prints the page's link (or ends)
        found = re.search(r"play in a browser: http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return host, int(found.group(1))
    host.kill()
    raise AssertionError(f"the host printed no link: {host.communicate()[1][-500:]}")


def _dataset(browser: Browser) -> dict[str, str]:
    return json.loads(browser.evaluate("JSON.stringify(document.getElementById('app').dataset)"))


def _wait(browser: Browser, test, what: str) -> dict[str, str]:  # noqa: ANN001
    """Poll the page's state until ``test(dataset)``; a wall-time cap only against a hang."""
    deadline = time.monotonic() + HANG_GUARD_S
    while True:
        data = _dataset(browser)
        if test(data):
            return data
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {data}"
        time.sleep(0.03)


@pytest.fixture
def browser(tmp_path):
    b = Browser(chromium_or_skip(), tmp_path / "profile", size=DESKTOP)
    yield b
    b.close()


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_the_card_page_is_served_self_contained(game, seats):
    host, port = _spawn_host(game, seats)
    try:
        status, headers, body = _get(f"http://127.0.0.1:{port}/")
        other, _, _ = _get(f"http://127.0.0.1:{port}/cards.js")
    finally:
        host.kill()
        host.communicate()
    text = body.decode("utf-8")
    assert status == 200 and other == 404 and headers["Content-Type"].startswith("text/html")
    assert "script-src 'sha256-" in headers["Content-Security-Policy"]
    assert not re.search(r"https?://", text), "the page must not reach the network"
    scene = json.loads(re.search(r'id="scene">(.*?)</script>', text, re.S).group(1))
    assert scene["seats"] == seats.split(",") and scene["players"] == len(scene["seats"])
    # the page is the same for every seat: no observation, nothing dealt
    assert set(scene) == {"title", "game", "players", "seats", "password", "hints", "labels"}


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_the_layout_hints_name_keys_the_observation_has(game, seats):
    """A game's own hints (assets/web/cards.toml) follow its observation: a renamed key fails here,
    not silently on the page; the card names cover the ids a seat is dealt."""
    import tomllib

    from card_games.registry import resolve
    from jamsumo_sim.net.web_cards import card_scene
    from jamsumo_sim.resources import read_asset_text
    from jamsumo_sim.turnloop.actions import CHANCE
    from jamsumo_sim.turnloop.driver import seeded_outcome

    g = resolve(game)
    n = len(seats.split(","))
    state = g.new_initial_state(g.validate_params({"players": n, "variant": g.variants[0]}), seed=5)
    while state.current_player() == CHANCE:  # the deal
        state.apply_action(seeded_outcome(state))
    obs = state.observation(0)
    own = tomllib.loads(read_asset_text("web", "cards.toml")).get(g.name, {})
    for kind, keys in own.items():
        if kind != "mover":  # alternatives: a game names its seat to move by one of them
            assert set(keys) <= set(obs), f"{game} [{kind}] names keys its observation lacks"
    scene = card_scene(state, seats.split(","), False)
    assert scene["hints"]["hidden"] and "log" in scene["hints"]["hidden"]
    if scene["labels"]:
        dealt = [c for c in obs.get("hand", []) if isinstance(c, str)]
        assert all(c in scene["labels"] for c in dealt)


def _layout(browser: Browser) -> dict:
    """What a thumb meets: the smallest move button, and whether the page is wider than the screen."""
    return browser.evaluate(
        "(() => { const b = [...document.querySelectorAll('#moves button, #chat-form button')]"
        ".map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0);"
        " return {small: Math.min(...b.map((r) => Math.min(r.width, r.height))),"
        " wide: document.documentElement.scrollWidth - window.innerWidth}; })()"
    )


def _play_seat(browser: Browser, phone: Phone, rng: np.random.Generator, shots: Path, name: str):
    """Join as a player and tap one of the host's legal moves on every turn (chosen by ``rng``),
    reloading the page after the first move (the seat is rejoined with the token the browser kept).
    The moves played and the layouts seen."""
    browser.evaluate("document.getElementById('name').value = 'phone'")
    phone.tap_on("#join")
    _wait(browser, lambda d: d.get("state") == "playing" and d.get("at", "-1") != "-1", "the start")
    seat = _dataset(browser)["seat"]
    moves, layouts = 0, []
    while True:
        data = _wait(
            browser, lambda d: d.get("state") == "over" or d.get("turn") == "mine", "my turn"
        )
        if data["state"] == "over":
            return moves, layouts, seat
        at = data["at"]
        if moves == 0:  # a move not on the list, as a tampered page would send: the host refuses it
            browser.evaluate("window.cardsWeb.send({name: 'take every card', args: {}})")
            _wait(browser, lambda d: d.get("turn") == "mine", "the refusal")
            note = browser.evaluate("document.getElementById('note').textContent")
            assert note.startswith("Not allowed") and _dataset(browser)["at"] == at, note
        legal = browser.evaluate("window.cardsWeb.legal().length")
        pick = int(rng.integers(legal))
        button = f'#moves button[data-index="{pick}"]'
        browser.evaluate(f"document.querySelector('{button}').scrollIntoView({{block: 'center'}})")
        layouts.append(_layout(browser))
        if moves == 1:
            _save(browser, shots, f"{name}_turn.png")
        phone.tap_on(button)
        # the host answers: the move is played (play moves on) or refused (a note; never here)
        data = _wait(
            browser,
            lambda d, at=at: d.get("at") != at or d.get("state") == "over",
            "the host's answer",
        )
        moves += 1
        if moves == 1:  # a reload rejoins the seat with the token kept in the browser
            browser.call("Page.reload")
            browser.wait_for("document.readyState === 'complete' && !!window.cardsWeb")
            _wait(browser, lambda d: d.get("state") in ("playing", "over"), "the rejoin")
            assert _dataset(browser)["seat"] == seat


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_a_phone_plays_a_card_game_against_bots_and_the_record_verifies(
    tmp_path, browser, game, seats
):
    shots = Path(SHOTS_DIR) if SHOTS_DIR else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    record = tmp_path / "game.json"
    host, port = _spawn_host(game, seats, "--seed", "5", "--record", str(record))
    name = f"web_cards_{game}"
    try:
        phone = Phone(browser, PHONE)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("document.readyState === 'complete' && !!window.cardsWeb")
        moves, layouts, seat = _play_seat(browser, phone, np.random.default_rng(7), shots, name)
        _save(browser, shots, f"{name}_end.png")
        status = browser.evaluate("document.getElementById('status').textContent")
        log = browser.evaluate("document.getElementById('log').children.length")
        phone.resize(DESKTOP, mobile=False)
        time.sleep(0.2)  # a picture only, nothing asserted on it
        _save(browser, shots, f"{name}_desktop_end.png")
        out, err = host.communicate(timeout=HANG_GUARD_S)
    finally:
        host.kill()
    assert host.returncode == 0, err
    result = json.loads(out)
    assert result["end"] and result["turns"] > 0 and seat == "0" and moves >= 2
    assert status.startswith("Game over") and log > 0
    # every move button a thumb can hit, and nothing wider than the phone
    assert min(lay["small"] for lay in layouts) >= MIN_TARGET_PX
    assert max(lay["wide"] for lay in layouts) <= 0
    verify = subprocess.run(
        [script("card-games"), "replay", "--verify", str(record)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        preexec_fn=cpu_limited(CPU_S),
    )
    assert verify.returncode == 0, verify.stderr
    print(f"\n{game}: {moves} moves tapped in the browser, {result['turns']} turns in all")


def test_a_browser_watches_a_joined_bot_and_sees_no_hand(tmp_path, browser):
    host, port = _spawn_host("jumble-jam", "remote,smart", "--seed", "3")
    joined = None
    try:
        Phone(browser, PHONE)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("document.readyState === 'complete' && !!window.cardsWeb")
        browser.click("#watch")
        _wait(browser, lambda d: d.get("state") == "playing" and d.get("at", "-1") != "-1", "view")
        # said before the seat is taken: the bots' game is over in a moment
        browser.evaluate("document.getElementById('chat').value = 'hello <b>all</b>'")
        browser.evaluate("document.getElementById('say').scrollIntoView({block: 'center'})")
        browser.click("#say")
        browser.wait_for("document.getElementById('log').textContent.includes('hello <b>all</b>')")
        joined = subprocess.Popen(
            [script("card-games"), "join", f"ws://127.0.0.1:{port}", "--bot", "random"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=cpu_limited(CPU_S),
        )  # fmt: skip
        data = _wait(browser, lambda d: d.get("state") == "over", "the end of the game")
        browser.evaluate("window.scrollTo(0, 0)")
        _save(browser, Path(SHOTS_DIR) if SHOTS_DIR else tmp_path, "web_cards_watch_end.png")
        hand = browser.evaluate("document.getElementById('hand-box').hidden")
        obs = browser.evaluate("window.cardsWeb.obs()")
        moves = browser.evaluate("document.getElementById('moves-box').hidden")
        out, _ = host.communicate(timeout=HANG_GUARD_S)
        joined.wait(timeout=HANG_GUARD_S)
    finally:
        host.kill()
        if joined is not None:
            joined.kill()
    assert json.loads(out)["end"]
    # a watcher is sent the public observation only, and has nothing to play; its chat is shown as
    # text (never markup) in the log
    assert data["seat"] == "null" and hand and moves and obs["hand"] is None
