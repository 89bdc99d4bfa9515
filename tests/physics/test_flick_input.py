"""A flick read from data: malformed values are one-line UserErrors, never OverflowError or TypeError."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.flick import Flick


@pytest.mark.parametrize(
    "value", [10**400, -(10**400), float("inf"), float("nan"), True, "1", None, [1.0]]
)
def test_bad_numbers_are_user_errors(value) -> None:
    with pytest.raises(UserError, match="direction must be a finite number"):
        Flick.from_json({"die": "a", "direction": value, "impulse": 0.01})


def test_good_flick_round_trips() -> None:
    f = Flick.from_json({"die": "R1", "direction": 1.5, "impulse": 0.01, "offset": 0.2})
    assert (f.die, f.direction, f.impulse, f.offset) == ("R1", 1.5, 0.01, 0.2)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["die", "direction", "impulse", "offset", "height", "x"]),
        st.one_of(st.integers(), st.floats(), st.text(max_size=3), st.booleans(), st.none()),
    )
)
def test_fuzz_from_json_raises_only_user_errors(data) -> None:
    try:
        Flick.from_json(data)
    except UserError as exc:
        assert "\n" not in str(exc)
