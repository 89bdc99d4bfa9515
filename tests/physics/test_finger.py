"""The finger as oracles (issue 16 s3, physics.md s8.3): the friction cone, the effective mass at
the struck point for a finger speed, and the pad's contact setting the lever."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.flick import (
    Flick,
    effective_mass,
    finger_impulse,
    grip_share,
    lever,
    max_lever,
)
from jamsumo_sim.rules.flick_actions import flick_action, read_flick
from jamsumo_sim.turnloop import Action
from jamsumo_sim.world import World

J = 0.0045 * 2.0  # N s: a 2 m/s launch of the standard die


def _strike(flat_board, params, flick: Flick, angle: float = 0.0) -> tuple[float, float, float]:
    """(vx, vy, omega) of a resting die (body angle ``angle``) just after ``flick``."""
    w = World(flat_board, params)
    w.add_die(flick.die, 0.0, 0.0, angle=angle, face=4)
    w.apply_flick(flick)
    s = w.state(flick.die)
    return s.vx, s.vy, s.omega


def _energy(params, v: tuple[float, float, float]) -> float:
    vx, vy, w = v
    return 0.5 * params.die_mass * (vx * vx + vy * vy) + 0.5 * params.die_inertia * w * w


# --- the friction cone ---------------------------------------------------------------------------


@pytest.mark.parametrize("deg", [0, 10, 20, 25, 30, 31, 35, 40, 44, 45])
def test_tangential_part_within_the_cone(flat_board, params, deg):
    """The push on the die's west face (inward normal +x) is J_n along x and J_t along y with
    |J_t| <= mu_finger J_n.  Model 0.18 (the oblique push, commit 1914fbc): the finger's
    restitution acts along the normal only, along the face the pad grips without a rebound, so
    J_n = J cos t and J_t = J sin t / (1 + e_f): within the cone (tan t / (1 + e_f) <= mu_finger,
    22.8 deg for the nail) the die heads atan(tan t / (1 + e_f)) off the normal, short of the aim
    (the 3D reference's die pushed 10 deg off leaves 7.3 deg off, 7.2 here); beyond it the pad
    slips onto the cone's edge with the normal part kept."""
    theta = math.radians(deg)
    vx, vy, _ = _strike(flat_board, params, Flick("a", theta, J))
    jn, jt = vx * params.die_mass, vy * params.die_mass
    mu, e = params.mu_finger, params.finger_restitution
    assert abs(jt) <= mu * jn * (1 + 1e-12)
    assert jn == pytest.approx(J * math.cos(theta), rel=1e-12)
    if math.tan(theta) / (1 + e) <= mu:
        assert jt == pytest.approx(J * math.sin(theta) / (1 + e), rel=1e-12, abs=1e-18)
        assert math.atan2(vy, vx) == pytest.approx(math.atan(math.tan(theta) / (1 + e)), abs=1e-12)
    else:
        assert jt == pytest.approx(mu * jn, rel=1e-12)
    if deg == 10:
        assert math.degrees(math.atan2(vy, vx)) == pytest.approx(7.2, abs=0.05)


def test_cone_holds_on_a_turned_die_both_ways(flat_board, params):
    """The cone is about the struck face's normal, not the world's axes: on a die turned 0.7 rad a
    push 40 deg to either side of the face normal slips to the cone's edge, mirror-symmetrically."""
    ang = 0.7
    normal = ang  # the west face's inward normal is the body's +x axis
    parts = []
    for side in (1, -1):
        vx, vy, w = _strike(
            flat_board, params, Flick("a", normal + side * math.radians(40), J), ang
        )
        n = vx * math.cos(normal) + vy * math.sin(normal)
        t = -vx * math.sin(normal) + vy * math.cos(normal)
        assert t == pytest.approx(side * params.mu_finger * n, rel=1e-9)
        parts.append((n, t, w))
    assert parts[0][0] == pytest.approx(parts[1][0], rel=1e-12)
    assert parts[0][2] == pytest.approx(-parts[1][2], rel=1e-9)


def test_straight_push_unchanged(flat_board, params):
    """A push along the face normal: v = J/m along it; with the pad over the centre no spin;
    beyond, the spin omega = 0.4 x 6 v o' / a at the lever o' (the pad's grip: 0.4)."""
    vx, vy, w = _strike(flat_board, params, Flick("a", 0.0, J))
    assert (vx, vy) == (J / params.die_mass, 0.0)
    assert w == pytest.approx(0.0, abs=1e-9)  # cos(pi/2) of the face's normal: ~1e-14 rad/s
    vx, vy, w = _strike(flat_board, params, Flick("a", 0.0, J, offset=0.2))
    assert vx == J / params.die_mass and vy == 0.0
    assert w == pytest.approx(0.0, abs=1e-9)
    vx, vy, w = _strike(flat_board, params, Flick("a", 0.0, J, offset=0.45))
    assert vx == pytest.approx(J / params.die_mass, rel=1e-12)
    assert w == pytest.approx(-0.4 * 6 * vx * 0.075 / params.die_size, rel=1e-9)


def test_44_degree_push_no_longer_gains_energy_or_range(flat_board, params):
    """Before the cone a 44 deg push gave 1.7x the energy and a 39 % longer slide than a straight
    push of the same impulse; now it gives no more energy and no longer slide."""
    straight = _strike(flat_board, params, Flick("a", 0.0, J))
    oblique = _strike(flat_board, params, Flick("a", math.radians(44), J))
    assert _energy(params, oblique) <= _energy(params, straight)
    slides = []
    for deg in (0, 44):
        w = World(flat_board, params)
        w.add_die("a", 0.0, 0.0, face=4)
        w.apply_flick(Flick("a", math.radians(deg), J))
        assert w.run_until_rest(10.0).rested
        s = w.state("a")
        slides.append(math.hypot(s.x, s.y))
    assert slides[1] <= slides[0]


# --- finger speed: the effective mass at the struck point ----------------------------------------


@pytest.mark.parametrize("offset", [0.0, 0.1, -0.2, 0.3, 0.45, -0.5])
def test_launch_speed_follows_the_effective_mass(flat_board, params, offset):
    """A finger at V_f gives J = (1 + e_f) m / (1 + 2.4 o'^2) V_f at the lever o' (the pad's grip
    holds the face: 1 + 6 o'^2 without it): the die leaves at J/m along the push, spinning at
    omega = 0.4 x 6 (J/m) o' / a and aside at -1.2 o' J/m; the same finger speed launches slower
    off-centre (from o' > 0: offsets beyond the pad's half width)."""
    vf = 1.5
    e = params.finger_restitution
    o = lever(Flick("a", 0.0, offset=offset, finger_speed=vf), params)
    vx, vy, w = _strike(flat_board, params, Flick("a", 0.0, offset=offset, finger_speed=vf))
    v = (1 + e) * vf / (1 + 2.4 * o * o)
    assert vx == pytest.approx(v, rel=1e-12)
    assert vy == pytest.approx(-1.2 * o * v, abs=1e-12)
    assert w == pytest.approx(-0.4 * 6 * v * o / params.die_size, rel=1e-9, abs=1e-9)
    centred = _strike(flat_board, params, Flick("a", 0.0, finger_speed=vf))[0]
    assert vx <= centred and (o == 0.0 or vx < centred)


def test_finger_speed_obeys_the_cone_and_the_cap(flat_board, params):
    """A finger-speed push 44 deg off the normal slips like an impulse push, and gives no more
    energy than a straight push at the same finger speed; the launch speed cap still holds."""
    vf = 1.5
    straight = _strike(flat_board, params, Flick("a", 0.0, finger_speed=vf))
    vx, vy, w = _strike(flat_board, params, Flick("a", math.radians(44), finger_speed=vf))
    assert vy == pytest.approx(params.mu_finger * vx, rel=1e-12)
    assert _energy(params, (vx, vy, w)) <= _energy(params, straight)
    world = World(flat_board, params)
    world.add_die("a", 0.0, 0.0, face=4)
    too_fast = params.max_launch_speed / (1 + params.finger_restitution) * 1.01
    assert "cap" in world.check_flick(Flick("a", 0.0, finger_speed=too_fast))
    assert world.check_flick(Flick("a", 0.0, offset=0.5, finger_speed=too_fast)) is None


# --- the pad bounds the lever --------------------------------------------------------------------


def test_pad_width_bounds_the_lever(flat_board, params):
    """A flat pad pushes through the point of its contact nearest the face's centre: a pad whose
    contact covers the centre does not turn the die (12 mm pad on a 16 mm face: offsets up to
    w/2a = 0.375); beyond, the lever is the offset less w/2a, at most a/2 - w/2 (2 mm) with the
    pad's centre at the face's edge.  A point finger pushes near the offset."""
    half = params.finger_pad_width / (2 * params.die_size)
    assert half == pytest.approx(0.375)
    bound = max_lever(params)
    assert bound == pytest.approx(0.5 - half) == pytest.approx(0.125)
    for o in (0.0, 0.1, 0.3, 0.375):
        assert lever(Flick("a", 0.0, J, offset=o), params) == 0.0
        assert _strike(flat_board, params, Flick("a", 0.0, J, offset=-o))[2] == pytest.approx(
            0.0, abs=1e-9
        )  # (~1e-14 rad/s: cos(pi/2) of the face's normal)
    assert lever(Flick("a", 0.0, J, offset=0.45), params) == pytest.approx(0.075)
    assert lever(Flick("a", 0.0, J, offset=-0.5), params) == pytest.approx(-bound)
    spin = _strike(flat_board, params, Flick("a", 0.0, J, offset=0.5))[2]
    # 0.4 of a frictionless push's spin: the pad's grip (test_the_pads_grip_holds_the_face)
    assert spin == pytest.approx(-0.4 * 6 * (J / params.die_mass) * bound / params.die_size)
    # the slide is the centred one's less what the spin takes
    assert _strike(flat_board, params, Flick("a", 0.0, J, offset=0.3))[0] == pytest.approx(
        J / params.die_mass
    )
    wide = params.with_overrides({"finger_pad_width": 0.016})
    assert max_lever(wide) == 0.0
    assert _strike(flat_board, wide, Flick("a", 0.0, J, offset=0.5))[2] == pytest.approx(
        0.0, abs=1e-9
    )
    point = params.with_overrides({"finger_pad_width": 0.002})  # fingers.toml's point
    assert lever(Flick("a", 0.0, J, offset=0.3), point) == pytest.approx(0.3 - 0.0625)
    assert abs(_strike(flat_board, point, Flick("a", 0.0, J, offset=0.3))[2]) > abs(spin)
    # finger speed at the bound: the effective mass uses the lever, not the offset asked for
    f = Flick("a", 0.0, offset=0.5, finger_speed=1.0)
    m_eff = effective_mass(bound, params)
    assert m_eff == pytest.approx(params.die_mass / (1 + 2.4 * bound**2))
    assert finger_impulse(f, params) == (1 + params.finger_restitution) * m_eff * 1.0
    centred = Flick("a", 0.0, offset=0.3, finger_speed=1.0)
    assert finger_impulse(centred, params) == (1 + params.finger_restitution) * params.die_mass


def test_the_pads_grip_holds_the_face(flat_board, params):
    """Off-centre, the spin would slide the struck face sideways under the pad (J_n lever a (a/2) / I
    per N s); within the cone the pad's grip takes J_t against it until the face under it does not
    slide: v_t - omega a/2 = 0 at the struck point, J_t = -1.2 lever J_n for a cube, the spin 0.4
    of a frictionless push's.  (The 3D reference's die, 3 m/s at offset 0.5: -0.45 m/s aside, -56.6
    rad/s; tests/reference/test_finger_grip.py.)  Pushed off the normal (model 0.18) the grip holds
    the face sliding as a push through the balance point slides it, the lever's unbalanced part
    gripped."""
    a = params.die_size
    lev = max_lever(params)
    assert grip_share(lev, params) == pytest.approx(-1.2 * lev)
    assert grip_share(0.0, params) == 0.0
    for o in (0.4, 0.45, 0.5, -0.5):
        vx, vy, w = _strike(flat_board, params, Flick("a", 0.0, J, offset=o))
        assert vx == pytest.approx(J / params.die_mass, rel=1e-12)  # J_n along the push, all of it
        assert vy - w * a / 2 == pytest.approx(0.0, abs=1e-12)  # the face under the pad: no slide
        assert vy == pytest.approx(-1.2 * lever(Flick("a", 0.0, J, offset=o), params) * vx)
    # an oblique push within the cone (model 0.18, commit 1914fbc): the pad over the centre pushes
    # through the balance point y = -tau/2, tau = tan t / (1 + e_f), where the delivered push has no
    # moment; the die does not turn and the face slides at J_t / m = J sin t / ((1 + e_f) m).  At
    # offset 0.5 the pad reaches l = 0.125 at most; its grip holds the face sliding as the balanced
    # push's: (2.5 J_t + 3 l J_n) / m = tau J_n / m, J_t = (0.4 tau - 1.2 l) J_n, the spin
    # -2.4 (l + tau/2) J_n / (m a)
    m, e, t = params.die_mass, params.finger_restitution, 0.1
    tau, jn = math.tan(t) / (1 + e), J * math.cos(t)
    vx0, vy0, w0 = _strike(flat_board, params, Flick("a", t, J, offset=0.0))
    vx1, vy1, w1 = _strike(flat_board, params, Flick("a", t, J, offset=0.5))
    assert w0 == pytest.approx(0.0, abs=1e-9)
    assert vy0 == pytest.approx(J * math.sin(t) / ((1 + e) * m), rel=1e-12)
    assert vy1 - w1 * a / 2 == pytest.approx(vy0 - w0 * a / 2, rel=1e-9)
    lev = max_lever(params)
    assert vx1 == pytest.approx(jn / m, rel=1e-12)
    assert vy1 == pytest.approx((0.4 * tau - 1.2 * lev) * jn / m, rel=1e-9)
    assert w1 == pytest.approx(-2.4 * (lev + tau / 2) * jn / (m * a), rel=1e-9)
    # a point-like finger (2 mm) at 0.5: lever 0.4375, the grip would need 0.525 J_n > mu_finger J_n:
    # it slips on the cone's edge
    point = params.with_overrides({"finger_pad_width": 0.002})
    vx, vy, w = _strike(flat_board, point, Flick("a", 0.0, J, offset=0.5))
    assert vy == pytest.approx(-point.mu_finger * vx, rel=1e-12)
    assert vy - w * a / 2 > 0.0  # still sliding under the pad, as it does beyond the cone


# --- reading flicks: exactly one strength --------------------------------------------------------


def test_flick_json_takes_exactly_one_strength():
    f = Flick.from_json({"die": "a", "direction": 0.5, "finger_speed": 1.2, "offset": 0.1})
    assert (f.impulse, f.finger_speed) == (None, 1.2)
    assert f.to_json() == {
        "die": "a",
        "direction": 0.5,
        "offset": 0.1,
        "height": 0.5,
        "finger_speed": 1.2,
    }
    old = Flick.from_json({"die": "a", "direction": 0.5, "impulse": 0.004})
    assert old.to_json() == {
        "die": "a",
        "direction": 0.5,
        "impulse": 0.004,
        "offset": 0.0,
        "height": 0.5,
    }
    with pytest.raises(UserError, match="gives both 'impulse' and 'finger_speed'"):
        Flick.from_json({"die": "a", "direction": 0.5, "impulse": 0.004, "finger_speed": 1.0})
    with pytest.raises(UserError, match="lacks 'impulse' and 'finger_speed'"):
        Flick.from_json({"die": "a", "direction": 0.5})


def test_flick_actions_record_the_strength_given():
    """A record keeps the strength it was made with: replays read both kinds back exactly."""
    by_speed = read_flick(flick_action("a", 0.3, None, 0.1, 0.6, finger_speed=1.25))
    assert (by_speed.impulse, by_speed.finger_speed, by_speed.offset) == (None, 1.25, 0.1)
    by_impulse = read_flick(flick_action("a", 0.3, 0.004))
    assert (by_impulse.impulse, by_impulse.finger_speed) == (0.004, None)
    with pytest.raises(ValueError, match="exactly one"):
        flick_action("a", 0.3, 0.004, finger_speed=1.0)
    both = Action.make("x", die="a", direction=0.0, impulse=0.004, finger_speed=1.0)
    with pytest.raises(UserError, match="gives both"):
        read_flick(both)
    with pytest.raises(UserError, match="finger_speed must be > 0"):
        read_flick(Action.make("x", die="a", direction=0.0, finger_speed=-1.0))


_VALUES = st.one_of(
    st.integers(), st.floats(), st.text(max_size=3), st.booleans(), st.none(), st.lists(st.none())
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["die", "direction", "impulse", "finger_speed", "offset", "height", "x"]),
        _VALUES,
    )
)
def test_fuzz_flick_readers_raise_only_user_errors(data):
    """Flick.from_json and read_flick on generated input: a flick or a one-line UserError."""
    try:
        Flick.from_json(data)
    except UserError as exc:
        assert "\n" not in str(exc)
    try:
        action = Action.make("fuzz", **data)
    except (TypeError, ValueError):
        return  # not an action at all (unhashable argument): nothing for read_flick to read
    try:
        read_flick(action)
    except UserError as exc:
        assert "\n" not in str(exc)


def test_window_gesture_sets_the_finger_speed(params):
    """Given the physics, the power sets the finger speed (full power: a centred strike at the cap)
    and the impulse is that finger's: the same pull launches an off-centre strike slower."""
    from jamsumo_sim.ui.gesture import DieSpot, flick_from_drag
    from jamsumo_sim.ui.theme import GestureSettings

    settings = GestureSettings(pull_min=0.001, pull_full=0.05, power_curve=1.0, height_step=0.1)
    a, cap, m = params.die_size, params.max_launch_speed, params.die_mass
    die = DieSpot("a", 0.0, 0.0, 0.0, a)
    got = []
    for along in (0.0, 0.45 * a):  # press on the die, pull back 60 mm along -x: a full-power push
        press = (0.0, -along)
        f = flick_from_drag(die, press, (-0.06, -along), 0.5, settings, cap, m, physics=params)
        assert f.finger_speed == pytest.approx(cap / (1 + params.finger_restitution))
        assert f.impulse == finger_impulse(
            Flick("a", f.direction, None, f.offset, finger_speed=f.finger_speed), params
        )
        got.append(f.speed)
    assert got[0] == pytest.approx(cap) and got[1] < got[0]


@pytest.mark.parametrize("speed", [0.5, 1.7, 3.0])
def test_finger_for_launch_inverts_a_centred_strike(params, speed) -> None:
    from jamsumo_sim.physics.flick import finger_for_launch, finger_impulse

    f = Flick("a", 0.0, None, 0.0, finger_speed=finger_for_launch(speed, params))
    assert finger_impulse(f, params) / params.die_mass == pytest.approx(speed, rel=1e-12)
