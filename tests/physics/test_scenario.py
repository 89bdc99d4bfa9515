"""The public `jamsumo sim` contract (issue 3): run_scenario, argument parsing, subprocess."""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import subprocess
import sys

import pytest

from jamsumo_sim import scenario as sc
from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.physics.params_file import dump_params
from tests.child_limits import cpu_limited, hang_guard

BASE = {
    "version": 1,
    "board": {"side": 2.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []},
    "params": {"mu_board": 0.25, "mu_static": 0.35, "mu_die": 0.3, "restitution": 0.7},
    "dice": [
        {
            "id": "red-1",
            "x": 0.0,
            "y": -0.1,
            "angle": 0.0,
            "vx": 0.0,
            "vy": 1.0,
            "omega": 0.0,
            "face": 4,
        }
    ],
    "flicks": [],
    "max_time": 20.0,
}


def test_issue_example_slide():
    out = sc.run_scenario(BASE)
    dt = PhysicsParams.from_board(load_board("standard")).dt
    assert out["dt"] == dt
    assert out["rested"] is True and out["steps"] == round(out["time_to_rest"] / dt)
    assert out["time_to_rest"] == pytest.approx(0.4077, rel=0.01)
    (d,) = out["dice"]
    assert d["id"] == "red-1" and d["y"] + 0.1 == pytest.approx(0.2039, rel=0.01)
    assert d["face"] == 4 and d["status"] == "on_board" and d["flat"] is True
    assert d["on_platform"] is False and d["platform"] is None
    assert set(d) >= {"id", "x", "y", "angle", "face", "status", "flat", "on_platform"}
    assert out["events"] == [] and "trace" not in out
    json.dumps(out)


def test_flicks_and_events():
    s = dict(BASE)
    s["dice"] = [
        {"id": "a", "x": 0.0, "y": -0.1, "face": 4},
        {"id": "b", "x": 0.0, "y": 0.0, "face": 2},
    ]
    s["flicks"] = [{"die": "a", "direction": math.pi / 2, "impulse": 0.0045}]
    out = sc.run_scenario(s)
    types = [e["type"] for e in out["events"]]
    assert types[0] == "flick" and "collision" in types
    hit = next(e for e in out["events"] if e["type"] == "collision")
    assert hit["dice"] == ["a", "b"] and hit["impulse"] > 0 and hit["t"] > 0


def test_two_flicks_run_one_after_another():
    s = dict(BASE)
    s["dice"] = [{"id": "a", "x": 0.0, "y": 0.0, "face": 4}]
    s["flicks"] = [
        {"die": "a", "direction": 0.0, "impulse": 0.0045},
        {"die": "a", "direction": math.pi, "impulse": 0.0045},
    ]
    out = sc.run_scenario(s)
    assert out["dice"][0]["x"] == pytest.approx(0.0, abs=1e-9)
    assert out["time_to_rest"] == pytest.approx(2 * 0.4077, rel=0.01)


def test_face_defaults_to_1():
    s = dict(BASE, dice=[{"id": "a", "x": 0.1, "y": 0.0}])
    assert sc.run_scenario(s)["dice"][0]["face"] == 1


def test_trace_sampling_same_result():
    plain = sc.run_scenario(BASE)
    traced = sc.run_scenario(BASE, trace=0.1)
    assert traced["dice"] == plain["dice"]
    ts = [t["t"] for t in traced["trace"]]
    assert ts == pytest.approx([0.0, 0.1, 0.2, 0.3, 0.4])
    assert traced["trace"][0]["dice"][0]["y"] == -0.1


def test_standard_board_by_name_and_params_file(tmp_path):
    params = PhysicsParams.from_board(load_board("standard"))
    pfile = tmp_path / "p.toml"
    dump_params(params.with_overrides({"mu_board": 0.3}), pfile, {"by": "test"})
    s = {
        "version": 1,
        "board": "standard",
        "dice": [{"id": "a", "x": 0.1, "y": 0.1, "face": 3, "vx": 0.1}],
    }
    out = sc.run_scenario(s, params_path=pfile)
    assert out["rested"]
    # scenario params override the file's
    s2 = dict(s, params={"mu_board": 0.25})
    out2 = sc.run_scenario(s2, params_path=pfile)
    assert out2["dice"][0]["x"] > out["dice"][0]["x"]


@pytest.mark.parametrize(
    "patch, msg",
    [
        ({"version": 2}, "version"),
        ({"version": None}, "version"),
        ({"bogus": 1}, "unknown key 'bogus'"),
        ({"params": {"mu_boardd": 0.1}}, "unknown parameter 'mu_boardd'"),
        ({"board": "nope"}, "unknown board"),
        ({"board": {"side": -1}}, "side"),
        ({"dice": [{"id": "a", "x": 0}]}, "lacks 'y'"),
        ({"dice": [{"id": "a", "x": "0", "y": 0, "face": 1}]}, "dice[0].x"),
        ({"dice": [{"id": "a", "x": 0, "y": 0, "face": 9}]}, "face"),
        ({"dice": [{"id": "a", "x": 5, "y": 0, "face": 1}]}, "not on the board"),
        ({"dice": [{"id": "a", "x": 0.1, "y": 0.1, "vx": 1e300}]}, "above the 5 m/s cap"),
        ({"flicks": [{"die": "zz", "direction": 0, "impulse": 0.004}]}, "no die 'zz'"),
        ({"flicks": [{"die": "red-1", "direction": 0, "impulse": 0.5}]}, "cap"),
        ({"flicks": [{"die": "red-1", "impulse": 0.004}]}, "direction"),
        ({"max_time": -1}, "max_time"),
    ],
)
def test_malformed_scenarios(patch, msg):
    s = dict(BASE, **patch)
    if patch.get("version", 1) is None:
        del s["version"]
    with pytest.raises(UserError, match=msg.replace("[", r"\[").replace("]", r"\]")):
        sc.run_scenario(s)


def _parser():
    p = argparse.ArgumentParser(prog="jamsumo")
    sub = p.add_subparsers(dest="command", required=True)
    sc.register(sub)
    return p


def test_register_parses_arguments(tmp_path, capsys):
    f = tmp_path / "s.json"
    f.write_text(json.dumps(BASE))
    args = _parser().parse_args(["sim", str(f), "--trace", "0.2"])
    assert args.func is sc.run and args.trace == 0.2 and args.params is None
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["trace"]) == 3
    with pytest.raises(SystemExit):
        _parser().parse_args(["sim", str(f), "--trace", "-1"])


def test_run_reports_errors_in_one_line(tmp_path, capsys):
    f = tmp_path / "s.json"
    f.write_text('{"version": 1, "dice": [')
    args = _parser().parse_args(["sim", str(f)])
    assert args.func(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not valid JSON" in err and "Traceback" not in err


def _cli(*argv):
    return subprocess.run(
        [sys.executable, "-m", "jamsumo_sim", *argv],
        capture_output=True,
        text=True,
        timeout=hang_guard(120),
        preexec_fn=cpu_limited(120),
    )


BREAK = {
    "version": 1,
    "board": "standard",
    "dice": [
        {"id": f"d{i}{j}", "x": 0.05 + i * 0.0165, "y": 0.05 + j * 0.0165, "face": 3}
        for i in range(3)
        for j in range(3)
    ]
    + [{"id": "s", "x": -0.1, "y": 0.08, "face": 4}],
    "flicks": [{"die": "s", "direction": -0.12, "impulse": 0.0135, "offset": 0.1, "height": 0.55}],
}


def test_subprocess_sim(tmp_path):
    """`python -m jamsumo_sim sim` prints what run_scenario returns, bit for bit (another process)."""
    f = tmp_path / "s.json"
    f.write_text(json.dumps(BREAK))
    r = _cli("sim", str(f))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out == json.loads(json.dumps(sc.run_scenario(BREAK)))
    assert any(e["type"] == "collision" for e in out["events"])
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(BASE, params={"mu_x": 1})))
    r = _cli("sim", str(bad))
    assert r.returncode == 2 and "mu_x" in r.stderr
    assert "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0
    pbad = tmp_path / "p.toml"
    pbad.write_text("version = 1\n[params]\nmu_board = 'high'\n")
    r = _cli("sim", str(f), "--params", str(pbad))
    assert r.returncode == 2 and "mu_board" in r.stderr and "Traceback" not in r.stderr


def test_relative_board_path_is_read_from_the_scenario_folder(tmp_path, capsys, monkeypatch):
    folder = tmp_path / "shots"
    folder.mkdir()
    (folder / "wide.toml").write_text("version = 1\nside = 2.0\nhole_diameter = 0.0\n")
    scenario = {"version": 1, "board": "wide.toml", "dice": [{"id": "d", "x": 0.9, "y": 0.0}]}
    (folder / "s.json").write_text(json.dumps(scenario))
    monkeypatch.chdir(tmp_path)  # not the scenario's folder
    args = _parser().parse_args(["sim", str(folder / "s.json")])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    # on the 2 m board a die at x = 0.9 m is still on it (the standard board is 0.45 m wide)
    assert out["dice"][0]["status"] == "on_board"


# --- bounds (issue 15) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "patch, msg",
    [
        ({"version": True}, "unsupported scenario version true"),
        ({"version": 1.0}, "unsupported scenario version 1.0"),
        ({"max_time": 0}, "max_time must be more than 0 and at most 60 s"),
        ({"max_time": 61}, "max_time must be more than 0 and at most 60 s"),
        ({"max_time": 1e300}, "max_time"),
        ({"params": {"dt": 1e-9}}, "scenario params: parameter dt must be from 0.0001"),
        ({"params": {"solver_iterations": 10**6}}, "solver_iterations must be from 1 to 100"),
        ({"params": {"patch_quadrature": 1000}}, "patch_quadrature must be from 1 to 16"),
        ({"params": {"support_samples": 1000}}, "support_samples must be from 2 to 25"),
        ({"params": {"collision_substeps": 1000}}, "collision_substeps must be from 1 to 20"),
        ({"params": {"mu_die": -0.1}}, "mu_die must be from 0 to 2"),
        ({"params": {"restitution": 1.5}}, "restitution must be from 0 to 1"),
        ({"params": {"die_mass": 50}}, "die_mass must be from"),
        ({"params": {"die_size": 1e-6}}, "die_size must be from"),
        (
            {"dice": [{"id": f"d{i}", "x": 0.01 * i, "y": 0.5} for i in range(sc.MAX_DICE + 1)]},
            "at most 64",
        ),
        (
            {"flicks": [{"die": "red-1", "direction": 0, "impulse": 0.001}] * (sc.MAX_FLICKS + 1)},
            "at most 100",
        ),
        ({"dice": [{"id": "x" * 65, "x": 0, "y": 0}]}, "id must be a string of 1 to 64"),
    ],
)
def test_scenario_bounds(patch, msg):
    with pytest.raises(UserError, match=re.escape(msg)):
        sc.run_scenario(dict(BASE, **patch))


def test_trace_is_bounded(tmp_path):
    with pytest.raises(UserError, match="trace interval must be from"):
        sc.run_scenario(BASE, trace=1e-9)
    many = dict(BASE, dice=[{"id": f"d{i}", "x": 0.03 * i, "y": 0.5} for i in range(30)])
    with pytest.raises(UserError, match="could output .* die positions"):
        sc.run_scenario(many, trace=0.002)  # 30 dice x 10 000 steps: refused before the run
    f = tmp_path / "s.json"
    f.write_text(json.dumps(BASE))
    for bad in ("1e-9", "inf", "nan", "61"):
        with pytest.raises(SystemExit):
            _parser().parse_args(["sim", str(f), "--trace", bad])


@pytest.mark.parametrize(
    "text, msg",
    [
        ('{"version": 1, "max_time": 1' + "0" * 5000 + "}", "a number with 5001 digits"),
        ("[" * 10000 + "]" * 10000, "nested deeper than 64"),
        ('{"version": 1, "max_time": NaN}', "not a JSON number"),
        ("", "is empty"),
    ],
)
def test_hostile_json_is_one_line(tmp_path, text, msg):
    f = tmp_path / "s.json"
    f.write_text(text)
    with pytest.raises(UserError, match=msg) as err:
        sc.read_scenario(str(f))
    assert "s.json" in str(err.value) and "\n" not in str(err.value)


def test_stdin_is_read_as_bytes_and_checked(monkeypatch):
    class Stdin:
        def __init__(self, data: bytes):
            self.buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", Stdin(b'{"version": 1, "description": "5 \xb5m"}'))
    with pytest.raises(UserError, match=r"scenario on stdin is not UTF-8 text \(byte 0xb5"):
        sc.read_scenario("-")
    monkeypatch.setattr(sys, "stdin", Stdin(json.dumps(BASE).encode()))
    assert sc.read_scenario("-") == BASE


# --- finger_speed beside impulse (issue 16 s3) ----------------------------------------------------

FINGER = dict(
    BASE,
    dice=[{"id": "a", "x": 0.0, "y": -0.1, "face": 4}],
    flicks=[{"die": "a", "direction": 1.4, "finger_speed": 1.0, "offset": -0.45}],
)


def test_finger_speed_flick_equals_its_impulse():
    """A flick by finger speed runs like the impulse (1 + e_f) m_eff V_f it stands for, and its
    event records the strength it was given (finger_speed, no impulse).  The push is t = 1.4 -
    pi/2 off the struck face's normal, within the cone.  Model 0.18 (the oblique push, commit
    1914fbc; tests/physics/test_finger_impact.py): J_n = J c along the normal,
    J_t0 = J s / (1 + e_f) along the face, tau = tan t / (1 + e_f); the pad pushes through its
    contact's point nearest the balance point -tau/2 = +0.062, here its edge o = -(0.45 - 0.375),
    and its grip holds the face sliding at tau J_n / m: J_t = (0.4 tau - 1.2 o) J_n.  The struck
    point then moves along the normal at (1 + 6 o (o + J_t / 2 J_n)) J_n / m, so
    m_eff = m / (1 + 2.4 o^2 + 1.2 o tau) per unit of J_n, and J_n = (1 + e_f) m_eff V_f c.
    (Model 0.17, J_t = J s - 1.2 o J_n along the aim: pushed the other way off the normal the
    grip's slide held more than the impact's energy and the finger's flick was scaled down to it,
    the impulse's not; now neither way is scaled.)"""
    from jamsumo_sim.physics.flick import Flick, finger_impulse, strike
    from jamsumo_sim.physics.flick.apply import off_normal

    params = PhysicsParams.from_board(load_board("standard")).with_overrides(BASE["params"])
    flick = Flick.from_json(FINGER["flicks"][0])
    j = finger_impulse(flick, params, off_normal(flick, 0.0))  # the World's angle, to the bit
    t = 1.4 - math.pi / 2
    o, e = -0.075, params.finger_restitution
    tau = math.tan(t) / (1 + e)
    inv = 1 + 2.4 * o * o + 1.2 * o * tau
    assert j == pytest.approx((1 + e) * 0.0045 / inv)
    for way in (t, -t):  # not scaled either way
        other = Flick("a", math.pi / 2 + way, None, -0.45, finger_speed=1.0)
        assert strike(other, params, off_normal(other, 0.0)).scale == 1.0
    by_speed = sc.run_scenario(FINGER)
    as_impulse = dict(
        FINGER, flicks=[{"die": "a", "direction": 1.4, "impulse": j, "offset": -0.45}]
    )
    by_impulse = sc.run_scenario(as_impulse)
    assert by_speed["dice"] == by_impulse["dice"] and by_speed["steps"] == by_impulse["steps"]
    (flick,) = [e for e in by_speed["events"] if e["type"] == "flick"]
    assert flick["finger_speed"] == 1.0 and "impulse" not in flick


@pytest.mark.parametrize(
    "flick, msg",
    [
        ({"die": "a", "direction": 0.0, "impulse": 0.004, "finger_speed": 1.0}, "gives both"),
        ({"die": "a", "direction": 0.0}, "lacks 'impulse' and 'finger_speed'"),
        ({"die": "a", "direction": 0.0, "finger_speed": "fast"}, "finger_speed must be a finite"),
        ({"die": "a", "direction": 0.0, "finger_speed": 10**400}, "finger_speed must be a finite"),
        ({"die": "a", "direction": 0.0, "finger_speed": -1.0}, "finger_speed must be > 0"),
        ({"die": "a", "direction": 0.0, "finger_speed": 5.0}, "cap"),
    ],
)
def test_bad_finger_speed_is_one_line(flick, msg):
    with pytest.raises(UserError, match=msg) as err:
        sc.run_scenario(dict(FINGER, flicks=[flick]))
    assert str(err.value).startswith("flicks[0]: ") and "\n" not in str(err.value)


@pytest.mark.parametrize(
    "flick, msg",
    [
        ({"die": "a", "direction": 0.0, "impulse": 0.004, "finger_speed": 1.0}, "gives both"),
        ({"die": "a", "direction": 0.0}, "lacks 'impulse' and 'finger_speed'"),
    ],
)
def test_installed_sim_refuses_both_or_neither_strength(tmp_path, flick, msg):
    from tests.hostile.harness import assert_one_line_error, run_cli

    f = tmp_path / "s.json"
    f.write_text(json.dumps(dict(FINGER, flicks=[flick])))
    assert_one_line_error(run_cli("jamsumo", "sim", str(f)), "s.json", "flicks[0]", msg)
