"""The compiled step kernels agree with the numpy statements of the laws (friction.py, surface.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim.physics import step_kernels as K
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.friction import patch_points, surface_kick
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.physics.surface import Surface
from jamsumo_sim.world import World

_LEGS = [
    {"name": "south-west", "x": -0.205, "y": -0.205, "height": 0.02},
    {"name": "south-east", "x": 0.205, "y": -0.205, "height": 0.02},
    {"name": "north", "x": 0.0, "y": 0.205, "height": 0.026},
]
BOARDS = {
    "standard": "standard",  # dish, level legs
    "tilted": {"legs": _LEGS},  # dish and a tilt
    "steep": {"dish_depth": 0.06},  # the dish's rim is steeper than static friction holds
    "flat": {"side": 2.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []},
}


def _setup(board_key: str, **overrides: float):
    """Board, params, surface, patch points (K, 2) and the kernels' parameter vector, as a World
    on that board uses them."""
    board = load_board(BOARDS[board_key])
    p = PhysicsParams.from_board(board).with_overrides(overrides)
    world = World(board, p)
    surf = Surface(board, p.gravity)
    pts = patch_points(p.patch_fraction * p.die_size, p.patch_quadrature)
    return board, p, surf, pts, world._prm, surf.max_slope() < p.mu_static


def _random_state(rng, n: int, half: float) -> np.ndarray:
    """(n + 1, 6) rows: x, y, angle, vx, vy, w; some dice resting, some sliding, some only spinning;
    one extra row (another body) the kernels must leave alone."""
    st = np.zeros((n + 1, 6))
    st[:n, 0:2] = rng.uniform(-0.9 * half, 0.9 * half, (n, 2))
    st[:n, 2] = rng.uniform(-math.pi, math.pi, n)
    kind = rng.integers(0, 4, n)
    st[:n, 3:5] = np.where((kind == 1) | (kind == 3), 1, 0)[:, None] * rng.normal(0, 0.8, (n, 2))
    st[:n, 5] = np.where(kind >= 2, 1, 0) * rng.normal(0, 40, n)
    st[:n, 3:5] *= np.where(rng.random(n) < 0.1, 1e-3, 1.0)[:, None]  # nearly stopping ones
    st[:n, 3:5] *= np.where(rng.random(n) < 0.2, 6.0, 1.0)[:, None]  # fast: the bowl's v^2 term
    st[n] = 99.0
    return st


@pytest.mark.parametrize("board_key", list(BOARDS))
def test_kick_matches_numpy_reference(board_key):
    board, p, surf, pts, prm, statics_hold = _setup(board_key)
    assert statics_hold == (board_key != "steep")
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(1, 30))
        st = _random_state(rng, n, board.half)
        rows = rng.permutation(n)  # die i lives in row rows[i]
        flags = (
            np.where(rng.random(n) < 0.9, K.GROUNDED, 0)
            | np.where(rng.random(n) < 0.8, K.LOW, 0)
            | np.where(rng.random(n) < 0.2, K.FRESH, 0)
        ).astype(np.int8)
        out = np.full((n + 1, 3), -7.0)
        kicked, energy = K.kick(st, rows, flags.copy(), out, prm, np.ascontiguousarray(pts.T))

        d = st[rows]
        v = d[:, 3] + 1j * d[:, 4]
        w = d[:, 5]
        grounded = (flags & K.GROUNDED) != 0
        sel = grounded & ((v != 0) | (w != 0) | (not statics_hold))
        h = np.where(flags & K.FRESH, 0.5 * p.dt, p.dt)
        idx = np.flatnonzero(sel)
        v_ref, w_ref = v.copy(), w.copy()
        if idx.size:
            on_dish = (flags[idx] & K.LOW) != 0
            v1, w1 = surface_kick(
                surf, d[idx, 0:2], v[idx], w[idx], d[idx, 2], on_dish, h[idx], mass=p.die_mass,
                inertia=p.die_inertia, mu_k=p.mu_board, mu_s=p.mu_static,
                points=pts[:, 0] + 1j * pts[:, 1], drag=p.air_drag,
            )  # fmt: skip
            v_ref[idx], w_ref[idx] = v1, w1
        got = out[rows]
        np.testing.assert_allclose(got[:, 0], v_ref.real, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got[:, 1], v_ref.imag, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got[:, 2], w_ref, rtol=1e-12, atol=1e-12)
        # a die the reference stops dead is exactly at rest in the kernel too
        assert np.array_equal(got[:, 0:2] == 0, np.stack([v_ref.real, v_ref.imag], 1) == 0)
        assert np.array_equal(out[n], [-7.0, -7.0, -7.0])  # not a die: untouched
        assert kicked == int(sel.sum())
        e_ref = 0.5 * p.die_mass * np.abs(v_ref) ** 2 + 0.5 * p.die_inertia * w_ref**2
        assert energy == pytest.approx(e_ref.sum(), rel=1e-12, abs=1e-18)


def test_kick_of_a_die_creeping_at_any_tiny_speed_matches_the_reference():
    """A die slipping at 1e-160 m/s: the square of a patch point's slip underflows, and the
    kernel's unit slip direction was u / 1e-300, a vector of length up to 1e138; a die propping
    another in a dt 1 ms break got a friction torque of 3e136 (its state is the first row here)
    and spun the whole break apart, a die hovering over the hole for 26 s.  The kernel must
    equal the numpy reference (complex abs: no underflow) there too: such a die stops."""
    board, p, surf, pts, prm, _ = _setup("standard")
    rng = np.random.default_rng(5)
    n = 400
    st = np.zeros((n + 1, 6))
    st[:n, 0:2] = rng.uniform(-0.1, 0.1, (n, 2))
    st[:n, 2] = rng.uniform(-math.pi, math.pi, n)
    size = 10.0 ** rng.uniform(-175, -150, n)
    st[:n, 3:5] = rng.normal(0, 1, (n, 2)) * size[:, None]
    st[:n, 5] = rng.normal(0, 1, n) * size * 10.0 ** rng.uniform(-2, 4, n)
    st[0] = (0.021877756, 0.0689378595, -0.0754140285, 4.9886712e-162, -4.73781404e-162,
             -6.81266697e-160)  # fmt: skip
    flags = np.full(n, K.GROUNDED | K.LOW, dtype=np.int8)
    out = np.zeros((n + 1, 3))
    K.kick(st, np.arange(n), flags, out, prm, np.ascontiguousarray(pts.T))
    v = st[:n, 3] + 1j * st[:n, 4]
    v_ref, w_ref = surface_kick(
        surf, st[:n, 0:2], v, st[:n, 5], st[:n, 2], np.ones(n, dtype=bool), np.full(n, p.dt),
        mass=p.die_mass, inertia=p.die_inertia, mu_k=p.mu_board, mu_s=p.mu_static,
        points=pts[:, 0] + 1j * pts[:, 1], drag=p.air_drag,
    )  # fmt: skip
    assert np.all(np.isfinite(out[:n]))
    np.testing.assert_allclose(out[:n, 0], v_ref.real, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(out[:n, 1], v_ref.imag, rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(out[:n, 2], w_ref, rtol=1e-9, atol=1e-12)
    # no more than the dish's slope can give in one step: nothing near 1e136
    assert np.abs(out[:n]).max() < p.gravity * p.dt


def test_kick_of_normal_speeds_is_bit_for_bit_as_before_the_tiny_slip_guard():
    """The careful direction only takes over below 1e-140 m/s of slip: at every speed a die can
    have in play the kick is the plain formula's, bit for bit (recorded replays re-run)."""
    board, p, surf, pts, prm, _ = _setup("standard")
    rng = np.random.default_rng(11)
    n = 25
    st = _random_state(rng, n, board.half)
    st[:n, 3:5] *= np.where(rng.random(n) < 0.3, 1e-9, 1.0)[:, None]  # very slow: still plain
    out = np.zeros((n + 1, 3))
    flags = np.full(n, K.GROUNDED | K.LOW, dtype=np.int8)
    K.kick(st, np.arange(n), flags, out, prm, np.ascontiguousarray(pts.T))
    c, s = np.cos(st[:n, 2]), np.sin(st[:n, 2])
    bx = st[:n, 3] * c + st[:n, 4] * s
    by = st[:n, 4] * c - st[:n, 3] * s
    slips = [
        (bx[i] - st[i, 5] * pts[k, 1]) ** 2 + (by[i] + st[i, 5] * pts[k, 0]) ** 2
        for i in range(n)
        for k in range(len(pts))
        if st[i, 3] or st[i, 4] or st[i, 5]
    ]
    assert min(s2 for s2 in slips if s2 > 0) > K._TINY_SLIP2  # all on the plain formula
    # the plain formula, as the kernel had it: 1 / max(sqrt(u.u), 1e-300)
    ux = bx[:, None] - st[:n, 5, None] * pts[None, :, 1]
    uy = by[:, None] + st[:n, 5, None] * pts[None, :, 0]
    inv = 1.0 / np.maximum(np.sqrt(ux * ux + uy * uy), 1e-300)
    tx, ty = ux * inv, uy * inv
    got_t = [K._unit(float(a), float(b)) for a, b in zip(ux.ravel(), uy.ravel(), strict=True)]
    # (_unit is only the fallback; here it agrees with the plain formula to rounding)
    np.testing.assert_allclose(np.array(got_t)[:, 0], tx.ravel(), rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(np.array(got_t)[:, 1], ty.ravel(), rtol=1e-15, atol=1e-15)


def test_kick_clears_fresh_and_halves_the_first_step():
    board, p, surf, pts, prm, _ = _setup("flat", air_drag=0.0)
    st = np.array([[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]] * 2)
    flags = np.array([K.GROUNDED | K.LOW | K.FRESH, K.GROUNDED | K.LOW], dtype=np.int8)
    out = np.zeros((2, 3))
    K.kick(st, np.arange(2), flags, out, prm, np.ascontiguousarray(pts.T))
    dec = p.mu_board * p.gravity
    assert out[0, 0] == pytest.approx(1.0 - dec * p.dt / 2, rel=1e-12)
    assert out[1, 0] == pytest.approx(1.0 - dec * p.dt, rel=1e-12)
    assert not (flags & K.FRESH).any()


def test_screen_bits_and_energy():
    board, p, surf, pts, prm, _ = _setup("standard")
    half, r = board.half, board.hole_radius
    st = np.zeros((4, 6))
    st[0, :2] = (0.1, 0.1)
    st[1, :2] = (0.1, -0.12)
    rows = np.arange(2)
    code, energy = K.screen(st, rows, prm)
    assert code == K.ALL_RESTING and energy == 0.0
    st[1, 3] = 2 * p.rest_speed  # moving
    code, energy = K.screen(st, rows, prm)
    assert code == 0 and energy == pytest.approx(0.5 * p.die_mass * (2 * p.rest_speed) ** 2)
    st[1, :2] = (half * 1.01, 0.0)  # past the edge
    assert K.screen(st, rows, prm)[0] & K.NEAR_EDGE_OR_HOLE
    st[1, :2] = (0.5 * r, -0.5 * r)  # over the hole
    assert K.screen(st, rows, prm)[0] & K.NEAR_EDGE_OR_HOLE
    st[1, :2] = (0.1, -0.12)
    st[1, 5] = math.nan
    assert not K.screen(st, rows, prm)[0] & K.ALL_RESTING  # NaN never rests


def test_advance_is_screen_then_kick():
    board, p, surf, pts, prm, _ = _setup("standard")
    rng = np.random.default_rng(3)
    st = _random_state(rng, 12, board.half)
    rows = np.arange(12)
    flags = np.full(12, K.GROUNDED | K.LOW, dtype=np.int8)
    ptsT = np.ascontiguousarray(pts.T)
    out_a, out_b = np.zeros((13, 3)), np.zeros((13, 3))
    code, energy, kicked, e_kicked = K.advance(st, rows, flags.copy(), out_a, prm, ptsT)
    assert (code, energy) == K.screen(st, rows, prm)
    assert (kicked, e_kicked) == K.kick(st, rows, flags.copy(), out_b, prm, ptsT)
    assert np.array_equal(out_a, out_b)
    st[:, 3:6] = 0.0  # all resting: nothing kicked
    assert K.advance(st, rows, flags, out_a, prm, ptsT)[2] == -1


def test_support_at_the_hole_is_mirror_symmetric():
    """The footprint grid is point-symmetric, so a gap of exactly pi (centre on the hull's edge) is
    common; rounding must not decide it: mirrored poses get the same answer (a mirrored layout
    used to fall a step apart)."""
    board, p, surf, pts, prm, _ = _setup("standard")
    g = np.linspace(-p.die_size / 2, p.die_size / 2, p.support_samples)
    gx, gy = np.meshgrid(g, g, indexing="ij")
    footprint = np.stack([gx.ravel(), gy.ravel()], axis=1)
    r = board.hole_radius
    rng = np.random.default_rng(1)
    for _ in range(20000):
        x, y = rng.uniform(-0.02, 0.02, 2)
        a = float(rng.choice([0.0, 0.1, 0.45, 1.0, -0.3]))
        assert K.supported(x, y, a, footprint, r) == K.supported(-x, y, -a, footprint, r)
