"""The physics of one board and its dice, split by concern (see :mod:`.world` for the map).

Public API: World, DieState, ShotResult, IllegalAction, die_body, warm_up and the die statuses; loaded
lazily (PEP 562) so importing the package stays light for the rules and the CLIs.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "World": ".world",
    "warm_up": ".world",
    "DieState": ".datatypes",
    "ShotResult": ".datatypes",
    "IllegalAction": ".datatypes",
    "ON_BOARD": ".datatypes",
    "IN_HOLE": ".datatypes",
    "OFF": ".datatypes",
    "STATUSES": ".datatypes",
    "die_body": ".space",
    "SNAPSHOT_VERSION": ".snapshot",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value
    return value
