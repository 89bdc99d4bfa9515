"""Execution noise: levels from data, the chance outcome recorded and re-played, every seat alike,
and the spread for the aim hint."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim import noise
from jamsumo_sim.errors import UserError
from jamsumo_sim.replay import content_hash, save_replay, verify_replay
from jamsumo_sim.rules.bots import RandomBot
from jamsumo_sim.rules.flick_actions import FlickSpec, read_flick
from jamsumo_sim.rules.match import _flick
from jamsumo_sim.turnloop import CHANCE, Action, play
from jamsumo_sim.turnloop.driver import seeded_outcome
from tests.child_limits import cpu_limited, hang_guard
from tests.jamsumo.helpers import new_state, settle_marker


def test_levels_come_from_the_data_file():
    table, practice = noise.level("table"), noise.level("practice")
    assert practice.exact and not table.exact
    # far worse than a curling robot (0.0018 rad, 0.3 % of speed), within physics.md's human range
    assert math.radians(1) <= table.angle <= math.radians(3) and table.angle > 10 * 0.0018
    assert 0.05 <= table.speed <= 0.15
    with pytest.raises(UserError, match="unknown noise level 'godlike'"):
        noise.level("godlike")


def test_apply_spreads_as_configured_and_practice_is_exact():
    spec = FlickSpec("red1", 0.3, finger_speed=1.0, offset=0.0, height=0.5)
    rng = np.random.default_rng(0)
    assert noise.apply(spec, "practice", rng) == spec
    lv = noise.level("table")
    out = [noise.apply(spec, lv, rng) for _ in range(4000)]
    speeds = np.array([o.finger_speed for o in out])
    angles = np.array([o.direction for o in out]) - 0.3
    assert np.std(speeds) == pytest.approx(lv.speed, rel=0.08)
    assert np.std(angles) == pytest.approx(lv.angle, rel=0.08)
    assert np.max(np.abs(angles)) <= lv.clip * lv.angle + 1e-12
    heights = np.array([o.height for o in out])
    assert heights.min() >= 0.0 and heights.max() <= 1.0


def test_a_flick_waits_for_its_execution_outcome_and_the_seed_decides_it():
    state = new_state("jam", rounds=1, noise="table")
    settle_marker(state, 0)
    action = state.legal_actions(0)[0]
    expected = state.next_execution()
    state.apply_action(action)
    assert state.current_player() == CHANCE and state.pending is not None
    assert seeded_outcome(state) == expected  # what a window animates before committing
    outcome = seeded_outcome(state)
    assert outcome.name.startswith("execution:")
    state.apply_action(outcome)
    assert state.pending is None and state.current_player() == 1
    # the shot ran with the deviated flick: its rest state is the preview of the executed flick
    twin = new_state("jam", rounds=1, noise="table")
    settle_marker(twin, 0)
    world = twin.preview(action, expected)
    world.run_until_rest(twin.shot_time)
    assert world.checksum() == state.last_shot["rest_checksum"]
    exact = twin.preview(action)
    exact.run_until_rest(twin.shot_time)
    assert exact.checksum() != world.checksum()


def test_every_seat_alike_and_replays_verify(tmp_path):
    state = new_state("jam", rounds=1, max_turns=4, noise="table")
    game = state.game
    result = play(game, [RandomBot(0, game), RandomBot(1, game)], seed=2, state=state)
    st = result.state
    flicks = [
        i for i, e in enumerate(st.history) if "action" in e and e["action"]["name"] != "pass"
    ]
    assert {st.history[i]["seat"] for i in flicks} == {0, 1}
    for i in flicks:  # every seat's flick is followed by its execution outcome
        assert st.history[i + 1]["chance"]["name"].startswith("execution:")
    path = tmp_path / "noisy.json"
    save_replay(path, st, ["random", "random"])
    assert verify_replay(path).ok
    # an edited execution outcome (re-sealed) is a different shot: verify names it
    data = json.loads(path.read_text())
    entry = data["history"][flicks[0] + 1]
    dev = noise.from_action(Action.from_json(entry["chance"]))
    edited = noise.Deviation(dev.speed_factor, dev.angle + 0.01, dev.offset, dev.height)
    entry["chance"] = noise.as_action(edited).to_json()
    data["content_sha256"] = content_hash(data)
    path.write_text(json.dumps(data))
    report = verify_replay(path)
    assert not report.ok and report.first_divergence == 1, report.message
    # an outcome whose name and numbers disagree is a malformed file (exit 2), not a divergence
    entry["chance"]["args"]["angle"] += 0.01
    data["content_sha256"] = content_hash(data)
    path.write_text(json.dumps(data))
    with pytest.raises(UserError, match="not a possible chance outcome"):
        verify_replay(path)


def test_outcomes_outside_the_level_are_impossible():
    chance = noise.Execution(noise.level("table"))
    rng = np.random.default_rng(1)
    good = chance.sample(rng)
    assert chance.is_possible(good)
    args = dict(good.args)
    args["angle"] = 1.0  # 57°: far beyond 3 σ
    wild = noise.as_action(noise.Deviation(**args))
    assert not chance.is_possible(wild)
    assert not noise.Execution(noise.level("practice")).is_possible(good)


def test_spread_ellipse_matches_sampled_rest_points():
    def predict(spec: FlickSpec) -> tuple[float, float]:
        reach = spec.finger_speed**2  # any smooth predictor: reach grows with speed squared
        return (reach * math.cos(spec.direction), reach * math.sin(spec.direction))

    spec = FlickSpec("red1", 0.0, finger_speed=0.5)
    lv = noise.level("table")
    spread = noise.spread(predict, spec, lv)
    pts = np.array(noise.sample_rest_points(predict, spec, lv, np.random.default_rng(3), 3000))
    # along the push: 2 σ_speed × reach; across: reach × σ_angle (major axis along x)
    assert spread.major == pytest.approx(np.std(pts[:, 0]), rel=0.1)
    assert spread.minor == pytest.approx(np.std(pts[:, 1]), rel=0.1)
    assert abs(math.cos(spread.angle)) == pytest.approx(1.0, abs=1e-6)
    assert spread.major == pytest.approx(2 * lv.speed * 0.25, rel=1e-6)
    exact = noise.spread(predict, spec, "practice")
    assert exact.major == exact.minor == 0.0


def test_read_flick_still_reads_the_aimed_flick():
    state = new_state("jam", rounds=1, noise="table")
    settle_marker(state, 0)
    action = state.legal_actions(0)[0]
    state.apply_action(action)
    assert state.pending == (0, read_flick(action))


def test_the_conformance_kit_passes_with_execution_noise():
    from jamsumo_sim.turnloop.conformance import random_playout
    from tests.jamsumo.helpers import GAMES

    game = GAMES["sumo"]  # set-ups and execution outcomes both
    params = game.validate_params(
        {"players": 2, "rounds": 1, "max_turns": 2, "shot_time": 1.0, "noise": "table"}
    )
    state = random_playout(game, params, seed=1, check_every=3)
    assert state.is_terminal()
    assert any("chance" in e and e["chance"]["name"].startswith("execution") for e in state.history)


def test_an_execution_error_never_makes_an_unfair_flick(tmp_path):
    """Sumo at the table level, seed 33: a random bot's flick of red5 next to red6, executed with
    its drawn offset error, put the finger on both dice and the match died with "illegal flick".
    The executed flick is now the drawn error reduced until fair; the match ends and verifies."""
    path = tmp_path / "sumo33.json"
    script = Path(sys.executable).with_name("jamsumo")
    args = ["match", "--mode", "sumo", "--table", "--seats", "random,random", "--seed", "33"]
    done = subprocess.run(
        [str(script), *args, "--record", str(path), "--json"],
        capture_output=True, text=True, timeout=hang_guard(300), preexec_fn=cpu_limited(300),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished"]
    assert verify_replay(path).ok


def test_reduced_executions_are_fair_for_every_drawn_error():
    """Whatever error is drawn (at its clip limits included), the executed flick passes the
    physics' fair-flick check, and a fair drawn error is played unchanged."""
    state = new_state("sumo", rounds=1, noise="table")  # the tight grid: neighbours everywhere
    settle_marker(state, 0)
    world = state.world
    rng = np.random.default_rng(5)
    lv = noise.level("table")
    checked = unchanged = 0
    for die in [d for d in world.die_ids if world.state(d).status == "on_board"][:6]:
        for _ in range(25):
            aim = FlickSpec(
                die=die, direction=float(rng.uniform(-math.pi, math.pi)), impulse=None,
                offset=float(rng.uniform(-0.5, 0.5)), height=float(rng.uniform(0.0, 1.0)),
                finger_speed=float(rng.uniform(0.5, 3.0)),
            )  # fmt: skip
            if world.check_flick(_flick(aim)) is not None:
                continue
            z = rng.choice([-lv.clip, lv.clip], size=4)
            dev = noise.Deviation(
                1.0 + z[0] * lv.speed, z[1] * lv.angle, z[2] * lv.offset, z[3] * lv.height
            )
            executed = state.executed_spec(aim, noise.as_action(dev))
            assert world.check_flick(_flick(executed)) is None
            checked += 1
            if world.check_flick(_flick(noise.deviate(aim, dev))) is None:
                assert executed == noise.deviate(aim, dev)
                unchanged += 1
    assert checked >= 40 and 0 < unchanged < checked
