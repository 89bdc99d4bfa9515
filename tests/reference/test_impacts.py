"""The 3D reference's impacts (docs/physics.md "The 3D reference"): a die-die bounce realises the
board file's restitution whatever the contact's phase in a step, a glancing hit leaves at the
friction angle, and a strike pitches the die only above the height where the finger's grip can no
longer hold the struck face (a rigid-body closed form).  Skipped without the reference extra."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("mujoco")

from jamsumo_sim.physics.board import load_board  # noqa: E402
from jamsumo_sim.physics.flick import Flick, finger_for_launch  # noqa: E402
from jamsumo_sim.physics.params import PhysicsParams  # noqa: E402
from jamsumo_sim.reference.build import damping_ratio, separation_restitution  # noqa: E402
from jamsumo_sim.reference.config import load_config  # noqa: E402
from jamsumo_sim.reference.run import DieStart, Shot, _rotations  # noqa: E402
from jamsumo_sim.validate.grid import START, Cell, flat_board  # noqa: E402

BOARD = load_board({"side": 4.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []})
PARAMS = PhysicsParams.from_board(BOARD).with_overrides({"air_drag": 0.0})
CFG = load_config()
A = PARAMS.die_size


@pytest.mark.parametrize("zeta", [0.05, 0.2, 0.35, 0.6, 0.9])
def test_separation_restitution_is_the_spring_dampers_bounce(zeta):
    # x'' = -x - 2 zeta x' from x = 0, x' = 1, until the force x + 2 zeta x' reaches zero
    x, v, h = 0.0, 1.0, 2e-6
    while x + 2 * zeta * v > 0 or x <= 0:
        v += (-x - 2 * zeta * v) * h
        x += v * h
    assert separation_restitution(zeta) == pytest.approx(-v, abs=1e-4)
    assert separation_restitution(damping_ratio(0.4)) == pytest.approx(0.4, abs=1e-9)


@pytest.mark.parametrize("speed", [0.5, 1.5, 3.0])
def test_a_head_on_die_die_bounce_has_the_board_files_restitution(speed):
    params = PARAMS.with_overrides({"mu_board": 0.0})  # no friction: the bounce alone
    es = []
    for gap in (0.0001, 0.00037, 0.00071):  # three phases of the first touch within a step
        shot = Shot(
            BOARD,
            params,
            CFG,
            [DieStart("a", 0.0, 0.0, vel=(speed, 0.0, 0.0)), DieStart("b", A + gap, 0.0)],
        )
        shot.run(max_time=gap / speed + 0.004)
        va = shot.data.qvel[shot.m.dof_adr[0]]
        vb = shot.data.qvel[shot.m.dof_adr[1]]
        es.append((vb - va) / speed)
    # resolved at dt alone it came out anywhere in 0.55-0.95
    assert es == pytest.approx([params.restitution] * 3, abs=0.03)


def test_a_glancing_hit_leaves_at_the_die_die_friction_angle():
    # `jamsumo validate`'s glancing hit: the struck die's centre 0.6 of a die off the flicked die's
    # line, 3 dice ahead.  The pair slides throughout the blow, so the struck die leaves at
    # atan(mu_die) off the line (16.7 deg).  With the stick cap shared among all of a die's
    # contacts it left at 3.6 deg, spinning, and its corner swung back into the striker: 23.8 deg.
    fs = finger_for_launch(1.5, PARAMS)
    shot = Shot(
        BOARD,
        PARAMS,
        CFG,
        [DieStart("a", 0.0, 0.0), DieStart("b", 3 * A, 0.6 * A)],
        Flick("a", 0.0, finger_speed=fs),
    )
    b = shot.run(max_time=0.06)["b"]
    assert math.degrees(b.peak_direction) == pytest.approx(
        math.degrees(math.atan(PARAMS.mu_die)), abs=0.6
    )


def _pitch(mu_finger: float, height: float, dt: float = CFG.step.dt) -> float:
    """Forward pitch (rad/s) 6 ms after a point finger's 2 m/s strike at ``height`` of the face,
    the reference stepping at ``dt``."""
    params = PARAMS.with_overrides({"mu_finger": mu_finger})
    cfg = CFG.with_finger("point").with_dt(dt)
    shot = Shot(
        BOARD,
        params,
        cfg,
        [DieStart("a", 0.0, 0.0)],
        Flick("a", 0.0, height=height, finger_speed=1.5),
    )
    shot.run(max_time=0.006)
    q0, v0 = shot.m.qpos_adr[0], shot.m.dof_adr[0]
    rot = _rotations(np.array(shot.data.qpos[q0 + 3 : q0 + 7])[None, :])[0]
    return float((rot @ shot.data.qvel[v0 + 3 : v0 + 6])[1])


@pytest.mark.parametrize("mu_finger", [0.2, 0.4])
def test_a_strike_pitches_the_die_only_above_the_fingers_grip(mu_finger):
    # A push P at z above the centre, its friction T <= mu_f P pulling the face down, the board's
    # reaction at the leading edge (mu_board N back): the die can slide without turning while
    # z <= mu_f a (1 - mu_board / 2); above, the finger slips up the face and the die pitches.
    grip = 0.5 + mu_finger * (1 - PARAMS.mu_board / 2)
    assert abs(_pitch(mu_finger, grip - 0.07)) < 3.0
    assert _pitch(mu_finger, grip + 0.07) > 15.0


@pytest.mark.parametrize(("speed", "height", "offset"), [(0.5, 0.2, 0.0), (0.5, 0.9, 0.5)])
def test_a_flicked_die_rests_when_its_slide_ends(speed, height, offset):
    # `jamsumo validate`'s cells: these two kept a micron-deep vertical limit cycle on the soft
    # contacts after their slide, and were reported as still moving 6 s on
    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    flick = Cell(speed, height, offset).flick(params)
    tr = Shot(flat_board(board), params, CFG, [DieStart("a", *START)], flick).run(max_time=1.0)["a"]
    assert tr.rested
    assert tr.stop_time < 1.5 * speed / (params.mu_board * params.gravity)


@pytest.mark.parametrize("offset", [0.0, 0.5])
def test_a_gentle_high_strike_converges_in_the_boards_stiffness(offset):
    """The game's strike and landings are rigid impulses; the reference's soft contacts stand for
    them only where stiffening them further (time constant and step halved together, the finger's
    give kept) no longer moves a shot.  0.5 m/s at 0.9 of the face, the die rocking on its leading
    edge, is the most sensitive cell of the grid: 0.0368 / 0.0385 / 0.0386 m at 0.5 / 0.25 /
    0.125 ms (offset 0.5: 0.0343 / 0.0358 / 0.0353): 4.6 % from 0.5 ms, under 1.5 % from 0.25 ms
    (docs/physics.md "The 3D reference's contacts")."""
    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    flick = Cell(0.5, 0.9, offset).flick(params)

    def shot(cfg):
        return Shot(flat_board(board), params, cfg, [DieStart("a", *START)], flick).run()["a"]

    here, stiffer = shot(CFG), shot(CFG.with_stiffer_contacts(2.0))
    assert here.quarter_turns == stiffer.quarter_turns == 0
    assert here.distance == pytest.approx(stiffer.distance, rel=0.02)


@pytest.mark.parametrize(("mu_finger", "height"), [(0.3, 0.9), (0.2, 1.0)])
def test_a_strikes_pitch_converges_in_dt(mu_finger, height):
    # at dt alone (before the impacts were sub-stepped) 3 m/s at 0.9 pitched 39, 21, 6 rad/s at dt,
    # dt/2, dt/4: the pitch was the contact's resolution, not the strike's
    coarse = _pitch(mu_finger, height)
    fine = _pitch(mu_finger, height, CFG.step.dt / 2)
    assert coarse > 20.0
    assert coarse == pytest.approx(fine, rel=0.05)


def test_a_glancing_hit_converges_in_dt():
    fs = finger_for_launch(1.5, PARAMS)
    out = []
    for cfg in (CFG, CFG.with_dt(CFG.step.dt / 2)):
        shot = Shot(
            BOARD,
            PARAMS,
            cfg,
            [DieStart("a", 0.0, 0.0), DieStart("b", 3 * A, 0.6 * A)],
            Flick("a", 0.0, finger_speed=fs),
        )
        b = shot.run(max_time=0.06)["b"]
        out.append((b.peak_direction, b.peak_speed))
    assert out[0][0] == pytest.approx(out[1][0], abs=math.radians(0.3))
    assert out[0][1] == pytest.approx(out[1][1], rel=0.02)
