"""Convergence shot by shot (issue 32 s2 "deterministic shots"; jamsumo_sim/shot_convergence.py).

Single dice anywhere, skims across the hole at 1-2 m/s and gentle two-die hits at 0.5-2 m/s, each
run at the default step and at ``refine = 4`` from the same start.  The issue's bar: status and
face equal in >= 98 %, p90 rest error <= 2 mm and <= 5 deg, no missed contact.  The floor is
``refine = 8`` against ``refine = 4``: where it is above the bar (two-die hits' rest angle: a hit
near a corner turns the pair by a p90 of 5-10 deg between two fine runs) the bar cannot be met by
any resolution.  A hit's rest pose is chaotic at a hand's scale: refine 8 with the target moved
10, 20, 50 and 100 um ends a p90 of 5.3, 7.9, 20 and 36 deg and 0.5, 0.8, 2.0 and 3.9 mm away
(model 0.12), so the bar asks for the target placed to 10 um, and the default (31 deg, 3.2 mm
against refine 8) is less far off than a 0.1 mm move; hits are held to that instead (the hand's
floor, shot_convergence.run_moved_pairs) and judged in distribution over a hand's jitter
(docs/physics.md "Resolution").  Single dice and skims meet the
issue's bar from model 0.12.  Where each family stands is in LIMITS; a change of physics that
moves a figure past its limit fails here with the table.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from jamsumo_sim import shot_convergence as sc
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams
from jamsumo_sim.world import World

N = 200

# (status & face agree at least, p90 rest error at most (m), p90 angle at most (rad)) for the
# default against refine 4, N = 200 (model 0.12 at N = 200 and 400 in the comments; model 0.9:
# single 98.8 %, 2.0 mm, 9.1 deg; skim 97.5 %, 0.71 mm, 4.7 deg; hit 97.4 %, 3.1 mm, 33 deg)
LIMITS = {
    # the bar: 99.5 %, 1.16 mm, 4.02 deg (N = 400: 99.8 %, 1.57 mm, 4.19 deg; model 0.11:
    # 8.6 deg, a flat die's first kick after a pitch a whole step, not a half)
    "single": (0.98, 2.0e-3, math.radians(5.0)),
    # the bar: 99.0 %, 0.80 mm, 0.64 deg (N = 400: 99.5 %, 0.83 mm, 0.66 deg)
    "skim": (0.98, 2.0e-3, math.radians(5.0)),
    # N = 400: 98.1 %, 3.0 mm, 30 deg; refine 8 vs 4: 99.9 %, 0.57 mm, 5.2 deg; refine 8 with the
    # target moved 0.1 mm: 96.3 %, 4.0 mm, 29 deg (the module's docstring)
    "hit": (0.95, 5.0e-3, math.radians(45.0)),
}


@pytest.mark.slow
@pytest.mark.parametrize("family", sc.FAMILIES)
def test_the_default_against_the_reference_shot_by_shot(family: str) -> None:
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    c = sc.compare(sc.run_pairs(family, board, base, range(N)))
    agree, pos, ang = LIMITS[family]
    assert c.shots >= 0.9 * N  # (the rest were not fair flicks)
    assert c.missed_contacts == 0, c.table()
    assert c.agree >= agree and c.p90_position <= pos and c.p90_angle <= ang, c.table()


HAND = 1e-4  # m: a hand's placement (the breaks' jitter, convergence.POSITION_JITTER)
N_HITS = 400  # hits for the hand's bar (its docstring)


@pytest.mark.slow
def test_hits_are_within_a_hands_move_of_the_reference() -> None:
    """The proposed bar for hits: the default no further from refine 4 than refine 4 is from
    itself with the target moved 0.1 mm before the flick, and the share of the issue's bar.
    Model 0.12, N = 200: the default 98.8 %, 3.36 mm, 29.3 deg; the moved reference 97.5 %, 4.92
    mm, 38.8 deg.  The moved reference misses the issue's 5 deg by far: a hit's rest angle is
    chaotic at a hand's scale (module docstring).

    N_HITS = 400 hits (800 dice): at 200 one die is a quarter of a per cent, and model 0.14 stood at
    exactly 98.0 % (392 of 400 dice), so the bar was decided by one die's luck at the hole's edge.
    Model 0.15 at 200: 97.75 % (hit 159: a die sliding on after a quarter turn skims the hole at
    the default step and drops in at refine 4, its path 0.9 mm apart from a 3 % spin difference of
    the planar solver's, on main too); at 400: 98.6 % (model 0.14: 98.75 %)."""
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    default = sc.compare(sc.run_pairs("hit", board, base, range(N_HITS)))
    floor = sc.compare(sc.run_moved_pairs("hit", board, base, range(N_HITS), 4, HAND))
    assert floor.p90_angle > math.radians(5.0), floor.table()
    assert default.agree >= 0.98, default.table()
    assert default.p90_position <= floor.p90_position, (default.table(), floor.table())
    assert default.p90_angle <= floor.p90_angle, (default.table(), floor.table())


def test_a_moved_shot_moves_only_its_last_die() -> None:
    base = PhysicsParams.from_board(load_board("standard"))
    shot = sc.draw_shot("hit", np.random.default_rng([7001, 3]), base)
    m = sc.moved(shot, HAND, np.random.default_rng(1))
    assert m.dice[0] == shot.dice[0] and m.flick == shot.flick
    (_, x0, y0, a0, f0), (_, x1, y1, a1, f1) = shot.dice[1], m.dice[1]
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(HAND, rel=1e-9)
    assert (a1, f1) == (a0, f0)


def test_draws_are_fair_and_reproducible() -> None:
    """Every family draws the same shot from the same seed, and the shot is a fair flick."""
    board = load_board("standard")
    base = PhysicsParams.from_board(board)
    for family in sc.FAMILIES:
        for seed in range(5):
            a = sc.draw_shot(family, np.random.default_rng([7001, seed]), base)
            b = sc.draw_shot(family, np.random.default_rng([7001, seed]), base)
            assert a == b
            assert sc.run_shot(a, board, base, seed) is not None


def test_compare_counts_what_differs() -> None:
    """compare(): a die with another face or status is a disagreement; positions and angles of
    the dice that agree give the p90s; a contact only the reference has is a missed contact."""
    d = sc.DieEnd("s", "on_board", 3, 0.0, 0.0, 0.0)
    moved = sc.DieEnd("s", "on_board", 3, 0.003, 0.004, math.radians(10.0))
    other_face = sc.DieEnd("s", "on_board", 4, 0.0, 0.0, 0.0)
    none = frozenset()
    touched = frozenset({("s", "t")})
    pairs = [
        (sc.ShotEnd((moved,), none, False), sc.ShotEnd((d,), none, False)),
        (sc.ShotEnd((other_face,), none, False), sc.ShotEnd((d,), touched, False)),
    ]
    c = sc.compare(pairs)
    assert c.dice == 2 and c.agree == 0.5 and c.worst == (1,)
    assert c.p90_position == pytest.approx(0.005)
    assert c.p90_angle == pytest.approx(math.radians(10.0))
    assert c.missed_contacts == 1


def _pair_at(dx: float, turn: float) -> bool:
    """Is a die turned ``turn`` with its centre ``dx`` east of a die at the origin overlapping?"""
    board = load_board("standard")
    params = PhysicsParams.from_board(board)
    w = World(board, params)
    w.add_die("t", -0.05, 0.05, face=1)
    w.add_die("s", -0.05 + dx, 0.05, angle=turn, face=1)
    return sc._overlapping(w, params)


def test_rounded_corner_on_a_face_is_not_a_missed_contact():
    """Dice are rounded squares: one resting with its rounded corner on another's face lies 0.41 mm
    inside the other's sharp square ((sqrt 2 - 1) r), which the hit family's shot 31 does on model
    0.16 (Chipmunk's shapes do not touch); face on face 0.3 mm deep, or the corner 0.3 mm in, is."""
    a, r = 0.016, 0.001
    touching = a / 2 + (a / 2 - r) * math.sqrt(2) + r  # the rounded corner on the face
    assert not _pair_at(touching, math.pi / 4)
    assert not _pair_at(touching - 0.00005, math.pi / 4)
    assert _pair_at(touching - 0.0003, math.pi / 4)
    assert not _pair_at(a, 0.0) and _pair_at(a - 0.0003, 0.0)
