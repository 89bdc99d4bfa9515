"""physics/compiled_steps.py: the collision steps, the end of a step, the usual steps of pitched,
flying, leaning and stacked dice, and first contacts that need only a log entry, taken in compiled
calls into Chipmunk.  They must change no result: every scenario here runs with the compiled
steps and with the Python path alone (``evolve.COMPILED = False``), and the two must agree bit for
bit at every step (checksums, events, the pending kick), at rest, and in copies made mid-run."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from physics_helpers import FLAT, block_break, packed_block, rest_record

from jamsumo_sim.errors import IllegalAction, UserError
from jamsumo_sim.physics import compiled_steps, evolve, flight, space, view
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.world import World


def _trace(make, steps: int, compiled: bool, monkeypatch) -> list:
    """Step a fresh world one model step at a time: per step its checksum, event count and
    pending kick; then a copy made on the way run to rest."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    w = make()
    out = []
    for k in range(steps):
        w.step()
        out.append((w.checksum(), len(w.events), w._pending))
        if k == steps // 3:
            c = w.copy()
            out.append(rest_record(c))
        if w.at_rest():
            break
    out.append([(e.t, e.type, e.dice, sorted(e.data.items())) for e in w.events])
    return out


def _scenario(board, params, seed: int) -> World:
    """Dice strewn over the standard board (near the hole, on and beside the platforms, anywhere),
    one random flick: strength, offset and strike height drawn (tumbles, hops, landings, climbs,
    falls, dice off the edge)."""
    rng = np.random.default_rng(seed)
    w = World(board, params, rng=np.random.default_rng(seed + 1))
    placed: list[tuple[float, float]] = []
    n = int(rng.integers(3, 20))
    for _ in range(400):
        if len(placed) == n:
            break
        r = rng.random()
        if r < 0.35:
            x, y = rng.normal(0.0, 0.04, 2)
        elif r < 0.6:
            plat = board.platforms[int(rng.integers(len(board.platforms)))]
            x, y = plat.x + rng.normal(0.0, 0.02), plat.y + rng.normal(0.0, 0.02)
        else:
            x, y = rng.uniform(-0.9, 0.9, 2) * board.half
        if x * x + y * y < (board.hole_radius + 0.012) ** 2 or not board.on_board(x, y):
            continue
        if any((x - a) ** 2 + (y - b) ** 2 < (1.5 * params.die_size) ** 2 for a, b in placed):
            continue
        w.add_die(f"d{len(placed)}", float(x), float(y), angle=float(rng.uniform(-3, 3)), face=1)
        placed.append((x, y))
    for _ in range(20):  # a fair flick of some die
        die = f"d{int(rng.integers(len(placed)))}"
        flick = Flick(
            die,
            float(rng.uniform(-math.pi, math.pi)),
            offset=float(rng.uniform(-0.5, 0.5)),
            height=float(rng.uniform(0.1, 0.95)),
            finger_speed=float(rng.uniform(1.0, 6.0)),
        )
        try:
            w.apply_flick(flick)
            return w
        except (IllegalAction, UserError):
            continue
    return w


@pytest.mark.parametrize("seed", range(12))
def test_random_shots_step_bit_for_bit_as_the_python_path(
    standard_board, params, monkeypatch, seed
):
    overrides = [{}, {"restitution": 0.5}, {"dt": 0.001, "collision_substeps": 1}]
    p = params.with_overrides(overrides[seed % 3]) if overrides[seed % 3] else params

    def make():
        return _scenario(standard_board, p, 700 + seed)

    fast = _trace(make, 900, True, monkeypatch)
    slow = _trace(make, 900, False, monkeypatch)
    assert fast == slow


@pytest.mark.parametrize("offset", [0.0, 0.5])
def test_breaks_step_bit_for_bit_as_the_python_path(standard_board, params, monkeypatch, offset):
    """A block break: pitches, hops, dice on and against dice (the compiled loop's special
    steps), many first contacts (some logged from the compiled loop, some by the bookkeeping)."""
    for seed in range(3):

        def make(seed=seed):
            return block_break(standard_board, params, seed, offset, chance_seed=40 + seed)

        assert _trace(make, 700, True, monkeypatch) == _trace(make, 700, False, monkeypatch)


@settings(max_examples=8, deadline=None)
@example(e=0.5, mu=0.0, speed=2.5, heading=-0.21875)  # first contacts while the records changed
# a contact begun slower than a hop (its impulse so far) whose whole exchange is not: a hop's chance
@example(e=0.5, mu=0.5, speed=3.359375, heading=0.0)
@given(
    e=st.floats(0.3, 1.0),
    mu=st.floats(0.0, 0.6),
    speed=st.floats(1.0, 5.0),
    heading=st.floats(-0.3, 0.3),
)
def test_packed_blocks_step_bit_for_bit_as_the_python_path(params, e, mu, speed, heading):
    """A striker into a touching 3 x 3 block on a frictionless board: many simultaneous contacts,
    the energy limiter at work (it must see the same contacts whichever path ends the step)."""
    p = params.with_overrides(
        {"mu_board": 0.0, "mu_static": 0.0, "air_drag": 0.0, "restitution": e, "mu_die": mu}
    )
    board = load_board(FLAT)

    def make():
        return packed_block(board, p, speed, heading)

    with pytest.MonkeyPatch.context() as mp:
        assert _trace(make, 80, True, mp) == _trace(make, 80, False, mp)


def _stack(board, params, lean: bool, push: float, heading: float) -> World:
    """A die come to rest on (or, ``lean``, against) die b, b then flicked at ``push`` m/s
    towards ``heading`` (or, ``push`` < 0, sent up at -``push`` m/s): the one above slides off or
    drops as its support or prop leaves."""
    w = World(board, params)
    a = params.die_size
    w.add_die("b", 0.0, 0.0, face=2)
    w.add_die("a", 0.7 * a if lean else 0.001, 0.3 * a if lean else 0.002, angle=0.3, face=5)
    w.add_die("c", 0.05, -0.05, face=1, vx=0.4)  # moving on: steps are taken with a, b resting
    flight.launch(w, w._dice["a"], 0.0, (1.2 if lean else 1.5) * a)
    w.run_until_rest(5.0)
    assert (w.state("a").on_die == "b") and (w._dice["a"].lean is not None) == lean
    if push > 0:
        w.apply_flick(Flick("b", heading, finger_speed=push))
    else:
        flight.launch(w, w._dice["b"], -push)
    return w


def _near_the_hole(board, params, k: int) -> World:
    """A die just outside the hole's rim flicked gently high on its face towards the hole: it
    pitches on its edge by the rim and tips in (support.tips_in looks at every such step)."""
    r = board.hole_radius + (0.2 + 0.15 * (k % 5)) * params.die_size
    ang = 0.7 * k
    w = World(board, params)
    w.add_die("p", r * math.cos(ang), r * math.sin(ang), angle=ang, face=4)
    w.add_die("q", 0.1, 0.1, face=1, vx=0.3)
    push = 0.2 + 0.1 * (k % 4)
    w.apply_flick(Flick("p", ang + math.pi, height=0.7 + 0.08 * (k % 4), finger_speed=push))
    return w


def _flying_past(board, params, k: int) -> World:
    """A die launched upward beside standing dice: its height band changes on the way up and
    down (its collision filter with it) while it moves among them."""
    w = World(board, params)
    a = params.die_size
    for i in range(4):
        w.add_die(f"s{i}", 0.03 + 1.3 * a * i, 0.1 + 0.2 * a * (k % 3), face=1)
    w.add_die("f", 0.0, 0.1, face=1, vx=0.6 + 0.1 * k)
    flight.launch(w, w._dice["f"], 0.25 + 0.05 * k)
    return w


@pytest.mark.parametrize("case", range(8))
def test_special_dice_step_bit_for_bit_as_the_python_path(
    standard_board, flat_board, params, monkeypatch, case
):
    """The compiled loop's special steps where they end: a die on or against another whose
    support leaves, a die pitched beside the hole's rim, a die crossing height bands in flight."""
    makers = [
        lambda: _stack(flat_board, params, False, 0.6, 0.0),
        lambda: _stack(flat_board, params, True, 0.4, math.pi / 2),
        lambda: _stack(flat_board, params, True, 0.9, -math.pi / 2),
        lambda: _stack(flat_board, params, True, -0.5, 0.0),
        lambda: _stack(flat_board, params, False, -0.3, 0.0),
    ]
    makers += [lambda k=k: _near_the_hole(standard_board, params, k) for k in range(8)]
    makers += [lambda k=k: _flying_past(flat_board, params, k) for k in range(3)]
    for make in makers[case::8]:
        assert _trace(make, 600, True, monkeypatch) == _trace(make, 600, False, monkeypatch)


def test_run_until_rest_takes_the_steps_one_step_at_a_time_takes(standard_board, params):
    """run_until_rest asks for many steps per compiled call; stepping one at a time ends the same."""
    for seed, offset in ((0, 0.0), (1, 0.5), (2, 0.0)):
        a = block_break(standard_board, params, seed, offset, chance_seed=seed)
        b = block_break(standard_board, params, seed, offset, chance_seed=seed)
        ra = a.run_until_rest(10.0)
        while not b.at_rest():
            b.step()
        b.run_until_rest(1.0)  # settles (zero velocities, canonical Space) as run_until_rest did
        assert a.checksum() == b.checksum()
        assert ra.steps == b.steps
        assert [(e.t, e.type, e.dice) for e in a.events] == [
            (e.t, e.type, e.dice) for e in b.events
        ]


def test_the_compiled_loop_takes_most_steps_and_special_dice(standard_board, params, monkeypatch):
    """What the loop is for: in a break most steps, most special dice's steps and most first
    contacts never reach Python."""
    calls, special, deferred = [0], [0], [0]
    run = compiled_steps.run_steps

    def counted(*args):
        status = run(*args)
        calls[0] += 1
        special[0] += int(args[1][compiled_steps.R_SPECIALS])
        deferred[0] += int(args[1][compiled_steps.R_DEFERRED])
        return status

    monkeypatch.setattr(compiled_steps, "run_steps", counted)
    steps = events = 0
    for seed in range(4):
        w = block_break(standard_board, params, seed, 0.0, chance_seed=seed)
        res = w.run_until_rest(10.0)
        steps += res.steps
        events += sum(e.type == "collision" for e in res.events)
    assert calls[0] < steps / 3, (calls, steps)
    assert special[0] > 40, special
    assert deferred[0] > events / 3, (deferred, events)


def test_rows_the_loop_leaves_equal_a_fresh_read(standard_board, params):
    """After a compiled call the World trusts its rows as the Space's state (patched velocities of
    pitched dice included): bit for bit what a read of every body gives."""
    checked = 0
    for seed, offset in ((2, 0.0), (5, 0.5)):
        w = block_break(standard_board, params, seed, offset, chance_seed=seed)
        for _ in range(300):
            w.step()
            if w._current and not w._dirty and not w._row_patch:
                seen = w._rbase[w._rows].copy()
                pending = w._pending
                w._current = False
                view.read(w)
                assert np.array_equal(seen.view(np.int64), w._rbase[w._rows].view(np.int64))
                w._pending = pending  # (a read drops it; the state is the same)
                checked += 1
    assert checked > 200


def test_band_filters_from_the_compiled_steps_are_the_spaces():
    for k in range(space.N_BANDS):
        for low in (False, True):
            for walls in (False, True):
                f = space._band(k, low, walls)
                bits = compiled_steps._band_bits(4 * k + 2 * low + walls)
                assert f.group == 0
                assert bits == f.categories | (f.mask << 32)
    size, top = 0.016, 0.02
    for z in np.linspace(-0.01, 0.5, 2001):
        key = compiled_steps._band_key(float(z), size, top, float(z))
        f = space.band_filter(float(z), size, top)
        assert compiled_steps._band_bits(key) == f.categories | (f.mask << 32)
        # a pitched die: its lowest corner for the dice, its flat base for the walls (model 0.15)
        for lift in (0.001, 0.0033):
            key = compiled_steps._band_key(float(z) - lift, size, top, float(z))
            f = space.band_filter(float(z) - lift, size, top, float(z))
            assert compiled_steps._band_bits(key) == f.categories | (f.mask << 32)
