"""Which way a flicked die leaves: the physics' own launch law, read by whoever must show or judge
an aim before shooting (the window's aim arrow, the planner's set-up search).

A die struck off the face's normal leaves between the normal and the aim: within the finger's
friction cone the pad grips the face without a rebound along it (atan(tan d / (1 + e_f)) off the
normal for a push d off it), beyond the cone it slips, so the die can leave up to a few tens of
degrees from the aim.  This calls the law the World applies
(``physics.flick.apply.launch``); it never models the launch a second time.
"""

from __future__ import annotations

import math
from typing import Any

from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.params import PhysicsParams


def _law() -> Any:
    """The World's launch law (imported late: its module pulls in the World)."""
    try:
        from jamsumo_sim.physics.flick.apply import launch
    except ImportError:  # the layout before the physics package was split
        from jamsumo_sim.physics.flicks import launch  # type: ignore[no-redef]
    return launch


def launch_heading(flick: Flick, x: float, y: float, angle: float, params: PhysicsParams) -> float:
    """World direction (rad) in which ``flick`` sends a die at rest at (x, y) turned ``angle``
    (the aim itself when the push is within the cone)."""
    dvx, dvy = _law()(flick, x, y, angle, params, params.die_inertia)[:2]
    if dvx == 0.0 and dvy == 0.0:
        return flick.direction
    return math.atan2(dvy, dvx)


def turn_off_aim(flick: Flick, x: float, y: float, angle: float, params: PhysicsParams) -> float:
    """How far (rad, signed) the die leaves from the aim: 0 for a push along the face's normal."""
    return math.remainder(launch_heading(flick, x, y, angle, params) - flick.direction, 2 * math.pi)
