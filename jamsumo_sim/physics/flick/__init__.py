"""The flick: a fingertip pad pushing one side face of one die.

- :mod:`.laws` the :class:`Flick` value and the closed-form laws of the strike (impulse,
  effective mass, the friction cone, launch, pitch); light, no pymunk or numba;
- :mod:`.apply` the fair-flick check and the strike applied to a World's state.

The value and the laws are handed on here (``from jamsumo_sim.physics.flick import Flick``), with
the edge laws a strike shares with the step modules (:mod:`..edges`).
"""

from __future__ import annotations

from ..edges import pitch_tumble_rate, speed_after_trip, strike_pitch_rate, trip_speed
from .laws import (
    STRENGTHS,
    Flick,
    Strike,
    cone_parts,
    contact_point,
    effective_mass,
    finger_for_launch,
    finger_impulse,
    flick_tumbles,
    grip_parts,
    grip_share,
    inverse_mass,
    launch_speed,
    lever,
    max_lever,
    pitch_per_impulse,
    pitch_rate,
    strike,
    strike_energy,
    struck_side,
)

__all__ = [
    "STRENGTHS",
    "Flick",
    "Strike",
    "cone_parts",
    "contact_point",
    "effective_mass",
    "finger_for_launch",
    "finger_impulse",
    "flick_tumbles",
    "grip_parts",
    "grip_share",
    "inverse_mass",
    "launch_speed",
    "lever",
    "max_lever",
    "pitch_per_impulse",
    "pitch_rate",
    "pitch_tumble_rate",
    "speed_after_trip",
    "strike",
    "strike_energy",
    "strike_pitch_rate",
    "struck_side",
    "trip_speed",
]
