"""The one finite-number check every reader of numbers from user files shares (limits.as_finite)."""

from __future__ import annotations

import datetime
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import MAX_EXACT_INT, as_finite, check_count, check_seed, shown


@pytest.mark.parametrize(
    "value", [True, False, None, "1", [1], {"a": 1}, math.inf, -math.inf, math.nan,
              MAX_EXACT_INT + 1, -(10**400)],
)  # fmt: skip
def test_what_is_not_a_finite_number(value):
    assert as_finite(value) is None


@given(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                 st.integers(-MAX_EXACT_INT, MAX_EXACT_INT)))  # fmt: skip
def test_finite_numbers_pass_as_floats(value):
    out = as_finite(value)
    assert isinstance(out, float) and out == float(value)


@given(
    st.one_of(st.integers(min_value=MAX_EXACT_INT + 1), st.integers(max_value=-MAX_EXACT_INT - 1))
)
def test_huge_ints_never_reach_float(value):
    assert as_finite(value) is None


@pytest.mark.parametrize(
    "reader",
    ["scenario", "params", "flick", "noise", "sweep"],
)
def test_every_reader_refuses_a_bool_and_a_huge_int(reader):
    """The five readers that had their own copy of the check now share it: bools and ints past
    2**53 are refused the same way everywhere (the flick reader used to let ints up to 2**64 in)."""
    from jamsumo_sim.errors import UserError

    def call(value):
        if reader == "scenario":
            from jamsumo_sim.scenario import _number

            return _number(value, "x")
        if reader == "params":
            from jamsumo_sim.physics.params import check_range

            return check_range("mu_board", value)
        if reader == "flick":
            from jamsumo_sim.physics.flick import Flick

            return Flick.from_json({"die": "a", "direction": value, "impulse": 0.01})
        if reader == "noise":
            from jamsumo_sim.noise import from_action
            from jamsumo_sim.turnloop import Action

            return from_action(
                Action.make("e", speed_factor=value, angle=0.0, offset=0.0, height=0.0)
            )
        from jamsumo_sim.sweep.spec import _number as sweep_number

        return sweep_number(value, "x", -1e30, 1e30)

    for bad in (True, 2**60, math.nan):
        with pytest.raises(UserError, match="must be"):
            call(bad)


@pytest.mark.parametrize(
    "value, text",
    [
        (datetime.date(1979, 5, 27), "1979-05-27"),
        (datetime.datetime(1979, 5, 27, 7, 32), "1979-05-27T07:32:00"),
        (datetime.time(7, 32), "07:32:00"),
        ([1, 2, 3], "a list of 3"),
        ({"a": 1}, "a table"),
        ("seven", "'seven'"),
        (True, "True"),
        (2.5, "2.5"),
    ],
)
def test_a_bad_value_reads_as_the_file_wrote_it(value, text):
    assert shown(value) == text
    with pytest.raises(UserError) as seed_error:
        check_seed(value)
    with pytest.raises(UserError) as count_error:
        check_count(value, "--rounds", 1, 9)
    for error in (seed_error, count_error):
        line = str(error.value)
        assert line.endswith(f"not {text}") and "datetime" not in line and "\n" not in line
