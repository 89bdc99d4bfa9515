"""Players stay apart for everyone: the RENDERED dice, seen with simulated colour-vision deficiencies
(Machado 2009 protanopia, deuteranopia, tritanopia) and in greyscale, differ by a clear CIE ΔE; and each
player has a second cue (the pip shape) that shows without colour."""

from __future__ import annotations

import itertools

import numpy as np
import pygame
import pytest

from jamsumo_sim.ui.draw_dice import DieLook, draw_die
from jamsumo_sim.ui.palette import MARKS, MIN_DELTA_E, VISIONS, delta_e, mark_of
from jamsumo_sim.ui.theme import load_theme

NAMES = ("red", "blue", "green", "yellow")
SIZE = 40


def rendered_face(name: str, top: int = 0) -> tuple[float, float, float]:
    """The colour a die of ``name`` shows on screen: median of its face's central pixels."""
    theme = load_theme()
    surf = pygame.Surface((80, 80))
    surf.fill(theme.colour("wood_light"))
    look = DieLook("d", 0, 0, 0.0, top, theme.dice_colour(name), mark=mark_of(name))
    draw_die(surf, (40, 40), SIZE, 0.0, look)
    px = pygame.surfarray.array3d(surf)[32:48, 32:48].reshape(-1, 3)
    return tuple(float(v) for v in np.median(px, axis=0))


@pytest.mark.parametrize("vision", VISIONS)
def test_every_pair_of_players_differs_clearly(vision):
    faces = {n: rendered_face(n) for n in NAMES}
    for a, b in itertools.combinations(NAMES, 2):
        de = delta_e(faces[a], faces[b], vision)
        assert de >= MIN_DELTA_E, f"{a} and {b} differ by only ΔE {de:.1f} in {vision}"


def test_the_simulation_does_merge_the_old_red_and_green():
    # the check can fail: the old palette's red and green (and red and blue in greyscale) merge
    old = {"red": (196, 46, 40), "blue": (48, 100, 192), "green": (40, 146, 72)}
    assert delta_e(old["red"], old["green"], "deuteranopia") < MIN_DELTA_E
    assert delta_e(old["red"], old["blue"], "greyscale") < MIN_DELTA_E
    assert delta_e(old["red"], old["green"], "normal") > MIN_DELTA_E


def test_each_player_has_its_own_pip_shape():
    assert len({MARKS[n] for n in NAMES}) == len(NAMES)
    # drawn, the shapes differ in their pixels even in one colour
    shots = []
    for n in NAMES:
        surf = pygame.Surface((120, 120))
        surf.fill((0, 0, 0))
        draw_die(surf, (60, 60), 100, 0.0, DieLook("d", 0, 0, 0.0, 5, (90, 90, 90), mark=MARKS[n]))
        shots.append(pygame.surfarray.array3d(surf).sum(axis=2) > 500)  # the light pips only
    for a, b in itertools.combinations(range(len(NAMES)), 2):
        assert (shots[a] != shots[b]).sum() > 100


def test_screenshot_of_the_dice_as_each_vision_sees_them():
    """Rows: normal, protanopia, deuteranopia, tritanopia, greyscale (look at it)."""
    import os
    import tempfile
    from pathlib import Path

    from jamsumo_sim.ui.palette import CVD_MATRICES, to_linear

    theme = load_theme()
    strip = pygame.Surface((4 * 70, 70))
    strip.fill(theme.colour("wood_light"))
    for i, n in enumerate(NAMES):
        look = DieLook("d", 0, 0, 0.2, 5, theme.dice_colour(n), mark=mark_of(n))
        draw_die(strip, (35 + 70 * i, 35), 44, 0.2, look)
    rgb = pygame.surfarray.array3d(strip).astype(float)
    lin = to_linear(rgb.reshape(-1)).reshape(rgb.shape)
    rows = [lin]
    for m in CVD_MATRICES.values():
        rows.append(np.clip(lin @ m.T, 0, 1))
    grey = lin @ np.array([0.2126, 0.7152, 0.0722])
    rows.append(np.repeat(grey[..., None], 3, axis=2))

    def to_srgb(x):
        return np.where(x <= 0.0031308, 12.92 * x, 1.055 * x ** (1 / 2.4) - 0.055) * 255

    picture = np.concatenate([to_srgb(r) for r in rows], axis=1).astype(np.uint8)
    assert picture.shape == (280, 350, 3)
    shots = Path(os.environ.get("JAMSUMO_UI_SHOTS", tempfile.gettempdir())) / "jamsumo-ui-shots"
    shots.mkdir(exist_ok=True)
    pygame.image.save(pygame.surfarray.make_surface(picture), str(shots / "palette_visions.png"))
