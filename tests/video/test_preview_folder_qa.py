"""--preview into a folder that does not exist yet is made, as for the other outputs (qa)."""

from __future__ import annotations

import numpy as np

from jamsumo_sim.video.camera import pinhole
from jamsumo_sim.video.preview import Preview


def test_preview_into_a_new_folder_is_written(tmp_path):
    path = tmp_path / "new" / "deeper" / "p.avi"
    preview = Preview(path, 30.0, 64, 48, pinhole(64, 48, 50.0), 0.016)
    for k in range(3):
        preview.add(k, np.full((48, 64, 3), 100, np.uint8), None, {})
    preview.close()
    assert path.is_file() and path.stat().st_size > 0
