"""Fuzzing the measurement-file readers: mutated sample rows give data or one UserError, nothing else.

In-process (the readers are called directly); the hostile CLI cases are in tests/hostile/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jamsumo_sim.calibrate import calibrate
from jamsumo_sim.calibration.data import DataFile, load_data, parse_data
from jamsumo_sim.calibration.model import ToySimulator
from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import load_board
from jamsumo_sim.physics.params import PhysicsParams

SAMPLES = Path(__file__).resolve().parents[2] / "calibration" / "samples"
FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _head(name: str, lines: int) -> list[str]:
    """The sample file's header and first data rows (comments dropped)."""
    rows = [ln for ln in (SAMPLES / name).read_text().splitlines() if not ln.startswith("#")]
    return rows[:lines]


SAMPLE_LINES = {
    "rest": _head("rest_poses.csv", 5),
    "collision": _head("collisions.csv", 4),
    "trajectory": _head("trajectories.csv", 10),
    "tilt": _head("tilt.csv", 6),
}

NASTY = st.sampled_from(
    [
        "",
        "1e300",
        "-1e308",
        "1e999",
        "nan",
        "-inf",
        "Infinity",
        "1_0",
        "0x10",
        "5.0000001",
        "9" * 400,
        "\x00",
        '"',
        '"a,b"',
        "\ufeff",
        "\r",
        "\u2028",
        "#",
        "-0",
        "1e-320",
    ]
)
FIELD = st.one_of(
    NASTY,
    st.floats(-10, 10).map(str),  # plausible values reach the range checks behind the parsing
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(max_size=12),
)


@st.composite
def mutated(draw) -> str:
    """A sample file with a few random edits: fields replaced, dropped or added, lines shuffled."""
    lines = [ln.split(",") for ln in SAMPLE_LINES[draw(st.sampled_from(sorted(SAMPLE_LINES)))]]
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["field"] * 6 + ["drop", "add", "dupline", "delline", "raw"]))
        # mostly data rows: a broken header stops the reader before any value is looked at
        i = draw(st.sampled_from([0, *list(range(1, len(lines))) * 4]))
        row = lines[i]
        j = draw(st.integers(0, len(row) - 1))
        if op == "field":
            row[j] = draw(FIELD)
        elif op == "drop" and len(row) > 1:
            del row[j]
        elif op == "add":
            row.insert(j, draw(FIELD))
        elif op == "dupline":
            lines.insert(i, list(row))
        elif op == "delline" and len(lines) > 1:
            del lines[i]
        elif op == "raw":
            text = ",".join(row)
            k = draw(st.integers(0, len(text)))
            lines[i] = (text[:k] + draw(st.text(max_size=6)) + text[k:]).split(",")
    return "\n".join(",".join(r) for r in lines) + "\n"


@pytest.fixture(scope="module")
def plank():
    return load_board(SAMPLES / "plank.toml")


@FUZZ
@given(text=mutated())
def test_parse_mutated_rows_only_user_errors(plank, text):
    try:
        kind, items = parse_data(text, plank, where="fuzz.csv")
    except UserError as exc:
        msg = str(exc)
        assert msg.startswith("fuzz.csv") and "\n" not in msg
        return
    assert items and kind in SAMPLE_LINES


@st.composite
def values_mutated(draw) -> str:
    """A sample file with a few numbers replaced (any float, often extreme): the structure stays valid."""
    lines = [ln.split(",") for ln in SAMPLE_LINES[draw(st.sampled_from(sorted(SAMPLE_LINES)))]]
    number = st.one_of(
        st.floats(allow_nan=True, allow_infinity=True),
        st.floats(-10, 10),
        st.sampled_from([1e300, -1e155, 1e12, 5.0000001, 937.5, 25.0, -0.0]),  # past each bound
    )
    for _ in range(draw(st.integers(1, 3))):
        row = lines[draw(st.integers(1, len(lines) - 1))]
        # half the edits go to the launch velocity and time columns: they drive the simulations
        driving = [k for k, c in enumerate(lines[0]) if c in ("vx0", "vy0", "omega0", "t")]
        j = draw(
            st.sampled_from(driving)
            if driving and draw(st.booleans())
            else st.integers(0, len(row) - 1)
        )
        if lines[0][j] not in ("shot", "slipped"):
            row[j] = repr(draw(number))
    return "\n".join(",".join(r) for r in lines) + "\n"


@settings(max_examples=150, deadline=None)
@given(text=values_mutated())
def test_mutated_values_fit_only_user_errors(plank, text):
    """What the reader accepts, the fit takes without a crash (toy simulator, few evaluations)."""
    try:
        kind, items = parse_data(text, plank, where="fuzz.csv")
        files = [DataFile(Path("fuzz.csv"), kind, "0" * 64, items)]
        calibrate(files, PhysicsParams.from_board(plank), ToySimulator(), starts=1, max_nfev=3)
    except UserError:
        pass


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.binary(max_size=200), base=st.sampled_from(sorted(SAMPLE_LINES)))
def test_mutated_bytes_only_user_errors(tmp_path, plank, data, base):
    """Raw bytes (not UTF-8, NULs, stray line ends) spliced into a sample file, read from disk."""
    good = ("\n".join(SAMPLE_LINES[base]) + "\n").encode()
    cut = len(data) % (len(good) + 1)
    p = tmp_path / "bytes.csv"
    p.write_bytes(good[:cut] + data + good[cut:])
    try:
        load_data(p, plank)
    except UserError as exc:
        assert "\n" not in str(exc) and str(p) in str(exc)
