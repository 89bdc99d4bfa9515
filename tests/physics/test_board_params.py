"""Board data, seat frames, parameters and params files."""

from __future__ import annotations

import itertools
import math
import re
import tomllib
from pathlib import Path

import pytest

from jamsumo_sim.errors import UserError
from jamsumo_sim.physics.board import (
    MAX_PLATFORMS,
    board_to_dict,
    from_seat,
    geometry_markdown,
    load_board,
    to_seat,
)
from jamsumo_sim.physics.params import RANGES, PhysicsParams, ranges_markdown
from jamsumo_sim.physics.params_file import dump_params, load_params
from jamsumo_sim.resources import asset


def test_standard_board_values(standard_board):
    b = standard_board
    assert b.side == 0.45 and b.hole_diameter == 0.035 and b.dish_depth > 0
    assert len(b.platforms) == 4 and len(b.sumo_areas) == 4 and len(b.legs) == 3
    raw = tomllib.loads(asset("boards", "standard.toml").read_text())
    assert raw["version"] == 1


def test_inline_board_defaults_and_no_platforms():
    b = load_board({"side": 2.0, "hole_diameter": 0.0, "dish_depth": 0.0, "platforms": []})
    std = load_board("standard")
    assert b.side == 2.0 and b.platforms == () and b.sumo_areas == std.sumo_areas
    assert b.dish_radius == 1.0
    assert load_board(board_to_dict(std)) == std


@pytest.mark.parametrize(
    "raw, msg",
    [
        ({"sidee": 1.0}, "unknown key"),
        ({"side": -1.0}, "side"),
        ({"side": "big"}, "number"),
        ({"platforms": [{"x": 0}]}, "missing"),
        ({"version": 2}, "version"),
        ({"params": {"mu_nope": 1}}, "unknown parameter"),
    ],
)
def test_bad_inline_boards(raw, msg):
    with pytest.raises(UserError, match=msg):
        load_board(raw)


def test_unknown_board_name():
    with pytest.raises(UserError, match="unknown board"):
        load_board("no-such-board")


@pytest.mark.parametrize("corner", [0, 1, 2, 3, "north-west"])
def test_sumo_start_positions(standard_board, params, corner):
    spots = standard_board.sumo_start_positions(corner, params.die_size)
    area = standard_board.sumo_area(corner)
    assert len(spots) == 6
    a = params.die_size
    for x, y in spots:
        assert abs(x - area.x) <= area.width / 2 - a / 2 + 1e-12
        assert abs(y - area.y) <= area.depth / 2 - a / 2 + 1e-12
    for (x1, y1), (x2, y2) in itertools.combinations(spots, 2):
        assert max(abs(x1 - x2), abs(y1 - y2)) > a


def test_platform_helpers(standard_board):
    p = standard_board.platforms[0]
    assert standard_board.platform_at(p.x, p.y) == p
    assert standard_board.platform_at(0.0, 0.0) is None
    assert standard_board.jam_zone_drop_point(p.name) == (p.x, p.y)


def test_seat_frames():
    # seat 0 at -y; seat 1 (to seat 0's left) at -x: in seat 1's view it sits at -y
    assert to_seat(1, -1.0, 0.0) == (0.0, -1.0)
    assert to_seat(2, 0.0, 1.0) == (0.0, -1.0)
    assert to_seat(3, 1.0, 0.0) == (0.0, -1.0)
    for k in range(4):
        x, y, a = to_seat(k, 0.1, -0.2, 0.3)
        assert from_seat(k, x, y, a) == pytest.approx((0.1, -0.2, 0.3))
        assert math.hypot(x, y) == pytest.approx(math.hypot(0.1, -0.2))


def test_params_overrides(params):
    q = params.with_overrides({"mu_board": 0.2, "patch_quadrature": 6})
    assert q.mu_board == 0.2 and q.patch_quadrature == 6 and params.mu_board == 0.25
    with pytest.raises(UserError, match="unknown parameter 'mu_bored'"):
        params.with_overrides({"mu_bored": 0.2})
    with pytest.raises(UserError, match="mu_static"):
        params.with_overrides({"mu_board": 0.5})
    with pytest.raises(UserError, match="number"):
        params.with_overrides({"mu_board": "x"})
    for name in ("mu_board", "mu_static", "mu_die", "restitution", "die_size", "die_mass"):
        assert name in PhysicsParams.names()
    assert params.die_inertia == pytest.approx(params.die_mass * params.die_size**2 / 6)


def test_params_file_round_trip(tmp_path, params):
    q = params.with_overrides({"mu_board": 0.1 + 0.2, "mu_static": 1 / 3, "restitution": 1e-5})
    path = tmp_path / "fit.toml"
    dump_params(q, path, {"source": 'bench "A"\n', "n_shots": 12, "rmse": 0.0015})
    assert load_params(path) == q
    raw = tomllib.loads(path.read_text())
    assert raw["version"] == 1 and raw["stamp"]["n_shots"] == 12


def test_params_file_errors(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("version = 1\n[params]\nmu_boardx = 0.3\n")
    with pytest.raises(UserError, match="unknown parameter"):
        load_params(p)
    p.write_text("[params]\nmu_board = 0.3\n")
    with pytest.raises(UserError, match="version"):
        load_params(p)
    p.write_text("version = 1\nmu_board = = 0.3\n")
    with pytest.raises(UserError, match="not valid TOML"):
        load_params(p)
    with pytest.raises(UserError, match="missing.toml: no such file"):
        load_params(tmp_path / "missing.toml")


# --- sane ranges (issue 15) -------------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]


def test_every_parameter_has_a_range_holding_the_standard_value(params):
    assert tuple(RANGES) == PhysicsParams.names()
    for name, r in RANGES.items():
        assert r.low <= getattr(params, name) <= r.high, name
        assert isinstance(getattr(params, name), int) == r.integer, name


def test_the_limits_doc_shows_the_ranges_of_the_code():
    doc = (REPO / "docs" / "limits.md").read_text(encoding="utf-8")
    assert ranges_markdown() in doc, "docs/limits.md: paste params.ranges_markdown()"
    assert geometry_markdown() in doc, "docs/limits.md: paste board.geometry_markdown()"


def _outside(name: str) -> list[float | int]:
    r = RANGES[name]
    step = 1 if r.integer else r.high * 1e-3
    return [r.low - step, r.high + step, r.high * 1000]


@pytest.mark.parametrize("name", list(RANGES))
def test_each_parameter_out_of_range_is_one_line(params, name):
    for value in _outside(name):
        with pytest.raises(UserError, match=f"parameter {name} must be") as err:
            params.with_overrides({name: value})
        assert "\n" not in str(err.value)


@pytest.mark.parametrize("value", [6.5, math.inf, -math.inf, math.nan, 1e300, 10**400, True, "6"])
def test_whole_number_parameters_refuse_odd_values(params, value):
    with pytest.raises(UserError, match="patch_quadrature"):
        params.with_overrides({"patch_quadrature": value})


def test_tiny_dt_is_refused_everywhere(params, tmp_path):
    with pytest.raises(UserError, match="dt must be from 0.0001 to 0.01 s, got 1e-09"):
        params.with_overrides({"dt": 1e-9})
    with pytest.raises(UserError, match="inline board: parameter dt"):
        load_board({"name": "tiny", "params": {"dt": 1e-9}})
    f = tmp_path / "p.toml"
    f.write_text("version = 1\n[params]\ndt = 1e-9\n")
    with pytest.raises(UserError, match=f"params file {f}: parameter dt"):
        load_params(f)


def test_params_file_version_true_and_stray_keys(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text("version = true\n[params]\nmu_board = 0.3\n")
    with pytest.raises(UserError, match="version True"):
        load_params(f)
    f.write_text("version = 1\ndt = 0.001\n[params]\nmu_board = 0.3\n")
    with pytest.raises(UserError, match="unknown key 'dt' outside"):
        load_params(f)


def test_params_file_not_utf8_names_file_and_line(tmp_path):
    f = tmp_path / "p.toml"
    f.write_bytes(b"version = 1\n# die of 16 mm = 16000 \xb5m\n[params]\nmu_board = 0.3\n")
    with pytest.raises(UserError, match=r"p.toml is not UTF-8 text \(byte 0xb5 on line 2\)"):
        load_params(f)


def test_dump_params_is_atomic(tmp_path, params):
    target = tmp_path / "fit.toml"
    stale = tmp_path / ".fit.toml.abc123.tmp"  # left by a killed writer
    stale.write_text("half")
    dump_params(params, target)
    assert not stale.exists() and load_params(target) == params
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UserError, match="params file"):
        dump_params(params, blocker / "fit.toml")


BOARD_FILE_CASES = {
    "empty": ("# nothing\n", "is empty"),
    "duplicate platform names": (
        "version = 1\n[[platforms]]\nname = 'a'\nx = 0.1\ny = 0.1\nwidth = 0.02\ndepth = 0.02\n"
        "height = 0.003\n[[platforms]]\nname = 'a'\nx = -0.1\ny = 0.1\nwidth = 0.02\n"
        "depth = 0.02\nheight = 0.003\n",
        "two platforms are named 'a'",
    ),
    "platform over the hole": (
        "version = 1\n[[platforms]]\nname = 'p'\nx = 0.02\ny = 0.0\nwidth = 0.02\ndepth = 0.02\n"
        "height = 0.003\n",
        "platform 'p' lies over the hole",
    ),
    "platform off the board": (
        "version = 1\n[[platforms]]\nname = 'p'\nx = 0.22\ny = 0.0\nwidth = 0.02\ndepth = 0.02\n"
        "height = 0.003\n",
        "platform 'p' reaches off the board",
    ),
    "overlapping platforms": (
        "version = 1\n[[platforms]]\nname = 'a'\nx = 0.1\ny = 0.1\nwidth = 0.04\ndepth = 0.04\n"
        "height = 0.003\n[[platforms]]\nname = 'b'\nx = 0.12\ny = 0.1\nwidth = 0.04\n"
        "depth = 0.04\nheight = 0.003\n",
        "platforms 'a' and 'b' overlap",
    ),
    "negative size": (
        "version = 1\n[[platforms]]\nname = 'p'\nx = 0.1\ny = 0.1\nwidth = -0.02\ndepth = 0.02\n"
        "height = 0.003\n",
        "width must be from 0.001 to 10 m",
    ),
    "negative side": ("version = 1\n[board]\nside = -0.45\n", "side must be from 0.1 to 10 m"),
    "legs in a line": (
        "version = 1\n"
        + "".join(f"[[legs]]\nx = {x}\ny = 0.0\nheight = 0.02\n" for x in (-0.2, 0, 0.2)),
        "legs stand (nearly) in a line",
    ),
    "steep tilt": (
        "version = 1\n[[legs]]\nx = -0.2\ny = -0.2\nheight = 0.0\n[[legs]]\nx = 0.2\ny = -0.2\n"
        "height = 0.0\n[[legs]]\nx = 0.0\ny = 0.2\nheight = 0.9\n",
        "more than 30 degrees",
    ),
    "version true": ("version = true\n", "unsupported board version"),
    "name not text": ("version = 1\nname = 5\n", "name must be a text"),
    "huge dish": ("version = 1\n[board]\ndish_depth = 1e300\n", "dish_depth must be from 0"),
    "bad default param": ("version = 1\n[params]\nsupport_samples = 100000\n", "support_samples"),
}


@pytest.mark.parametrize("case", list(BOARD_FILE_CASES))
def test_bad_board_files_are_one_line(tmp_path, case):
    text, msg = BOARD_FILE_CASES[case]
    f = tmp_path / "b.toml"
    f.write_text(text)
    with pytest.raises(UserError, match=re.escape(msg)) as err:
        load_board(f)
    assert "\n" not in str(err.value) and "b.toml" in str(err.value)


def test_too_many_platforms():
    many = [
        {
            "name": f"p{i}",
            "x": -0.9 + 0.1 * i,
            "y": 0.5,
            "width": 0.02,
            "depth": 0.02,
            "height": 0.003,
        }
        for i in range(MAX_PLATFORMS + 1)
    ]
    with pytest.raises(UserError, match="at most 16 platforms"):
        load_board({"side": 2.0, "platforms": many})


def test_board_file_not_utf8(tmp_path):
    f = tmp_path / "b.toml"
    f.write_bytes(b"version = 1\nname = 'caf\xe9'\n")
    with pytest.raises(UserError, match=r"b.toml is not UTF-8 text \(byte 0xe9 on line 2\)"):
        load_board(f)
