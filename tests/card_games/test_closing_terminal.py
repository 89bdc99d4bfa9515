"""Closing the terminal loses no game (issue 35): `card-games play` saves after every move, SIGTERM
and SIGHUP save and stop cleanly, and the game resumes where it was; `play` names the autosave."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.child_limits import cpu_limited, ended, hang_guard

CPU_S = 60.0
PROMPT = b"seat 0> "
PLAY = ["play", "the-jam", "--players", "2", "--seats", "human,random", "--seed", "5"]


def start(args: list[str], data_home: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home), "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    return subprocess.Popen(
        [sys.executable, "-m", "card_games", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=cpu_limited(CPU_S),
    )


def read_until_prompts(child: subprocess.Popen[bytes], count: int) -> bytes:
    """Stdout until ``count`` prompts were printed (the person is asked for a move)."""
    assert child.stdout is not None
    out = b""
    stop = time.monotonic() + hang_guard(CPU_S)  # a hang guard only; the CPU limit bounds work
    while out.count(PROMPT) < count:
        assert time.monotonic() < stop, out[-2000:].decode()
        ready, _, _ = select.select([child.stdout], [], [], 1.0)
        if ready:
            chunk = os.read(child.stdout.fileno(), 65536)
            assert chunk, f"{ended(child.wait())}: {child.stderr.read().decode()}"  # type: ignore[union-attr]
            out += chunk
    return out


def last_menu(out: bytes) -> str:
    """The move menu of the last prompt: what is legal for the person, with their hand."""
    text = out.decode()
    start = text.rindex("Seat 0, your move:")
    return text[start : text.rindex(PROMPT.decode())]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_signal_saves_and_resume_goes_on_where_it_stopped(tmp_path: Path, sig: int) -> None:
    child = start(PLAY, tmp_path)
    assert child.stdin is not None
    read_until_prompts(child, 1)
    child.stdin.write(b"1\n1\n")  # two moves, bots answer in between
    child.stdin.flush()
    before = read_until_prompts(child, 2)  # one more prompt a move
    saves = sorted((tmp_path / "jamsumo" / "saves").glob("the_jam-*.json"))
    assert len(saves) == 1, "autosaved after the moves, before any signal"
    moves_autosaved = len(json.loads(saves[0].read_text())["history"])
    child.send_signal(sig)
    _, err = child.communicate(timeout=hang_guard(CPU_S))
    stderr = err.decode()
    print(stderr)
    assert child.returncode == 128 + sig, ended(child.returncode)
    assert "Traceback" not in stderr
    assert f"Resume with: card-games resume {saves[0]}" in stderr
    assert f"stopped by {signal.Signals(sig).name}" in stderr
    record = json.loads(saves[0].read_text())
    assert record["record_version"] == 1 and record["finished"] is False
    assert len(record["history"]) == moves_autosaved  # waiting for the person: nothing new

    # `play` again names the unfinished game (at a terminal it asks whether to resume it)
    again = start([*PLAY, "--json"], tmp_path)
    _, err = again.communicate(b"", timeout=hang_guard(CPU_S))
    print(err.decode())
    assert f"saved at {saves[0]}; resume it with: card-games resume {saves[0]}" in err.decode()

    resumed = start(["resume", str(saves[0])], tmp_path)
    after = read_until_prompts(resumed, 1)
    _, err = resumed.communicate(b"", timeout=hang_guard(CPU_S))  # end of input: saved again
    print(last_menu(after))
    assert f"after {moves_autosaved} moves" in err.decode()
    assert last_menu(after) == last_menu(before)


def test_autosave_is_written_after_every_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process: one save per move while a person plays, each whole and versioned."""
    import io

    import card_games.cli as cli

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nquit\n"))
    saved: list[int] = []
    real = cli.save_record

    def counting(path, state, seats, **kw):  # noqa: ANN001, ANN202 - the wrapped function's signature
        saved.append(len(state.history))
        real(path, state, seats, **kw)

    monkeypatch.setattr(cli, "save_record", counting)
    assert cli.main(PLAY) == 0
    capsys.readouterr()
    assert saved == sorted(saved) and len(saved) >= 4
    assert saved[:-1] == list(range(saved[0], saved[0] + len(saved) - 1))  # every move, then quit
