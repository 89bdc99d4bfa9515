"""Actions and chance nodes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.turnloop import Action, Finite, Shuffle

json_scalars = st.one_of(
    st.integers(-(10**6), 10**6),
    st.text(max_size=8),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
)


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=6),
        st.one_of(json_scalars, st.lists(json_scalars, max_size=4)),
        max_size=4,
    )
)
def test_action_json_round_trip_is_exact(args: dict) -> None:
    a = Action.make("move", **args)
    assert Action.from_json(a.to_json()) == a
    assert hash(Action.from_json(a.to_json())) == hash(a)


def test_action_accessors_and_malformed_json() -> None:
    a = Action.make("place jar A1|A2", edge=[0, 1])
    assert a["edge"] == (0, 1) and a.get("missing", 3) == 3 and str(a) == "place jar A1|A2"
    with pytest.raises(UserError):
        Action.from_json({"args": {}})
    with pytest.raises(UserError):
        Action.from_json({"name": "x", "args": [1]})


def test_finite_sampling_is_seeded_and_respects_support() -> None:
    die = Finite.uniform([Action.make(f"roll {v}", value=v) for v in range(1, 7)])
    draws = [die.sample(np.random.default_rng([5, i])) for i in range(200)]
    again = [die.sample(np.random.default_rng([5, i])) for i in range(200)]
    assert draws == again
    assert {d["value"] for d in draws} == set(range(1, 7))
    assert not die.is_possible(Action.make("roll 7", value=7))
    with pytest.raises(ValueError):
        Finite(((Action.make("a"), 0.5),))


def test_shuffle_outcomes_are_permutations() -> None:
    deck = tuple(f"c{i}" for i in range(10))
    chance = Shuffle("deal", deck, take=4)
    outcome = chance.sample(np.random.default_rng(1))
    assert len(outcome["order"]) == 4 and len(set(outcome["order"])) == 4
    assert chance.is_possible(outcome)
    assert not chance.is_possible(Action.make("deal", order=["c1", "c1", "c2", "c3"]))
    assert not chance.is_possible(Action.make("deal", order=["zz", "c1", "c2", "c3"]))


def test_finite_picks_what_numpy_choice_would() -> None:
    """The cheap cumulative-table draw must pick exactly as ``Generator.choice(p=...)``.

    Recorded games depend on it: a seed must keep giving the same game.
    """
    probs = [0.1, 0.25, 0.05, 0.3, 0.3]
    node = Finite(tuple((Action.make(f"o{i}", i=i), p) for i, p in enumerate(probs)))
    for key in range(3000):
        ours = node.sample(np.random.default_rng([17, key]))["i"]
        theirs = int(np.random.default_rng([17, key]).choice(len(probs), p=np.array(probs)))
        assert ours == theirs
