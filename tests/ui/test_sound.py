"""Issue #35 §7: the table's sounds come from the physics events: a clack per collision as loud as
the hit, a swish for the flick, the hole, a fall off the board; synthesised deterministically;
silent and harmless without a device; V and --mute silence them."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import textwrap

import numpy as np
import pygame

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.ui import sound
from jamsumo_sim.world import World
from tests.ui.helpers import key, run_until_idle

FRAME = 1 / 60


def test_synthesis_is_deterministic_and_bounded():
    settings = sound.load_settings()
    a, b = sound.synthesise(settings), sound.synthesise(settings)
    assert set(a) == {"clack", "slide", "hole", "fall"}
    for name in a:
        assert np.array_equal(a[name], b[name])
        assert np.isfinite(a[name]).all() and abs(float(np.max(np.abs(a[name]))) - 1.0) < 1e-9
    cfg = settings["clack"]
    gains = [sound.clack_gain(v, cfg) for v in (0.0, 0.05, 0.2, 0.6, 1.2, 3.0)]
    assert gains[0] == 0.0 and gains == sorted(gains) and gains[-1] == 1.0


def _break(speed: float) -> World:
    """A die flicked into a row of three: a break with collisions of falling strength."""
    board = load_board("standard")
    world = World(board, PhysicsParams.from_board(board))
    world.add_die("red1", -0.12, -0.05, 0.0, face=1)
    for k, x in enumerate((-0.06, -0.04, -0.02)):
        world.add_die(f"blue{k + 1}", x, -0.05, 0.0, face=1)
    m = world.params.die_mass
    world.apply_flick(Flick("red1", 0.0, speed * m, 0.0, 0.5))
    world.run_until_rest(10.0)
    return world


def _onsets(audio: np.ndarray, rate: int, threshold: float) -> list[float]:
    """Times (s) where the rectified signal first rises above ``threshold`` after 20 ms of quiet."""
    env = np.abs(audio)
    out, quiet_until = [], -1.0
    for i in np.flatnonzero(env > threshold):
        t = i / rate
        if t > quiet_until:
            out.append(t)
        quiet_until = t + 0.02
    return out


def test_a_breaks_audio_has_its_onsets_at_the_collision_times_and_harder_is_louder():
    settings = sound.load_settings()
    rate = int(settings["sample_rate"])
    peaks = []
    for speed in (0.5, 1.5):
        world = _break(speed)
        cues = sound.cues(world.events, world.params.die_mass, settings)
        clacks = [c for c in cues if c.name == "clack"]
        hits = [e for e in world.events if e.type == "collision"]
        assert clacks and hits and cues[0].name == "slide"
        # every clack is at a collision's time; the first collision has one
        assert all(any(abs(c.t - e.t) < 1e-12 for e in hits) for c in clacks)
        assert clacks[0].t == min(e.t for e in hits)
        audio = sound.render([c for c in cues if c.name == "clack"], settings)
        found = _onsets(audio, rate, 0.02)
        # each audible onset lies within a frame of a clack (and the first one of the first)
        assert found and abs(found[0] - clacks[0].t) <= FRAME
        assert all(min(abs(t - c.t) for c in clacks) <= FRAME for t in found)
        at = round(clacks[0].t * rate)
        peaks.append(float(np.max(np.abs(audio[at : at + round(0.03 * rate)]))))
    assert peaks[1] > peaks[0] * 1.2  # the harder break's first clack is louder


def test_the_window_hears_a_shot_and_v_and_mute_silence_it(tmp_path):
    from jamsumo_sim.ui.app import App
    from tests.ui.test_views import pair, sandbox, shoot

    s = sandbox()
    app = App(s, size=(1024, 640), autosave_enabled=False)  # SDL_AUDIODRIVER=dummy: no device
    assert not app.sound.muted
    a, _, d = pair(s)
    app.start_shot(0, shoot(s, a.id, d, 1.2))
    run_until_idle(app)
    names = [c.name for c in app.sound.played]
    assert names[0] == "slide" and "clack" in names
    key(app, pygame.K_v)
    assert app.sound.muted and "Sound off" in app.message
    key(app, pygame.K_v)
    assert not app.sound.muted
    muted = App(sandbox(), size=(1024, 640), autosave_enabled=False, mute=True)
    assert muted.sound.muted


def _limit_cpu() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (60, 60))


def test_with_the_disk_audio_driver_a_clack_reaches_the_device(tmp_path):
    """SDL's disk driver writes what the mixer plays to a file: the clack is in it."""
    out = tmp_path / "audio.raw"
    code = textwrap.dedent(
        f"""
        import time
        import numpy as np
        import pygame
        from jamsumo_sim.ui.sound import Cue, SoundPlayer
        pygame.init()
        player = SoundPlayer.open()
        assert player.enabled, "the disk driver opened no device"
        player._play(Cue("clack", 1.0, 0.0))
        deadline = time.monotonic() + 20  # hang guard only
        path = {str(out)!r}
        while time.monotonic() < deadline:
            time.sleep(0.05)
            data = np.fromfile(path, dtype=np.int16) if __import__("os").path.exists(path) else []
            if len(data) and np.abs(data).max() > 1000:
                print("heard", int(np.abs(data).max()))
                break
        pygame.quit()
        """
    )
    env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(out),
           "SDL_VIDEODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}  # fmt: skip
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True,
        preexec_fn=_limit_cpu, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    assert "heard" in run.stdout, (run.stdout, run.stderr[-500:])
