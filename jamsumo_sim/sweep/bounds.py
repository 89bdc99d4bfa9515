"""Bounds of the sweep and tournament commands shared by their parsers (docs/limits.md); kept in a
module of their own so building the command line imports nothing heavy."""

from __future__ import annotations

MAX_WORKERS = 256  # --workers: processes of a local cluster
MAX_MATCHES = 1_000_000  # tournament --matches
EXTRA_HINT = "install the sweep extra: pip install 'jamsumo[sweep]'"
