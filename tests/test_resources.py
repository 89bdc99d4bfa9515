"""The packaged TOML settings files: each reader goes through resources.versioned_asset."""

from __future__ import annotations

import pytest

from jamsumo_sim import resources
from jamsumo_sim.errors import UserError


@pytest.mark.parametrize("name", ["net.toml", "noise.toml", "bots.toml", "sounds.toml"])
def test_the_shipped_settings_files_load(name: str) -> None:
    assert resources.versioned_asset(name)["version"] == 1


@pytest.mark.parametrize(
    "text, words",
    [
        ("version = 1\n[oops", "cannot be read"),
        ("version = 2\n", "unsupported version '2'"),
        ("x = 1\n", "unsupported version 'None'"),
    ],
)
def test_a_broken_settings_file_is_one_line(monkeypatch, text: str, words: str) -> None:
    monkeypatch.setattr(resources, "read_asset_text", lambda *parts: text)
    with pytest.raises(UserError) as err:
        resources.versioned_asset("noise.toml")
    message = str(err.value)
    assert message.startswith("assets/noise.toml") and words in message and "\n" not in message
