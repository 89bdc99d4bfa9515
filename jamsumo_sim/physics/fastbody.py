"""Cheap reads and writes of a body's state for the per-step bookkeeping of dice in a special
state (pitched, in flight, on or against a die), straight through Chipmunk's C calls: pymunk's
getters build a Vec2d or a ShapeFilter through a property at every read, and its setters pass
through a Python ``__setattr__`` mixin, two to three times the cost.  The same C calls, so the same
doubles and bits as pymunk's (tests/physics/test_pitch_kernel.py)."""

from __future__ import annotations

import pymunk
from pymunk._chipmunk import lib as _lib


def position(body: pymunk.Body) -> tuple[float, float]:
    """``body.position`` as a plain pair."""
    v = _lib.cpBodyGetPosition(body._body)
    return v.x, v.y


def angle(body: pymunk.Body) -> float:
    """``body.angle``."""
    return _lib.cpBodyGetAngle(body._body)


def velocity(body: pymunk.Body) -> tuple[float, float]:
    """``body.velocity`` as a plain pair."""
    v = _lib.cpBodyGetVelocity(body._body)
    return v.x, v.y


def motion(body: pymunk.Body) -> tuple[float, float, float]:
    """(``body.velocity``, ``body.angular_velocity``) as one plain triple."""
    b = body._body
    v = _lib.cpBodyGetVelocity(b)
    return v.x, v.y, _lib.cpBodyGetAngularVelocity(b)


def set_motion(body: pymunk.Body, vx: float, vy: float, omega: float) -> None:
    """``body.velocity = (vx, vy)`` then ``body.angular_velocity = omega``."""
    b = body._body
    _lib.cpBodySetVelocity(b, (vx, vy))
    _lib.cpBodySetAngularVelocity(b, omega)


def filter_is(shape: pymunk.Shape, f: pymunk.ShapeFilter) -> bool:
    """True if ``shape``'s collision filter is ``f``."""
    g = _lib.cpShapeGetFilter(shape._shape)
    return g.categories == f.categories and g.mask == f.mask and g.group == f.group
