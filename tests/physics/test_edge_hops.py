"""Edge-on-edge hops (docs/physics.md "Hops and flight"): two dice meeting hard draw the chance
that they meet rounded edge on rounded edge once per pair and model step.  Within a step's
collision steps Chipmunk reports a new first contact whenever two dice touch again after parting
for a few of them (a pair in a packed cluster meets two or three times within a millisecond);
that is one meeting, whose geometry does not change, so it draws once."""

from __future__ import annotations

import numpy as np
import pytest

from jamsumo_sim.physics import contacts, flight
from jamsumo_sim.world import World


class CountingRng:
    """A generator that counts the edge-on-edge draws and never lets one succeed."""

    def __init__(self) -> None:
        self.draws = 0

    def random(self) -> float:
        self.draws += 1
        return 0.999


def _pair(flat_world: World):
    w = flat_world
    w.add_die("a", 0.0, 0.0, face=1, vx=2.0)
    w.add_die("b", 0.02, 0.0, face=1)
    w.rng = CountingRng()
    return w, w._dice["a"], w._dice["b"]


def test_a_pair_draws_its_edge_chance_once_per_model_step(flat_world, params):
    w, a, b = _pair(flat_world)
    hard = 3.0 * params.hop_speed * params.die_mass
    contacts.on_collision(w, a, b, hard)
    contacts.on_collision(w, b, a, hard)  # the same pair touching again in the same step
    assert w.rng.draws == 1
    w.step()
    contacts.on_collision(w, a, b, hard)  # a later step: a new meeting
    assert w.rng.draws == 2


def test_other_pairs_and_soft_contacts_draw_as_before(flat_world, params):
    w, a, b = _pair(flat_world)
    w.add_die("c", -0.02, 0.0, face=1)
    c = w._dice["c"]
    hard = 3.0 * params.hop_speed * params.die_mass
    a.body.velocity = (0.5 * params.hop_speed, 0.0)
    contacts.on_collision(w, a, b, 0.0)  # too soft: no draw
    assert w.rng.draws == 0
    a.body.velocity = (2.0, 0.0)
    contacts.on_collision(w, a, b, hard)
    contacts.on_collision(w, a, c, hard)
    assert w.rng.draws == 2


@pytest.mark.parametrize("e", [0.0, 0.5, 0.9])
@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_how_hard_a_pair_meets_does_not_depend_on_the_collision_step(flat_world, params, e, share):
    """The exchange's speed, (1 + e)/2 times the closing speed before the contact: the same
    whether the collision step that reported the contact has given none, part or all of the
    exchange's impulse (the first step's impulse alone shrinks with the step: model 0.7 drew
    fewer hops at finer steps)."""
    w, a, b = _pair(flat_world)
    m, v = params.die_mass, 1.2
    j = share * 0.5 * (1.0 + e) * v * m  # the part of the central exchange given so far
    a.body.velocity = (v - j / m, 0.0)
    b.body.velocity = (j / m, 0.0)
    assert flight.exchange_speed(a, b, j, m, e) == pytest.approx(0.5 * (1.0 + e) * v, rel=1e-12)
    a.body.velocity, b.body.velocity = (0.0, 0.0), (0.3, 0.0)  # parting: no exchange
    assert flight.exchange_speed(a, b, 0.0, m, e) == 0.0


def test_hard_breaks_still_hop(standard_board, params):
    """The chance model still fires in breaks (seeded per break)."""
    hops = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        w = World(standard_board, params, rng=np.random.default_rng(50 + seed))
        for k in range(10):
            i, j = divmod(k, 5)
            w.add_die(f"d{k}", (j - 2) * 0.0192 + rng.uniform(-3e-4, 3e-4), 0.07 + i * 0.0192,
                      face=3)  # fmt: skip
        w.add_die("s", -0.15, 0.075, vx=4.0, face=3)
        res = w.run_until_rest(5.0)
        hops += sum(e.type == "hop" for e in res.events)
    assert hops > 0
