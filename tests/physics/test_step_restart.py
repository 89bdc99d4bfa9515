"""A die's friction restarts on time after a pitch or a flight (model 0.12).

- A flat die's friction kicks are leapfrog-staggered half a step (physics/evolve.py): the velocity a
  step moves it with is the one half a step on.  A die flat again after a pitch or a landing has
  the velocity of the step's end, so its first kick is a half one (``fresh``), as after a flick.
  With a whole one it kept half a step's spin too little for the rest of its slide: 4-9 deg of
  rest angle at the default step after a long spin (issue 32's single-die shots).
- A die that lands on its edge within a step gets the edge's friction and swing for the rest of
  that step (support.after_step: pitch.step_die over ``span``), not from the next step on.  A high
  strike that hops off the edge lands at once and lost a whole step of that friction: 0.4 rad/s of
  spin, 7 deg at rest at the default step.

Oracles: the closed-form turn of a spin stopped by the patch's friction, and the spin an edge's
friction leaves after the landing time found from the free flight."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from jamsumo_sim.physics import flight, view
from jamsumo_sim.physics.datatypes import Pitch
from jamsumo_sim.physics.friction import spin_lever
from jamsumo_sim.world import World


def _spin_decel(p) -> float:
    """Pure spin on a flat board: torque mu m g <|r|> over I = m a^2/6 (rad/s^2) [derived]."""
    return p.mu_board * p.gravity * spin_lever(p.patch_fraction * p.die_size) * 6.0 / p.die_size**2


@pytest.mark.parametrize("refine", [1, 2])
@pytest.mark.parametrize("spin", [40.0, 90.0])
def test_a_die_flat_again_after_a_pitch_turns_the_closed_form_angle(
    flat_board, params, refine, spin
):
    """A die rocking back flat, spinning in place: from the step it is flat again, it turns
    w^2 / (2 alpha) before it stops.  Before model 0.12 its first kick was a whole step: it turned
    w dt / 2 less (0.04-0.09 rad at the default step)."""
    w = World(flat_board, replace(params, refine=refine))
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    d.body.angular_velocity = spin
    d.pitch = Pitch(0.05, -1.0, 0, 0.0, "flick")
    view.mark(w, d)
    w._special = True
    for _ in range(200):
        w.step()
        if w._dice["a"].pitch is None:
            break
    d = w._dice["a"]
    assert d.pitch is None and not d.airborne
    s = w.state("a")
    assert abs(s.vx) + abs(s.vy) == 0.0  # (it spins in place: the oracle is a pure spin's)
    turn = s.omega**2 / (2.0 * _spin_decel(w.params))
    w.run_until_rest(5.0)
    got = w.state("a").angle - s.angle
    # the leapfrog's own error: at most about alpha dt^2 (the last step's stop)
    assert got == pytest.approx(turn, abs=2.0 * _spin_decel(w.params) * w.params.step**2)


@pytest.mark.parametrize("spin", [40.0, 90.0])
def test_a_die_landing_flat_at_a_steps_end_turns_the_closed_form_angle(flat_board, params, spin):
    """A die dropped flat, spinning, so that it lands at the end of its third step: from there it
    turns w^2 / (2 alpha) to rest.  Before model 0.12 its first kick on the board was a whole
    step: w dt / 2 less (0.04-0.09 rad)."""
    w = World(flat_board, params)
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    d.body.angular_velocity = spin
    fall = 3 * w.params.step
    flight.launch(w, d, 0.0, 0.5 * w.params.gravity * fall * fall - 1e-12)
    for _ in range(3):
        w.step()
    d = w._dice["a"]
    assert not d.airborne and d.pitch is None and [e for e in w.events if e.type == "land"]
    s = w.state("a")
    assert s.omega == spin  # (no friction in the air, none yet on the board)
    turn = spin**2 / (2.0 * _spin_decel(w.params))
    w.run_until_rest(5.0)
    got = w.state("a").angle - s.angle
    assert got == pytest.approx(turn, abs=2.0 * _spin_decel(w.params) * w.params.step**2)


def _edge_load_integral(phi: float, rate: float, t: float, p) -> float:
    """The integral over ``t`` seconds of the normal force per unit mass on the edge of a die
    turning on it from (``phi``, ``rate``): g + z'' of the centre, z = (a/2)(cos + sin - 1), the
    pendulum phi'' = (3 g / 4 a)(sin - cos) integrated here (scipy), never below zero."""
    from scipy.integrate import solve_ivp

    g, a = p.gravity, p.die_size
    k = 0.75 * g / a

    def rhs(_t, y):
        f, w, _ = y
        c, s = math.cos(f), math.sin(f)
        acc = k * (s - c)
        return [w, acc, max(0.0, g + 0.5 * a * ((c - s) * acc - (c + s) * w * w))]

    sol = solve_ivp(rhs, (0.0, t), [phi, rate, 0.0], rtol=1e-10, atol=1e-12)
    return float(sol.y[2, -1])


def _landing_time(z0: float, phi0: float, rate: float, p) -> float:
    """When the lowest edge of a die at height z0 (centre - a/2; no rise), tipped by phi0 and
    turning at ``rate`` in the air, reaches the board: z0 - g t^2/2 = lift(phi0 + rate t)
    (bisection)."""
    half = 0.5 * p.die_size

    def low(t: float) -> float:
        phi = phi0 + rate * t
        return z0 - 0.5 * p.gravity * t * t - half * (math.cos(phi) + math.sin(phi) - 1.0)

    lo, hi = 0.0, 0.05
    assert low(lo) > 0.0 > low(hi)
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if low(mid) > 0.0 else (lo, mid)
    return lo


@pytest.mark.parametrize("refine", [1, 4])
@pytest.mark.parametrize("z0", [0.1e-3, 0.2e-3, 0.3e-3])
def test_an_edge_landing_within_a_step_gets_the_edges_friction_from_then(
    flat_board, params, refine, z0
):
    """A die coming down on its edge within a step loses spin to the edge's friction (1.5 mu_pitch
    N / (m a) per second, N the edge's load, pitch.step_die) from the landing on: 10 ms after it
    left, its spin is the landing time's oracle's at any step.  Before model 0.12 the friction
    began at the next step: up to 0.46 rad/s too much spin at the default step.  (Model 0.17: the
    load is the pivot's own, :func:`_edge_load_integral`, not the weight.)"""
    p0 = params
    phi0, rate, spin = 0.2, 2.0, 80.0
    w = World(flat_board, replace(p0, refine=refine))
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    d.body.angular_velocity = spin
    d.pitch = Pitch(phi0, rate, 0, 0.0, "flick")
    flight.launch(w, d, 0.0, z0 + flight.lift(phi0, w.params))
    t_end = 0.010
    landed = None
    for _ in range(round(t_end / w.params.step)):
        w.step()
        if landed is None and [e for e in w.events if e.type == "land"]:
            landed = w.time
    d = w._dice["a"]
    assert landed is not None and not d.airborne and d.pitch is not None
    t_land = _landing_time(z0 + flight.lift(phi0, p0), phi0, rate, p0)
    assert landed - w.params.step <= t_land <= landed
    # the landing (flight._land: the edge's impact, plastic at this fall) leaves it turning at
    # rate1 about its edge; from then the edge carries the pivot's load
    phi_l = phi0 + rate * t_land
    rate1 = flight.edge_landing(phi_l, rate, 0.0, -p0.gravity * t_land, 0.0, p0.mu_landing, p0)[0]
    load = _edge_load_integral(phi_l, rate1, t_end - t_land, p0)
    want = spin - 1.5 * p0.mu_pitch / p0.die_size * load
    # (the flight step finds the landing time linear in the lowest point's height: off by up to
    # g dt^2 / 8 over the fall speed, 0.1 ms or 0.02 rad/s here at the default step)
    assert w.state("a").omega == pytest.approx(want, abs=0.04)


def test_the_rest_of_the_step_after_a_landing_converges_in_a_high_strike(standard_board, params):
    """A high strike that lifts the die off its edge at once (hop_lift halves the turn: it comes
    straight back down): its spin 10 ms on is the same at refine 1, 4 and 16 (before model 0.12:
    200.47 rad/s stayed untouched for a whole step at refine 1, 0.43 rad/s above refine 16).
    Struck at 0.97 of the face it pitches at 47.6 rad/s, above the 35.0 that lifts it, as 0.76
    did before model 0.13's grip (47.0; now 3.5 rad/s there, no hop); it spins at 149 rad/s."""
    from jamsumo_sim.physics.flick import Flick

    spins = {}
    for k in (1, 4, 16):
        w = World(standard_board, replace(params, refine=k), rng=np.random.default_rng(1))
        w.add_die("s", 0.0771219146601768, 0.042458971698338434, angle=0.16135798273341662, face=3)
        w.apply_flick(Flick("s", -1.956780062402649, 0.004599536796751432, -0.38133467329890225,
                            0.97))  # fmt: skip
        assert [e for e in w.events if e.type == "hop"]
        while w.time < 0.010 - 1e-12:
            w.step()
        spins[k] = w.state("s").omega
    assert spins[1] == pytest.approx(spins[16], abs=0.03)
    assert spins[4] == pytest.approx(spins[16], abs=0.01)
