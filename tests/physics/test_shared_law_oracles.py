"""Oracles for laws the compiled path and the Python path share (issue 32 item 6).

tests/physics/test_compiled_steps.py holds the two paths (physics/compiled_steps.py and
``evolve.COMPILED = False``) to each other bit for bit, so a wrong law that both call passes it.
Each test here checks one such law against a closed form computed in the test from first
principles (never by calling another function of the model), with its numbers, on both paths
where the law runs in the World.  The source of each closed form is named in its docstring
("physics.md": the shared physics reference, ../shared/physics.md beside the repository;
docs/physics.md for the model's own laws).

Each of the first four caught a fault planted by hand that every other physics test passed
(the report of issue 32 item 6 lists them): the edge landing with the inertia m a^2/12, the flat
landing's friction without its (1 + e), the swept count of a head-on pair, and run_until_rest
running past ``max_time`` after the compiled loop handed a contact to Python.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from pymunk._chipmunk import lib as chipmunk_lib

from jamsumo_sim.physics import compiled_steps, evolve, flight, pitch, step_kernels
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.events import COLLISION
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import World

PARAMS = PhysicsParams.from_board(load_board("standard"))
A = PARAMS.die_size
J_CM = A * A / 6.0  # a cube's inertia about its centre per unit mass (physics.md s1: m a^2/6)
SQRT2 = math.sqrt(2.0)

# the compiled path only where physics/evolve.py lets it run (its platform guard sets the default)
both_paths = pytest.mark.parametrize(
    "compiled",
    [
        pytest.param(
            True, marks=pytest.mark.skipif(not evolve.COMPILED, reason="no compiled path here")
        ),
        False,
    ],
    ids=["compiled", "python"],
)


def _frictionless(p: PhysicsParams) -> PhysicsParams:
    return p.with_overrides({"mu_board": 0.0, "mu_static": 0.0, "air_drag": 0.0})


# --- the edge landing (flight.edge_landing = step_kernels.edge_landing) -----------------------


def test_a_die_dropped_on_its_edge_sticks_with_the_cube_inertia():
    """physics.md s1 (I = m a^2/6), s8.5 (landing at an edge), s9.3 (a sticking edge impact).

    A cube falling straight down at 1 m/s onto one bottom edge (pitch 0, no turn, no slide),
    plastic (e = 0) and sticking (mu = 10): the impulse acts at the edge, so angular momentum about
    the edge is conserved.  Before: the centre, r = (-a/2, a/2) from the edge, falls at v = (0, -1):
    L/m = r_z v_x - r_x v_z = -a/2 (it turns backwards, onto the face it came from).  After:
    the edge is at rest, the die turns about it with I_edge/m = a^2/6 + (a/sqrt2)^2 = 2 a^2/3, so
    rate' = -(a/2) / (2 a^2/3) = -3/(4a) and the centre moves at rate' x (a/2, a/2):
    u' = vz' = -3/8 m/s (the inertia m a^2/12 would give -6/(7a) and -3/7)."""
    rate, u, vz, edge_vz = step_kernels.edge_landing(0.0, 0.0, 0.0, -1.0, 0.0, 10.0, A)
    assert rate == pytest.approx(-3.0 / (4.0 * A), rel=1e-12)  # -46.875 rad/s at 16 mm
    assert rate == pytest.approx(-46.875, rel=1e-12)
    assert u == pytest.approx(-3.0 / 8.0, rel=1e-12)
    assert vz == pytest.approx(-3.0 / 8.0, rel=1e-12)
    assert edge_vz == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("e", [0.0, 0.5])
def test_a_frictionless_edge_landing_has_the_effective_mass_of_the_edge(e):
    """physics.md s1 (I = m a^2/6), s8.5 (landing restitution).

    The same drop onto the edge with mu = 0: only a vertical impulse P at the edge, a/2 ahead of
    the centre.  The edge's effective mass: 1/m_eff = 1/m + (a/2)^2/I = (1 + 3/2)/m, so
    P/m = (1 + e)|v_edge| / (5/2) = 0.4 (1 + e) m/s; vz' = -1 + P/m, the slide stays 0, and the
    turn rate' = -(a/2) P/I = -3 (P/m)/a.  The edge rebounds at e m/s."""
    p = 0.4 * (1.0 + e)
    rate, u, vz, edge_vz = step_kernels.edge_landing(0.0, 0.0, 0.0, -1.0, e, 0.0, A)
    assert u == 0.0
    assert vz == pytest.approx(-1.0 + p, rel=1e-12)  # -0.6 (e = 0), -0.4 (e = 0.5)
    assert rate == pytest.approx(-3.0 * p / A, rel=1e-12)
    assert edge_vz == pytest.approx(e, abs=1e-12)


def test_sticking_edge_landings_keep_angular_momentum_about_the_edge():
    """physics.md s1 (I = m a^2/6), s8.5, s9.3: any sticking landing on an edge.

    Independent of the model's impulse matrix: the impulse acts at the edge, so angular momentum
    about it is conserved, I_cm rate' + m (r x v')_y = I_cm rate + m (r x v)_y with r = centre -
    edge = (-(a/2)(cos - sin), (a/2)(cos + sin)) at pitch phi; the edge sticks (its slide stops)
    and its normal speed reverses by e.  Three linear equations for (u', vz', rate')."""
    rng = np.random.default_rng(32)
    checked = 0
    for _ in range(600):
        phi = float(rng.uniform(0.0, 1.5))
        rate, u, vz = (float(v) for v in rng.normal(0.0, [30.0, 1.0, 1.0]))
        e = float(rng.choice([0.0, 0.3, 0.7]))
        rx, rz = (
            -0.5 * A * (math.cos(phi) - math.sin(phi)),
            0.5 * A * (math.cos(phi) + math.sin(phi)),
        )
        edge_z = vz + rate * rx  # (v + omega x (edge - centre))_z
        if edge_z >= 0.0:
            continue  # not closing: no impact
        # rows: edge slide after = 0; edge normal speed after = -e edge_z; L about the edge
        m = np.array([[1.0, 0.0, -rz], [0.0, 1.0, rx], [rz, -rx, J_CM]])
        rhs = np.array([0.0, -e * edge_z, J_CM * rate + rz * u - rx * vz])
        u1, vz1, rate1 = np.linalg.solve(m, rhs)
        if abs(u1 - u) > 10.0 * (vz1 - vz):
            continue  # outside the friction cone of mu = 10: it would slip
        got = step_kernels.edge_landing(phi, rate, u, vz, e, 10.0, A)
        assert got[:3] == pytest.approx((rate1, u1, vz1), rel=1e-9, abs=1e-9)
        assert got[3] == pytest.approx(-e * edge_z, rel=1e-9, abs=1e-9)
        checked += 1
    assert checked > 200


# --- the flat landing (physics/flight.py _land) -------------------------------------------------


@both_paths
@pytest.mark.parametrize(
    "h, u",
    [(0.05, 2.0), (0.005, 1.0), (0.05, 0.5)],
    ids=["rebounds", "too-slow-to-rebound", "stops"],
)
def test_a_flat_landing_takes_mu_times_the_normal_impulse_off_the_slide(
    flat_board, params, monkeypatch, compiled, h, u
):
    """physics.md s8.5 (landing: restitution ~0.3-0.5 and friction), s2 (Coulomb friction).

    A die dropped flat from h (no pitch) while sliding at u: it lands at |vz| = sqrt(2 g h)
    (ballistic, exact), rebounds at e |vz| (e = restitution_landing, or 0 when e |vz| is below
    hop_min_speed: it stays down), so the board's normal impulse per unit mass is (1 + e) |vz|
    and Coulomb friction takes at most mu_landing (1 + e) |vz| off the slide, never reversing it.
    h 50 mm, u 2 m/s: |vz| = 0.990, rebound 0.297, u' = 2 - 0.8 * 1.3 * 0.990 = 0.970 m/s
    (without the 1 + e: 1.208).  h 5 mm: rebound 0.094 < 0.15, so u' = 1 - 0.8 * 0.313 = 0.749."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    p = params
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1, vx=u)
    flight.launch(w, w._dice["a"], 0.0, h)
    for _ in range(200):
        w.step()
        if any(ev.type == "land" for ev in w.events):
            break
    v_in = math.sqrt(2.0 * p.gravity * h)
    e = p.restitution_landing if p.restitution_landing * v_in >= p.hop_min_speed else 0.0
    expected = max(0.0, u - p.mu_landing * (1.0 + e) * v_in)
    s = w.state("a")
    assert s.vx == pytest.approx(expected, abs=1e-9)
    assert s.vy == 0.0
    hops = [ev.data["vz"] for ev in w.events if ev.type == "hop"][1:]  # [0]: the launch
    assert hops == ([pytest.approx(e * v_in, rel=1e-9)] if e else [])
    assert s.airborne == bool(e)


# --- collision steps of a closing pair (step_kernels.swept_substeps) ----------------------------


def _chipmunk_steps(w: World) -> int:
    """Chipmunk's step stamp: one per collision step (cpSpaceStep) of the World's Space."""
    return int(chipmunk_lib.cpSpaceGetTimestamp(w.space._space))


@both_paths
@pytest.mark.parametrize("v_each", [0.1, 0.2, 0.5])
def test_a_head_on_pair_takes_the_collision_steps_its_sweep_needs(
    flat_board, params, monkeypatch, compiled, v_each
):
    """physics.md s8.1 (collision steps from the swept distance), s7 (no tunnelling).

    Two dice face to face closing at v each (relative 2v), friction off so the speed stays v:
    a step in which they cannot touch (gap at its start >= 2v dt) needs one collision step; the
    step in which they can, ceil(2v dt / s_max) with s_max = 0.25 mm (standard.toml: "under
    0.25 mm", a/64; model 0.7: 0.5 mm), and at least collision_substeps (2) once any pair is at
    risk.  A pair that cannot sweep more than s_max in a step never needs more than one.  At
    0.2 m/s each: 0.8 mm per 2 ms step, ceil(3.2) = 4; 0.1 m/s: 0.4 mm, ceil(1.6) = 2; 0.5 m/s:
    2 mm, 8.  The gap is chosen so the step that can touch starts 0.2 mm
    apart (closer than s_max)."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    p = _frictionless(params)
    s_max = 0.00025
    sweep = 2.0 * v_each * p.dt
    at_risk = 3
    gap0 = at_risk * sweep + 0.0002
    w = World(flat_board, p)
    w.add_die("a", -0.5 * (A + gap0), 0.0, face=1, vx=v_each)
    w.add_die("b", 0.5 * (A + gap0), 0.0, face=1, vx=-v_each)
    counts, wanted = [], []
    for k in range(at_risk + 1):
        space = w.space
        before = _chipmunk_steps(w)
        w.step()
        assert w.space is space  # (the stamp counts this Space's steps)
        counts.append(_chipmunk_steps(w) - before)
        gap = gap0 - k * sweep
        if gap >= sweep or sweep <= s_max:
            wanted.append(1)
        else:
            wanted.append(max(p.collision_substeps, math.ceil(sweep / s_max - 1e-9)))
    assert counts == wanted
    assert wanted[-1] == {0.1: 2, 0.2: 4, 0.5: 8}[v_each]
    # they met in the last step (the count was spent on a real contact)
    assert any(ev.type == COLLISION for ev in w.events)


# --- run_until_rest's max_time ----------------------------------------------------------------


def _hard_hit(board, params) -> World:
    """A striker at 3 m/s into a resting die 50 mm ahead: its first contact (impulse/m 2.55 m/s,
    above hop_speed) needs Python's contact bookkeeping, so the compiled loop hands it back."""
    w = World(board, params, rng=np.random.default_rng(7))
    w.add_die("s", -0.05, 0.0, face=1, vx=3.0)
    w.add_die("t", 0.0, 0.0, face=1)
    return w


@both_paths
def test_a_shot_cut_by_max_time_stops_there(flat_board, params, monkeypatch, compiled):
    """run_until_rest's contract (physics/rest.py; World.run_until_rest): a shot that has not come
    to rest stops at ``max_time`` to within one model step, whichever path ran and wherever the
    compiled loop handed the shot back to Python (here, at a first contact a few steps before or
    after the limit): max_time <= steps * dt < max_time + dt, and not rested."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    dt = params.dt
    handoffs: list[int] = []
    run = compiled_steps.run_steps

    def watched(*args):
        status = run(*args)
        if status == compiled_steps.CONTACT:
            # the step under way when it handed back: the World's count (it includes the step
            # under way) plus the whole steps the call took first
            handoffs.append(int(args[-1]) + int(args[1][compiled_steps.R_STEPS]))
        return status

    monkeypatch.setattr(compiled_steps, "run_steps", watched)
    # where the hand-back falls (found, not assumed: it moves with the model)
    probe = _hard_hit(flat_board, params)
    probe.run_until_rest(0.1)
    contact = [ev for ev in probe.events if ev.type == COLLISION]
    assert contact, "the striker must reach the target"
    c = math.ceil(contact[0].t / dt - 1e-9)  # the model step of the first contact
    if compiled:
        assert c in handoffs  # the compiled loop handed this contact back
    for max_time in (
        (c - 1) * dt,
        c * dt,
        (c + 0.5) * dt,
        (c + 1) * dt,
        (c + 2.3) * dt,
        (c + 4) * dt,
        (c + 20) * dt,
    ):
        handoffs.clear()
        w = _hard_hit(flat_board, params)
        res = w.run_until_rest(max_time)
        assert not res.rested
        assert max_time - 1e-12 <= res.steps * dt < max_time + dt - 1e-12, (max_time, res.steps)
        assert res.time_to_rest == res.steps * dt
        assert w.time == pytest.approx(res.steps * dt, rel=0, abs=1e-15)
        if compiled and c * dt < max_time + dt:
            assert c in handoffs  # the hand-back came before the limit (or in its last step)


# --- further shared laws ----------------------------------------------------------------------


@both_paths
@pytest.mark.parametrize("fraction, tumbles", [(0.99, False), (1.01, True)])
def test_a_pitched_die_tumbles_above_the_tip_rate_only(
    flat_board, params, monkeypatch, compiled, fraction, tumbles
):
    """physics.md s4 (tip-over energy m g a (sqrt2 - 1)/2), s8.4 (an inverted pendulum about the
    leading edge, I_edge = m a^2/6 + m a^2/2 = 2/3 m a^2).

    Tipped up from flat at rate w about its edge it goes over iff (1/2) I_edge w^2 exceeds the
    tip energy: w_tip = sqrt(3 g (sqrt2 - 1)/(2 a)) = 19.52 rad/s at 16 mm.  1 % below rocks back
    onto face 1 where it was; 1 % above turns once, its centre one width on.  (With a landing
    that holds, mu_landing >= 0.6: the board file's 0.25 slips and slides it on a little,
    test_pitch_tumbles.test_just_above_the_tip_energy_tumbles_once.)"""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    params = params.with_overrides({"mu_landing": 0.8})
    g = params.gravity
    w_tip = math.sqrt(3.0 * g * (SQRT2 - 1.0) / (2.0 * A))
    assert w_tip == pytest.approx(19.517, abs=1e-3)
    w = World(flat_board, params)
    w.add_die("a", 0.0, 0.0, face=1)
    pitch.start(w, w._dice["a"], 0.0, fraction * w_tip, "flick")
    res = w.run_until_rest(5.0)
    s = w.state("a")
    turns = [ev for ev in res.events if ev.type == "tumble"]
    assert res.rested and s.flat
    if tumbles:
        assert len(turns) == 1 and s.face != 1
        assert s.x == pytest.approx(A, abs=1e-12)
    else:
        assert not turns and s.face == 1 and s.x == 0.0


@both_paths
@pytest.mark.parametrize("fraction, climbs", [(0.97, False), (1.03, True)])
def test_a_die_trips_onto_a_platform_above_the_step_threshold_only(
    params, monkeypatch, compiled, fraction, climbs
):
    """physics.md s4 (tripping on an edge: 0.42 m/s at the base, 0.56 at 2 mm, 0.86 at 4 mm).

    A die sliding face-on into a step s high pivots about the step's edge; angular momentum about
    it is kept: w = v h / k^2, h = a/2 - s the centre's height above the edge, k^2 = a^2/6 +
    (a/2)^2 + h^2.  It climbs iff (1/2) k^2 w^2 lifts the centre from h to d = sqrt((a/2)^2 + h^2)
    above the edge: v_th = sqrt(2 g k^2 (d - h)) / h, 0.677 m/s for the 3 mm platform (flat
    board, no dish: the step is the platform's height)."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    g = params.gravity
    for s, quoted in ((0.0, 0.42), (0.002, 0.56), (0.004, 0.86)):  # physics.md s4's numbers
        h = A / 2 - s
        k2 = A * A / 6 + A * A / 4 + h * h
        assert math.sqrt(2 * g * k2 * (math.hypot(A / 2, h) - h)) / h == pytest.approx(
            quoted, abs=0.005
        )
    board = load_board({"dish_depth": 0.0, "hole_diameter": 0.0})
    plat = board.platform("jam-south")
    h = A / 2 - plat.height
    k2 = A * A / 6 + A * A / 4 + h * h
    v_th = math.sqrt(2.0 * g * k2 * (math.hypot(A / 2, h) - h)) / h
    assert v_th == pytest.approx(0.677, abs=1e-3)
    w = World(board, params)
    # 0.3 mm from the wall's face: it arrives at the speed given (friction takes 0.25 % first)
    w.add_die("a", plat.x, plat.y + plat.depth / 2 + A / 2 + 3e-4, face=3, vy=-fraction * v_th)
    res = w.run_until_rest(5.0)
    st = w.state("a")
    turns = [ev for ev in res.events if ev.type == "tumble"]
    if climbs:
        assert st.on_platform == plat.name and turns
    else:
        assert st.on_platform is None and not turns and st.face == 3


@both_paths
@pytest.mark.parametrize("rate0", [45.0, 60.0, 120.0])
def test_a_hop_keeps_hop_lift_of_the_turn_and_of_the_rise(
    flat_board, params, monkeypatch, compiled, rate0
):
    """physics.md s8.5 (a pitched die leaves the board when its edge would have to be pulled
    down); docs/physics.md "Hops and flight" (it keeps hop_lift of its turn and of its centre's
    rise).

    Tipped up from flat at rate0 (above sqrt(2 g / a) = 35.0 rad/s the edge would have to be
    pulled down at once: model 0.15's leave test, the free die's), it turns about its edge keeping its energy: (1/2) I_edge w^2 + m g lift =
    (1/2) I_edge rate0^2, lift = (a/2)(cos + sin - 1), I_edge = 2/3 m a^2; it leaves at the pitch
    phi it has reached, turning at hop_lift w and rising at hop_lift (a/2)(cos - sin) w (the
    centre's vertical speed about the edge)."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    p = params
    assert math.sqrt(2 * p.gravity / A) < rate0
    w = World(flat_board, p)
    w.add_die("a", 0.0, 0.0, face=1)
    d = w._dice["a"]
    pitch.start(w, d, 0.0, rate0, "flick")
    w.step()
    assert d.airborne
    # the edge's normal force is negative at once: the lift-off test at each substep's start
    # (model 0.7) lets it leave at phi 0, whatever the step, at the step's start; by its end it
    # has flown the whole step (model 0.11: flight.launch's ``ahead``), turning on at its rate
    phi = 0.0
    lift = 0.5 * A * (math.cos(phi) + math.sin(phi) - 1.0)
    rate = math.sqrt(rate0 * rate0 - 2.0 * p.gravity * lift / (2.0 / 3.0 * A * A))
    assert d.pitch.rate == pytest.approx(p.hop_lift * rate, rel=1e-9)
    assert d.pitch.phi == pytest.approx(p.hop_lift * rate * p.step, rel=1e-9)
    vz = p.hop_lift * 0.5 * A * (math.cos(phi) - math.sin(phi)) * rate
    hops = [ev.data["vz"] for ev in w.events if ev.type == "hop"]
    assert hops == [pytest.approx(vz, rel=1e-9)]
    assert d.vz == pytest.approx(vz - p.gravity * p.step, rel=1e-9)
    assert d.z == pytest.approx(vz * p.step - 0.5 * p.gravity * p.step**2, rel=1e-9)


@both_paths
@pytest.mark.parametrize("v", [0.3, 0.5])
def test_a_face_on_bounce_off_a_platform_wall_keeps_restitution_wood(
    params, monkeypatch, compiled, v
):
    """physics.md s1 (die-wood restitution 0.5 at the platforms' walls), s7 (Chipmunk multiplies
    the two shapes' elasticities: the model's split must give the pair's value).

    No board friction, a die face-on into a wall (below the climb speed, 0.677 m/s): the wall is
    fixed, so the die leaves at restitution_wood * v straight back (0.15 and 0.25 m/s)."""
    monkeypatch.setattr(evolve, "COMPILED", compiled)
    p = _frictionless(params)
    board = load_board({"dish_depth": 0.0, "hole_diameter": 0.0})
    plat = board.platform("jam-south")
    w = World(board, p)
    w.add_die("a", plat.x, plat.y + plat.depth / 2 + A / 2 + 3e-4, face=3, vy=-v)
    for _ in range(30):
        w.step()
    s = w.state("a")
    assert any(ev.type == COLLISION and ev.data.get("kind") == "wall" for ev in w.events)
    assert s.vy == pytest.approx(p.restitution_wood * v, rel=0.01)
    assert abs(s.vx) < 0.01 * v


@pytest.mark.parametrize("rate, u", [(100.0, 0.0), (100.0, 0.2), (60.0, -0.1), (300.0, 0.5)])
def test_a_sticking_face_landing_keeps_angular_momentum_about_the_new_edge(rate, u):
    """physics.md s8.4 (the landing: without slip rate' = rate/4 for a cube, angular momentum
    about the new edge), s1 (I = m a^2/6).

    At the quarter turn the centre is a/2 above and a/2 behind the new (leading) edge and moves
    at rate x (a/2, -a/2) about the old edge plus the old edge's slide u: L/m about the new edge
    = (a^2/6) rate + (a/2) u (the pivot term cancels).  Sticking, the die then turns about the new
    edge with I_edge/m = 2 a^2/3: rate' = rate/4 + 3u/(4a), and the new edge's slide stops.
    (Within mu_landing = 0.8 here: |f|/n = |2.5u + 1.5 rate a| / (2.5 rate a + 1.5u) < 0.8.)"""
    w = rate * A
    assert abs(2.5 * u + 1.5 * w) < 0.8 * (2.5 * w + 1.5 * u)  # inside the friction cone
    r1, u1 = step_kernels.face_landing(rate, u, 0.8, A)
    assert r1 == pytest.approx((J_CM * rate + 0.5 * A * u) / (2.0 / 3.0 * A * A), rel=1e-12)
    assert r1 == pytest.approx(rate / 4 + 3 * u / (4 * A), rel=1e-12)
    assert u1 == pytest.approx(0.0, abs=1e-12)


def _rigid_face_landing(rate: float, v: float, mu: float) -> tuple[float, float]:
    """A cube turning forward at ``rate`` about its old leading edge at the quarter turn, its
    centre moving at (v, -rate a/2) (a/2 ahead of and above the old edge), lands on its new edge
    (a/2 ahead of and below the centre): a plastic impact with Coulomb friction, solved here from
    the impulses (per unit mass P = dV, rate' = rate + (r x P) / (a^2/6)).  Returns (rate', the
    centre's slide after)."""
    rx, rz = 0.5 * A, -0.5 * A  # the new edge from the centre
    vx, vz = v, -0.5 * A * rate

    def edge_after(px: float, pz: float) -> tuple[float, float, float]:
        w = rate + (rz * px - rx * pz) / J_CM  # (r x P)_y, turning forward > 0
        return vx + px + w * rz, vz + pz - w * rx, w

    # unit responses of the edge's velocity to Px and Pz: linear, so two probes give the matrix
    e0 = edge_after(0.0, 0.0)
    ex, ez = edge_after(1.0, 0.0), edge_after(0.0, 1.0)
    m = np.array([[ex[0] - e0[0], ez[0] - e0[0]], [ex[1] - e0[1], ez[1] - e0[1]]])
    px, pz = np.linalg.solve(m, [-e0[0], -e0[1]])  # sticks: the edge stops
    if abs(px) > mu * pz:  # slips: P_x = -mu P_z along the edge's slide, only the fall stopped
        sign = math.copysign(1.0, e0[0])
        pz = -e0[1] / (m[1, 1] - mu * sign * m[1, 0])
        px = -mu * sign * pz
    w = edge_after(px, pz)[2]
    return w, vx + px


@pytest.mark.parametrize(
    "rate, v, mu", [(25.5, 0.75, 0.25), (60.0, 2.0, 0.25), (30.0, 0.3, 0.8), (100.0, 1.0, 0.0)]
)
def test_a_face_landing_acts_on_the_centres_slide(rate, v, mu):
    """step_kernels.centre_landing (model 0.17; the World's quarter turns and the lone-die kernel's):
    the body's slide is the centre's, which at the quarter turn moves rate a/2 ahead of its edge
    (the 1 m/s strike at 0.9 of the face: 0.75 m/s at 25.5 rad/s, the 3D die's slide after its
    landing 0.62-0.70 m/s).  Against the rigid impact solved from its impulses."""
    r1, v1 = step_kernels.centre_landing(rate, v, mu, A)
    want_r, want_v = _rigid_face_landing(rate, v, mu)
    assert r1 == pytest.approx(want_r, rel=1e-9, abs=1e-9)
    assert v1 == pytest.approx(want_v, rel=1e-9, abs=1e-12)
    assert (
        v1 < v
    )  # the landing takes slide: the edge's law on the centre's slide gave 0.83 at 1 m/s


def test_flown_is_free_fall():
    """step_kernels.flown (a launch or rebound flying the rest of its step, in the World and the
    lone-die kernel): z + vz t - g t^2 / 2 and vz - g t; from 0.2 m/s up, 2 ms."""
    z, vz = step_kernels.flown(0.001, 0.2, 0.002, 9.81)
    assert z == pytest.approx(0.001 + 0.2 * 0.002 - 0.5 * 9.81 * 0.002**2, rel=1e-15)
    assert vz == pytest.approx(0.2 - 9.81 * 0.002, rel=1e-15)


@pytest.mark.parametrize(
    "phi, rate, t, expected",
    [
        (0.1, 50.0, 0.002, 0.2),  # turns on in the air
        (1.5, 50.0, 0.002, 1.5),  # past a quarter turn: left to the next flight step's tumble
        (0.05, -50.0, 0.002, 0.05),  # below flat: likewise
    ],
)
def test_turned_in_air(phi, rate, t, expected):
    assert step_kernels.turned_in_air(phi, rate, t) == pytest.approx(expected, abs=1e-15)
