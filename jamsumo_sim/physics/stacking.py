"""Dice on or against dice (physics.md s8.6; docs/physics.md "Dice on or against dice").

The platform straddle logic generalised to "supported by die k":
- a die that comes down with its centre over another die's top rests on it (``on_die``): level
  with that top, not lying flat, colliding only with shapes at its height (space.band_filter); it
  falls off (flight.launch from that height) once its centre leaves the top or the die under it
  leaves (struck away, in flight, in the hole);
- a die that comes down beside another with their footprints overlapping lands tilted against it
  (``lean``, set by flight.after_landing): not flat, while the two stay within ``LEAN_REACH`` die
  sizes (the contact solver pushes the footprints apart; a real die lies propped on the other's
  edge).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import fastbody, flight, view
from .datatypes import LEAN_REACH, DieRecord

if TYPE_CHECKING:
    from .state import WorldState


def step_die(w: WorldState, d: DieRecord) -> bool:
    """Keep ``d``'s support or prop up to date after a model step; True if the flags changed."""
    if d.on_die is not None:
        o = w._dice.get(d.on_die)
        if (
            o is None
            or not flight.standing(w, o, d)
            or not _over_top(d, o, 0.5 * w.params.die_size)
        ):
            d.pitch = None
            flight.launch(w, d, 0.0)  # slides or is knocked off: it falls from the top
            return True
        return False
    if d.lean is not None:
        o = w._dice.get(d.lean)
        ok = o is not None and flight.standing(w, o, d)
        if ok:
            (x, y), (ox, oy) = fastbody.position(d.body), fastbody.position(o.body)
            ok = math.hypot(ox - x, oy - y) <= LEAN_REACH * w.params.die_size
        if not ok:
            d.lean = None  # the prop moved away: it drops flat
            view.mark(w, d)
            return True
    return False


def _over_top(d: DieRecord, o: DieRecord, half: float) -> bool:
    """``d``'s centre lies over ``o``'s top face."""
    (x, y), (ox, oy) = fastbody.position(d.body), fastbody.position(o.body)
    c, s = math.cos(o.body.angle), math.sin(o.body.angle)
    dx, dy = x - ox, y - oy
    return abs(c * dx + s * dy) <= half and abs(-s * dx + c * dy) <= half
