"""The wheel built once per test process for the tests that install it (tests/cli/wheel_helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.wheel_helpers import build_wheel


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the source copy it was built from)."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))
