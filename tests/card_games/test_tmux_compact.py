"""A whole game in a real 80×24 terminal (issue 35: "Jumble Jam's board scrolls off while you
choose a jar; The Jam is longer than 24 rows"): the installed ``card-games`` in a tmux pane of 80
columns and 24 rows picks the compact layout by itself; at every move's prompt the visible screen
shows the table's title, the whole move list and the prompt, and ``board`` typed inside a dialogue
brings the table back. Skipped, with the reason, where tmux cannot run."""

from __future__ import annotations

import re
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.child_limits import HANG_GUARD_S
from tests.hostile.harness import script

from .test_compact_screen import TITLE
from .test_tmux_play import DONE, GAME_CPU_S, POLL_S, _answer, _tmux

pytestmark = pytest.mark.slow

COLUMNS, ROWS = 80, 24
WAITING = re.compile(r"^([\w ]{1,30})>\s*$")


@pytest.fixture
def tmux80(tmp_path: Path) -> Iterator[list[str]]:
    """A private tmux server whose panes are the whole window (no status line)."""
    conf = tmp_path / "tmux.conf"
    conf.write_text("set -g status off\n")
    base = [_tmux(), "-L", f"card-80x24-{uuid.uuid4().hex[:8]}", "-f", str(conf)]
    yield base
    subprocess.run([*base, "kill-server"], capture_output=True, check=False)


def _visible(base: list[str]) -> list[str]:
    out = subprocess.run(
        [*base, "capture-pane", "-p", "-t", "g"], capture_output=True, text=True, check=True
    ).stdout
    return out.rstrip("\n").split("\n")


@pytest.mark.parametrize(
    ("game", "players", "seats"),
    [("jumble-jam", 3, "human,smart,smart"), ("the-jam", 2, "human,smart")],
)
def test_every_move_prompt_shows_the_table_in_an_80_by_24_terminal(
    tmux80: list[str], tmp_path: Path, game: str, players: int, seats: str
) -> None:
    command = (
        f"ulimit -t {GAME_CPU_S}; "
        f"env -u COLUMNS -u LINES -u NO_COLOR XDG_DATA_HOME={tmp_path} TERM=xterm-256color "
        f"{script('card-games')} play {game} --players {players} --seats {seats} --seed 2 "
        f"--pace 0; echo {DONE}$?; sleep {HANG_GUARD_S:.0f}"
    )
    started = subprocess.run(
        [*tmux80, "new-session", "-d", "-s", "g", "-x", str(COLUMNS), "-y", str(ROWS), command],
        capture_output=True,
        text=True,
        check=False,
    )
    if started.returncode != 0:
        pytest.skip(f"tmux cannot start a session here: {started.stderr.strip()[:200]}")
    state: dict[str, object] = {}
    answered: list[str] = []
    prompts = dialogue_boards = 0
    captures: list[str] = []
    hang_guard = time.monotonic() + HANG_GUARD_S
    while time.monotonic() < hang_guard:
        screen = _visible(tmux80)
        text = "\n".join(screen)
        if DONE in text:
            break
        last = [ln for ln in screen if ln.strip()]
        waiting = WAITING.match(last[-1]) if last else None
        if waiting is None or screen == answered:
            time.sleep(POLL_S)
            continue
        assert len(screen) <= ROWS and all(len(ln) <= COLUMNS for ln in screen)
        key = _answer(text, state)
        board = False
        if waiting.group(1) == "seat 0":  # a move's prompt: the table and the moves on screen
            prompts += 1
            assert any(TITLE.match(ln) for ln in screen), text
            assert any(re.match(r"^\s+1\. ", ln) for ln in screen), text
            if prompts <= 3:
                captures.append(text)
            if prompts == 2:  # what changed since the first look: in reverse video
                coloured = subprocess.run(
                    [*tmux80, "capture-pane", "-p", "-e", "-t", "g"],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                assert re.search(r"\x1b\[(\d+;)*7m", coloured), coloured
        elif dialogue_boards < 2 and not any(TITLE.match(ln) for ln in screen):
            key, board = "board", True  # a dialogue has scrolled the table off: bring it back
            dialogue_boards += 1
        subprocess.run([*tmux80, "send-keys", "-t", "g", key, "Enter"], check=True)
        answered = screen
        if board:  # the redrawn screen: the table again, then the dialogue's moves
            while time.monotonic() < hang_guard:
                redrawn = _visible(tmux80)
                tail = [ln for ln in redrawn if ln.strip()]
                if redrawn != screen and tail and WAITING.match(tail[-1]):
                    break
                time.sleep(POLL_S)
            captures.append("\n".join(redrawn))
            assert any(TITLE.match(ln) for ln in redrawn), "\n".join(redrawn)
            assert re.match(r"^\s+1\. ", [ln for ln in redrawn if ln.strip()][-2] or "") or any(
                re.match(r"^\s+\d+\. ", ln) for ln in redrawn
            )
    whole = "\n".join(_visible(tmux80))
    (tmp_path / "captures.txt").write_text("\n\n=====\n".join(captures))
    print(f"\n{game}: {prompts} move prompts; captures in {tmp_path / 'captures.txt'}")
    assert f"{DONE}0" in whole, whole
    assert prompts > 5
    if game == "jumble-jam":
        assert dialogue_boards >= 1  # a fill's dialogue came up and 'board' was typed in it
