"""Captions and the score table's head in exported pictures and the page: an outcome is told when it
happens in the shot (never from the first frame), and the head fits the panel at any allowed size."""

from __future__ import annotations

import json

import numpy as np
import pytest

from jamsumo_sim.export.options import SIZE_LIMITS
from jamsumo_sim.export.scene import frame_layout
from jamsumo_sim.export.textfit import head_lines
from jamsumo_sim.rules.scoring import score_words
from tests.export.helpers import executed_world, export, recorded_shot

SHOT = 7  # in the table replay: blue2 hits red1, then goes off the board later in the shot
FPS = 50
SPEED = 0.5  # slow motion: a dozen frames between the hit and the fall


def _times(replay) -> tuple[float, float]:
    """When the flicked die first hits a die and when it leaves play (s after the flick)."""
    shot = recorded_shot(replay, SHOT)
    world = executed_world(shot)
    die = shot.action["die"]
    t0, start = world.time, len(world.events)
    world.run_until_rest(shot.state.shot_time)
    events = world.events[start:]
    hit = min(e.t for e in events if e.type == "collision" and die in e.dice and len(e.dice) > 1)
    gone = min(e.t for e in events if e.type in ("off_board", "hole") and die in e.dice)
    return hit - t0, gone - t0


def _ink(frame: np.ndarray, size: tuple[int, int]) -> int:
    """Pixels of text on the caption's second line (the story)."""
    x, y, w, h = frame_layout(size).caption_rect
    band = frame[y + h // 2 : y + h, x : x + w].astype(int)
    panel = np.median(band.reshape(-1, 3), axis=0)
    return int((np.abs(band - panel).sum(axis=2) > 90).sum())


def test_video_tells_each_outcome_when_it_happens(table_replay, tmp_path):
    import imageio.v3 as iio

    size = (320, 200)
    out = tmp_path / "s.gif"
    args = ["--shot", SHOT, "--fps", FPS, "--speed", SPEED, "--hold", 0, "--size", "320x200"]
    assert export(table_replay, *args, "--out", out) == 0
    frames = iio.imread(out)
    step = SPEED / FPS  # simulated seconds a frame
    hit, gone = _times(table_replay)
    assert 2 * step < hit and hit + 3 * step < gone
    ink = [_ink(f[..., :3], size) for f in frames]
    before = [ink[k] for k in range(len(frames)) if k * step < hit - 1e-6]
    between = [ink[k] for k in range(len(frames)) if hit + step < k * step < gone - 1e-6]
    assert max(before) == 0, "nothing has happened yet: no story"
    assert min(between) > 0, "the hit is told once it has happened"
    # "blue2 hit red1" only: leaving the board (and the verdict) is told when it happens
    assert max(between) < 0.7 * ink[-1]


def test_page_tells_each_outcome_when_it_happens(table_replay, tmp_path):
    from tests.export.browser import Browser, chromium_or_skip

    out = tmp_path / "match.html"
    assert export(table_replay, "--out", out, "--shot", SHOT) == 0
    hit, gone = _times(table_replay)
    browser = Browser(chromium_or_skip(), tmp_path / "profile")
    try:
        browser.open(out)
        story = "document.getElementById('story').textContent"

        def told(t: float) -> str:
            browser.evaluate(f"window.jamsumoPlayer.seek({SHOT}, {t!r})")
            state = json.loads(
                browser.evaluate("JSON.stringify(document.getElementById('player').dataset)")
            )
            assert state["shot"] == str(SHOT)
            return browser.evaluate(story)

        assert told(0.0) == ""
        middle = told((hit + gone) / 2)
        assert "hit red1" in middle and "off the board" not in middle
        assert "went off the board itself" in told(gone + 0.01)
        assert "—" in told(1e9)  # at rest: with the rules' verdict
    finally:
        browser.close()


class _Font:
    """A monospace measure: ``px`` pixels a character (no pygame needed)."""

    def __init__(self, px: int):
        self.px = px

    def size(self, text: str) -> tuple[int, int]:
        return (len(text) * self.px, self.px)


@pytest.mark.parametrize("mode", ["jam", "sumo", "jamsumo"])
def test_score_head_is_never_cut_mid_word(mode):
    words = score_words(mode)
    for width in (400, 236, 120, 60, 30):
        lines = head_lines(words, _Font(6), width, max_lines=3)
        assert 1 <= len(lines) <= 3
        assert all(_Font(6).size(line)[0] <= width for line in lines)
        if lines[0].endswith("…"):  # the last resort: not even the total's own word fits
            assert len(lines) == 1 and _Font(6).size(words.total)[0] > width
        else:
            text = " ".join(lines)
            assert "…" not in text and text in {
                words.headline,
                f"{words.meaning} ({words.better})",
                f"{words.total} ({words.better})",
                words.total,
            }


@pytest.mark.parametrize("size", [(960, 600), (SIZE_LIMITS[0][0], SIZE_LIMITS[1][0])])
@pytest.mark.parametrize("players", [2, 4])
def test_score_head_fits_the_panel(table_replay, size, players):
    from jamsumo_sim.export.scene import SceneRenderer
    from jamsumo_sim.replay import load_replay

    state = load_replay(table_replay).initial_state()
    renderer = SceneRenderer(state.board, state.physics.die_size, size)
    words = score_words("jamsumo")
    lines, font, width = renderer.score_head(players, words)
    assert lines and all(font.size(line)[0] <= width for line in lines), (lines, width)
    assert not any(line.endswith("…") for line in lines), lines
    if size == (960, 600):  # room for the rules' whole sentence, wrapped
        assert " ".join(lines) == words.headline


def test_wrap_keeps_a_bracket_together_when_it_fits():
    from jamsumo_sim.export.textfit import wrap

    assert wrap("Jam penalties (highest wins)", _Font(1), 18) == ["Jam penalties", "(highest wins)"]
    assert wrap("score (highest wins)", _Font(1), 8) == ["score", "(highest", "wins)"]
    assert wrap("penalties", _Font(1), 5) is None
