"""`jamsumo host --web`: the page served on the host's own port, a phone-sized headless Chromium that
plays a Jam round by touch against the host's bot, the record that verifies, and the host checking
a browser's messages as any client's."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.child_limits import HANG_GUARD_S, NUMBA_COMPILE_S, cpu_limited
from tests.export.browser import Browser, chromium_or_skip
from tests.hostile.harness import script

CPU_S = 120.0 + NUMBA_COMPILE_S  # the host: a short Jam round of a planner and a person
PHONE = (360, 640)
DESKTOP = (1280, 800)
# screenshots are kept here when set (to look at them), else in the test's tmp folder
SHOTS_DIR = os.environ.get("JAMSUMO_WEB_SHOTS")


def _spawn_host(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    host = subprocess.Popen(
        [script("jamsumo"), "host", "--port", "0", "--web", "--json", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=cpu_limited(CPU_S),
    )
    assert host.stderr is not None
    for line in host.stderr:  # until the host prints the page's link (or ends)
        found = re.search(r"play in a browser: http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return host, int(found.group(1))
    host.kill()
    raise AssertionError(f"the host printed no link: {host.communicate()[1][-500:]}")


def _get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=HANG_GUARD_S) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


class Phone:
    """Touch on a Browser: a phone-sized viewport with touch events (DevTools Input domain)."""

    def __init__(self, browser: Browser, size: tuple[int, int] = PHONE, mobile: bool = True):
        self.b = browser
        self.resize(size, mobile)

    def resize(self, size: tuple[int, int], mobile: bool) -> None:
        self.b.call(
            "Emulation.setDeviceMetricsOverride",
            width=size[0],
            height=size[1],
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self.b.call("Emulation.setTouchEmulationEnabled", enabled=mobile, maxTouchPoints=1)

    def touch(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y, "id": 1}]
        self.b.call("Input.dispatchTouchEvent", type=kind, touchPoints=points)

    def tap(self, x: float, y: float) -> None:
        self.touch("touchStart", x, y)
        self.touch("touchEnd")

    def tap_on(self, selector: str) -> None:
        x, y = self.b.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        self.tap(x, y)

    def drag(
        self, start: tuple[float, float], end: tuple[float, float], steps: int = 8, held=None
    ) -> None:  # noqa: ANN001
        self.touch("touchStart", *start)
        for k in range(1, steps + 1):
            f = k / steps
            self.touch(
                "touchMove", start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
            )
        if held is not None:  # the finger still down (a picture of the aim)
            held()
        self.touch("touchEnd")

    def screen(self, x: float, y: float) -> tuple[float, float]:
        return tuple(self.b.evaluate(f"window.jamsumoWeb.screenOf({x!r}, {y!r})"))


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
        time.sleep(0.05)


def _spot(scene: dict, view: dict, tried: int) -> tuple[str, float, float]:
    """A JAM zone and a point on it far from every die (the ``tried``-th best), for a placement."""
    size = scene["die_size"]
    unit = scene["units"]["position"]
    dice = [(d[1] * unit, d[2] * unit) for d in view["dice"]]
    spots = []
    for name, x, y, w, d in scene["board"]["platforms"]:
        for fx, fy in ((0, 0), (0.25, 0), (-0.25, 0), (0, 0.25), (0, -0.25)):
            px, py = x + fx * (w - 2 * size), y + fy * (d - 2 * size)
            room = min((math.hypot(px - a, py - b) for a, b in dice), default=1.0)
            spots.append((room, name, px, py))
    spots.sort(reverse=True)
    _, name, px, py = spots[tried % len(spots)]
    return name, px, py


def _flick_by_touch(
    phone: Phone, scene: dict, view: dict, seat: int, tried: int, held=None
) -> None:  # noqa: ANN001
    """Take a die from the hand, tap it onto a JAM zone, drag back from it and release: a push
    towards the hole at about half power, a little off-centre."""
    hand = view["hands"][seat]
    assert hand, "a Jam seat with no dice in hand still to play"
    die = hand[0]
    phone.tap_on(f'#hand button[data-die="{die}"]')
    _, px, py = _spot(scene, view, tried)
    phone.tap(*phone.screen(px, py))
    g = scene["gesture"]
    direction = math.atan2(-py, -px) + 0.02 * (tried % 3 - 1)  # at the hole
    pull = g["pull_full"] * 0.45 ** (1 / g["power_curve"])  # 45 % power
    press = (px + 0.1 * scene["die_size"] * math.sin(direction), py)
    end = (press[0] - pull * math.cos(direction), press[1] - pull * math.sin(direction))
    phone.drag(phone.screen(*press), phone.screen(*end), held=held)


def _save(browser: Browser, folder: Path, name: str) -> Path:
    import base64

    data = browser.call("Page.captureScreenshot", format="png")["data"]
    path = folder / name
    path.write_bytes(base64.b64decode(data))
    return path


def _fps_of_24_dice(browser: Browser, seconds: float = 3.0) -> float:
    """Frames a second the page draws while 24 dice move (a made-up shot through the page's own
    shot path: checked, queued, animated)."""
    ids = [f"{c}{k}" for c in ("red", "blue", "green", "yellow") for k in range(1, 7)]
    dt, frames = 1 / 60, []
    for i in range(int(seconds / dt) + 1):
        t, row = i * dt, []
        for j in range(len(ids)):
            r, a = 0.05 + 0.01 * j, 2.0 * t + j
            row += [
                round(r * math.cos(a) * 1e4),
                round(r * math.sin(a) * 1e4),
                round(a * 1e3) % 6283,
                1 + j % 6,
                1,
            ]
        frames.append(row)
    shot = {"type": "shot", "at": 0, "seat": 0, "die": "red1", "ids": ids, "dt": dt,
            "duration": seconds, "frames": frames}  # fmt: skip
    before = len(browser.evaluate("window.jamsumoWeb.stats.fps"))
    browser.evaluate(f"window.jamsumoWeb.play({json.dumps(shot)})")
    browser.wait_for(f"window.jamsumoWeb.stats.fps.length > {before}")
    return float(browser.evaluate("window.jamsumoWeb.stats.fps.at(-1)"))


@pytest.fixture
def browser(tmp_path):
    b = Browser(chromium_or_skip(), tmp_path / "profile", size=DESKTOP)
    yield b
    b.close()


def test_the_page_is_served_self_contained_beside_the_websocket(tmp_path):
    host, port = _spawn_host(tmp_path, "--mode", "jam", "--seats", "remote,planner:easy")
    try:
        status, headers, body = _get(f"http://127.0.0.1:{port}/")
        missing, _, _ = _get(f"http://127.0.0.1:{port}/../../etc/passwd")
        other, _, _ = _get(f"http://127.0.0.1:{port}/play.js")
    finally:
        host.kill()
        host.communicate()
    text = body.decode("utf-8")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert missing == 404 and other == 404
    assert "script-src 'sha256-" in headers["Content-Security-Policy"]
    assert "connect-src 'self'" in headers["Content-Security-Policy"]
    assert not re.search(r"https?://", text), "the page must not reach the network"
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", text)
    scene = json.loads(re.search(r'id="scene">(.*?)</script>', text, re.S).group(1))
    assert scene["seats"] == ["remote", "planner:easy"] and scene["password"] is False
    assert {p[0] for p in scene["board"]["platforms"]} >= {"jam-east"}


def _turn_by_touch(phone: Phone, scene: dict, view: dict, seat: int, tried: int, held=None) -> None:  # noqa: ANN001
    """One turn as a person plays it: a Sumo set-up (tap a corner, tap again), a die from the hand
    (Jam), or a die on the board pushed towards the middle."""
    if view["setting_up"] == seat:
        corner = view["setups"][tried % len(view["setups"])]["corner"]
        phone.tap_on(f'#setups button[data-corner="{corner}"]')
        phone.tap_on(f'#setups button[data-corner="{corner}"]')
        return
    if view["mode"] == "jam" and view["hands"][seat]:
        _flick_by_touch(phone, scene, view, seat, tried, held)
        return
    unit, size = scene["units"]["position"], scene["die_size"]
    mine = [d for d in view["dice"] if d[0].startswith(scene["seat_colours"][seat])]
    assert mine, "no die of mine to flick"
    _, x, y, angle, _ = mine[tried % len(mine)]
    x, y, angle = x * unit, y * unit, angle * scene["units"]["angle"]
    # straight at a face, towards the middle of the board: the finger comes from behind that face
    towards = math.atan2(-y, -x)
    k = round((towards - angle) / (math.pi / 2))
    direction = angle + k * math.pi / 2 + (tried // len(mine)) * math.pi / 2
    g = scene["gesture"]
    pull = g["pull_full"] * 0.5 ** (1 / g["power_curve"])
    press = (x - 0.3 * size * math.cos(direction), y - 0.3 * size * math.sin(direction))
    end = (press[0] - pull * math.cos(direction), press[1] - pull * math.sin(direction))
    phone.drag(phone.screen(*press), phone.screen(*end))


def _play_seat(browser: Browser, phone: Phone, shots: Path, name: str) -> int:
    """Join as a player and play every turn of the seat by touch, reloading the page once after the
    first move played (the seat is rejoined with the token the browser kept); the moves played."""
    browser.evaluate("document.getElementById('name').value = 'phone'")
    phone.tap_on("#join")
    _wait(browser, lambda d: d.get("state") == "playing" and "at" in d, "the first view")
    scene = browser.evaluate("JSON.parse(document.getElementById('scene').textContent)")
    seat = int(_dataset(browser)["seat"])
    moves, tried = 0, 0
    while True:
        data = _wait(
            browser,
            lambda d: d.get("state") == "over" or d.get("turn") == "mine",
            "my turn or the end",
        )
        if data["state"] == "over":
            return moves
        if moves == 1:
            _save(browser, shots, f"{name}_turn.png")
        view = browser.evaluate("window.jamsumoWeb.view()")
        at = view["at"]
        held = None
        if moves == 0 and tried == 0:
            held = lambda: _save(browser, shots, f"{name}_aim.png")  # noqa: E731
        _turn_by_touch(phone, scene, view, seat, tried, held)
        # the host answers: the move is played (the view moves on) or refused (a note)
        data = _wait(
            browser,
            lambda d, at=at: (
                d.get("at") != str(at) or d.get("turn") == "mine" or d.get("state") == "over"
            ),
            "the host's answer",
        )
        if data.get("at") == str(at) and data.get("state") != "over":
            note = browser.evaluate("document.getElementById('note').textContent")
            assert note.startswith("Not allowed") or note.startswith("Drag"), note
            tried += 1
            assert tried < 16, f"the host refused every move: {note}"
            continue
        moves, tried = moves + 1, 0
        if moves == 1:  # a reload rejoins the seat with the token kept in the browser
            browser.call("Page.reload")
            browser.wait_for("document.readyState === 'complete' && !!window.jamsumoWeb")
            _wait(browser, lambda d: d.get("state") in ("playing", "over"), "the rejoin")


def _verify(record: Path) -> None:
    verify = subprocess.run(
        [script("jamsumo"), "replay", "--verify", str(record)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
        preexec_fn=cpu_limited(CPU_S),
    )
    assert verify.returncode == 0, verify.stderr


def test_a_phone_plays_a_jam_round_by_touch_and_the_record_verifies(tmp_path, browser):
    shots = Path(SHOTS_DIR) if SHOTS_DIR else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    record = tmp_path / "match.json"
    host, port = _spawn_host(
        tmp_path,
        "--mode", "jam", "--seats", "remote,planner:easy", "--seed", "11",
        "--max-turns", "3", "--rounds", "1", "--record", str(record),
    )  # fmt: skip
    try:
        phone = Phone(browser)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("document.readyState === 'complete' && !!window.jamsumoWeb")
        flicks = _play_seat(browser, phone, shots, "web_phone")
        _save(browser, shots, "web_phone_end.png")
        stats = browser.evaluate("window.jamsumoWeb.stats")
        fps = _fps_of_24_dice(browser)
        log = browser.evaluate("document.getElementById('log').textContent")
        phone.resize(DESKTOP, mobile=False)
        # a resize is drawn on the next frame (a picture only, nothing asserted on it)
        time.sleep(0.3)
        _save(browser, shots, "web_desktop_end.png")
        out, err = host.communicate(timeout=HANG_GUARD_S)
    finally:
        host.kill()
    assert host.returncode == 0, err
    result = json.loads(out)
    assert result["finished"] and result["mode"] == "jam"
    assert flicks >= 1 and "Red flicks" in log
    # the shots since the reload were animated from the host's poses
    assert stats["latencies"] and len(stats["fps"]) >= len(stats["latencies"])
    print(
        f"\nanimation start after the shot arrived: {stats['latencies']} ms; "
        f"fps {stats['fps']}; 24 moving dice: {fps:.1f} fps"
    )
    assert fps > 0
    _verify(record)


def test_a_phone_plays_jamsumo_with_a_sumo_set_up_at_the_table(tmp_path, browser):
    """Jam then Sumo (the opening set up by touch), every flick executed with the hand's error."""
    shots = Path(SHOTS_DIR) if SHOTS_DIR else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    record = tmp_path / "match.json"
    host, port = _spawn_host(
        tmp_path,
        "--mode", "jamsumo", "--seats", "remote,planner:easy", "--seed", "5", "--table",
        "--max-turns", "2", "--rounds", "1", "--record", str(record),
    )  # fmt: skip
    try:
        phone = Phone(browser)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("document.readyState === 'complete' && !!window.jamsumoWeb")
        moves = _play_seat(browser, phone, shots, "web_jamsumo")
        _save(browser, shots, "web_jamsumo_end.png")
        log = browser.evaluate("document.getElementById('log').textContent")
        out, err = host.communicate(timeout=HANG_GUARD_S)
    finally:
        host.kill()
    assert host.returncode == 0, err
    result = json.loads(out)
    assert result["finished"] and [r["mode"] for r in result["rounds"]] == ["jam", "sumo"]
    assert moves >= 3 and "Red sets up in the" in log, log
    _verify(record)


def test_the_page_reads_a_drag_as_the_window_does(tmp_path, browser):
    """Direction, power, offset, height and the finger's speed of a drag: the page's gesture
    against the window's (ui/gesture.py) on the same die and the same drag."""
    from jamsumo_sim.physics.board import load_board
    from jamsumo_sim.physics.flick import finger_for_launch
    from jamsumo_sim.physics.params import PhysicsParams
    from jamsumo_sim.ui.gesture import DieSpot, flick_from_drag
    from jamsumo_sim.ui.theme import load_theme

    host, port = _spawn_host(tmp_path, "--mode", "jam", "--seats", "remote,planner:easy")
    try:
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("document.readyState === 'complete' && !!window.jamsumoWeb")
        physics = PhysicsParams.from_board(load_board("standard"))
        settings = load_theme().gesture
        size = physics.die_size
        cases = [
            ((0.1, 0.02, 0.3), (0.101, 0.024), (0.05, -0.01), 0.5),
            ((-0.2, 0.1, -1.1), (-0.2 + 0.004, 0.1), (-0.13, 0.12), 0.8),
            ((0.0, -0.15, 2.5), (0.0, -0.15 - 0.005), (0.02, -0.26), 0.1),
            ((0.05, 0.05, 0.0), (0.05, 0.05), (0.0505, 0.0503), 0.5),  # too short: no flick
        ]
        for (x, y, angle), press, current, height in cases:
            spot = DieSpot("red1", x, y, angle, size)
            want = flick_from_drag(
                spot, press, current, height, settings,
                physics.max_launch_speed, physics.die_mass, physics=physics,
            )  # fmt: skip
            die = {"id": "red1", "x": x, "y": y, "angle": angle}
            got = browser.evaluate(
                f"window.jamsumoWeb.flickOf({json.dumps(die)}, {list(press)}, {list(current)}, {height})"
            )
            if want is None:
                assert got is None
                continue
            assert got["direction"] == pytest.approx(want.direction, abs=1e-9)
            assert got["power"] == pytest.approx(want.power, abs=1e-9)
            assert got["offset"] == pytest.approx(want.offset, abs=1e-9)
            assert got["height"] == pytest.approx(want.height, abs=1e-9)
            assert got["finger"] == pytest.approx(want.finger_speed, abs=1e-9)
            speed = want.power * physics.max_launch_speed
            assert got["finger"] == pytest.approx(finger_for_launch(speed, physics), abs=1e-12)
    finally:
        host.kill()
        host.communicate()


def test_the_page_is_served_over_https_with_the_certificate(tmp_path):
    import ssl

    from tests.net.peers import make_certificate

    cert, key = make_certificate(tmp_path)
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    host = subprocess.Popen(
        [script("jamsumo"), "host", "--port", "0", "--web", "--mode", "jam",
         "--seats", "remote,planner:easy", "--cert", str(cert), "--key", str(key)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=cpu_limited(CPU_S),
    )  # fmt: skip
    try:
        assert host.stderr is not None
        port = None
        for line in host.stderr:
            found = re.search(r"play in a browser: https://127\.0\.0\.1:(\d+)/", line)
            if found:
                port = int(found.group(1))
                break
        assert port, "the host printed no https link"
        context = ssl.create_default_context(cafile=str(cert))
        with urllib.request.urlopen(
            f"https://127.0.0.1:{port}/", context=context, timeout=HANG_GUARD_S
        ) as r:
            assert r.status == 200 and b'id="scene"' in r.read()
    finally:
        host.kill()
        host.communicate()


def test_a_browser_watches_a_bot_play_the_host(tmp_path, browser):
    host, port = _spawn_host(
        tmp_path, "--mode", "jam", "--seats", "remote,planner:easy", "--seed", "2",
        "--max-turns", "2", "--rounds", "1",
    )  # fmt: skip
    joined = None
    try:
        phone = Phone(browser)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/")
        browser.wait_for("document.readyState === 'complete' && !!window.jamsumoWeb")
        phone.tap_on("#watch")
        _wait(browser, lambda d: d.get("state") == "playing" and "at" in d, "the watcher's view")
        # the remote seat is taken only now: the watcher sees the match from its start
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        joined = subprocess.Popen(
            [script("jamsumo"), "join", f"ws://127.0.0.1:{port}", "--bot", "planner:easy"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
            preexec_fn=cpu_limited(CPU_S),
        )  # fmt: skip
        data = _wait(browser, lambda d: d.get("state") == "over", "the end of the match")
        hidden = browser.evaluate("document.getElementById('pass').hidden")
        status = browser.evaluate("document.getElementById('status').textContent")
        out, _ = host.communicate(timeout=HANG_GUARD_S)
        joined.wait(timeout=HANG_GUARD_S)
    finally:
        host.kill()
        if joined is not None:
            joined.kill()
    assert data["seat"] == "null" and hidden  # a watcher has nothing to play
    # every flick of the match shown, none skipped (the bots play faster than it is drawn)
    assert int(data["shots"]) == json.loads(out)["turns"] and status.startswith("Match over")
