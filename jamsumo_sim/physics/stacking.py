"""Dice on or against dice (physics.md s8.6; docs/physics.md "Dice on or against dice").

The platform straddle logic generalised to "supported by die k":
- a die that comes down with its centre over another die's top rests on it (``on_die``): level
  with that top, not lying flat, colliding only with shapes at its height (space.band_filter); it
  falls off (flight.launch from that height) once its centre leaves the top or the die under it
  leaves (struck away, in flight, in the hole);
- a die that comes down beside another with their footprints overlapping lands tilted against it
  (``lean``): not flat, while the two stay within :data:`LEAN_REACH` die sizes (the contact
  solver pushes the footprints apart; a real die lies propped on the other's edge).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import fastbody, flight, view
from .datatypes import ON_BOARD, DieRecord

if TYPE_CHECKING:
    from .world import World

# A leaning die stays propped while its centre is within this many die sizes of the other's:
# corner to face, touching, is (1/2 + 1/sqrt2) = 1.21 sizes.
LEAN_REACH = 1.25
# Tilt (rad) a leaning die is drawn with: a 16 mm die propped on another's rounded top edge.
LEAN_TILT = 0.35


def overlap_depth(a: DieRecord, b: DieRecord, half: float) -> float:
    """How deep (m) the two dice's square footprints overlap (< 0: apart), by separating axes."""
    (ax, ay), (bx, by) = fastbody.position(a.body), fastbody.position(b.body)
    dx, dy = bx - ax, by - ay
    depth = math.inf
    angles = (fastbody.angle(a.body), fastbody.angle(b.body))
    for ang in angles:
        for n in ((math.cos(ang), math.sin(ang)), (-math.sin(ang), math.cos(ang))):
            reach = 0.0
            for other in angles:
                c, s = math.cos(other), math.sin(other)
                reach += half * (abs(n[0] * c + n[1] * s) + abs(-n[0] * s + n[1] * c))
            depth = min(depth, reach - abs(n[0] * dx + n[1] * dy))
    return depth


def _standing(w: World, o: DieRecord, d: DieRecord) -> bool:
    return (
        o is not d
        and o.in_space
        and o.status == ON_BOARD
        and not o.airborne
        and o.fall_time is None
        and o.group == d.group
    )


def after_landing(w: World, d: DieRecord) -> None:
    """``d`` came down on the board or a platform: beside a die whose footprint its own overlaps
    (more than the collision slop), it leans against it."""
    if d.on_die is not None:
        return
    p = w.params
    half = 0.5 * p.die_size
    reach = 2.0 * w._half_diag
    x, y = fastbody.position(d.body)
    best, deepest = None, p.collision_slop
    for o in w._dice.values():  # insertion order: ties go to the first, reproducibly
        if not _standing(w, o, d):
            continue
        ox, oy = fastbody.position(o.body)
        if abs(ox - x) > reach or abs(oy - y) > reach:
            continue
        depth = overlap_depth(d, o, half)
        if depth > deepest:
            best, deepest = o, depth
    if best is not None:
        d.lean = best.id
        w._special = True
        view.mark(w, d)


def step_die(w: World, d: DieRecord) -> bool:
    """Keep ``d``'s support or prop up to date after a model step; True if the flags changed."""
    if d.on_die is not None:
        o = w._dice.get(d.on_die)
        if o is None or not _standing(w, o, d) or not _over_top(d, o, 0.5 * w.params.die_size):
            d.pitch = None
            flight.launch(w, d, 0.0)  # slides or is knocked off: it falls from the top
            return True
        return False
    if d.lean is not None:
        o = w._dice.get(d.lean)
        ok = o is not None and _standing(w, o, d)
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
