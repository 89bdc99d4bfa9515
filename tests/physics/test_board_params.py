"""Board data, seat frames, parameters and params files."""

from __future__ import annotations

import itertools
import math
import tomllib

import pytest

from jamsumo_sim.board import board_to_dict, from_seat, load_board, to_seat
from jamsumo_sim.errors import UserError
from jamsumo_sim.params import PhysicsParams, dump_params, load_params
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
    with pytest.raises(UserError, match="cannot read"):
        load_params(tmp_path / "missing.toml")
