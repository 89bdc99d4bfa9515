"""Screenshots: the path is checked before any work, the picture is written atomically (fileio)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import pygame

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError

# what pygame.image.save can write (by file ending)
SUFFIXES = (".png", ".bmp", ".tga", ".jpg", ".jpeg")


def check_path(path: str, inputs: Iterable[str | None] = ()) -> Path:
    """Refuse a bad --screenshot path up front (empty, a folder, unwritable, an input, odd type)."""
    return fileio.check_output_path(path, "--screenshot", inputs=inputs, suffixes=SUFFIXES)


def save(surface: pygame.Surface, path: str) -> Path:
    """Encode in memory, then write atomically: the old file or the whole new picture, never half."""
    target = Path(path)
    buffer = io.BytesIO()
    try:
        pygame.image.save(surface, buffer, target.suffix.lower() or ".png")
    except (pygame.error, OSError, ValueError) as exc:
        raise UserError(f"cannot save screenshot {target}: {exc}") from None
    return fileio.write_atomic(target, buffer.getvalue(), "screenshot", binary=True)
