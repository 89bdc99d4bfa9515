"""The one place that touches pymunk internals and the experimental ``pymunk.batch``: reusable batch
requests straight to pymunk's C iterators, raw ``cpSpaceStep`` and the cached-arbiter walk, and moving
bodies between Spaces without Space.add/remove's per-object checks.

Checked against the installed pymunk by ``tests/physics/test_world.py`` (bit-identical re-simulation,
re-indexing); a pymunk upgrade that changes these internals fails there first.
"""

from __future__ import annotations

import weakref
from typing import Any

import pymunk
import pymunk.batch as pb
from pymunk._chipmunk import ffi as _ffi
from pymunk._chipmunk import lib as _lib

BF = pb.BodyFields
READ_FIELDS = BF.POSITION | BF.ANGLE | BF.VELOCITY | BF.ANGULAR_VELOCITY
WRITE_FIELDS = BF.VELOCITY | BF.ANGULAR_VELOCITY
_AF = pb.ArbiterFields
ARB_FIELDS = _AF.BODY_A_ID | _AF.BODY_B_ID | _AF.IS_FIRST_CONTACT | _AF.TOTAL_IMPULSE
# The per-step batch calls go straight to pymunk's C iterators (what pymunk.batch's get/set functions
# do, minus building the request struct and reading the flag enums on every call).
GET_BODIES = _ffi.addressof(_lib, "pmSpaceBodyGetIteratorFuncBatched")
SET_BODIES = _ffi.addressof(_lib, "pmSpaceBodySetIteratorFuncBatched")
GET_ARBITERS = _ffi.addressof(_lib, "pmSpaceArbiterIteratorFuncBatched")

each_body = _lib.cpSpaceEachBody
each_cached_arbiter = _lib.cpSpaceEachCachedArbiter
space_step = _lib.cpSpaceStep


def batch_request(buf: pb.Buffer, fields) -> Any:
    """A reusable pmBatchedData request for ``buf`` (as built by pymunk.batch on each call)."""
    data = _ffi.new("pmBatchedData *")
    data.fields = fields.value
    data.floatArray = buf._float_arr
    data.intArray = buf._int_arr
    return data


def detach(space: pymunk.Space, moved: list[tuple[pymunk.Body, list[pymunk.Shape]]]) -> None:
    """Take bodies and their shapes out of ``space`` (Space.remove minus its per-object checks and
    callbacks; the World registers none).  Removing a shape drops its cached contacts."""
    cs = space._space
    for body, shapes in moved:
        for shape in shapes:
            _lib.cpSpaceRemoveShape(cs, shape._shape)
            del space._shapes[shape]
            shape._space = None
        _lib.cpSpaceRemoveBody(cs, body._body)
        del space._bodies[body]
        body._space = None


def attach(space: pymunk.Space, moved: list[tuple[pymunk.Body, list[pymunk.Shape]]]) -> None:
    """Put detached bodies and shapes into ``space`` in the given order (Space.add, minus the checks
    of a body's mass made when it was first added)."""
    cs = space._space
    ref = weakref.ref(space)
    for body, shapes in moved:
        body._space = ref
        space._bodies[body] = None
        _lib.cpSpaceAddBody(cs, body._body)
        for shape in shapes:
            shape._space = ref
            space._shapes[shape] = None
            _lib.cpSpaceAddShape(cs, shape._shape)


def clear_bias(body: pymunk.Body) -> None:
    """Drop the bias velocities the last solve left on ``body`` (Chipmunk applies them in the next
    step's position update, then zeroes them; a new body has none).  A position update over zero
    time leaves the pose bit for bit as it is and zeroes them; pymunk exposes no other way."""
    _lib.cpBodyUpdatePosition(body._body, 0.0)


def has_queued_work(space: pymunk.Space) -> bool:
    """Bodies added since the last step to check, or additions/removals queued by pymunk's wrapper."""
    return bool(space._bodies_to_check or space._add_later or space._remove_later)


def body_count(space: pymunk.Space) -> int:
    return len(space._bodies)


def shape_count(space: pymunk.Space) -> int:
    return len(space._shapes)
