"""The resolution knob ``refine`` (issue 32 s1): an integer >= 1, default 1, accepted wherever
parameters are, dividing the model step, the longest collision step, the swept distance and the
pitch substep angle by k."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics import evolve
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.flick import Flick
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.physics.params_file import dump_params, load_params
from jamsumo_sim.world import World
from tests.child_limits import NUMBA_COMPILE_S, cpu_limited, hang_guard

BOARD = load_board("standard")
BASE = PhysicsParams.from_board(BOARD)


def test_default_is_1_and_the_step_is_dt() -> None:
    assert BASE.refine == 1
    assert BASE.step == BASE.dt


@pytest.mark.parametrize("bad", [0, -1, 17, 2.5, True, "4"])
def test_refine_is_a_whole_number_from_1_to_16(bad) -> None:
    with pytest.raises(UserError, match="refine"):
        BASE.with_overrides({"refine": bad})


def test_a_board_or_record_without_refine_gets_1() -> None:
    raw = dict(BOARD.param_defaults())
    raw.pop("refine", None)

    class OldBoard:
        name = "old"

        def param_defaults(self):
            return raw

    assert PhysicsParams.from_board(OldBoard()).refine == 1


def test_a_params_file_sets_refine(tmp_path) -> None:
    path = tmp_path / "fine.toml"
    dump_params(replace(BASE, refine=4), path)
    assert load_params(path).refine == 4
    assert load_params(path).step == pytest.approx(BASE.dt / 4, rel=1e-15)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_refine_divides_the_step_and_the_swept_distance(k: int) -> None:
    p = replace(BASE, refine=k)
    w = World(BOARD, p)
    w.add_die("a", 0.1, -0.1, face=3)
    for _ in range(10):
        w.step()
    assert w.time == pytest.approx(10 * BASE.dt / k, rel=1e-12)
    sp = evolve.sweep_params(p)
    base_sp = evolve.sweep_params(BASE)
    assert sp[0] == pytest.approx(base_sp[0] / k)  # the model step
    assert sp[3] == pytest.approx(base_sp[3] / k)  # the swept distance s_max
    assert sp[6] == base_sp[6]  # the most collision steps per model step: the same


@pytest.mark.parametrize("k", [2, 4])
def test_a_refined_slide_keeps_the_closed_form(k: int) -> None:
    """v0^2 / (2 mu g) at any resolution (physics.md s2 oracle), and the stop time resolved finer."""
    p = replace(BASE, refine=k)
    w = World(BOARD, p, rng=np.random.default_rng(0))
    w.add_die("a", 0.15, -0.15, face=3)
    v0 = 1.0
    w.apply_flick(Flick("a", math.pi / 2, v0 * p.die_mass))
    r = w.run_until_rest(10)
    s = w.state("a")
    expected = v0**2 / (2 * p.mu_board * p.gravity)
    # the bowl and air drag shorten a real slide a little; the closed form of the flat board
    # holds within 1 % (test_friction.py holds the exact one on a flat board)
    assert s.y + 0.15 == pytest.approx(expected, rel=0.02)
    assert r.time_to_rest == pytest.approx(v0 / (p.mu_board * p.gravity), abs=BASE.dt)
    assert r.steps * p.step == pytest.approx(r.time_to_rest)


def test_sim_accepts_refine_from_params(tmp_path) -> None:
    params = tmp_path / "p.toml"
    params.write_text("version = 1\n[params]\nrefine = 4\n")
    scenario = tmp_path / "s.json"
    scenario.write_text(
        json.dumps({"version": 1, "dice": [{"id": "d", "x": 0.1, "y": -0.15, "vx": 0.5}]})
    )
    out = subprocess.run(
        [sys.executable, "-m", "jamsumo_sim", "sim", str(scenario), "--params", str(params)],
        capture_output=True,
        text=True,
        preexec_fn=cpu_limited(60 + NUMBA_COMPILE_S),
        timeout=hang_guard(60 + NUMBA_COMPILE_S),
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["dt"] == pytest.approx(BASE.dt / 4)


@pytest.mark.parametrize("k", [1, 2, 4])
def test_refine_divides_the_pitch_substep_angle_in_every_path(k: int) -> None:
    """pitch.step_die's compiled kernel and the sweeps' lone-die model substep a pitch by at most
    0.15 rad / refine (the Python path computes the same bound inline)."""
    from jamsumo_sim.physics import pitch
    from jamsumo_sim.sweep import lone_kernel

    p = replace(BASE, refine=k)
    w = World(BOARD, p)
    pitch._consts(w)
    _, _, q, _ = w._pitch_consts
    assert q[6] == pitch.MAX_SUBSTEP_ANGLE / k  # step_kernels.pitch_params' max_angle
    assert q[0] == pytest.approx(BASE.dt / k)
    lone = lone_kernel.pitch_params(
        a=p.die_size, g=p.gravity, mu_pitch=p.mu_pitch, mu_landing=p.mu_landing,
        hop_lift=p.hop_lift, hop_min_speed=p.hop_min_speed, tip_rate=pitch.tip_rate(p),
        edge_inertia=pitch.edge_inertia(p), mass=p.die_mass, dt=p.step, refine=k,
        restitution_landing=p.restitution_landing,
    )  # fmt: skip
    assert lone[lone_kernel._Q_MAX_ANGLE] == pitch.MAX_SUBSTEP_ANGLE / k
