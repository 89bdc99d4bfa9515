"""An animated GIF written frame by frame, so its memory does not grow with its length.

Pillow's ``save_all`` needs every frame at once (about 3 bytes a pixel of each frame held until
the end: 1.3 GB for a 40-frame 3840x2160 GIF). Here each frame is quantised to its own palette and
written as soon as the next one is known; only the previous picture is kept. As Pillow does, a
frame identical to the one before lengthens it instead of being written again, and a frame that
differs stores only the rectangle that changed, its unchanged pixels transparent (they show the
frame before, which the frames are drawn over: disposal 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

import numpy as np
from PIL import GifImagePlugin, Image

COLOURS = 255  # a frame's palette; index 255 stays free for the unchanged (transparent) pixels
TRANSPARENT = 255
MAX_DELAY_CS = 0xFFFF  # a frame's delay field (hundredths of a second)
_KEEP = 1  # disposal method: draw the next frame over this one
_LOOP_FOREVER = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"


def _header(width: int, height: int) -> bytes:
    # no global colour table: every frame carries its own palette
    return b"GIF89a" + width.to_bytes(2, "little") + height.to_bytes(2, "little") + b"\x00\x00\x00"


class GifWriter:
    """``add`` frames (H, W, 3 uint8, all one size), then ``close``; writes to ``handle``.

    A frame is kept (not copied) until the next one differs from it: do not change it after ``add``.
    """

    def __init__(self, handle: IO[bytes], delay_ms: int) -> None:
        self.handle = handle
        self.delay_cs = max(1, delay_ms // 10)
        self.frames = 0  # frames added (identical neighbours counted one by one)
        self._shown: np.ndarray | None = None  # the picture the GIF shows so far
        self._pending: np.ndarray | None = None  # the last picture, not yet written
        self._pending_cs = 0

    def add(self, frame: np.ndarray) -> None:
        self.frames += 1
        pending = self._pending
        same = pending is not None and (frame is pending or np.array_equal(frame, pending))
        if same and self._pending_cs + self.delay_cs <= MAX_DELAY_CS:
            self._pending_cs += self.delay_cs
            return
        self._flush()
        if self._shown is None:
            height, width = frame.shape[:2]
            self.handle.write(_header(width, height) + _LOOP_FOREVER)
        self._pending, self._pending_cs = frame, self.delay_cs

    def close(self) -> None:
        self._flush()
        self.handle.write(b";")

    def _flush(self) -> None:
        frame = self._pending
        if frame is None:
            return
        shown = self._shown
        if shown is None:
            top, left, bottom, right = 0, 0, frame.shape[0], frame.shape[1]
            changed = None
        else:
            changed = np.any(frame != shown, axis=2)
            rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            if rows.size:
                top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
            else:  # the same picture again (a delay longer than one frame may have): one pixel
                top, bottom, left, right = 0, 1, 0, 1
        crop = frame[top:bottom, left:right]
        image = Image.fromarray(crop).quantize(colors=COLOURS, method=Image.Quantize.MEDIANCUT)
        palette = image.getpalette() or []
        image.putpalette(palette + [0] * (768 - len(palette)))  # 256 entries: index 255 exists
        params: dict[str, object] = {
            "duration": 10 * self._pending_cs,
            "disposal": _KEEP,
            "include_color_table": True,
        }
        if changed is not None:
            kept = ~changed[top:bottom, left:right]
            if kept.any():  # unchanged pixels show the frame below: they compress to nothing
                image.paste(TRANSPARENT, mask=Image.fromarray(kept))
                params["transparency"] = TRANSPARENT
        for chunk in GifImagePlugin.getdata(image, (int(left), int(top)), **params):
            self.handle.write(chunk)
        self._shown, self._pending = frame, None


def write_frames(handle: IO[bytes], frames: Iterable[np.ndarray], delay_ms: int) -> int:
    """Write ``frames`` as a looping GIF; returns how many were added (0: nothing written)."""
    writer = GifWriter(handle, delay_ms)
    for frame in frames:
        writer.add(frame)
    if writer.frames:
        writer.close()
    return writer.frames
