"""Copies (exact at any moment, Chipmunk's solver state included), JSON-able snapshots (the dice
exactly; the Space only at canonical points), and the state checksum."""

from __future__ import annotations

import copy as _copy
import hashlib
import math
import struct
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
import pymunk

from .. import errors
from . import _chipmunk
from .board import board_to_dict, load_board
from .datatypes import MAX_PITCH_RATE, PITCH_CAUSES, STATUSES, DieRecord, Pitch
from .die import Orientation
from .params import PhysicsParams
from .space import build_space, pull

if TYPE_CHECKING:
    from .state import WorldState

W = TypeVar("W", bound="WorldState")  # the World, or any WorldState of the same shape

SNAPSHOT_VERSION = 1


def copy_world(w: W) -> W:
    """An exact, independent copy at any moment: its future equals the original's bit for bit.

    A canonical world (at rest after run_until_rest, or rebuilt since) is copied by a canonical
    rebuild.  Otherwise pymunk's Space.copy() (bodies, shapes, cached contacts with their impulses)
    and then Chipmunk's remaining solver state copied over (physics/_chipmunk.py
    ``clone_solver_state``: bias velocities, the pairs touching in the last step in their order,
    the spatial index).  The original is not touched."""
    new = object.__new__(type(w))
    new.board = w.board
    new.params = w.params
    new.rng = _copy.deepcopy(w.rng)
    new.events = list(w.events)
    new.steps = w.steps
    new._setup_derived()
    for d in w._dice.values():
        if d.in_space:
            pull(d)
    new._dice = {k: _copy.copy(d) for k, d in w._dice.items()}
    for d in new._dice.values():
        d.body = d.shape = None
    new._unchecked = w._unchecked
    if w._canonical:
        build_space(new)
        return new
    try:
        _copy_space(w, new, exact=True)
    except RuntimeError as exc:
        # a pymunk whose Chipmunk internals differ from what _chipmunk knows (LayoutError: said
        # once), or a Space the clone refuses (said each time: that copy only): a working copy
        # that may differ from the original in the last bits from its next contact on, never a
        # crash
        if not (_warned and isinstance(exc, _chipmunk.LayoutError)):
            warnings.warn(f"World.copy() is not bit-exact mid-motion here: {exc}", stacklevel=2)
            _warned.append(True)
        _copy_space(w, new, exact=False)
    # the chance draws made in the current model step (physics/flight.py)
    new._edge_draws = (w._edge_draws[0], set(w._edge_draws[1]))
    new._struck = (w._struck[0], dict(w._struck[1]))
    new._canonical = False
    new._dirty = True
    return new


_warned: list[bool] = []


def _copy_space(w: WorldState, new: WorldState, exact: bool) -> None:
    """``new``'s Space as pymunk's copy of ``w``'s, its dice records pointed at the copied bodies,
    and (``exact``) Chipmunk's remaining solver state cloned over (RuntimeError if it cannot be)."""
    new.space = w.space.copy()
    bodies_old = list(w.space.bodies)
    bodies_new = list(new.space.bodies)
    body_map = {id(a): b for a, b in zip(bodies_old, bodies_new, strict=True)}
    shapes_old = list(w.space.shapes)
    shapes_new = list(new.space.shapes)
    shape_of = {id(s.body): s for s in shapes_new if s.body is not None and s.body in bodies_new}
    for k, d in w._dice.items():
        if d.in_space:
            nb = body_map[id(d.body)]
            nd = new._dice[k]
            nd.body = nb
            nd.body_id = nb.id
            nd.shape = shape_of[id(nb)]
    (new._walls_body,) = (b for b in bodies_new if b.body_type == pymunk.Body.STATIC)
    new._walls = [s for s in new.space.shapes if s.body is new._walls_body]
    if exact:
        _chipmunk.clone_solver_state(
            w.space,
            new.space,
            list(zip(bodies_old, bodies_new, strict=True)),
            list(zip(shapes_old, shapes_new, strict=True)),
        )


def snapshot(w: WorldState) -> dict[str, Any]:
    """JSON-able full state (board, params, time, every die incl. orientation and status).

    Exact, bit for bit: every die's record (pose, velocity, orientation, status, level, straddle,
    fall, pitch, flight and stacking fields), the step count and the chance generator; a restored
    world has the same :func:`checksum` at any moment.  Not carried: the events so far (a restored
    world starts with none) and Chipmunk's solver state (cached contacts with their accumulated
    impulses, the pairs touching in the last step, bias velocities, the spatial index): a restored
    world gets a canonical Space, as after :func:`.rest.settle`.  So its future is the original's
    bit for bit only where the original's Space is canonical too: at rest after run_until_rest,
    after dice were added, placed or removed at rest, or before the first step.  Mid-motion it
    may differ in the last bits from the next contact on (8 of 40 24-dice breaks snapshotted 40
    steps in ended elsewhere, by at most 3 um); use :func:`copy_world` there.
    """
    dice = []
    for d in w._dice.values():
        if d.in_space:
            pull(d)
        rec = {
            "id": d.id,
            "x": d.x,
            "y": d.y,
            "angle": d.angle,
            "vx": d.vx,
            "vy": d.vy,
            "omega": d.omega,
            "orientation": d.orientation.as_list(),
            "status": d.status,
            "level": d.level,
            "straddle": d.straddle,
            "fall_time": d.fall_time,
            "fresh": d.fresh,
            "riding": d.riding,
        }
        if d.pitch is not None:  # only mid-tumble (older snapshots read the same)
            rec["pitch"] = d.pitch.to_json()
        rec.update(_off_surface(d))  # only in flight or on / against a die
        dice.append(rec)
    return {
        "version": SNAPSHOT_VERSION,
        "board": board_to_dict(w.board),
        "params": w.params.to_dict(),
        "steps": w.steps,
        "unchecked": w._unchecked,
        "dice": dice,
        # the chance models' generator (physics/flight.py): a restored world draws the same
        "rng": _rng_state(w.rng),
    }


def from_snapshot(
    cls: Callable[..., W], snap: Mapping[str, Any], rng: np.random.Generator | None = None
) -> W:
    """A world of class ``cls`` restored from :func:`snapshot`'s output."""
    if snap.get("version") != SNAPSHOT_VERSION:
        raise errors.UserError(f"unsupported snapshot version {snap.get('version')!r}")
    board = load_board(snap["board"])
    params = PhysicsParams.from_board(board).with_overrides(snap["params"])
    if rng is None and snap.get("rng") is not None:
        rng = _rng(snap["rng"])
    w = cls(board, params, rng)
    w.steps = int(snap["steps"])
    for s in snap["dice"]:
        d = DieRecord(
            id=s["id"],
            orientation=Orientation.from_list(s["orientation"]),
            status=s["status"],
            level=s.get("level"),
            straddle=s.get("straddle"),
            fall_time=s.get("fall_time"),
            fresh=bool(s.get("fresh", False)),
            riding=bool(s.get("riding", False)),
            x=float(s["x"]),
            y=float(s["y"]),
            angle=float(s["angle"]),
            vx=float(s["vx"]),
            vy=float(s["vy"]),
            omega=float(s["omega"]),
            pitch=_pitch(s.get("pitch"), s["id"]),
            **_read_off_surface(s),
        )
        if d.status not in STATUSES:
            raise errors.UserError(f"snapshot die {d.id!r}: bad status {d.status!r}")
        w._dice[d.id] = d
    build_space(w)
    w._unchecked = bool(snap.get("unchecked", False))
    return w


def checksum(w: WorldState) -> str:
    """sha256 over the bit-exact state: ids, positions, angles, orientations, statuses, levels."""
    h = hashlib.sha256()
    for d in w._dice.values():
        if d.in_space:
            pull(d)
        h.update(d.id.encode())
        h.update(b"\0")
        h.update(struct.pack("<6d", d.x, d.y, d.angle, d.vx, d.vy, d.omega))
        h.update(bytes(d.orientation.as_list()))
        fall = _plain(d.fall_time)
        h.update(f"{d.status}|{d.level}|{d.straddle}|{fall!r}|{d.riding}".encode())
        if d.pitch is not None:  # absent at rest: rest checksums are as before
            h.update(repr([_plain(v) for v in d.pitch.to_json()]).encode())
        extra = _off_surface(d)
        if extra:  # absent for dice on the surface: their checksums are as before
            h.update(repr(sorted((k, _plain(v)) for k, v in extra.items())).encode())
    return h.hexdigest()


def _plain(v: Any) -> Any:
    """A numpy scalar as the Python value it equals: the checksum hashes reprs, and a world restored
    from a snapshot holds Python floats where the original may hold numpy ones (same value)."""
    return v.item() if isinstance(v, np.generic) else v


def _pitch(raw: Any, die_id: Any) -> Pitch | None:
    """A snapshot's ``pitch`` entry [phi, rate, side, heading, cause] (or None), checked."""
    if raw is None:
        return None
    ok = isinstance(raw, list) and len(raw) == 5
    if ok:
        phi, rate, side, heading, cause = raw
        ok = (
            all(
                isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                for v in (phi, rate, heading)
            )
            and abs(heading) <= 1e3
            and type(side) is int
            and 0 <= side <= 3
            and cause in PITCH_CAUSES
            and 0.0 <= phi <= 0.5 * math.pi
            and abs(rate) <= MAX_PITCH_RATE
        )
    if not ok:
        raise errors.UserError(f"snapshot die {die_id!r}: bad pitch {repr(raw)[:40]}")
    return Pitch(float(phi), float(rate), side, float(heading), cause)


# The flight and stacking fields (physics/flight.py, physics/stacking.py): (name, default).
OFF_SURFACE = (("airborne", False), ("z", 0.0), ("vz", 0.0), ("on_die", None), ("lean", None))
# Largest height (m) and vertical speed (m/s) a snapshot may hold: far above any hop.
MAX_Z = 10.0
MAX_VZ = 100.0


def _off_surface(d: DieRecord) -> dict[str, Any]:
    return {k: getattr(d, k) for k, default in OFF_SURFACE if getattr(d, k) != default}


def _read_off_surface(s: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot die's flight and stacking fields, checked (absent: on the surface)."""
    out: dict[str, Any] = {}
    for name, default in OFF_SURFACE:
        v = s.get(name, default)
        if name == "airborne":
            ok = isinstance(v, bool)
        elif name in ("z", "vz"):
            lim = MAX_Z if name == "z" else MAX_VZ
            ok = (
                isinstance(v, int | float)
                and not isinstance(v, bool)
                and math.isfinite(v)
                and abs(v) <= lim
            )
            v = float(v) if ok else v
        else:
            ok = v is None or (isinstance(v, str) and len(v) <= 200)
        if not ok:
            raise errors.UserError(f"snapshot die {s.get('id')!r}: bad {name} {repr(v)[:40]}")
        out[name] = v
    return out


def _rng_state(rng: np.random.Generator) -> dict[str, Any] | None:
    """A PCG64 generator's state (JSON-able); None for another kind (the caller seeds it)."""
    bg = rng.bit_generator
    return bg.state if isinstance(bg, np.random.PCG64) else None


def _rng(state: Any) -> np.random.Generator:
    """The generator a snapshot's ``rng`` entry (a PCG64 state) describes, checked."""
    try:
        bg = np.random.PCG64()
        bg.state = state
    except (TypeError, ValueError, KeyError) as exc:
        raise errors.UserError(f"snapshot: bad rng state ({str(exc)[:60]})") from None
    return np.random.Generator(bg)
