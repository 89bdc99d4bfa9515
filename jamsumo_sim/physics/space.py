"""Assembling the pymunk Space: die bodies, the platforms' walls, collision filters, and the
canonical rebuild (insertion order, no cached contacts).

Material pairs: Chipmunk multiplies the two shapes' elasticity (and friction) values.  With the two
materials here (plastic dice, wooden platform walls; wood never meets wood) the pair table factorises
exactly: die value sqrt(e_die_die), wall value e_die_wood / sqrt(e_die_die) (same for friction), so each
contact gets the table's value with no per-contact Python callback.
"""

from __future__ import annotations

import functools
import math
from typing import TYPE_CHECKING

import pymunk

from . import _chipmunk, step_kernels
from .datatypes import ON_BOARD, DieRecord
from .params import PhysicsParams

if TYPE_CHECKING:
    from .state import WorldState

DIE_CAT = 0b01
WALL_CAT = 0b10
FILTER_LOW = pymunk.ShapeFilter(categories=DIE_CAT, mask=DIE_CAT | WALL_CAT)
FILTER_HIGH = pymunk.ShapeFilter(categories=DIE_CAT, mask=DIE_CAT)  # above the walls' tops
# Height bands for dice off the surface (airborne, or on another die): band k holds bases from
# k * a/BANDS_PER_DIE up; two such dice touch if their bands differ by at most BANDS_PER_DIE (their
# heights overlap, to a band's accuracy), and one touches the dice on the surface while its base
# is below their tops (physics.md s8.5: collisions only with shapes tall enough to reach it).
# Eighths of a die: with quarters a striker rising 17-20 mm up met a die hopping 0-3 mm off the
# board (a quarter's false contact), stalled over the row and came down on a die: the high
# break's die-on-a-die share at the default was 2.2 % against 0.2 % at refine 8 (0.6 % with
# eighths).  28 bands (bits 2..29) reach 3.5 dice up; higher bases share the top band.
BANDS_PER_DIE = 8
N_BANDS = 28
BAND_SHIFT = 2


def band_filter(
    base: float, size: float, wall_top: float, flat: float | None = None
) -> pymunk.ShapeFilter:
    """The filter of a die off the surface whose base is ``base`` m above the board.  ``flat``: a
    pitched die's base were it flat, when ``base`` is its lowest corner (step_kernels.air_low):
    the walls take that, as the lone-die model does (a die tipped over a platform's top reached
    below its rim by its corner and met the platform's walls from above)."""
    k = min(max(int(base * BANDS_PER_DIE / size), 0), N_BANDS - 1)
    return _band(k, base < size, (base if flat is None else flat) < wall_top)


def flight_base(z: float, vz: float, dt: float, g: float) -> float:
    """The base height (m) a die in flight at ``z`` rising at ``vz`` has halfway through the coming
    step: its height band for that step.  The filter holds for a whole step; taken at the step's
    start, a die rising past the dice's tops kept meeting them for up to a step after it was
    above them (on average half a step late, at any step: an error of first order in dt)."""
    return z + 0.5 * dt * vz - 0.125 * g * dt * dt


@functools.lru_cache(maxsize=4 * N_BANDS)
def _band(k: int, low: bool, walls: bool) -> pymunk.ShapeFilter:
    lo, hi = max(k - BANDS_PER_DIE, 0), min(k + BANDS_PER_DIE, N_BANDS - 1)
    cat = 1 << (BAND_SHIFT + k)
    mask = ((1 << (hi - lo + 1)) - 1) << (BAND_SHIFT + lo)
    if low:  # its base is below the tops of the dice on the surface: it reaches them
        cat |= DIE_CAT
        mask |= DIE_CAT
    if walls:
        mask |= WALL_CAT
    return pymunk.ShapeFilter(categories=cat, mask=mask)


def die_body(
    p: PhysicsParams, x: float, y: float, angle: float, vx: float, vy: float, omega: float
) -> tuple[pymunk.Body, pymunk.Poly]:
    """A die's pymunk body and rounded-box shape (die-die elasticity and friction: see the module
    docstring's material pairs); the benchmark's bare Space builds its dice with this too."""
    body = pymunk.Body(p.die_mass, p.die_inertia)
    body.position = (x, y)
    body.angle = angle
    body.velocity = (vx, vy)
    body.angular_velocity = omega
    inner = p.die_size - 2 * p.die_edge_radius
    shape = pymunk.Poly.create_box(body, (inner, inner), radius=p.die_edge_radius)
    shape.elasticity = math.sqrt(p.restitution)
    shape.friction = math.sqrt(p.mu_die)
    return body, shape


def air_base(d: DieRecord, p: PhysicsParams) -> tuple[float, float]:
    """(:func:`flight_base` of die ``d`` in flight at its lowest corner if it is pitched, at its
    flat base): :func:`band_filter`'s ``base`` and ``flat``."""
    pt = d.pitch
    base = flight_base(d.z, d.vz, p.step, p.gravity)
    if pt is None:
        return base, base
    return step_kernels.air_low(base, pt.phi, pt.rate, 0.5 * p.step, 0.5 * p.die_size), base


def die_filter(w: WorldState, d: DieRecord) -> pymunk.ShapeFilter:
    """Dice on a platform or straddling its edge pass over the walls; dice off the surface
    (airborne, on a die) collide by height band (:func:`band_filter`)."""
    p = w.params
    if d.airborne:
        low, flat = air_base(d, p)
        return band_filter(low, p.die_size, w._wall_top, flat)
    if d.on_die is not None:
        return band_filter(d.z, p.die_size, w._wall_top)
    return FILTER_HIGH if (d.level or d.straddle) else FILTER_LOW


def build_space(w: WorldState, reuse: bool = False) -> None:
    """(Re)build the pymunk Space from the dice records, in insertion order (canonical).

    ``reuse``: move the existing bodies and shapes (dice and walls) into the fresh Space instead of
    making new ones (a fifth of the cost).  A moved body carries nothing a new one would not have:
    removing its shapes drops its contacts, its bias velocities are cleared here (Chipmunk would
    apply the last solve's in the next step), and its pose and velocity are the record's; the fresh
    Space assigns shape ids in the same order.  So
    both ways give the same Space, bit for bit (tests/physics/test_world.py checks re-simulation).
    """
    p = w.params
    old = w.space if reuse else None
    moved: list[tuple[pymunk.Body, list[pymunk.Shape]]] = []
    if old is not None:
        moved.append((w._walls_body, w._walls))
        set_filter, clear_bias = _chipmunk.set_filter, _chipmunk.clear_bias
        for d in w._dice.values():
            if d.in_space:
                set_filter(d.shape, die_filter(w, d))
                # a resting overlap leaves bias velocities that would move the die in the next
                # step; a new body has none, so a reused one must not either (exact copies)
                clear_bias(d.body)
                moved.append((d.body, [d.shape]))
        _chipmunk.detach(old, moved)
    else:
        for d in w._dice.values():
            if d.in_space:
                pull(d)
                d.body = d.shape = None
    space = pymunk.Space()
    space.iterations = p.solver_iterations
    space.collision_slop = p.collision_slop
    # fraction of an overlap (beyond the slop) pushed out per collision step, via Chipmunk's
    # bias pseudo-velocities (no energy added); its default, 10 % per 1/60 s, leaves dice that
    # stopped mid-impact overlapping by more than the slop.  A rate per unit time, fixed by the
    # unrefined step: refine k must not push overlaps (a die landed propped on another's edge
    # overlaps it by design) out k times faster
    sub = p.dt / p.collision_substeps
    space.collision_bias = (1.0 - p.overlap_correction) ** (1.0 / sub)
    space.gravity = (0.0, 0.0)
    space.damping = 1.0
    w.space = space
    if old is not None:
        _chipmunk.attach(space, moved)
    else:
        w._walls_body, w._walls = make_walls(w)
        # the walls hang on a static body of the World's own, so they can move to a new Space
        space.add(w._walls_body, *w._walls)
        for d in w._dice.values():
            if d.status == ON_BOARD:
                add_body(w, d)
    w._canonical = True
    w._body_gen += 1
    w._dirty = True
    w._current = False


def make_walls(w: WorldState) -> tuple[pymunk.Body, list[pymunk.Poly]]:
    """The JAM platforms' side walls: static boxes dice bounce off (or climb: physics.platforms)."""
    p = w.params
    e_die = math.sqrt(p.restitution)
    f_die = math.sqrt(p.mu_die)
    body = pymunk.Body(body_type=pymunk.Body.STATIC)
    walls = []
    for plat in w.board.platforms:
        x0, y0, x1, y1 = plat.bounds
        wall = pymunk.Poly(body, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        wall.elasticity = p.restitution_wood / e_die if e_die > 0 else 0.0
        wall.friction = p.mu_wood / f_die if f_die > 0 else 0.0
        wall.filter = pymunk.ShapeFilter(categories=WALL_CAT, mask=DIE_CAT)
        walls.append(wall)
    return body, walls


def add_body(w: WorldState, d: DieRecord) -> None:
    body, shape = die_body(w.params, d.x, d.y, d.angle, d.vx, d.vy, d.omega)
    shape.filter = die_filter(w, d)
    w.space.add(body, shape)
    d.body, d.shape, d.body_id = body, shape, body.id
    w._body_gen += 1  # the batch rows must be re-indexed (view.read)
    w._dirty = True


def remove_body(w: WorldState, d: DieRecord) -> None:
    pull(d)
    w.space.remove(d.body, d.shape)
    d.body = d.shape = None
    w._body_gen += 1
    w._dirty = True


def pull(d: DieRecord) -> None:
    """Copy a body's pose and velocity into its record."""
    b = d.body
    d.x, d.y = b.position
    d.angle = b.angle
    d.vx, d.vy = b.velocity
    d.omega = b.angular_velocity
