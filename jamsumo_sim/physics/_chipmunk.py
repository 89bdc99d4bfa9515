"""The one place that touches pymunk internals and the experimental ``pymunk.batch``: reusable batch
requests straight to pymunk's C iterators, raw ``cpSpaceStep`` and the cached-arbiter walk, moving
bodies between Spaces without Space.add/remove's per-object checks, and the rest of Chipmunk's solver
state copied into a ``Space.copy()`` so that a copy mid-motion steps exactly as its original
(:func:`clone_solver_state`).

Checked against the installed pymunk by ``tests/physics/test_world.py`` (bit-identical re-simulation,
re-indexing) and ``tests/physics/test_copy_exact.py`` (copies mid-motion); a pymunk upgrade that changes
these internals fails there first (and :func:`check_layout` refuses to clone).
"""

from __future__ import annotations

import weakref
from typing import Any

import cffi
import pymunk
from pymunk._chipmunk import ffi as _ffi
from pymunk._chipmunk import lib as _lib

from .compiled_guard import installed_pymunk_version, pymunk_error, require_supported_pymunk

try:
    import pymunk.batch as pb
except ImportError as exc:  # (pymunk before 6.6)
    raise pymunk_error(installed_pymunk_version(), "it has no pymunk.batch") from exc

# pymunk 6.x imports, but its Space wrapper keeps its shapes otherwise: a KeyError at the first die
require_supported_pymunk(installed_pymunk_version())
try:
    BF = pb.BodyFields
    READ_FIELDS = BF.POSITION | BF.ANGLE | BF.VELOCITY | BF.ANGULAR_VELOCITY
    WRITE_FIELDS = BF.VELOCITY | BF.ANGULAR_VELOCITY
    _AF = pb.ArbiterFields
    ARB_FIELDS = _AF.BODY_A_ID | _AF.BODY_B_ID | _AF.IS_FIRST_CONTACT | _AF.TOTAL_IMPULSE
    # The per-step batch calls go straight to pymunk's C iterators (what pymunk.batch's get/set
    # functions do, minus building the request struct and reading the flag enums on every call).
    GET_BODIES = _ffi.addressof(_lib, "pmSpaceBodyGetIteratorFuncBatched")
    SET_BODIES = _ffi.addressof(_lib, "pmSpaceBodySetIteratorFuncBatched")
    GET_ARBITERS = _ffi.addressof(_lib, "pmSpaceArbiterIteratorFuncBatched")

    each_body = _lib.cpSpaceEachBody
    each_cached_arbiter = _lib.cpSpaceEachCachedArbiter
    space_step = _lib.cpSpaceStep
except AttributeError as exc:  # one line, not a traceback, for a pymunk that renamed these
    raise pymunk_error(installed_pymunk_version(), str(exc)) from exc


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
    # object.__setattr__: what pymunk's typing mixin's __setattr__ ends in, minus its frame
    put, remove_shape, remove_body = (
        object.__setattr__,
        _lib.cpSpaceRemoveShape,
        _lib.cpSpaceRemoveBody,
    )
    shape_set, body_set = space._shapes, space._bodies
    for body, shapes in moved:
        for shape in shapes:
            remove_shape(cs, shape._shape)
            del shape_set[shape]
            put(shape, "_space", None)
        remove_body(cs, body._body)
        del body_set[body]
        put(body, "_space", None)


def attach(space: pymunk.Space, moved: list[tuple[pymunk.Body, list[pymunk.Shape]]]) -> None:
    """Put detached bodies and shapes into ``space`` in the given order (Space.add, minus the checks
    of a body's mass made when it was first added)."""
    cs = space._space
    ref = weakref.ref(space)
    put, add_body, add_shape = object.__setattr__, _lib.cpSpaceAddBody, _lib.cpSpaceAddShape
    shape_set, body_set = space._shapes, space._bodies
    for body, shapes in moved:
        put(body, "_space", ref)
        body_set[body] = None
        add_body(cs, body._body)
        for shape in shapes:
            put(shape, "_space", ref)
            shape_set[shape] = None
            add_shape(cs, shape._shape)


def clear_bias(body: pymunk.Body) -> None:
    """Drop the bias velocities the last solve left on ``body`` (Chipmunk applies them in the next
    step's position update, then zeroes them; a new body has none).  A position update over zero
    time leaves the pose bit for bit as it is and zeroes them; pymunk exposes no other way."""
    _lib.cpBodyUpdatePosition(body._body, 0.0)


def set_filter(shape: pymunk.Shape, f: pymunk.ShapeFilter) -> None:
    """``shape.filter = f`` (the same C call, minus pymunk's Python ``__setattr__``)."""
    _lib.cpShapeSetFilter(shape._shape, f)


def has_queued_work(space: pymunk.Space) -> bool:
    """Bodies added since the last step to check, or additions/removals queued by pymunk's wrapper."""
    return bool(space._bodies_to_check or space._add_later or space._remove_later)


def body_count(space: pymunk.Space) -> int:
    return len(space._bodies)


def shape_count(space: pymunk.Space) -> int:
    return len(space._shapes)


# --- exact copies of a Space mid-motion -----------------------------------------------------------
# pymunk's Space.copy() carries bodies, shapes and the cached arbiters with their contacts, but not
# what else decides Chipmunk's next steps bit for bit: the bodies' bias velocities (applied in the
# next position update), which arbiters were touching in the last step (Space.copy() lists every
# cached one as touching, so a pair that touches again is not a first contact and gets a warm
# start), and the spatial index: the dynamic AABB tree's shape, fattened leaf boxes, leaf stamps,
# cached pair lists and the leaf hash set's order decide the order in which pairs are found, so
# which shape is "a" of a new contact and the order of the solver's Gauss-Seidel sweep.  A fresh
# tree differs, and a new contact then ends one ulp apart.  clone_solver_state() copies all of it
# (Chipmunk's private structs, described below for the pymunk release in check_layout()).

_cp = cffi.FFI()
_cp.cdef(
    """
    typedef struct Pair Pair;
    typedef struct Node Node;
    struct Node {
        void *obj; double bb[4]; Node *parent;
        union { struct { Node *a, *b; } children; struct { unsigned int stamp; Pair *pairs; } leaf; } u;
    };
    typedef struct { Pair *prev; Node *leaf; Pair *next; } Thread;
    struct Pair { Thread a, b; uint32_t id; };
    typedef struct Bin { void *elt; uintptr_t hash; struct Bin *next; } Bin;
    typedef struct {
        unsigned int entries, size; void *eql; void *default_value; Bin **table; Bin *pooledBins;
        void *allocatedBuffers;
    } HashSet;
    typedef struct {
        void *klass; void *bbfunc; void *staticIndex; void *dynamicIndex; void *velocityFunc;
        HashSet *leaves; Node *root; Node *pooledNodes; Pair *pooledPairs; void *allocatedBuffers;
        unsigned int stamp;
    } Tree;
    typedef struct { int num, max; void **arr; } Array;
    typedef struct {
        int iterations; double gravity[2]; double damping, idle, sleep, slop, bias;
        unsigned int persistence; void *userData; unsigned int stamp; double curr_dt;
        void *dynamicBodies, *staticBodies, *rousedBodies, *sleepingComponents;
        uintptr_t shapeIDCounter; Tree *staticShapes; Tree *dynamicShapes; void *constraints;
        Array *arbiters;
    } Space;
    typedef struct {
        void *velocity_func, *position_func; double m, m_inv, i, i_inv;
        double cog[2], p[2], v[2], f[2]; double a, w, t; double transform[6]; void *userData;
        double v_bias[2]; double w_bias;
    } Body;
    """
)
# the pymunk release these structs were read from (Munk2D's cpSpace, cpBody, cpBBTree, cpHashSet);
# check_layout() verifies them against any installed release before the first clone
LAYOUT_PYMUNK = "7.3.1"
_layout_ok: bool | None = None


class LayoutError(RuntimeError):
    """The installed pymunk's Chipmunk structs are not the ones described here: no exact copies
    in this process (unlike a plain RuntimeError, which refuses one Space only)."""


def address(p: Any) -> int:
    """A cffi pointer's address as an int (also what physics/compiled_steps.py calls through)."""
    return int(_ffi.cast("uintptr_t", p))


def function_address(name: str) -> int:
    """The address of Chipmunk's (or pymunk's) C function ``name``."""
    return address(_ffi.addressof(_lib, name))


def _as(kind: str, p: Any) -> Any:
    return _cp.cast(kind, address(p))


def check_layout(space: pymunk.Space) -> None:
    """Refuse to clone unless Chipmunk's private structs are laid out as described: the Space's
    fields against pymunk's getters, every body's pose, and the dynamic tree walked (its leaves are
    exactly the dynamic shapes, parents point back, the leaf set counts them); for the release
    also the touching arbiters among the cached ones (a Space's own are checked as they are
    cloned, :func:`_clone_arbiters`).

    The release is judged once per process on a probe Space of our own (:func:`_probe_space`), so
    the verdict depends on the installed pymunk alone: judged on whichever Space happened to be
    copied first, one refused Space turned every later copy in the process inexact (likely why a CI
    worker failed tests/physics/test_copy_exact.py).  LayoutError if the release differs;
    RuntimeError if ``space`` itself is not what the clone handles (that copy only)."""
    global _layout_ok
    if _layout_ok is None:
        _layout_ok = _layout_matches(_probe_space(), arbiters=True)
    if not _layout_ok:
        raise LayoutError(
            f"pymunk {pymunk.version}: Chipmunk's internals differ from what "
            f"jamsumo_sim/physics/_chipmunk.py knows (pymunk {LAYOUT_PYMUNK}); no exact copies"
        )
    if not _layout_matches(space):
        raise RuntimeError(
            "this Space is not one the exact copy handles (a body's pose, its dynamic shapes "
            "and its AABB tree disagree with pymunk's view of them)"
        )


def _probe_space() -> pymunk.Space:
    """A small Space stepped into contact (dynamic boxes pressed together and onto a static one):
    a tree with inner nodes and pairs, cached and touching arbiters, bias velocities."""
    space = pymunk.Space()
    space.gravity = (0.0, 0.0)
    ground = pymunk.Body(body_type=pymunk.Body.STATIC)
    space.add(ground, pymunk.Poly(ground, [(-1.0, -0.2), (1.0, -0.2), (1.0, -0.06), (-1.0, -0.06)]))
    for k in range(4):
        body = pymunk.Body(1.0, 0.01)
        body.position = (0.095 * k, 0.0)
        body.velocity = (-0.5 * k, -1.0)
        space.add(body, pymunk.Poly.create_box(body, (0.1, 0.1), radius=0.005))
    for _ in range(3):
        space.step(0.01)
    return space


def _layout_matches(space: pymunk.Space, arbiters: bool = False) -> bool:
    sp = _as("Space *", space._space)
    dyn, sta = sp.dynamicShapes, sp.staticShapes
    if not (
        sp.iterations == space.iterations
        and sp.slop == space.collision_slop
        and sp.stamp == _lib.cpSpaceGetTimestamp(space._space)
        and sp.shapeIDCounter == _lib.cpSpaceGetShapeIDCounter(space._space)
        and dyn.klass == sta.klass
        and address(dyn.staticIndex) == address(sta)
        and address(sta.dynamicIndex) == address(dyn)
    ):
        return False
    for body in space.bodies:
        b = _as("Body *", body._body)
        if (tuple(b.p), b.a, tuple(b.v), b.w) != (
            tuple(body.position),
            body.angle,
            tuple(body.velocity),
            body.angular_velocity,
        ):
            return False
    shapes = {address(s._shape) for s in space.shapes if s.body.body_type == pymunk.Body.DYNAMIC}
    inner, leaves = _nodes(dyn, limit=2 * len(shapes))
    if {address(n.obj) for n in leaves} != shapes or dyn.leaves.entries != len(shapes):
        return False
    kids = ((c, n) for n in inner for c in (n.u.children.a, n.u.children.b))
    if not (
        len(inner) == max(len(leaves) - 1, 0)
        and all(address(c.parent) == address(n) for c, n in kids)
    ):
        return False
    if not arbiters:
        return True
    # (the release's verdict) the last step's touching arbiters, the Array clone_solver_state
    # copies, read as addresses among the cached ones: the Array's layout, not dereferenced
    touching = sp.arbiters
    cached = {address(a) for a in space._get_arbiters()}
    return 0 <= touching.num <= len(cached) and all(
        address(touching.arr[k]) in cached for k in range(touching.num)
    )


def clone_solver_state(
    src: pymunk.Space,
    dst: pymunk.Space,
    bodies: list[tuple[pymunk.Body, pymunk.Body]],
    shapes: list[tuple[pymunk.Shape, pymunk.Shape]],
) -> None:
    """Make ``dst`` (a ``src.copy()``, paired body for body and shape for shape) step exactly as
    ``src``: bias velocities, shape ids, the touching arbiters in order, both AABB trees."""
    check_layout(src)
    for bs, bd in bodies:
        s, d = _as("Body *", bs._body), _as("Body *", bd._body)
        d.p, d.v, d.f, d.a, d.w, d.t = s.p, s.v, s.f, s.a, s.w, s.t
        d.transform, d.v_bias, d.w_bias = s.transform, s.v_bias, s.w_bias
    shape_map = {address(a._shape): address(b._shape) for a, b in shapes}
    for a, b in shapes:
        if isinstance(a, pymunk.Poly):
            # Space.copy() rebuilds a polygon through a convex hull, which may start at another
            # vertex: the vertex indices name contacts (persistence) and break support ties
            verts = a.get_vertices()
            if b.get_vertices() != verts:
                b.unsafe_set_vertices(verts)
        _lib.cpShapeSetHashID(b._shape, _lib.cpShapeGetHashID(a._shape))
    _lib.cpSpaceSetShapeIDCounter(dst._space, _lib.cpSpaceGetShapeIDCounter(src._space))
    ss, sd = _as("Space *", src._space), _as("Space *", dst._space)
    _clone_arbiters(src, dst, ss.arbiters, sd.arbiters, shape_map)
    pairs_keep = _clone_trees(ss, sd, shape_map)
    if pairs_keep:  # pair records Chipmunk did not allocate: they live as long as the Space
        dst._jamsumo_pairs = pairs_keep


def _clone_arbiters(src, dst, arr_s, arr_d, shape_map: dict[int, int]) -> None:
    by_shapes = {(address(a.a), address(a.b)): a for a in dst._get_arbiters()}
    size = _ffi.sizeof("cpContact")
    for a in src._get_arbiters():
        b = by_shapes.get((shape_map[address(a.a)], shape_map[address(a.b)]))
        if b is None or b.count != a.count:
            raise RuntimeError("Space.copy() lost a cached contact")
        b.state, b.swapped, b.stamp, b.n = a.state, a.swapped, a.stamp, a.n
        b.e, b.u, b.surface_vr = a.e, a.u, a.surface_vr
        if a.count:
            _ffi.memmove(b.contacts, a.contacts, a.count * size)
    # the arbiters of the last step (Chipmunk resets their state at the next; a cached one keeps
    # it, so a pair that touches again starts as a first contact), in the original's order
    if arr_d.max < arr_s.num:
        raise RuntimeError("Space.copy() has fewer cached arbiters than were touching")
    for k in range(arr_s.num):
        a = _ffi.cast("cpArbiter *", arr_s.arr[k])
        b = by_shapes.get((shape_map.get(address(a.a)), shape_map.get(address(a.b))))
        if b is None:
            raise RuntimeError("a touching arbiter is not among the cached ones")
        arr_d.arr[k] = _cp.cast("void *", address(b))
    arr_d.num = arr_s.num


def _clone_trees(ss: Any, sd: Any, shape_map: dict[int, int]) -> list[Any]:
    """Both AABB trees of ``sd`` made equal to ``ss``'s (nodes, boxes, stamps, pairs, leaf sets)."""
    node_map: dict[int, Any] = {}
    for ts, td in ((ss.dynamicShapes, sd.dynamicShapes), (ss.staticShapes, sd.staticShapes)):
        _map_nodes(ts, td, shape_map, node_map)
    # pairs: shared by both trees, pooled in the dynamic (master) tree
    src_pairs = _pairs_of(ss)
    dst_pairs = _pairs_of(sd)
    p = sd.dynamicShapes.pooledPairs
    while p != _cp.NULL:
        dst_pairs.append(p)
        p = p.a.next
    keep = []
    if len(dst_pairs) < len(src_pairs):
        extra = _cp.new("Pair[]", len(src_pairs) - len(dst_pairs))
        keep.append(extra)
        dst_pairs.extend(extra + k for k in range(len(src_pairs) - len(dst_pairs)))
    pair_map = {address(ps): pd for ps, pd in zip(src_pairs, dst_pairs, strict=False)}
    pair_map[0] = _cp.NULL
    for ps in src_pairs:
        pd = pair_map[address(ps)]
        for th in ("a", "b"):
            t_s, t_d = getattr(ps, th), getattr(pd, th)
            t_d.prev = pair_map[address(t_s.prev)]
            t_d.next = pair_map[address(t_s.next)]
            t_d.leaf = node_map[address(t_s.leaf)]
        pd.id = ps.id
    pool = _cp.NULL
    for pd in dst_pairs[len(src_pairs) :]:
        pd.a.next = pool
        pool = pd
    sd.dynamicShapes.pooledPairs = pool
    for ts in (ss.dynamicShapes, ss.staticShapes):
        for leaf in _leaves(ts):
            node_map[address(leaf)].u.leaf.pairs = pair_map[address(leaf.u.leaf.pairs)]
    return keep


def _nodes(tree: Any, limit: int | None = None) -> tuple[list[Any], list[Any]]:
    """(internal nodes, leaves) of an AABB tree, depth first, A before B (at most ``limit``)."""
    inner, leaves = [], []
    stack = [tree.root] if tree.root != _cp.NULL else []
    while stack and (limit is None or len(inner) + len(leaves) < limit):
        n = stack.pop()
        if n.obj != _cp.NULL:
            leaves.append(n)
        else:
            inner.append(n)
            stack.append(n.u.children.b)
            stack.append(n.u.children.a)
    return inner, leaves


def _leaves(tree: Any) -> list[Any]:
    return _nodes(tree)[1]


def _map_nodes(ts: Any, td: Any, shape_map: dict[int, int], node_map: dict[int, Any]) -> None:
    inner_s, leaves_s = _nodes(ts)
    inner_d, leaves_d = _nodes(td)
    by_obj = {address(n.obj): n for n in leaves_d}
    if len(inner_s) != len(inner_d) or len(leaves_s) != len(leaves_d):
        raise RuntimeError("Space.copy() built a spatial index of another size")
    for a, b in zip(inner_s, inner_d, strict=True):
        node_map[address(a)] = b
    for a in leaves_s:
        node_map[address(a)] = by_obj[shape_map[address(a.obj)]]
    node_map[0] = _cp.NULL
    for a in (*inner_s, *leaves_s):
        b = node_map[address(a)]
        b.bb = a.bb
        b.parent = node_map[address(a.parent)]
        if a.obj == _cp.NULL:
            b.u.children.a = node_map[address(a.u.children.a)]
            b.u.children.b = node_map[address(a.u.children.b)]
        else:
            b.u.leaf.stamp = a.u.leaf.stamp
    td.root = node_map[address(ts.root)]
    td.stamp = ts.stamp
    _clone_leaf_set(ts.leaves, td.leaves, node_map)


def _clone_leaf_set(hs: Any, hd: Any, node_map: dict[int, Any]) -> None:
    """The tree's leaf hash set in the same table size and chain order (its walk order is the order
    in which moved leaves are re-inserted)."""
    bins: dict[int, Any] = {}
    for i in range(hd.size):
        b = hd.table[i]
        while b != _cp.NULL:
            bins[address(b.elt)] = b
            b = b.next
    if hs.entries != hd.entries or len(bins) != hd.entries:
        raise RuntimeError("Space.copy() built a spatial index of another size")
    if hd.size != hs.size:
        # a table of the original's size, from Chipmunk's allocator (it frees it when it grows)
        per = _ffi.sizeof("cpContact")
        table = _lib.cpContactArrAlloc(-(-hs.size * _cp.sizeof("Bin *") // per))
        _lib.cpPolylineFree(_ffi.cast("cpPolyline *", address(hd.table)))
        hd.table = _cp.cast("Bin **", address(table))
        hd.size = hs.size
    for i in range(hs.size):
        first = prev = _cp.NULL
        b = hs.table[i]
        while b != _cp.NULL:
            d = bins[address(node_map[address(b.elt)])]
            d.hash = b.hash
            if prev == _cp.NULL:
                first = d
            else:
                prev.next = d
            prev = d
            b = b.next
        if prev != _cp.NULL:
            prev.next = _cp.NULL
        hd.table[i] = first


def _pairs_of(sp: Any) -> list[Any]:
    """Every pair record in the leaves' pair lists of both trees, once each, in a fixed order."""
    seen: dict[int, Any] = {}
    for tree in (sp.dynamicShapes, sp.staticShapes):
        for leaf in _leaves(tree):
            p = leaf.u.leaf.pairs
            while p != _cp.NULL:
                seen.setdefault(address(p), p)
                p = p.a.next if address(p.a.leaf) == address(leaf) else p.b.next
    return list(seen.values())
