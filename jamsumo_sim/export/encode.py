"""Frames to files: MP4 (H.264 through imageio's ffmpeg plugin, whose wheel ships the binary) and GIF
(Pillow), written atomically through :mod:`jamsumo_sim.fileio`. The encoder is checked before any
frame is rendered."""

from __future__ import annotations

import functools
import io
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError

H264 = "libx264"
MP4_QUALITY = (
    8  # imageio's 0–10 scale (10 best): crisp edges on the wood, ~1 MB a minute at 960x600
)


def _ffmpeg() -> str:
    try:
        import imageio_ffmpeg
    except ImportError:
        raise UserError(
            "MP4 export needs imageio and imageio-ffmpeg: pip install 'jamsumo[export]' "
            "(or export .gif or .html)"
        ) from None
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
    import imageio.v2 as imageio

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
        finally:
            writer.close()
        fileio.write_atomic(path, out.read_bytes(), "video", binary=True)
    return count


def gif_delay_ms(fps: int) -> int:
    """GIF frame delays are whole hundredths of a second."""
    return 10 * max(2, round(100 / fps))


def write_gif(path: Path, frames: Iterable[np.ndarray], fps: int) -> int:
    """Encode ``frames`` as a looping GIF (each frame with its own 256-colour palette)."""
    from PIL import Image

    images = [
        Image.fromarray(frame).quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        for frame in frames
    ]
    if not images:
        raise UserError(f"{path}: nothing to write")
    buffer = io.BytesIO()
    images[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=gif_delay_ms(fps),
        loop=0,
        disposal=1,
    )
    fileio.write_atomic(path, buffer.getvalue(), "GIF", binary=True)
    return len(images)


def write_png(path: Path, frame: np.ndarray) -> None:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(frame).save(buffer, format="PNG")
    fileio.write_atomic(path, buffer.getvalue(), "picture", binary=True)
