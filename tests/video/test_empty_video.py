"""An empty video file is named as empty, not as a codec problem."""

from __future__ import annotations

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.video.source import open_source

pytest.importorskip("cv2")


def test_an_empty_file_is_called_empty(tmp_path):
    empty = tmp_path / "shot.mp4"
    empty.write_bytes(b"")
    with pytest.raises(UserError, match=r"shot\.mp4: the file is empty \(0 bytes\)$"):
        open_source(empty, None)
