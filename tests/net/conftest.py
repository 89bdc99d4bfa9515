"""Every net test keeps joined seats' tokens (jamsumo_sim/net/seat_tokens.py) in its own folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
