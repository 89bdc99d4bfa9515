"""Shared fixtures of the video-tracking tests: the standard board, the true parameters, a camera."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")
