"""Headless Chromium for the page tests, driven over the DevTools protocol (websockets).

:func:`chromium_or_skip` finds Debian's ``chromium`` (or Chrome); when it is missing and apt-get can
be used (root), it tries ``apt-get install -y chromium`` once; otherwise the test is skipped with a
message saying how to get it.
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.child_limits import HANG_GUARD_S, cpu_limited

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
INSTALL_TIMEOUT_S = 600
BROWSER_CPU_S = 300  # each browser process's CPU budget (RLIMIT_CPU); waits on it are hang guards
_LISTENING = re.compile(r"DevTools listening on (ws://\S+)")
_tried_install = False


def _find() -> str | None:
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def chromium_or_skip() -> str:
    """The browser's path; installs Debian's package when possible, else skips the test."""
    global _tried_install
    found = _find()
    if found:
        return found
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0 and not _tried_install:
        _tried_install = True
        with contextlib.suppress(OSError, subprocess.SubprocessError):  # then skip, below
            subprocess.run(
                [apt, "install", "-y", "chromium"],
                capture_output=True,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        found = _find()
        if found:
            return found
    pytest.skip(
        "headless Chromium is not available (apt-get install -y chromium, as root, installs it); "
        "the exported page is not tested in a real browser here"
    )


class Browser:
    """One headless Chromium with one page; ``call`` sends a DevTools command and waits for it."""

    def __init__(self, exe: str, profile: Path, size: tuple[int, int] = (1200, 900)) -> None:
        from websockets.sync.client import connect

        self.proc = subprocess.Popen(
            [
                exe,
                "--headless=new",
                "--no-sandbox",  # as root in a container
                "--disable-gpu",
                "--no-first-run",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                f"--window-size={size[0]},{size[1]}",
                f"--user-data-dir={profile}",
                "--remote-debugging-port=0",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=cpu_limited(BROWSER_CPU_S),
        )
        url = self._endpoint()
        port = url.split(":")[2].split("/")[0]
        deadline = time.monotonic() + HANG_GUARD_S
        page = None
        while page is None and time.monotonic() < deadline:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/json/list", timeout=HANG_GUARD_S
            ) as r:
                targets = json.load(r)
            page = next((t for t in targets if t.get("type") == "page"), None)
            if page is None:
                time.sleep(0.1)
        assert page is not None, "Chromium opened no page"
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            connect(page["webSocketDebuggerUrl"], max_size=None, open_timeout=HANG_GUARD_S)
        )
        self.next_id = 0

    def _endpoint(self) -> str:
        assert self.proc.stderr is not None
        deadline = time.monotonic() + HANG_GUARD_S
        seen = []
        while time.monotonic() < deadline:
            line = self.proc.stderr.readline()
            if not line and self.proc.poll() is not None:
                break
            seen.append(line)
            m = _LISTENING.search(line)
            if m:
                return m.group(1)
        self.close()
        raise AssertionError(f"Chromium did not start: {''.join(seen)[-500:]}")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        mine = self.next_id
        self.ws.send(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=HANG_GUARD_S))
            if msg.get("id") == mine:
                assert "error" not in msg, msg["error"]
                return msg.get("result", {})

    def evaluate(self, expression: str) -> Any:
        out = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in out, out["exceptionDetails"]
        return out["result"].get("value")

    def open(self, path: Path) -> None:
        self.call("Page.navigate", url=path.resolve().as_uri())
        self.wait_for("document.readyState === 'complete' && !!document.getElementById('player')")

    def wait_for(self, expression: str, timeout: float = HANG_GUARD_S) -> None:
        deadline = time.monotonic() + timeout
        while not self.evaluate(f"Boolean({expression})"):
            assert time.monotonic() < deadline, f"timed out waiting for {expression}"
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A real mouse click in the middle of the element."""
        x, y = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def key(self, key: str, code: str, text: str = "") -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, text=text)

    def screenshot(self) -> np.ndarray:
        from PIL import Image

        data = self.call("Page.captureScreenshot", format="png")["data"]
        return np.asarray(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))

    def close(self) -> None:
        try:
            if getattr(self, "_stack", None) is not None:
                self._stack.close()
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
