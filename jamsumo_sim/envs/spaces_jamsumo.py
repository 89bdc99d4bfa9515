"""JamSumo's action and observation layout for the AI environments (one place for the numbers).

A move is ``{"choice": k, "flick": [direction, finger_speed, offset, height]}``:

- ``choice`` (Discrete, masked): ``0..5`` flick your die 1..6 where it lies; ``6..6+Z-1`` (Jam)
  place the first die of your hand on JAM zone z (at its centre) and flick it; then
  ``SETUP_SLOTS`` Sumo set-ups (the j-th canonical set-up the game offers, your own corner
  first); the last index passes (legal only when no fair flick exists).
- ``flick`` (Box): direction in rad in the seat's own view (0 = to the seat's right, π/2 = away
  from the seat, across the board), finger speed in m/s, offset -0.5..0.5 and height 0..1 of the
  contact point on the die. Ignored for a set-up or a pass.

The observation is a flat float32 vector: per die (every seat's six, in seat order) whether it is
on the board, in hand, out; x, y (m, seat's view), cos/sin of its angle, its top face / 6, and
whether it is yours; then the round / rounds, the seat's running total and whose turn it is.
The observation dict also holds ``action_mask`` (and the same array as ``choice_mask``);
``infos[agent]["action_mask"]`` holds the same
mask as ``{"choice": mask, "flick": None}``, the form ``action_space(agent).sample(mask)`` takes
(and PettingZoo's tests use).
"""

from __future__ import annotations

import math

import numpy as np

DICE_PER_SEAT = 6
SETUP_SLOTS = 16  # more than areas x canonical layouts on the standard board (checked at use)
FINGER_SPEED_MIN = 0.05  # m/s: a flick needs some speed
FINGER_SPEED_MAX = 4.0  # m/s: above the bots' hardest flick (2.6 m/s) with room to spare
FLICK_LOW = np.array([-math.pi, FINGER_SPEED_MIN, -0.5, 0.0], dtype=np.float32)
FLICK_HIGH = np.array([math.pi, FINGER_SPEED_MAX, 0.5, 1.0], dtype=np.float32)
# the flick of a bare-integer action: away from the seat, across the board, at a middling speed,
# struck square at mid-height
DEFAULT_FLICK = np.array([math.pi / 2, 1.0, 0.0, 0.5], dtype=np.float32)
DIE_FEATURES = 9
EXTRA_FEATURES = 4
POSITION_BOUND = 1.0  # m: any die position (board ~0.6 m; dice off the edge are not listed)
# a refused flick (not fair: the finger would touch another die) is re-asked of the same seat,
# with this reward, so a learner is told without the match moving on
REFUSAL_PENALTY = -0.01
