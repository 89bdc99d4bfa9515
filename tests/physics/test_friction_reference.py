"""Oracles for the numpy statement of the friction law (jamsumo_sim/physics/friction.py), which the compiled
kernels are tested against: each test here checks the reference itself against physics.md s2, a
published result or an exact identity, without going through the World.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jamsumo_sim.physics.friction import friction_kick, patch_points, patch_wrench, spin_lever

# physics.md s2 oracles [derived]/[lit]
SPIN_DECEL = 2.2956  # alpha a / (mu g): pure spin of a sharp cube, uniform square patch
SPIN_LEVER = 0.38260  # <|r|> / side of the uniform square patch
CUBE_TERMINAL = (0.69, 0.76)  # sharp cube: final v / (w a/2)
DISK_TERMINAL = 0.6530  # uniform disk: v / (R w) (Farkas et al. PRL 2003; Weidman & Malhotra 2005)

FUZZ = settings(max_examples=60, deadline=None)


class Law:
    """The friction reference with the standard die's numbers (from the board's params)."""

    def __init__(self, p, fraction: float | None = None, n: int | None = None) -> None:
        self.p = p
        self.m, self.a, self.g = p.die_mass, p.die_size, p.gravity
        self.inertia = p.die_inertia
        self.side = (p.patch_fraction if fraction is None else fraction) * self.a
        pts = patch_points(self.side, p.patch_quadrature if n is None else n)
        self.points = pts[:, 0] + 1j * pts[:, 1]

    def kick(
        self, v, w, theta, h, *, accel=None, normal=None, mu_k=None, points=None, inertia=None
    ):
        p = self.p
        return friction_kick(
            np.asarray(v, dtype=complex),
            np.asarray(w, dtype=float),
            np.asarray(theta, dtype=float),
            accel,
            self.m * self.g if normal is None else normal,
            h,
            mass=self.m,
            inertia=self.inertia if inertia is None else inertia,
            mu_k=p.mu_board if mu_k is None else mu_k,
            mu_s=p.mu_static,
            points=self.points if points is None else points,
        )


def _wrench(v: complex, w: float, theta: float, points2: np.ndarray):
    f, t = patch_wrench(np.array([[v.real, v.imag]]), np.array([w]), np.array([theta]), points2)
    return complex(f[0, 0], f[0, 1]), float(t[0])


# --- pure slide and pure spin ---------------------------------------------------------------------


@pytest.mark.parametrize("fraction", [1.0, 0.875, 0.5])
@pytest.mark.parametrize("n", [6, 8])
@pytest.mark.parametrize("mu", [0.15, 0.25, 0.4])
def test_pure_slide_decelerates_at_mu_g(params, fraction, n, mu):
    """Pure slide: |dv| = mu g h exactly for any direction, die angle and patch; no spin appears."""
    law = Law(params, fraction, n)
    dirs = np.linspace(-math.pi, math.pi, 9)
    thetas = np.linspace(0.0, 2.0, 9)
    v0 = 0.8 * np.exp(1j * dirs)
    h = 1e-3
    v1, w1 = law.kick(v0, np.zeros(9), thetas, h, mu_k=mu)
    np.testing.assert_allclose(np.abs(v0) - np.abs(v1), mu * law.g * h, rtol=1e-10)
    np.testing.assert_allclose(np.angle(v1), dirs, atol=1e-12)
    assert np.abs(w1).max() < 1e-9


def test_pure_slide_stops_at_the_oracle_time(params):
    """mu 0.25, 1 m/s: stops after 0.4077 s (to one kick), exactly, and never reverses."""
    law = Law(params)
    h = 1e-3
    v, w = np.array([1.0 + 0j]), np.zeros(1)
    kicks = 0
    while v[0] != 0:
        v_prev = v
        v, w = law.kick(v, w, np.zeros(1), h, mu_k=0.25, normal=law.m * 9.81)
        kicks += 1
        assert v[0].real <= v_prev[0].real and abs(v[0].imag) < 1e-15
    assert kicks * h == pytest.approx(0.4077, abs=h)
    v2, w2 = law.kick(v, w, np.zeros(1), h)
    assert v2[0] == 0 and w2[0] == 0  # at rest on a level board it stays at rest


@pytest.mark.parametrize("fraction", [1.0, 0.875, 0.5])
@pytest.mark.parametrize("n", [6, 8])
@pytest.mark.parametrize("theta", [0.0, 0.3])
def test_pure_spin_decelerates_at_2_2956_mu_g_over_a(params, fraction, n, theta):
    """Pure spin of a uniform square patch of side s = fraction x a: alpha = 2.2956 mu g s / a^2
    (the full-face value 2.2956 mu g / a scaled by the patch side), either sense; no slide
    appears."""
    law = Law(params, fraction, n)
    mu, h = params.mu_board, 1e-3
    for w0 in (300.0, -300.0):
        v1, w1 = law.kick([0j], [w0], [theta], h)
        alpha = (abs(w0) - abs(w1[0])) / h
        assert alpha == pytest.approx(SPIN_DECEL * mu * law.g / law.a * fraction, rel=1e-4)
        assert abs(v1[0]) < 1e-12


def test_spin_lever_and_quadrature():
    """<|r|> = 0.38260 x side; the quadrature points are n x n, centred, inside the patch, with the
    square's quarter-turn symmetry and that polar moment."""
    for side in (0.016, 0.014, 0.004):
        assert spin_lever(side) == pytest.approx(SPIN_LEVER * side, rel=1e-5)
        for n in (2, 6, 8):
            pts = patch_points(side, n)
            assert pts.shape == (n * n, 2)
            assert np.abs(pts.mean(axis=0)).max() < 1e-15
            assert np.abs(pts).max() < side / 2
            assert np.hypot(pts[:, 0], pts[:, 1]).mean() == pytest.approx(
                SPIN_LEVER * side, rel=1e-5
            )
            turned = np.stack([-pts[:, 1], pts[:, 0]], axis=1)
            assert sorted(map(tuple, turned.round(15))) == sorted(map(tuple, pts.round(15)))


# --- zero motion, static friction, stopping -------------------------------------------------------


def test_zero_velocity_gives_zero_force(params):
    law = Law(params)
    pts = patch_points(law.side, params.patch_quadrature)
    f, t = _wrench(0j, 0.0, 0.4, pts)
    assert f == 0 and t == 0
    v1, w1 = law.kick([0j, 0j], [0.0, 0.0], [0.0, 1.0], 1e-3)
    assert (v1 == 0).all() and (w1 == 0).all()


def test_resting_dice_do_not_change_the_moving_ones(params):
    """A batch with dice at rest: those stay exactly at rest, the others get exactly the kick they
    would get alone (scalar or per-die normal force and step)."""
    law = Law(params)
    v = np.array([0j, 0.5 + 0.2j, 0j, -0.3j])
    w = np.array([0.0, 40.0, 0.0, -10.0])
    th = np.array([0.1, 0.2, 0.3, 0.4])
    normal = law.m * law.g * np.array([1.0, 1.1, 0.9, 1.2])
    h = np.array([1e-3, 2e-3, 1e-3, 5e-4])
    v1, w1 = law.kick(v, w, th, h, normal=normal)
    assert v1[0] == v1[2] == 0 and w1[0] == w1[2] == 0
    for i in (1, 3):
        vi, wi = law.kick(v[i : i + 1], w[i : i + 1], th[i : i + 1], h[i], normal=normal[i])
        assert (v1[i], w1[i]) == (vi[0], wi[0])


def test_static_friction_cone(params):
    """A resting die on a slope stays exactly at rest while the surface force is inside mu_s N;
    beyond it, it starts to slide down the slope with the kinetic friction subtracted."""
    law = Law(params)
    mu_s, mu_k, g, h = params.mu_static, params.mu_board, law.g, 1e-3
    dirs = np.exp(1j * np.array([0.0, 1.0, 2.5, -2.0]))
    inside = 0.99 * mu_s * g * dirs
    v1, w1 = law.kick(np.zeros(4, complex), np.zeros(4), np.zeros(4), h, accel=inside)
    assert (v1 == 0).all() and (w1 == 0).all()
    outside = 1.5 * mu_s * g * dirs
    v1, w1 = law.kick(np.zeros(4, complex), np.zeros(4), np.zeros(4), h, accel=outside)
    np.testing.assert_allclose(v1, (1.5 * mu_s - mu_k) * g * h * dirs, rtol=1e-12)
    assert (w1 == 0).all()


def test_a_motion_the_kick_would_reverse_stops_exactly(params):
    """A slide too slow to survive the kick stops at exactly zero while the spin goes on (and the
    other way round); when both would reverse, the die sticks: v = w = 0 exactly."""
    law = Law(params)
    h = 1e-3
    v1, w1 = law.kick([0.002 + 0j], [0.1], [0.0], h)
    assert v1[0] == 0 and 0 < w1[0] < 0.1
    v1, w1 = law.kick([1e-4 + 0j], [0.3], [0.0], h)
    assert w1[0] == 0 and 0 < v1[0].real < 1e-4
    v1, w1 = law.kick([1e-5 + 0j], [0.01], [0.0], h)
    assert v1[0] == 0 and w1[0] == 0


@pytest.mark.parametrize("fraction", [1.0, 0.875])
def test_kick_is_the_wrench_impulse(params, fraction):
    """friction_kick applies exactly the impulse patch_wrench states, mu N h (f / m, t / I), with
    the documented stops (a component the kick would reverse is zero; both: the die sticks; a
    component already at zero stays there when the other stops): two statements of the law
    agree."""
    law = Law(params, fraction)
    pts = patch_points(law.side, params.patch_quadrature)
    mu, h = params.mu_board, 1e-3
    imp = mu * law.m * law.g * h
    rng = np.random.default_rng(25)
    for _ in range(300):
        # spins from well above to well below one kick's change and slip ratios v / (w a/2) from
        # 0.001 to 10, some pure slides and pure spins: every stop case occurs
        w = rng.choice([-1.0, 1.0]) * 10 ** rng.uniform(-3, 2.5)
        v = w * law.a / 2 * 10 ** rng.uniform(-3, 1) * complex(np.exp(1j * rng.uniform(-4, 4)))
        u = rng.random()
        w, v = (0.0, v) if u < 0.2 else (w, 0j) if u < 0.3 else (w, v)
        theta = rng.uniform(-4, 4)
        f, t = _wrench(v, w, theta, pts)
        vn, wn = v + imp * f / law.m, w + imp * t / law.inertia
        stop_v, stop_w = (v.conjugate() * vn).real < 0, w * wn < 0
        stop_v |= v == 0 and stop_w
        stop_w |= w == 0 and stop_v
        v1, w1 = law.kick([v], [w], [theta], h)
        assert v1[0] == (0 if stop_v else pytest.approx(vn, rel=1e-9, abs=1e-14))
        assert w1[0] == (0 if stop_w else pytest.approx(wn, rel=1e-9, abs=1e-12))


# --- bounds and symmetries (fuzzed) ---------------------------------------------------------------


def _signed(limit: float):
    """0 or a float with limit >= |x| >= 1e-6 (no subnormal slip speeds: the law floors |u| at
    1e-300, below which a slip direction is not a unit vector)."""
    return st.one_of(st.just(0.0), st.floats(1e-6, limit), st.floats(-limit, -1e-6))


velocities = st.builds(complex, _signed(3.5), _signed(3.5))
spins = _signed(1000.0)
angles = st.floats(-7.0, 7.0)
fractions = st.floats(0.3, 1.0)
orders = st.integers(2, 8)


@FUZZ
@given(v=velocities, w=spins, theta=angles, fraction=fractions, n=orders)
def test_force_and_torque_bounds_and_dissipation(v, w, theta, fraction, n):
    """|F| <= mu N; |tau| <= mu N <|r|>; and the friction power is exactly -mu N <|u|> (F . v +
    tau w = -<u . u/|u|>), so friction never does positive work."""
    side = fraction * 0.016
    pts = patch_points(side, n)
    f, t = _wrench(v, w, theta, pts)
    assert abs(f) <= 1 + 1e-12
    assert abs(t) <= spin_lever(side) * (1 + 1e-12)
    r = np.exp(1j * theta) * (pts[:, 0] + 1j * pts[:, 1])
    mean_slip = np.abs(v + 1j * w * r).mean()
    power = (f.conjugate() * v).real + t * w
    assert power == pytest.approx(-mean_slip, rel=1e-9, abs=1e-13 * (abs(v) + abs(w) * side))


@FUZZ
@given(v=velocities, w=spins, theta=angles, fraction=fractions)
def test_kick_bounds_and_energy(params, v, w, theta, fraction):
    """One kick changes v by at most mu g h and w by at most mu N h <|r|> / I, and never adds
    kinetic energy (flat board)."""
    law = Law(params, fraction)
    h, mu = 1e-3, params.mu_board
    v1, w1 = law.kick([v], [w], [theta], h)
    assert abs(v1[0] - v) <= mu * law.g * h * (1 + 1e-12)
    dw_max = mu * law.m * law.g * h * spin_lever(law.side) / law.inertia
    assert abs(w1[0] - w) <= dw_max * (1 + 1e-12)
    ke = law.m * abs(v) ** 2 + law.inertia * w**2
    ke1 = law.m * abs(v1[0]) ** 2 + law.inertia * w1[0] ** 2
    assert ke1 <= ke * (1 + 1e-12)


@FUZZ
@given(v=velocities, w=spins, theta=angles, phi=angles, scale=st.floats(0.01, 100.0))
def test_wrench_symmetries(params, v, w, theta, phi, scale):
    """Rotating the whole motion turns the force with it and keeps the torque; a mirror image
    conjugates the force and flips the torque; reversing the motion reverses both; scaling v and w
    together (Coulomb) and a quarter turn of the square patch change nothing."""
    pts = patch_points(params.patch_fraction * params.die_size, params.patch_quadrature)
    f, t = _wrench(v, w, theta, pts)
    rot = complex(math.cos(phi), math.sin(phi))
    tol = {"abs": 1e-9}
    fr, tr = _wrench(v * rot, w, theta + phi, pts)
    assert fr == pytest.approx(f * rot, **tol) and tr == pytest.approx(t, abs=1e-12)
    fm, tm = _wrench(v.conjugate(), -w, -theta, pts)
    assert fm == pytest.approx(f.conjugate(), **tol) and tm == pytest.approx(-t, abs=1e-12)
    fb, tb = _wrench(-v, -w, theta, pts)
    assert fb == pytest.approx(-f, **tol) and tb == pytest.approx(-t, abs=1e-12)
    fs, ts = _wrench(v * scale, w * scale, theta, pts)
    assert fs == pytest.approx(f, **tol) and ts == pytest.approx(t, abs=1e-12)
    fq, tq = _wrench(v, w, theta + math.pi / 2, pts)
    assert fq == pytest.approx(f, **tol) and tq == pytest.approx(t, abs=1e-12)


@FUZZ
@given(v=velocities, w=spins, theta=angles, phi=angles)
def test_kick_symmetries(params, v, w, theta, phi):
    """friction_kick commutes with rotations and mirror images of the motion."""
    law = Law(params)
    h = 1e-3
    v1, w1 = law.kick([v], [w], [theta], h)
    rot = complex(math.cos(phi), math.sin(phi))
    vr, wr = law.kick([v * rot], [w], [theta + phi], h)
    assert vr[0] == pytest.approx(v1[0] * rot, abs=1e-12) and wr[0] == pytest.approx(
        w1[0], abs=1e-9
    )
    vm, wm = law.kick([v.conjugate()], [-w], [-theta], h)
    assert vm[0] == pytest.approx(v1[0].conjugate(), abs=1e-12)
    assert wm[0] == pytest.approx(-w1[0], abs=1e-9)


# --- coupled sliding and spinning: the terminal ratio ---------------------------------------------


def _integrate(law: Law, eps0: float, thetas, lever: float, h: float, points=None, inertia=None):
    """Slide + spin from v0 = 1 m/s and v0 / (w0 lever) = eps0 with the die angle advancing by w h;
    per die: (v / (w lever) once v < 2 mm/s or None, kick at which v stopped, kick at which w
    stopped, distance slid)."""
    n = len(thetas)
    v = np.ones(n, complex)
    w = np.full(n, 1.0 / (eps0 * lever))
    th = np.array(thetas, dtype=float)
    ratio: list[float | None] = [None] * n
    stop_v, stop_w = [None] * n, [None] * n
    dist = np.zeros(n)
    for k in range(1, 20000):
        v1, w = law.kick(v, w, th, h, points=points, inertia=inertia)
        dist += 0.5 * (np.abs(v) + np.abs(v1)) * h
        v = v1
        th = th + w * h
        for i in range(n):
            if ratio[i] is None and 0 < abs(v[i]) < 0.002 and w[i] != 0:
                ratio[i] = abs(v[i]) / (abs(w[i]) * lever)
            if stop_v[i] is None and v[i] == 0:
                stop_v[i] = k
            if stop_w[i] is None and w[i] == 0:
                stop_w[i] = k
        if not (v.any() or w.any()):
            break
    return ratio, stop_v, stop_w, dist


def test_sharp_cube_stops_both_motions_together(params):
    """Sharp full-face patch: v/(w a/2) ends in [0.69, 0.76]; slide and spin stop on the same kick;
    the spinning die slides farther than v0^2 / (2 mu g)."""
    law = Law(params, fraction=1.0)
    thetas = [0.0, 0.3, math.pi / 4]
    ratio, stop_v, stop_w, dist = _integrate(law, 1.0, thetas, law.a / 2, 2e-4)
    for i in range(len(thetas)):
        assert ratio[i] is not None and CUBE_TERMINAL[0] <= ratio[i] <= CUBE_TERMINAL[1]
        assert stop_v[i] == stop_w[i]
    assert dist.min() > 1.0 / (2 * params.mu_board * law.g)


def _fixed_point(points2: np.ndarray, lever: float, i_over_m: float, theta: float) -> float:
    """The ratio eps = v / (w lever) that coupled friction keeps fixed: the relative decelerations
    of slide and spin are equal, |F| / (m v) = |tau| / (I w), i.e. |f| I/m = eps lever |t|."""

    def resid(eps: float) -> float:
        f, t = _wrench(complex(eps, 0.0), 1.0 / lever, theta, points2)
        return abs(f) * i_over_m - eps * lever * abs(t)

    lo, hi = 0.3, 1.5
    assert resid(lo) < 0 < resid(hi)  # slow slides gain on the spin, fast ones lose: a stable ratio
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if resid(mid) < 0 else (lo, mid)
    return lo


@pytest.mark.parametrize("theta", np.linspace(0.0, math.pi / 2, 7))
def test_sharp_cube_fixed_point_in_band(params, theta):
    a = params.die_size
    pts = patch_points(a, params.patch_quadrature)
    eps = _fixed_point(pts, a / 2, a * a / 6, theta)
    assert CUBE_TERMINAL[0] <= eps <= CUBE_TERMINAL[1]


def _sunflower(n: int, radius: float) -> np.ndarray:
    """n equal-area points of a uniform disk (Vogel's spiral)."""
    k = np.arange(n) + 0.5
    r = radius * np.sqrt(k / n)
    phi = k * math.pi * (3.0 - math.sqrt(5.0))
    return np.stack([r * np.cos(phi), r * np.sin(phi)], axis=1)


def test_uniform_disk_terminal_ratio_0653(params):
    """The law applied to a uniform disk reproduces the published terminal ratio v/(R w) = 0.653:
    the fixed point of the wrench, and a disk integrated with friction_kick from either side of it
    (starting at 1.0 and at 0.25) ends between the two starts, near 0.653, both motions stopping
    on the same kick."""
    radius = params.die_size / 2
    eps = _fixed_point(_sunflower(3000, radius), radius, radius**2 / 2, 0.0)
    assert eps == pytest.approx(DISK_TERMINAL, abs=0.002)

    law = Law(params)
    pts = _sunflower(1000, radius)
    disk = pts[:, 0] + 1j * pts[:, 1]
    inertia = law.m * radius**2 / 2
    ends = []
    for eps0 in (1.0, 0.25):
        ratio, stop_v, stop_w, _ = _integrate(law, eps0, [0.0], radius, 5e-4, disk, inertia)
        assert ratio[0] is not None and stop_v[0] == stop_w[0]
        ends.append(ratio[0])
    assert ends[1] < DISK_TERMINAL < ends[0]
    assert ends[0] - DISK_TERMINAL < 0.01 and DISK_TERMINAL - ends[1] < 0.03


def test_small_patch_spin_outlasts_the_slide(params):
    """A patch well below 0.87 a: no finite terminal ratio, the ratio heads to 0 (physics.md s2
    item 5)."""
    law = Law(params, fraction=0.5)
    ratio, stop_v, stop_w, _ = _integrate(law, 1.0, [0.0, 0.3], law.a / 2, 2e-4)
    for i in range(2):
        assert ratio[i] is None or ratio[i] < 0.2
        assert stop_v[i] <= stop_w[i]
