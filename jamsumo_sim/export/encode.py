"""Frames to files: MP4 (H.264 through imageio's ffmpeg plugin, whose wheel ships the binary) and GIF
(Pillow), written atomically through :mod:`jamsumo_sim.fileio`. The encoder is checked before any
frame is rendered."""

from __future__ import annotations

import contextlib
import functools
import io
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import IO

import numpy as np

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError
from jamsumo_sim.extras import require

H264 = "libx264"
MP4_QUALITY = (
    8  # imageio's 0–10 scale (10 best): crisp edges on the wood, ~1 MB a minute at 960x600
)


MP4_INSTEAD = "export .gif or .html"  # Pillow (a core dependency) writes those


def require_mp4(needed_by: str = "MP4 export") -> None:
    """imageio and imageio-ffmpeg (the export extra) import, or one line naming the extra."""
    require("imageio.v2", "export", needed_by, MP4_INSTEAD)
    require("imageio_ffmpeg", "export", needed_by, MP4_INSTEAD)


def _ffmpeg() -> str:
    imageio_ffmpeg = require("imageio_ffmpeg", "export", "MP4 export", MP4_INSTEAD)
    try:
        return imageio_ffmpeg.get_ffmpeg_exe()
    except RuntimeError as exc:
        raise UserError(f"MP4 export: no ffmpeg binary found ({exc})") from None


@functools.cache
def _encoders(exe: str) -> str:
    try:
        out = subprocess.run(
            [exe, "-hide_banner", "-encoders"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise UserError(f"MP4 export: ffmpeg {exe} cannot run ({exc})") from None
    return out.stdout


def check_mp4() -> None:
    """A one-line UserError unless an H.264 encoder is at hand (called before rendering)."""
    exe = _ffmpeg()
    if H264 not in _encoders(exe):
        raise UserError(
            f"MP4 export: the ffmpeg at {exe} has no H.264 encoder ({H264}); export .gif or .html"
        )


def write_mp4(path: Path, frames: Iterable[np.ndarray], fps: int) -> int:
    """Encode ``frames`` (H, W, 3 uint8) at ``fps``; returns the number of frames written."""
    imageio = require("imageio.v2", "export", "MP4 export", MP4_INSTEAD)
    count = 0
    with tempfile.TemporaryDirectory(prefix="jamsumo-export-") as tmp:
        out = Path(tmp) / "video.mp4"
        writer = imageio.get_writer(
            out,
            format="FFMPEG",
            fps=fps,
            codec=H264,
            quality=MP4_QUALITY,
            pixelformat="yuv420p",
            macro_block_size=2,  # sizes are even: never rescale the picture
            ffmpeg_log_level="error",
        )
        try:
            for frame in frames:
                writer.append_data(frame)
                count += 1
            writer.close()
        except OSError as exc:  # ffmpeg died (out of memory, disk full); its own lines are above
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UserError(f"MP4 export: ffmpeg stopped after {count} frames ({reason})") from None
        finally:
            if not writer.closed:
                with contextlib.suppress(Exception):  # already failing: the first error is told
                    writer.close()
        with out.open("rb") as video:  # copied in pieces: a long video never sits in memory
            fileio.write_atomic(
                path, lambda handle: shutil.copyfileobj(video, handle), "video", binary=True
            )
    return count


def gif_delay_ms(fps: int) -> int:
    """GIF frame delays are whole hundredths of a second."""
    return 10 * max(2, round(100 / fps))


def write_gif(path: Path, frames: Iterable[np.ndarray], fps: int) -> int:
    """Encode ``frames`` as a looping GIF (each frame with its own 255-colour palette), written
    frame by frame (:mod:`jamsumo_sim.export.gif`): memory stays that of one frame."""
    from jamsumo_sim.export.gif import write_frames

    count = 0

    def write(handle: IO[bytes]) -> None:
        nonlocal count
        count = write_frames(handle, frames, gif_delay_ms(fps))
        if not count:
            raise UserError(f"{path}: nothing to write")

    fileio.write_atomic(path, write, "GIF", binary=True)
    return count


def write_png(path: Path, frame: np.ndarray) -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(frame).save(buffer, format="PNG")
    fileio.write_atomic(path, buffer.getvalue(), "picture", binary=True)
