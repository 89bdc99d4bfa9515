"""One whole game of each card game played by a person through the real terminal interface:
the installed ``card-games`` runs in a tmux pane (a real TTY: colour on, the pane's width),
keys are typed with ``send-keys`` and the pane is read with ``capture-pane`` (issue 19).

The person always types the number of the first move listed (the next one if that is refused),
so it works with any menu layout. Skipped, with the reason, where tmux cannot run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.child_limits import HANG_GUARD_S
from tests.hostile.harness import script

from .tables_helpers import GAMES, MENU_ITEM, PROMPT

pytestmark = pytest.mark.slow

PANE = ("100", "60")  # columns, rows
GAME_CPU_S = 60  # the game's CPU budget (ulimit -t in the pane); all four take a few seconds each
POLL_S = 0.01
DONE = "CARD-GAMES-EXIT="


def _tmux() -> str:
    found = shutil.which("tmux")
    if found is None:
        pytest.skip("tmux is not installed (apt-get install tmux); the terminal test needs it")
    return found


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[list[str]]:
    """A private tmux server (its own socket), killed afterwards."""
    base = [_tmux(), "-L", f"card-tables-{uuid.uuid4().hex[:8]}", "-f", os.devnull]
    yield base
    subprocess.run([*base, "kill-server"], capture_output=True, check=False)


def _capture(base: list[str], history: int = 80, colour: bool = False) -> str:
    args = [*base, "capture-pane", "-p", "-t", "g", "-S", f"-{history}"]
    if colour:
        args.append("-e")
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def _answer(screen: str, state: dict[str, object]) -> str:
    """The first move listed since the last prompt; the next one when the same screen comes
    back (the answer was refused)."""
    lines = [ln for ln in screen.splitlines() if ln.strip()][:-1]
    menu: list[str] = []
    for line in reversed(lines):
        if PROMPT.match(line):
            break
        match = MENU_ITEM.match(line)
        if match:
            menu.append(match.group(1))
    menu.reverse()
    if menu and screen != state.get("screen"):
        state["menu"], state["index"] = menu, 0
    else:
        state["index"] = int(state.get("index", 0)) + 1  # type: ignore[call-overload]
    state["screen"] = screen
    items: list[str] = state.get("menu") or ["1"]  # type: ignore[assignment]
    return items[int(state["index"]) % len(items)]  # type: ignore[call-overload]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_person_plays_a_whole_game_in_a_terminal(
    tmux: list[str], tmp_path: Path, game: str
) -> None:
    players, seats, seed = GAMES[game]
    command = (
        f"ulimit -t {GAME_CPU_S}; "
        f"env -u COLUMNS -u LINES -u NO_COLOR XDG_DATA_HOME={tmp_path} TERM=xterm-256color "
        f"{script('card-games')} play {game} --players {players} --seats {seats} --seed {seed}"
        f"; echo {DONE}$?; sleep {HANG_GUARD_S:.0f}"  # the pane stays to be read
    )
    started = subprocess.run(
        [*tmux, "new-session", "-d", "-s", "g", "-x", PANE[0], "-y", PANE[1], command],
        capture_output=True,
        text=True,
        check=False,
    )
    if started.returncode != 0:
        pytest.skip(f"tmux cannot start a session here: {started.stderr.strip()[:200]}")
    state: dict[str, object] = {}
    answered = ""
    hang_guard = time.monotonic() + HANG_GUARD_S  # a game out of CPU ends, with its exit code
    moves = 0
    while time.monotonic() < hang_guard:
        screen = _capture(tmux, history=60)
        if DONE in screen:
            break
        last = [ln for ln in screen.splitlines() if ln.strip()]
        waiting = bool(last) and bool(re.match(r"^[\w ]{1,30}>\s*$", last[-1]))
        if waiting and screen != answered:  # a new prompt (the screen moved on)
            key = _answer(screen, state)
            subprocess.run([*tmux, "send-keys", "-t", "g", key, "Enter"], check=True)
            answered = screen
            moves += 1
        time.sleep(POLL_S)
    whole = _capture(tmux, history=2000)
    assert f"{DONE}0" in whole, f"no end after {moves} answers:\n{whole[-3000:]}"
    end = whole[whole.rindex("GAME OVER") :]
    assert "Score breakdown" in end and "Hidden cards revealed" in end
    assert moves > 3
    # a real terminal: the table is drawn in colour (piped output has none: test_tables)
    assert "\x1b[" in _capture(tmux, history=2000, colour=True)
