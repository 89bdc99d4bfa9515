"""Laws read at the contact's time within a model step (issue 32, docs/physics.md "Resolution").

Chipmunk reports a first contact at the end of the collision step that found it, up to a model
step after the step's start, while a die in flight or pitched holds its state as of the step's start
until the step's flight or pitch step.  Each law that reads that state at a contact reads it where
the contact is: a free flight's height (kinematics), a pitch begun within the step (the swing run
from flat at the contact), a pitched strike's pitch and the pair's velocities just before it.  At
the default 2 ms step the old readings made the hard-spin break end with a die on a die in 9 % of
breaks (refine 8: none) and sent a pitched die's push down its row at half refine 8's speed.
"""

from __future__ import annotations

import math

import pytest

from jamsumo_sim import convergence as cv
from jamsumo_sim.physics import contacts, flight, pitched_strike
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.params import PhysicsParams


@pytest.mark.parametrize("elapsed", [0.0, 0.0005, 0.0012, 0.00199])
@pytest.mark.parametrize("vz", [0.3, 1.0])
def test_a_die_launched_within_a_step_is_at_its_launch_height_then(flat_world, params, elapsed, vz):
    """A hop ``elapsed`` into the step starts from the board then, and flies freely from there:
    height vz t - g t^2 / 2 at t after it (flight.launch holds it as of the step's start)."""
    w = flat_world
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    flight.launch(w, d, vz, elapsed=elapsed)
    assert contacts.base_height(w, d, elapsed) == pytest.approx(0.0, abs=1e-12)
    later = min(elapsed + 0.0007, params.step)
    t = later - elapsed
    g = params.gravity
    assert contacts.base_height(w, d, later) == pytest.approx(vz * t - 0.5 * g * t * t, abs=1e-12)


def test_a_die_hopping_beside_another_strikes_it_above_its_mid_height(flat_board, params):
    """Hopped 1.2 ms into the step, a die meets its grounded neighbour 0.8 ms later, 0.5 mm up:
    the neighbour is struck above its mid-height and pitches; the flier, struck below its own,
    does not.  (Read at the step's start the flier was 0.5 mm below the board, struck above its
    mid-height: it pitched, its neighbour did not.)  Frictionless dice: with mu_die's grip
    (model 0.13) a blow 0.25 mm over mid-height pitches neither (tests/physics/test_grip.py)."""
    from jamsumo_sim.world import World

    params = params.with_overrides({"mu_die": 0.0})
    w = World(flat_board, params)
    a = params.die_size
    w.add_die("flier", 0.0, 0.0, face=1)
    w.add_die("ground", a, 0.0, face=1, vx=0.5)  # (its slide pays for its pitch)
    flier, ground = w._dice["flier"], w._dice["ground"]
    flight.launch(w, flier, 0.6, elapsed=0.0012)
    assert flier.z < 0.0  # as of the step's start
    contacts.impact_tumbles(w, flier, ground, 0.006, elapsed=0.002)
    assert ground.pitch is not None and ground.pitch.rate > 0.0
    assert flier.pitch is None


def _swing(rate: float, duration: float, p: PhysicsParams, n: int = 4000) -> float:
    """The pitch angle after ``duration`` s from flat at ``rate``: RK4 on phi'' = (3 g / 4 a)
    (sin phi - cos phi), gravity's torque about the edge (physics.md s8.2)."""
    k = 0.75 * p.gravity / p.die_size
    phi, w = 0.0, rate
    h = duration / n

    def acc(x: float) -> float:
        return k * (math.sin(x) - math.cos(x))

    for _ in range(n):
        k1p, k1v = w, acc(phi)
        k2p, k2v = w + 0.5 * h * k1v, acc(phi + 0.5 * h * k1p)
        k3p, k3v = w + 0.5 * h * k2v, acc(phi + 0.5 * h * k2p)
        k4p, k4v = w + h * k3v, acc(phi + h * k3p)
        phi += h * (k1p + 2 * k2p + 2 * k3p + k4p) / 6
        w += h * (k1v + 2 * k2v + 2 * k3v + k4v) / 6
    return phi


@pytest.mark.parametrize("elapsed", [0.0, 0.0008, 0.0018])
@pytest.mark.parametrize("rate", [8.0, 20.0])
def test_a_pitch_begun_within_a_step_turns_only_from_then(flat_world, params, elapsed, rate):
    """A die struck ``elapsed`` into the step starts pitching flat then: at the step's end its
    pitch is the swing from flat over the rest of the step, within 0.5 % (not over the whole
    step: at 20 rad/s struck 1.8 ms in, 0.004 rad against 0.040)."""
    w = flat_world
    w.add_die("a", 0.0, 0.0, face=1, vx=0.8)
    d = w._dice["a"]
    contacts._pitch_paid(w, d, 0.0, rate, elapsed)
    assert d.pitch is not None and d.pitch.phi <= 0.0
    w.step()
    want = _swing(rate, params.step - elapsed, params)
    assert d.pitch.phi == pytest.approx(want, rel=5e-3, abs=1e-6)


def test_a_pitch_struck_twice_within_a_step_turns_at_each_rate_from_each_blow(flat_world, params):
    """Struck at 0.6 ms (5 rad/s) and again at 1.5 ms (+12 rad/s, the same way): at the step's
    end the pitch is the swing from flat at 5 rad/s for 0.9 ms, then at 12 rad/s more for 0.5 ms,
    within 1 % (the whole step at 17 rad/s would be 0.034 rad against 0.010)."""
    w = flat_world
    w.add_die("a", 0.0, 0.0, face=1, vx=0.8)
    d = w._dice["a"]
    contacts._pitch_paid(w, d, 0.0, 5.0, 0.0006)
    contacts._pitch_paid(w, d, 0.0, 12.0, 0.0015)
    w.step()
    k = 0.75 * params.gravity / params.die_size
    phi1 = _swing(5.0, 0.0009, params)
    rate1 = 5.0 - k * 0.0009  # (near flat the swing slows at k)
    want = phi1 + (rate1 + 12.0) * 0.0005 - 0.5 * k * 0.0005**2
    assert d.pitch.phi == pytest.approx(want, rel=0.01)


def test_a_pitch_begun_within_a_step_keeps_its_energy(flat_world, params):
    """Run back to the step's start the pitch has the energy it has flat at the contact."""
    from jamsumo_sim.physics import pitch

    w = flat_world
    w.add_die("a", 0.0, 0.0, face=1, vx=0.8)
    d = w._dice["a"]
    contacts._pitch_paid(w, d, 0.0, 15.0, 0.0015)
    assert d.pitch.phi < 0.0
    e = pitch.pitch_energy(d.pitch.phi, d.pitch.rate, params)
    assert e == pytest.approx(pitch.pitch_energy(0.0, 15.0, params), rel=1e-12)


@pytest.mark.parametrize("elapsed,applies", [(0.0003, False), (0.0015, True)])
def test_a_pitched_strike_reads_the_pitch_at_the_contact(flat_world, params, elapsed, applies):
    """A die struck 0.5 ms into a step at 10 rad/s starts it a little below flat (as the step's
    start holds it); meeting the die in front of it 0.3 ms into the step it is still flat there
    (the solver's flat impact stands), 1.5 ms in it is 0.01 rad up: the tilted impact applies.
    (Read at the step's start it was below flat for the whole step: no tilted impact.)"""
    w = flat_world
    a = params.die_size
    w.add_die("s", 0.0, 0.0, face=1, vx=0.5)
    w.add_die("t", a - 1e-4, 0.0, face=1)  # (touching, as at a contact)
    s, t = w._dice["s"], w._dice["t"]
    contacts._pitch_paid(w, s, 0.0, 10.0, 0.0005)
    assert s.pitch.phi < 0.0
    assert pitched_strike.pitched_strike(w, s, t, elapsed, 0.0) is applies


def _as_model_017(flick: Flick, p: PhysicsParams) -> Flick:
    """The flick that launches the centred break's striker as model 0.17 launched it from
    ``flick`` (pushed t0 off the west face's normal, +x, through the face's centre): J cos t0 / m
    along the normal, J sin t0 / m along the face, spinning at -(a/2) J sin t0 / I.

    Model 0.18's oblique push (the pad balances the push's moment and grips the face along it
    without a rebound, commit 1914fbc) launches ``flick`` itself 0.021 rad off the normal, not
    0.032, and does not spin it (tests/physics/test_finger_impact.py).  Its pad with its edge at
    the face's centre (offset w / 2a: the lever 0, the balance point -tau/2 out of its reach)
    pushed t1 off the normal grips the face to J_t = 0.4 tau J_n, tau = tan t1 / (1 + e_f): that is
    model 0.17's launch for 0.4 tan t1 / (1 + e_f) = tan t0 and the impulse J cos t0 / cos t1."""
    t0 = flick.direction  # (the striker is not turned: its struck face's inward normal is +x)
    t1 = math.atan(2.5 * (1 + p.finger_restitution) * math.tan(t0))
    j = flick.impulse * math.cos(t0) / math.cos(t1)
    return Flick(flick.die, t1, j, p.finger_pad_width / (2 * p.die_size), flick.height)


def _pair_at(refine: int, t_end: float, mu_die: float | None = None) -> tuple[float, float]:
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    if mu_die is not None:
        base = base.with_overrides({"mu_die": mu_die})
    p = cv.refined(base, refine)
    w, flick = cv.build_break("centred", board, p, 31, hand="practice")
    w.apply_flick(_as_model_017(flick, p))
    s, m, a = w.state("striker"), p.die_mass, p.die_size
    jt = flick.impulse * math.sin(flick.direction)
    assert s.vx == pytest.approx(flick.impulse * math.cos(flick.direction) / m, rel=1e-12)
    assert s.vy == pytest.approx(jt / m, rel=1e-9)
    assert s.omega == pytest.approx(-0.5 * a * jt / (m * a * a / 6), rel=1e-9)
    while w.time < t_end - 1e-9:
        w.step()
    return w.state("d7").vx, w.state("d12").vx


def test_a_pitched_die_pushed_within_a_step_passes_the_push_on():
    """Centred break, seed 31, frictionless dice (model 0.12's blow between levels, which pitches
    d7): d2 hops over d7 and pitches it (24 ms), pushes it again 0.9 ms into the next step, and
    d7, pitched, strikes d12 0.3 ms later.  The strike starts from the pair just before it (d2's
    push in) at d7's pitch then: at 26 ms d12 runs at 2.153 m/s, refine 2 to 16 at 2.209 +-
    0.001 (model 0.9, from the step's start: 1.09).  d7 keeps 0.93 m/s at the default step and
    1.08 at refine 2 to 16, a residual of this pitched pair's exchange.

    The striker is launched as model 0.17 launched it (:func:`_as_model_017`).  Model 0.18's
    launch of the break's own flick (unspun, 0.021 rad off the normal) meets d2 0.6 ms later and
    again at 25.3 ms: d12 then runs at 2.139 m/s at refine 8 and 2.234 at the default step, 2.14
    to 2.31 over refine 2 to 16, a different chain of blows that tests nothing of this one."""
    d7_8, d12_8 = _pair_at(8, 0.026, mu_die=0.0)
    d7_1, d12_1 = _pair_at(1, 0.026, mu_die=0.0)
    assert d12_8 == pytest.approx(2.209, abs=0.01) and d7_8 == pytest.approx(1.082, abs=0.01)
    assert abs(d12_1 - d12_8) < 0.08 and abs(d7_1 - d7_8) < 0.2


def test_with_the_dices_grip_the_hop_over_d7_pitches_nothing():
    """The same break with the board file's mu_die (0.3, model 0.13): d2's hop meets d7 less
    than the grip's 3.9 mm over its mid-height, so d7 slides on unpitched and the row's speeds
    agree at every step: d7 1.453-1.455 m/s, d12 1.259-1.260 at 26 ms (refine 1, 8).  The striker
    launched as model 0.17 launched it, as above (model 0.18's own launch: d7 still unpitched, at
    1.274 m/s at refine 8 and 1.280 at the default step, d12 1.437 and 1.434, the striker meeting
    d2 a second time at 25.3 ms)."""
    d7_8, d12_8 = _pair_at(8, 0.026)
    d7_1, d12_1 = _pair_at(1, 0.026)
    assert d7_8 == pytest.approx(1.453, abs=0.005) and d12_8 == pytest.approx(1.259, abs=0.005)
    assert d7_1 == pytest.approx(d7_8, abs=0.005) and d12_1 == pytest.approx(d12_8, abs=0.005)


@pytest.mark.parametrize("offset", [0.0, 0.004, -0.006])
@pytest.mark.parametrize("spin", [0.0, -300.0])
def test_a_contact_is_read_before_its_impulse(params, offset, spin, monkeypatch):
    """flight.pre_contact: the pair just before a contact, from the pair after it less the
    contact's impulse as Chipmunk's arbiter gave it.  On a board without friction or drag nothing
    else acts, so it is the velocities the step began with, exactly.  A spinning die met off the
    line of centres is where the impulse's size along that line (model 0.9's reading) misses: by
    1.5 m/s in test_energy_steps' seed 72413."""
    from physics_helpers import FLAT

    from jamsumo_sim.world import World

    p = params.with_overrides({"mu_board": 0.0, "mu_static": 0.0, "air_drag": 0.0})
    w = World(load_board(FLAT), p)
    w.add_die("a", -0.03, offset, face=1, vx=2.0, vy=0.3, omega=spin)
    w.add_die("b", 0.0, 0.0, face=1)
    seen = []
    real = contacts.on_collision

    def spy(w_, a, b, j, t=None, jvec=None):
        (ax, ay), (bx, by) = a.body.position, b.body.position
        d = math.hypot(bx - ax, by - ay)
        seen.append(
            (a.id, flight.pre_contact(a, b, (bx - ax) / d, (by - ay) / d, j, jvec, p.die_mass))
        )
        return real(w_, a, b, j, t, jvec)

    monkeypatch.setattr(contacts, "on_collision", spy)
    for _ in range(40):
        if seen:
            break
        start = {s.id: (s.vx, s.vy) for s in w.states()}
        w.step()
    assert seen
    first, (va, vb) = seen[0]
    second = "b" if first == "a" else "a"
    assert va == pytest.approx(start[first], abs=1e-9)
    assert vb == pytest.approx(start[second], abs=1e-9)


def test_a_pitched_striker_hops_from_the_contact():
    """High break, seed 0, default step: the striker, pitched 0.9 rad, meets d2 0.1 ms into the
    step from 38 ms and the tilted impact lifts it.  It leaves at the contact (its hop logged
    then), and the step's flight step ends it where the flight from the contact does:
    lift(phi) + vz (dt - t) - g (dt - t)^2 / 2.  (Model 0.12 launched it from the step's start,
    0.13 mm high at 40 ms, and the high breaks' displacement was +1.2 % against refine 8, KS p
    0.005, once the nail's grip made its pitch slow enough to meet the block on its edge.)
    Model 0.17: the contact is the one found at the collision step's end less its swept depth
    over the closing speed (pitched_strike._met_before), and the striker leaves from its pitch then
    (pitch.until_contact), turning at its rate then: its pitch at the step's end is that one
    turned on for the rest of the step."""
    from jamsumo_sim.physics.pitch import lift

    board = load_board("standard")
    p = PhysicsParams.from_board(board)
    w, flick = cv.build_break("high", board, p, 0, hand="practice")
    w.apply_flick(flick)
    striker = w._dice["striker"]
    while not any(e.type == "hop" for e in w.events):
        phi = striker.pitch.phi
        w.step()
    hop = next(e for e in w.events if e.type == "hop")
    met = next(e for e in w.events if e.type == "collision" and "striker" in e.dice)
    assert w.time - p.step < hop.t < met.t < w.time - 1e-4
    assert met.t - hop.t < 0.25 * p.step  # (a swept depth: 0.09 ms here)
    left = w.time - hop.t
    g = p.gravity
    phi_met = striker.pitch.phi - striker.pitch.rate * left
    assert phi < phi_met < phi + striker.pitch.rate * (hop.t - w.time + p.step) + 1e-3
    want = lift(phi_met, p) + hop.data["vz"] * left - 0.5 * g * left * left
    assert striker.z == pytest.approx(want, abs=1e-9)
