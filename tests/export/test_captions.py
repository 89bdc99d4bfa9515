"""Captions and the score table's head in exported pictures and the page: an outcome is told when it
happens in the shot (never from the first frame), and the head fits the panel at any allowed size."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim.export.options import SIZE_LIMITS
from jamsumo_sim.export.scene import frame_layout
from jamsumo_sim.export.textfit import head_lines
from jamsumo_sim.rules.scoring import score_words
from tests.export.helpers import executed_world, export, recorded_shot

FPS = 50
SPEED = 0.5  # slow motion: a dozen frames between the hit and the fall
STEP = SPEED / FPS  # simulated seconds a frame


@dataclass(frozen=True)
class StoryShot:
    """A recorded shot whose flicked die hits a die that stays in play, then leaves play itself."""

    replay: Path
    number: int
    struck: str
    fate: str  # how the flicked die left: "off the board" | "into the hole"
    hit: float  # s after the flick: the first hit
    gone: float  # s after the flick: the flicked die leaves play


def _story(replay: Path, number: int) -> StoryShot | None:
    shot = recorded_shot(replay, number)
    world = executed_world(shot)
    die = shot.action["die"]
    t0, start = world.time, len(world.events)
    world.run_until_rest(shot.state.shot_time)
    events = world.events[start:]
    hits = [e for e in events if e.type == "collision" and die in e.dice and len(e.dice) > 1]
    gone = [e for e in events if e.type in ("off_board", "hole") and die in e.dice]
    if not hits or not gone:
        return None
    struck = next(d for d in hits[0].dice if d != die)
    others = {d for e in hits for d in e.dice if d != die}
    if any(e.type in ("off_board", "hole") and others & set(e.dice) for e in events):
        return None  # a struck die that leaves play is "knocked", not "hit"
    hit, left = hits[0].t - t0, gone[0].t - t0
    if not (hit > 2 * STEP and hit + 3 * STEP < left):
        return None
    fate = "off the board" if gone[0].type == "off_board" else "into the hole"
    return StoryShot(replay, number, struck, fate, hit, left)


@pytest.fixture(scope="module")
def story_shot(tmp_path_factory) -> StoryShot:
    """The first such shot in short Sumo matches at the table noise level (seeds tried in order,
    so the test does not hang on one recorded match's details)."""
    from jamsumo_sim.replay import load_replay, save_replay
    from jamsumo_sim.rules.match_cli import make_agents
    from jamsumo_sim.turnloop import get_game, play

    game = get_game("sumo")
    params = game.validate_params({**game.default_params(2), "rounds": 1, "noise": "table"})
    folder = tmp_path_factory.mktemp("story")
    for seed in range(3, 40):
        result = play(game, make_agents(game, ["random", "random"]), seed=seed, params=params)
        path = folder / f"sumo-table-{seed}.json"
        save_replay(path, result.state, ["random", "random"])
        for shot in load_replay(path).iter_shots():
            found = _story(path, shot.number)
            if found is not None:
                return found
    raise AssertionError("no shot in 37 Sumo matches hits a die and then leaves play")


def _ink(frame: np.ndarray, size: tuple[int, int]) -> int:
    """Pixels of text on the caption's second line (the story)."""
    x, y, w, h = frame_layout(size).caption_rect
    band = frame[y + h // 2 : y + h, x : x + w].astype(int)
    panel = np.median(band.reshape(-1, 3), axis=0)
    return int((np.abs(band - panel).sum(axis=2) > 90).sum())


def test_video_tells_each_outcome_when_it_happens(story_shot, tmp_path):
    import imageio.v3 as iio

    size = (320, 200)
    out = tmp_path / "s.gif"
    n = story_shot.number
    args = ["--shot", n, "--fps", FPS, "--speed", SPEED, "--hold", 0, "--size", "320x200"]
    assert export(story_shot.replay, *args, "--out", out) == 0
    frames = iio.imread(out)
    hit, gone = story_shot.hit, story_shot.gone
    ink = [_ink(f[..., :3], size) for f in frames]
    before = [ink[k] for k in range(len(frames)) if k * STEP < hit - 1e-6]
    between = [ink[k] for k in range(len(frames)) if hit + STEP < k * STEP < gone - 1e-6]
    assert max(before) == 0, "nothing has happened yet: no story"
    assert min(between) > 0, "the hit is told once it has happened"
    # the hit only: leaving play (and the verdict) is told when it happens
    assert max(between) < 0.7 * ink[-1]


def test_page_tells_each_outcome_when_it_happens(story_shot, tmp_path):
    from tests.export.browser import Browser, chromium_or_skip

    out = tmp_path / "match.html"
    n = story_shot.number
    assert export(story_shot.replay, "--out", out, "--shot", n) == 0
    hit, gone = story_shot.hit, story_shot.gone
    browser = Browser(chromium_or_skip(), tmp_path / "profile")
    try:
        browser.open(out)
        story = "document.getElementById('story').textContent"

        def told(t: float) -> str:
            browser.evaluate(f"window.jamsumoPlayer.seek({n}, {t!r})")
            state = json.loads(
                browser.evaluate("JSON.stringify(document.getElementById('player').dataset)")
            )
            assert state["shot"] == str(n)
            return browser.evaluate(story)

        assert told(0.0) == ""
        middle = told((hit + gone) / 2)
        assert f"hit {story_shot.struck}" in middle and story_shot.fate not in middle
        assert f"went {story_shot.fate} itself" in told(gone + 0.01)
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
