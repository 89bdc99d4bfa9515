"""A seat's observation as text: its own view (``State.observation(seat)``, hidden information
left out) without the running log, as compact JSON with sorted keys.

The numeric form the environments return is :mod:`card_games.envs.features`; this text form is
what ``CardGameEnv.observe_text`` and OpenSpiel's observation strings give.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

LEFT_OUT = ("log",)


def view_of(observation: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in observation.items() if k not in LEFT_OUT}


def text(observation: Mapping[str, Any]) -> str:
    return json.dumps(view_of(observation), sort_keys=True, separators=(",", ":"), default=str)
