"""A copy of a world is exact at any moment: its future equals the original's, bit for bit (state
checksums and event lists), at rest (resting dice touch: a resting overlap leaves Chipmunk bias
velocities on reused bodies) and mid-motion (Chipmunk's cached contacts, the pairs touching in the
last step, bias velocities, the spatial index and polygon vertex order all carried over:
physics/_chipmunk.py clone_solver_state).  A snapshot mid-motion restores the dice exactly; what
it cannot carry is documented in docs/physics.md "Copies and snapshots"."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pymunk
import pytest

from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World

# 24-dice breaks: (offset, strike height, launch speed m/s): centred, hard spin either way, high
# strikes (tumbles, hops over the block; 0.65 is below the nail's grip, model 0.13: it slides),
# slow and fast
BREAKS = [
    (0.0, 0.5, 4.0),
    (0.0, 0.5, 2.5),
    (0.4, 0.5, 4.5),
    (-0.4, 0.5, 4.5),
    (0.45, 0.5, 3.0),
    (0.0, 0.9, 5.0),
    (0.3, 0.95, 4.5),
    (-0.2, 0.85, 5.0),
    (0.0, 0.65, 3.5),
    (-0.45, 0.5, 5.0),
]
# where in the original's run (fraction of its steps to rest) the copies are taken
MOMENTS = (0.1, 0.17, 0.25, 0.4, 0.6)
MAX_TIME = 10.0


def _break(k: int) -> World:
    """23 dice in a jittered 5 x 5 block north of the hole and a striker to its west, flicked into
    it; the chance models and the jitter seeded by ``k``."""
    offset, height, speed = BREAKS[k]
    board = load_board("standard")
    w = World(board, rng=np.random.default_rng(100 + k))
    p = w.params
    rng = np.random.default_rng(2026 + k)
    gap = p.die_size * 1.2
    for n in range(23):
        i, j = divmod(n, 5)
        x = (i - 2) * gap + rng.uniform(-3e-4, 3e-4)
        y = 0.09 + (j - 2) * gap + rng.uniform(-3e-4, 3e-4)
        w.add_die(f"d{n}", x, y, angle=float(rng.uniform(-0.2, 0.2)), face=3)
    w.add_die("striker", -0.15, 0.085, face=3)
    aim = 0.03 + rng.uniform(-0.04, 0.04)
    w.apply_flick(Flick("striker", aim, speed * p.die_mass, offset, height))
    return w


def _outcome(w: World) -> tuple[str, list]:
    return w.checksum(), [e.to_json() for e in w.events]


def _moving(w: World) -> bool:
    return any(s.vx or s.vy or s.omega or s.pitch or s.airborne for s in w.states())


@pytest.fixture(scope="module")
def references() -> list[tuple[int, tuple[str, list]]]:
    """Each break run to rest without copies: (steps, outcome)."""
    out = []
    for k in range(len(BREAKS)):
        w = _break(k)
        res = w.run_until_rest(MAX_TIME)
        assert res.rested
        out.append((res.steps, _outcome(w)))
    return out


def test_breaks_cover_spin_tumbles_and_hops(references) -> None:
    kinds = {e["type"] for _, (_, events) in references for e in events}
    assert {"collision", "hop", "tumble"} <= kinds


@pytest.mark.parametrize("k", range(len(BREAKS)))
def test_copies_mid_motion_end_bit_identical(references, k) -> None:
    """Copies taken at five moments of a break (dice moving, contacts live) end with the same
    checksum and the same events as the break run without copies; the original is not disturbed."""
    steps, expected = references[k]
    w = _break(k)
    at = sorted({max(1, int(f * steps)) for f in MOMENTS})
    assert len(at) == len(MOMENTS)
    copies = []
    for n in range(1, steps + 1):
        w.step()
        if n in at:
            assert _moving(w)
            twin = w.copy()
            assert twin.checksum() == w.checksum()
            copies.append(twin)
    assert w.run_until_rest(MAX_TIME).rested
    assert _outcome(w) == expected
    for n, twin in zip(at, copies, strict=True):
        twin.run_until_rest(MAX_TIME)
        assert _outcome(twin) == expected, f"copy taken after {n} of {steps} steps"


def test_copy_of_a_copy_mid_motion_is_exact(references) -> None:
    steps, expected = references[2]
    w = _break(2)
    for _ in range(steps // 5):
        w.step()
    first = w.copy()
    for _ in range(steps // 5):
        first.step()
    second = first.copy()
    for world in (w, first, second):
        world.run_until_rest(MAX_TIME)
        assert _outcome(world) == expected


def test_a_refused_space_does_not_make_later_copies_inexact(references, monkeypatch) -> None:
    """The clone judges the pymunk release on a probe Space of its own, not on the first Space it
    is given: a Space it refuses (a sleeping body: Chipmunk moves its shape out of the dynamic
    tree) is refused alone, and a later copy mid-motion is exact and says nothing.  Judged on the
    first Space, one refusal turned every later copy in the process into pymunk's plain
    Space.copy() (warned once): a CI worker's copies then failed the tests above."""
    from jamsumo_sim.physics import _chipmunk, snapshot

    monkeypatch.setattr(_chipmunk, "_layout_ok", None)  # as in a fresh process
    monkeypatch.setattr(snapshot, "_warned", [])
    odd = pymunk.Space()
    odd.sleep_time_threshold = 1.0
    bodies = [pymunk.Body(1.0, 1.0) for _ in range(2)]
    for k, body in enumerate(bodies):
        body.position = (3.0 * k, 0.0)
        odd.add(body, pymunk.Poly.create_box(body, (1.0, 1.0)))
    odd.step(0.01)
    bodies[0].sleep()
    twin = odd.copy()
    with pytest.raises(RuntimeError) as refused:
        _chipmunk.clone_solver_state(
            odd,
            twin,
            list(zip(odd.bodies, twin.bodies, strict=True)),
            list(zip(odd.shapes, twin.shapes, strict=True)),
        )
    assert not isinstance(refused.value, _chipmunk.LayoutError)  # that Space alone, not the release
    steps, expected = references[0]
    w = _break(0)
    for _ in range(steps // 10):
        w.step()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a fallback to the inexact copy warns
        copy = w.copy()
    copy.run_until_rest(MAX_TIME)
    assert _outcome(copy) == expected


@pytest.mark.parametrize("k", [0, 5, 6])
def test_snapshot_mid_motion_restores_the_dice_exactly(k) -> None:
    """What a snapshot carries is exact at any moment: the restored dice (pose, velocity, pitch,
    flight, status) have the original's checksum (numpy and Python floats alike)."""
    w = _break(k)
    for n in range(1, 61):
        w.step()
        if n % 4 == 0:
            snap = json.loads(json.dumps(w.snapshot()))
            restored = World.from_snapshot(snap)
            assert restored.checksum() == w.checksum(), f"after {n} steps"
            assert [s.to_json() for s in restored.states()] == [s.to_json() for s in w.states()]


@pytest.mark.parametrize("gap", [-0.0008, -0.0003, 0.0, 0.0002])
def test_copy_of_a_resting_world_with_touching_dice_steps_identically(params, gap) -> None:
    w = World(load_board("standard"), params)
    a = params.die_size
    # a packed row (touching or overlapping by up to 0.8 mm) and a striker
    for k in range(4):
        w.add_die(f"d{k}", 0.10 + k * (a + gap), 0.12, angle=0.0, face=3)
    w.add_die("s", -0.10, 0.12, face=3)
    w.run_until_rest(5.0)
    twin = w.copy()
    assert twin.checksum() == w.checksum()
    f = Flick("s", 0.0, 2.0 * params.die_mass)
    w.apply_flick(f)
    twin.apply_flick(f)
    for _ in range(400):
        w.step()
        twin.step()
        assert twin.checksum() == w.checksum()


def test_a_pymunk_with_other_internals_still_copies(monkeypatch) -> None:
    """If Chipmunk's private structs are not what physics/_chipmunk.py knows (another pymunk),
    World.copy() mid-motion warns once and returns a working copy instead of raising."""
    from jamsumo_sim.physics import _chipmunk, snapshot

    def refuse(*args, **kwargs):
        raise RuntimeError("pymunk 9.9: Chipmunk's internals differ")

    monkeypatch.setattr(_chipmunk, "clone_solver_state", refuse)
    monkeypatch.setattr(snapshot, "_warned", [])
    w = _break(0)
    for _ in range(20):
        w.step()
    with pytest.warns(UserWarning, match="not bit-exact"):
        c = w.copy()
    c.run_until_rest(10.0)
    assert c.at_rest() and len(c.states()) == len(w.states())
