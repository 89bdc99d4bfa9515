"""No path loses a saved match (issue 15 §2): closing, Ctrl-C or SIGTERM during the resume offer, a
damaged autosave, an autosave that cannot be written, and screenshots checked before the work."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jamsumo_sim.cli import main
from jamsumo_sim.errors import UserError
from jamsumo_sim.ui import autosave
from jamsumo_sim.ui.app import App
from jamsumo_sim.ui.cli import make_session
from jamsumo_sim.ui.match_session import new_match
from tests.child_limits import HANG_GUARD_S, cpu_limited
from tests.hostile.harness import script
from tests.ui.helpers import DT


def _play_args(**kw) -> argparse.Namespace:
    base = dict(mode="sumo", seats="random,random", seed=0, resume=False, sandbox=False)
    return argparse.Namespace(**{**base, **kw})


def _saved_match(moves: int = 2) -> bytes:
    """A real unfinished match with a few shots, autosaved; returns the file's bytes."""
    session = new_match("sumo", ["random", "random"], 7)
    session.advance_automatic()
    for _ in range(moves):
        session.commit(session.bot_action())
        session.advance_automatic()
    autosave.save(session.save_data())
    return autosave.autosave_path().read_bytes()


def _window_with_offer() -> App:
    session, offer = make_session(_play_args(), {})
    assert offer is not None
    return App(session, size=(1024, 640), resume_offer=offer)


# --- the resume offer --------------------------------------------------------------------------


def test_closing_the_window_during_the_offer_keeps_the_saved_match():
    before = _saved_match()
    app = _window_with_offer()
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run()  # the real loop: QUIT closes the window, and run() saves on the way out
    assert not app.running
    assert autosave.autosave_path().read_bytes() == before


def test_ctrl_c_during_the_offer_keeps_the_saved_match(monkeypatch):
    before = _saved_match()
    app = _window_with_offer()

    def interrupted(dt: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(app, "frame", interrupted)
    with pytest.raises(KeyboardInterrupt):
        app.run()
    assert autosave.autosave_path().read_bytes() == before


def test_after_the_answer_the_new_match_is_saved_and_the_old_one_kept():
    before = _saved_match()
    app = _window_with_offer()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n"))
    app.frame(DT)
    kept = list(autosave.data_dir().glob("autosave-*.json"))
    assert [p.read_bytes() for p in kept] == [before]
    app.close()
    history = json.loads(autosave.autosave_path().read_text())["state"]["history"]
    assert not [e for e in history if "action" in e]  # the new match (set-up rolls only)
    assert autosave.autosave_path().stat().st_mode & 0o777 == 0o666 & ~_umask()


def test_ctrl_c_while_playing_saves_the_match_and_says_where(monkeypatch, capsys):
    calls = []
    real_frame = App.frame

    def frame_then_ctrl_c(self, dt):
        calls.append(dt)
        if len(calls) > 3:
            raise KeyboardInterrupt
        real_frame(self, dt)

    monkeypatch.setattr(App, "frame", frame_then_ctrl_c)
    # a window that never idles (an idle one sleeps in pygame.event.wait until an event, and a
    # real Ctrl-C interrupts that within its timeout): the frames keep coming to be interrupted
    monkeypatch.setattr(App, "idle", lambda self: False)
    argv = ["play", "--mode", "sumo", "--seats", "human,human", "--size", "1024x640", "--seed", "0"]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert f"match saved to {autosave.autosave_path()}" in err and "interrupted" in err
    assert autosave.read()["kind"] == "match"


def test_an_offer_that_cannot_set_the_old_match_aside_keeps_it(monkeypatch):
    before = _saved_match()
    app = _window_with_offer()

    def refuse(path=None):
        raise UserError("cannot move autosave aside: Permission denied")

    monkeypatch.setattr(autosave, "archive", refuse)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n"))
    app.frame(DT)
    assert "will not be autosaved" in app.message
    app.close()
    assert autosave.autosave_path().read_bytes() == before


CHILD_CPU_S = 60.0  # the window's start (a first kernel compile included) and its first frames


def _caught_signals(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    return 0


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_the_offer_keeps_the_saved_match(tmp_path, sig):
    """The installed `jamsumo play` (a real window on SDL's dummy driver), killed during the offer."""
    before = _saved_match()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen(
        [script("jamsumo"), "play", "--mode", "jam", "--seats", "random,random", "--seed", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell may start background jobs with SIGINT ignored: give the child the default back
        preexec_fn=cpu_limited(
            CHILD_CPU_S, then=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)
        ),
    )
    try:
        # SDL catches SIGTERM from pygame.init() on: the window is being opened
        hang_guard = time.monotonic() + HANG_GUARD_S
        while not _caught_signals(proc.pid) & (1 << (signal.SIGTERM - 1)):
            assert proc.poll() is None and time.monotonic() < hang_guard, proc.communicate()
            time.sleep(0.05)
        # the first frames, so the offer is up: measured in the child's CPU time, not wall time
        opened = _cpu_seconds(proc.pid)
        while _cpu_seconds(proc.pid) < opened + 1.0:
            assert proc.poll() is None and time.monotonic() < hang_guard, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=HANG_GUARD_S)
    finally:
        proc.kill()
    assert "Traceback" not in err
    assert proc.returncode in (0, 130), err
    assert "saved match was left as it was" in err
    assert autosave.autosave_path().read_bytes() == before


# --- a damaged autosave ------------------------------------------------------------------------


def _good_save() -> dict:
    return json.loads(_saved_match(1))


DAMAGED = {
    "garbage bytes": lambda: b"\xff\xfe\x00garbage\x80",
    "deep nesting": lambda: b"[" * 100_000,
    "huge number": lambda: (
        json.dumps({**_good_save(), "saved_at": 1})
        .replace('"saved_at": 1', '"saved_at": 1' + "0" * 5000)
        .encode()
    ),
    "wrong version": lambda: json.dumps({**_good_save(), "autosave_version": 99}).encode(),
    "version true": lambda: json.dumps({**_good_save(), "autosave_version": True}).encode(),
    "not an object": lambda: b"[1, 2]",
    "empty": lambda: b"",
    "broken history": lambda: json.dumps(
        {**_good_save(), "state": {**_good_save()["state"], "history": [{"action": [1]}, 5]}}
    ).encode(),
    "illegal move": lambda: json.dumps(
        {
            **_good_save(),
            "state": {
                **_good_save()["state"],
                "history": [*_good_save()["state"]["history"], {"player": 0, "action": "x"}],
            },
        }
    ).encode(),
    "unknown seat": lambda: json.dumps({**_good_save(), "seats": ["human", "wizard"]}).encode(),
    "seats miscounted": lambda: json.dumps({**_good_save(), "seats": ["human"] * 3}).encode(),
    "state missing": lambda: json.dumps({**_good_save(), "state": None}).encode(),
}


@pytest.mark.parametrize("kind", sorted(DAMAGED))
def test_a_damaged_autosave_is_reported_kept_and_the_window_starts(kind, capsys):
    content = DAMAGED[kind]()
    path = autosave.autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    session, offer = make_session(_play_args(seed=3), {})
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and str(path) in err[0] and "kept as" in err[0], err
    assert offer is None and not path.exists()
    assert [p.read_bytes() for p in path.parent.glob("autosave-*.json")] == [content]
    assert session.state.history == new_match("sumo", ["random", "random"], 3).state.history
    app = App(session, size=(1024, 640), sync_bots=True)
    for _ in range(3):
        app.frame(DT)  # the window runs


def test_resume_with_a_damaged_autosave_is_one_line_and_keeps_it(capsys):
    path = autosave.autosave_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"{ not json")
    assert main(["play", "--resume", "--frames", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not valid JSON" in err[0] and "kept as" in err[0]
    assert [p.read_bytes() for p in path.parent.glob("autosave-*.json")] == [b"{ not json"]


_GOOD: dict = {}


def _good_cached() -> dict:
    if not _GOOD:
        session = new_match("sumo", ["random", "random"], 7)
        session.advance_automatic()
        session.commit(session.bot_action())
        _GOOD.update(
            {"autosave_version": autosave.AUTOSAVE_VERSION, "saved_at": 1.0, **session.save_data()}
        )
    return json.loads(json.dumps(_GOOD))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_the_autosave_reader_bytes(tmp_path, data):
    """Mutated bytes of a real autosave: only a one-line UserError may come out of the reader."""
    good = json.dumps(_good_cached()).encode()
    blob = bytearray(good)
    for _ in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(blob) - 1))
        blob[at] = data.draw(st.integers(0, 255))
    path = tmp_path / "fuzz-bytes.json"
    path.write_bytes(bytes(blob))
    try:
        autosave.read(path)
    except UserError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzz_loading_a_structurally_broken_autosave(tmp_path, data):
    """A real autosave with one field anywhere replaced by arbitrary JSON: ``load_match`` never
    raises; it gives a resumable match, or says what is wrong and keeps the file aside."""
    doc = _good_cached()
    if data.draw(st.integers(0, 9)) == 0:
        doc = data.draw(_JSON)  # sometimes not even an object
    node = doc
    for _ in range(data.draw(st.integers(0, 5))):
        if not isinstance(node, dict | list):
            break
        children = list(node.values()) if isinstance(node, dict) else list(node)
        children = [v for v in children if isinstance(v, dict | list) and v]
        if not children:
            break
        node = data.draw(st.sampled_from(children))
    if isinstance(node, dict) and node:
        node[data.draw(st.sampled_from(sorted(node)))] = data.draw(_JSON)
    elif isinstance(node, list) and node:
        node[data.draw(st.integers(0, len(node) - 1))] = data.draw(_JSON)
    path = tmp_path / "fuzz-tree.json"
    path.write_text(json.dumps(doc, allow_nan=True))
    loaded = autosave.load_match(path)
    if loaded.session is None:
        assert loaded.problem and "\n" not in loaded.problem
        assert not path.exists()
        for kept in tmp_path.glob("autosave-*.json"):
            kept.unlink()


# --- saving failures and screenshots ----------------------------------------------------------


def test_an_autosave_that_cannot_be_written_is_reported_not_a_crash(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_DATA_HOME", str(blocker))
    app = App(new_match("sumo", ["random", "random"], 1), size=(1024, 640), sync_bots=True)
    app.autosave()
    assert app.message.startswith("Autosave failed") and app.autosave_error


def test_the_screenshot_path_is_checked_before_any_work(tmp_path, monkeypatch, capsys):
    import jamsumo_sim.ui.app as app_module

    def no_window(*a, **k):
        raise AssertionError("the window was opened before the screenshot path was checked")

    monkeypatch.setattr(app_module, "App", no_window)
    params = tmp_path / "p.toml"
    params.write_text("")
    for bad, words in (
        (tmp_path / "shot.gif", "unsupported file type"),
        (tmp_path / "shot.png" / "x.png", "not a folder"),
        (params, "also an input"),
    ):
        if bad.name == "x.png":
            (tmp_path / "shot.png").write_bytes(b"")
        argv = ["play", "--frames", "500", "--screenshot", str(bad)]
        if bad == params:
            argv += ["--params", str(params)]
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert words in err and len(err.splitlines()) == 1, err


def test_screenshots_are_written_atomically(tmp_path, monkeypatch):
    out = tmp_path / "shot.png"
    out.write_bytes(b"old picture")
    stale = tmp_path / ".shot.png.abc123.tmp"  # left by a killed writer
    stale.write_bytes(b"half")
    app = App(new_match("sumo", ["human", "human"], 1), size=(1024, 640), autosave_enabled=False)
    app.frame(DT)

    def broken(surface, file, namehint=""):
        file.write(b"\x89PNG half")
        raise pygame.error("disk on fire")

    with monkeypatch.context() as m:
        m.setattr(pygame.image, "save", broken)
        with pytest.raises(UserError, match="cannot save screenshot"):
            app.screenshot(str(out))
    assert out.read_bytes() == b"old picture"  # a failed save leaves the old file whole
    app.screenshot(str(out))
    assert pygame.image.load(str(out)).get_size() == (1024, 640)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot.png"]
    assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def test_s_with_an_unwritable_folder_says_so_and_play_goes_on(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    app = App(new_match("sumo", ["human", "human"], 1), size=(1024, 640), autosave_enabled=False)
    app.replay_dir = blocker / "replays"  # its "folder" is a file
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0, unicode="s"))
    app.frame(DT)
    assert app.message.startswith("Cannot save a replay") and app.running
