"""The real-time stepping: accumulator, stop at rest, interpolation, departures (fake world: no pymunk)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from jamsumo_sim.ui.animator import Animator


@dataclass(frozen=True)
class S:
    id: str
    x: float
    y: float
    angle: float
    face: int = 3
    flat: bool = True
    status: str = "on_board"
    vx: float = 1.0
    vy: float = 0.0
    drop: float = 0.0


class FakeWorld:
    """One die sliding at 1 m/s along x for ``rest_after`` steps of dt; it drops off the edge at x > edge."""

    def __init__(self, dt=0.001, rest_after=100, edge=1.0):
        self.dt, self.rest_after, self.edge = dt, rest_after, edge
        self.steps = 0
        self.die = S("red1", 0.0, 0.0, 0.0)

    @property
    def time(self):
        return self.steps * self.dt

    def step(self):
        self.steps += 1
        x = self.die.x + self.dt
        self.die = replace(self.die, x=x, status="off_board" if x > self.edge else "on_board")

    def at_rest(self):
        return self.steps >= self.rest_after

    def states(self):
        return [self.die]


def test_fixed_steps_from_the_accumulator():
    w = FakeWorld(rest_after=10_000)
    a = Animator(w, 0.001)
    assert a.advance(1 / 60) == 16  # 16.67 steps owed: 16 now, the rest carried
    assert a.advance(1 / 60) == 17
    assert a.advance(1 / 60) == 17
    assert w.steps == 50


def test_stops_exactly_at_rest():
    w = FakeWorld(rest_after=30)
    a = Animator(w, 0.001)
    a.advance(1.0)
    assert w.steps == 30 and not a.running
    a.advance(1.0)
    assert w.steps == 30


def test_pause_and_speed():
    w = FakeWorld(rest_after=10_000)
    a = Animator(w, 0.001)
    a.speed = 0.0
    assert a.advance(1.0) == 0
    a.speed = 0.25
    assert a.advance(0.04) == 10


def test_interpolates_between_the_last_two_physics_states():
    w = FakeWorld(rest_after=10_000)
    a = Animator(w, 0.001)
    a.advance(0.0105)  # 10 steps, half a step left over
    (p,) = a.poses()
    assert p.x == pytest.approx(0.009 + 0.5 * 0.001)


def test_a_die_leaving_the_board_fades_out():
    w = FakeWorld(rest_after=10_000, edge=0.005)
    a = Animator(w, 0.001, fade_time=0.1)
    a.advance(0.01)
    (p,) = a.poses()
    assert p.status == "off_board" and 0 <= p.fade < 1
    a.advance(0.05)
    assert a.poses()[0].fade == pytest.approx(0.5, abs=0.05)
    a.advance(0.2)
    assert a.poses() == []


def test_the_shot_time_cap_is_a_whole_number_of_steps():
    w = FakeWorld(rest_after=10_000)
    a = Animator(w, 0.001, max_time=0.05)
    for _ in range(10):
        a.advance(1 / 60)
    assert w.steps == 50 and not a.running
