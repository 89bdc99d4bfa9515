"""An export's size is known before it starts: the frame counts before any drawing (and the count
stops once past the limit), and memory that does not grow with the number of frames (GIFs are
written frame by frame), checked in a child process under an address-space limit."""

from __future__ import annotations

import io
import re
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.export import budget, gif
from jamsumo_sim.export.shots import iter_scenes
from jamsumo_sim.replay import load_replay
from tests.export.child import run_export
from tests.export.helpers import executed_world, steps_to_rest

MEMORY_LIMIT = 1 << 30  # bytes of address space for an export child
BIG = "3840x2160"  # the largest --size
FLAT_MARGIN = 64 << 20  # bytes: a 4K frame is 25 MB as RGB; holding a few more would show


def _ask(replay: Path, suffix: str, fps: int, speed: float, hold: float) -> budget.Ask:
    first = load_replay(replay).initial_state()
    out = Path("x" + suffix)
    return budget.Ask(out, suffix, fps, speed, hold, first.physics.step, first.shot_time)


def test_counts_are_the_timing_formula_and_within_the_cheap_bounds(table_replay):
    ask = _ask(table_replay, ".mp4", 30, 0.5, 0.2)
    scenes, counts = budget.count_frames(ask, iter_scenes(load_replay(table_replay)), 99)
    assert len(counts) == len(scenes) == len(load_replay(table_replay).shots) > 1
    for shot, count in zip(load_replay(table_replay).iter_shots(), counts, strict=True):
        t = steps_to_rest(executed_world(shot), shot.state.shot_time) * ask.dt
        assert count == 1 + int(np.ceil(t * 30 / 0.5 - 1e-6)) + 2 * round(0.2 * 30)
        assert ask.fewest <= count <= ask.most


def test_the_count_stops_once_past_the_limit(table_replay, monkeypatch):
    """A request far over the limit is refused after the shots that passed it; the later shots are
    never simulated, and the line extrapolates the total."""
    monkeypatch.setattr(budget.opt, "MAX_GIF_FRAMES", 150)
    ask = _ask(table_replay, ".gif", 50, 0.05, 0.0)
    taken = []

    def scenes():
        for scene in iter_scenes(load_replay(table_replay)):
            taken.append(scene.number)
            yield scene

    with pytest.raises(UserError) as err:
        budget.count_frames(ask, scenes(), 40)  # as if the replay had 40 shots
    assert len(taken) < 5
    text = str(err.value)
    assert "about " in text and "a GIF may have at most 150" in text and "\n" not in text
    frames = int(re.search(r"about ([\d,]+) frames", text).group(1).replace(",", ""))
    assert frames > 40 * ask.fewest


def test_too_many_even_at_the_fewest_is_refused_without_simulating(table_replay):
    ask = _ask(table_replay, ".mp4", 120, 1.0, 10.0)  # 2 400 held frames a shot
    with pytest.raises(UserError) as err:
        budget.check_fewest(ask, 50)
    assert f"at least {50 * ask.fewest:,} frames (~17 min at 120 fps)" in str(err.value)
    assert budget.check_fewest(ask, 5) is True  # even 20 s shots fit: nothing to count first
    slow = _ask(table_replay, ".mp4", 120, 0.01, 0.0)
    assert budget.check_fewest(slow, 5) is False  # fits unless the shots are long: count them


def test_playing_time_words():
    assert budget.playing_time(45 * 30, 30) == "~45 s"
    assert budget.playing_time(12 * 60 * 30, 30) == "~12 min"
    assert budget.playing_time(702_286, 120) == "~1 h 38 min"


def _frames_of(data: bytes) -> tuple[list[np.ndarray], list[int]]:
    from PIL import Image

    pictures, delays = [], []
    with Image.open(io.BytesIO(data)) as im:
        for k in range(im.n_frames):
            im.seek(k)
            delays.append(im.info["duration"])
            pictures.append(np.asarray(im.convert("RGB")))
    return pictures, delays


def test_gif_writer_merges_repeats_and_stores_what_changed():
    rng = np.random.default_rng(7)
    colours = rng.integers(0, 256, (40, 3), dtype=np.uint8)  # few colours: quantising is exact
    base = colours[rng.integers(0, 40, (60, 80))]
    frames = []
    for k in range(4):
        f = base.copy()
        f[5 + 8 * k : 15 + 8 * k, 10:30] = colours[k]
        frames.append(f)
    sequence = [frames[0]] * 3 + frames[1:] + [frames[3].copy()] * 2
    buffer = io.BytesIO()
    assert gif.write_frames(buffer, iter(sequence), 40) == 8
    pictures, delays = _frames_of(buffer.getvalue())
    assert delays == [120, 40, 40, 120]  # held pictures play as one longer frame
    for got, want in zip(pictures, frames, strict=True):
        assert np.array_equal(got, want)
    whole = io.BytesIO()
    gif.write_frames(whole, iter([frames[0]]), 40)
    # a later frame stores the rectangle that changed (its unchanged pixels transparent)
    assert len(buffer.getvalue()) < 2 * len(whole.getvalue())


def test_gif_delays_longer_than_the_field_holds_are_split():
    frame = np.zeros((4, 6, 3), np.uint8)
    buffer = io.BytesIO()
    repeats = gif.MAX_DELAY_CS // 100 + 5  # one second each
    assert gif.write_frames(buffer, iter([frame] * repeats), 1000) == repeats
    pictures, delays = _frames_of(buffer.getvalue())
    assert sum(delays) == 1000 * repeats and len(delays) == 2
    assert all(np.array_equal(p, frame) for p in pictures)


def _frames_written(stdout: str) -> int:
    return int(re.search(r"(\d+) frames at", stdout).group(1))


def test_a_4k_gif_keeps_memory_flat_one_shot_and_all(table_replay, tmp_path):
    """3840x2160 used 1.3 GB for one shot (Pillow held every frame, the board texture was built
    at once) and more with --all; now a whole match fits in 1 GiB of address space, its peak no
    higher than one shot's."""
    # the kernels the drawing steps with are compiled (and cached) here, not in the measured child
    ask = _ask(table_replay, ".gif", 2, 1.0, 0.0)
    budget.count_frames(ask, iter_scenes(load_replay(table_replay), 1), 1)
    options = ("--size", BIG, "--fps", 2, "--hold", 0, "--quiet")
    runs = {}
    for which in (("--shot", 4), ("--all",)):
        out = tmp_path / f"{which[0][2:]}.gif"
        run = run_export(
            table_replay, *which, "--out", out, *options, cpu_s=300, memory_bytes=MEMORY_LIMIT
        )
        assert run.code == 0 and run.stderr == "", (run.code, run.stderr[-2000:])
        assert out.stat().st_size > 0
        runs[which[0]] = run
    one, everything = runs["--shot"], runs["--all"]
    assert _frames_written(everything.stdout) >= 3 * _frames_written(one.stdout)
    assert 0 < everything.peak_bytes < one.peak_bytes + FLAT_MARGIN, (
        one.peak_bytes >> 20,
        everything.peak_bytes >> 20,
    )
