"""The compiled steps of dice in a special state (step_kernels.pitch_step, flight_clear; physics.md
"Speed"): a pitched die's substeps and the test that a die in flight has nothing under it take the
common step in one compiled call, and hand every landing, lift-off or possible touch-down to the
Python path.  They must change no result: the same bits as the Python path, step for step."""

from __future__ import annotations

import math

import numpy as np
import pytest
from physics_helpers import block_break, rest_record

from jamsumo_sim.physics import evolve, flight, pitch, step_kernels, view
from jamsumo_sim.world import World


def _break(board, params, seed: int, offset: float, height: float = 0.5) -> World:
    return block_break(board, params, seed, offset, chance_seed=300 + seed, height=height)


def test_py_hypot_is_cpythons_hypot_bit_for_bit():
    rng = np.random.default_rng(5)
    scale = rng.choice([1e-9, 1e-4, 1e-2, 1.0, 30.0], size=(20000, 1))
    pairs = (rng.normal(size=(20000, 2)) * scale).tolist()
    pairs += [(0.0, 0.0), (-0.0, 3.0), (3.0, 4.0), (1e-300, 1e-300), (5.0, -0.0)]
    bad = [(x, y) for x, y in pairs if step_kernels.py_hypot(x, y) != math.hypot(x, y)]
    assert not bad


def _rubbed(vx, vy, spin, dv, dspin):
    v = math.hypot(vx, vy)
    scale = max(0.0, v - dv) / v if v > 0.0 else 0.0
    return vx * scale, vy * scale, math.copysign(max(0.0, abs(spin) - dspin), spin)


def _python_pitch_step(phi, rate, vx, vy, spin, x, y, dish, p, prm):
    """pitch.step_die's substeps from the unfused functions (swing, pitch_energy, lifts_off),
    after the dish's rise over the step's move (pitch._slope_paid): ("on" | "flat" | "python",
    state)."""
    h_all = p.dt
    if dish:
        i_m = pitch.edge_inertia(p) / p.die_mass
        vx, vy, rate = step_kernels.climb_paid(
            x - vx * h_all, y - vy * h_all, x, y, vx, vy, rate, prm, i_m
        )
    n = max(1, math.ceil(h_all * (abs(rate) + pitch.tip_rate(p)) / pitch.MAX_SUBSTEP_ANGLE))
    h = h_all / n
    mu_h = p.mu_pitch * h
    spin_mu_h = 1.5 * p.mu_pitch / p.die_size * h
    for _ in range(n):
        # the lift-off test at each substep's start (model 0.7)
        if flight.lifts_off(phi, rate, p) and p.hop_lift * flight.rise_rate(phi, rate, p) > (
            p.hop_min_speed
        ):
            return "python", None
        load = flight.pivot_load(phi, rate, p)
        vx, vy, spin = _rubbed(vx, vy, spin, mu_h * load, spin_mu_h * load)
        phi, rate = pitch.swing(phi, rate, h, p)
        if phi <= 0.0 and rate <= 0.0:
            fall = flight.rise_rate(phi, -rate, p)  # the slap: the centre's fall
            mu = p.mu_pitch
            vx, vy, spin = _rubbed(vx, vy, spin, mu * fall, 1.5 * mu / p.die_size * fall)
            return "flat", (phi, rate, vx, vy, spin)
        if phi >= pitch.QUARTER:
            return "python", None
    return "on", (phi, rate, vx, vy, spin)


def test_pitch_kernel_equals_the_unfused_python_substeps(params):
    w = World(params=params)
    pitch._consts(w)
    _, _, q, _ = w._pitch_consts
    rng = np.random.default_rng(11)
    codes = {step_kernels.PITCH_ON: "on", step_kernels.PITCH_FLAT: "flat"}
    codes[step_kernels.PITCH_PYTHON] = "python"
    seen = set()
    tip = pitch.tip_rate(params)
    for _ in range(3000):
        phi = float(rng.uniform(0.0, 1.6)) * float(rng.choice([1.0, 1e-3]))
        rate = float(rng.uniform(-2.0, 2.0) * tip * rng.choice([0.05, 1.0, 3.0]))
        vx, vy = (float(v) for v in rng.normal(0.0, 1.5, 2) * rng.choice([0.0, 1.0]))
        spin = float(rng.normal(0.0, 200.0))
        x, y = (float(v) for v in rng.uniform(-0.2, 0.2, 2))
        dish = float(rng.integers(0, 2))
        st = np.array([phi, rate, vx, vy, spin, x, y, dish])
        code = codes[step_kernels.pitch_step(st, q)]
        ref_code, ref = _python_pitch_step(phi, rate, vx, vy, spin, x, y, dish, params, w._prm)
        assert code == ref_code
        if ref is not None:
            assert st.tolist()[:5] == list(ref)  # bit for bit (== on floats; no tolerance)
        seen.add(code)
    assert seen == {"on", "flat", "python"}


# struck high (model 0.13: the nail pitches a die only above 0.744 of the face; a mid-height break
# pitches few dice now that dice grip each other), centred and with spin.  Centred at 0.8: at 0.9
# the striker leaves the board at the strike and bounces on over its landings (model 0.15: a die
# left turning fast about its landing edge flies on), so no step of it is a pitched one.  With spin
# at 0.8: at 0.85 the striker's pad grips it (model 0.16) and it pitches no step on the board
@pytest.mark.parametrize(("offset", "height"), [(0.0, 0.8), (0.5, 0.8)])
def test_breaks_end_bit_for_bit_as_with_the_python_path_alone(
    standard_board, params, monkeypatch, offset, height
):
    """Breaks with the compiled steps and with every step handed to the Python path: the same
    checksum, events and step count; the compiled steps did take most steps of pitched and
    airborne dice.  (The support bookkeeping's Python path: physics/compiled_steps.py's loop,
    which takes these steps itself, is held to it in test_compiled_steps.py.)"""
    monkeypatch.setattr(evolve, "COMPILED", False)
    used = {"pitch": 0, "flight": 0}
    pitch_step, flight_clear = step_kernels.pitch_step, step_kernels.flight_clear

    def counted_pitch(st, q):
        code = pitch_step(st, q)
        used["pitch"] += code != step_kernels.PITCH_PYTHON
        return code

    def counted_flight(*args):
        clear = flight_clear(*args)
        used["flight"] += bool(clear)
        return clear

    fast = []
    for seed in range(4):
        monkeypatch.setattr(step_kernels, "pitch_step", counted_pitch)
        monkeypatch.setattr(step_kernels, "flight_clear", counted_flight)
        fast.append(rest_record(_break(standard_board, params, seed, offset, height)))
        monkeypatch.setattr(step_kernels, "pitch_step", lambda st, q: step_kernels.PITCH_PYTHON)
        monkeypatch.setattr(step_kernels, "flight_clear", lambda *args: False)
        slow = rest_record(_break(standard_board, params, seed, offset, height))
        assert fast[-1] == slow, f"seed {seed}"
    assert used["pitch"] > 20 and used["flight"] > 20, used


def test_landing_tops_kept_in_place_equal_the_records_after_every_read(standard_board, params):
    """flight_clear trusts w._land_tops (view.landing_top per die) whenever nothing is marked:
    after every read it must equal the records."""
    for seed, offset in ((0, 0.0), (1, 0.5)):
        w = _break(standard_board, params, seed, offset)
        for _ in range(400):
            w.step()
            view.read(w)
            want = [view.landing_top(w, d) for d in w._order]
            assert np.array_equal(w._land_tops, np.array(want), equal_nan=True)
            if w.at_rest():
                break
