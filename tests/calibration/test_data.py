"""Loading and validating the five measurement formats; every error names file, line and column."""

from __future__ import annotations

import pytest

from jamsumo_sim.calibration.data import COLLISION, REST, TILT, TRAJECTORY, load_all, load_data
from jamsumo_sim.errors import UserError

from .conftest import toy_files

REST_HEADER = "shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1"


def _write(tmp_path, text, name="d.csv"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _error(path, board) -> str:
    with pytest.raises(UserError) as exc:
        load_data(path, board)
    msg = str(exc.value)
    assert "\n" not in msg
    return msg


def test_all_four_formats_load_and_are_recognised(tmp_path, flat_board):
    files = toy_files(tmp_path, flat_board)
    loaded = load_all(list(files.values()), flat_board)
    assert [f.kind for f in loaded] == [REST, COLLISION, TRAJECTORY, TILT]
    rest = loaded[0]
    assert len(rest.items) == 20 and rest.items[0].shot == "s0"
    assert rest.items[0].line == 3  # line 1 is the SYNTHETIC comment, line 2 the header
    assert len(rest.sha256) == 64
    assert len(loaded[2].items) == 3 and len(loaded[2].items[0].t) == 21
    assert all(isinstance(t.slipped, bool) for t in loaded[3].items)


def test_comments_blank_lines_and_extra_columns_are_ignored(tmp_path, flat_board):
    p = _write(tmp_path, f"# note\n\n{REST_HEADER},notes\na,0,0,0,1,0,0,0.2,0,0,hello\n")
    f = load_data(p, flat_board)
    assert f.kind == REST and f.items[0].rest.x == pytest.approx(0.2)


def test_missing_column(tmp_path, flat_board):
    p = _write(tmp_path, "shot,x0,y0,angle0,vx0,vy0,x1,y1,angle1\na,0,0,0,1,0,0.2,0,0\n")
    msg = _error(p, flat_board)
    assert f"{p}:1:" in msg and "missing column 'omega0'" in msg


def test_not_a_number_names_line_and_column(tmp_path, flat_board):
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,1,0,0,0.2,0,0\nb,0,0,0,fast,0,0,0.2,0,0\n")
    msg = _error(p, flat_board)
    assert f"{p}:3:5:" in msg and "'vx0'" in msg and "'fast' is not a number" in msg


def test_non_finite_is_rejected(tmp_path, flat_board):
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,1,0,nan,0.2,0,0\n")
    assert f"{p}:2:7:" in _error(p, flat_board)


def test_die_starting_off_the_board(tmp_path, std_board):
    p = _write(tmp_path, f"{REST_HEADER}\na,0.1,0,0,1,0,0,0.2,0,0\nb,0.30,0.1,0,1,0,0,0.2,0,0\n")
    msg = _error(p, std_board)
    assert f"{p}:3:2:" in msg and "off the board" in msg


def test_die_starting_over_the_hole(tmp_path, std_board):
    p = _write(tmp_path, f"{REST_HEADER}\na,0.005,0,0,1,0,0,0.2,0,0\n")
    assert "over the hole" in _error(p, std_board)


def test_empty_file_and_header_only(tmp_path, flat_board):
    assert "empty file" in _error(_write(tmp_path, "", "e.csv"), flat_board)
    assert "empty file" in _error(_write(tmp_path, "# only a comment\n", "c.csv"), flat_board)
    p = _write(tmp_path, REST_HEADER + "\n", "h.csv")
    assert f"{p}:1:" in _error(p, flat_board) and "no data rows" in _error(p, flat_board)


def test_wrong_field_count_and_duplicate_shot(tmp_path, flat_board):
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,1,0,0,0.2,0\n", "f.csv")
    assert f"{p}:2:" in _error(p, flat_board) and "fields" in _error(p, flat_board)
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,1,0,0,0.2,0,0\na,0,0,0,1,0,0,0.2,0,0\n", "g.csv")
    msg = _error(p, flat_board)
    assert f"{p}:3:1:" in msg and "appears twice" in msg


def test_trajectory_time_must_increase_and_needs_samples(tmp_path, flat_board):
    p = _write(tmp_path, "shot,t,x,y,angle\na,0,0,0,0\na,0.1,0.1,0,0\na,0.1,0.2,0,0\n")
    msg = _error(p, flat_board)
    assert f"{p}:4:2:" in msg and "does not increase" in msg
    p = _write(tmp_path, "shot,t,x,y,angle\na,0,0,0,0\na,0.1,0.1,0,0\n", "short.csv")
    assert "at least 3" in _error(p, flat_board)


def test_tilt_values(tmp_path, flat_board):
    p = _write(tmp_path, "angle_deg,slipped\n10,0\n20,maybe\n")
    assert f"{p}:3:2:" in _error(p, flat_board)
    p = _write(tmp_path, "angle_deg,slipped\n95,1\n", "t2.csv")
    assert f"{p}:2:1:" in _error(p, flat_board)
    f = load_data(_write(tmp_path, "angle_deg,slipped\n10,no\n20,YES\n", "t3.csv"), flat_board)
    assert [t.slipped for t in f.items] == [False, True]


def test_unreadable_and_no_files(tmp_path, flat_board):
    assert "no such file" in _error(tmp_path / "missing.csv", flat_board)
    with pytest.raises(UserError):
        load_all([], flat_board)


# --- bounds and consistency checks (issue 15): one line naming file, line and column -----------------

COL_HEADER = "shot,x0,y0,angle0,vx0,vy0,omega0,tx0,ty0,tangle0,x1,y1,angle1,tx1,ty1,tangle1"


def test_launch_speed_above_the_cap_and_absurd_speeds(tmp_path, flat_board, base_params):
    cap = base_params.max_launch_speed
    for i, vx in enumerate(("1e300", "-1e308", str(cap * 1.01))):
        p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,{vx},0.5,0,0.2,0,0\n", f"v{i}.csv")
        msg = _error(p, flat_board)
        assert f"{p}:2:5:" in msg and f"above the {cap:g} m/s cap" in msg
    ok = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,{cap},0,0,0.2,0,0\n", "ok.csv")
    assert load_data(ok, flat_board).items[0].launch.speed == cap


def test_speed_cap_comes_from_the_params(tmp_path, flat_board, base_params):
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,3,0,0,0.2,0,0\n")
    load_data(p, flat_board, base_params)
    slow = base_params.with_overrides({"max_launch_speed": 2.0})
    assert "above the 2 m/s cap" in str(
        pytest.raises(UserError, load_data, p, flat_board, slow).value
    )


def test_spin_angle_and_time_bounds(tmp_path, flat_board):
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,0,1,0,5000,0.2,0,0\n", "spin.csv")
    msg = _error(p, flat_board)
    assert f"{p}:2:7:" in msg and "spin" in msg
    p = _write(tmp_path, f"{REST_HEADER}\na,0,0,1e200,1,0,0,0.2,0,0\n", "ang.csv")
    assert f"{p}:2:4:" in _error(p, flat_board) and "out of range" in _error(p, flat_board)
    p = _write(tmp_path, "shot,t,x,y,angle\na,0,0,0,0\na,1e9,0.1,0,0\na,2e9,0.2,0,0\n", "t.csv")
    assert f"{p}:3:2:" in _error(p, flat_board)
    p = _write(tmp_path, "shot,t,x,y,angle\na,0,0,0,0\na,10,0.1,0,0\na,30,0.2,0,0\n", "long.csv")
    msg = _error(p, flat_board)
    assert f"{p}:4:2:" in msg and "20 s after shot 'a' starts" in msg


def test_tracked_positions_must_stay_on_the_board(tmp_path, flat_board):
    p = _write(tmp_path, "shot,t,x,y,angle\na,0,0,0,0\na,0.1,0.1,0,0\na,0.2,1e300,0,0\n")
    msg = _error(p, flat_board)
    assert f"{p}:4:3:" in msg and "off the board" in msg


def test_collision_dice_starting_overlapping(tmp_path, flat_board):
    rest = "0.2,0,0,0.4,0,0"
    for i, (tx, ta) in enumerate((("0.01", "0"), ("0.0165", "0.785"), ("0", "0"))):
        p = _write(tmp_path, f"{COL_HEADER}\nc,0,0,0,1,0,0,{tx},0,{ta},{rest}\n", f"o{i}.csv")
        msg = _error(p, flat_board)
        assert f"{p}:2:8:" in msg and "start overlapping" in msg
    # touching faces (16 mm apart, square on) and corners that clear each other are fine
    for i, (tx, ty, ta) in enumerate((("0.016", "0", "0"), ("0.0215", "0.0", "0.785"))):
        p = _write(tmp_path, f"{COL_HEADER}\nc,0,0,0,1,0,0,{tx},{ty},{ta},{rest}\n", f"k{i}.csv")
        assert len(load_data(p, flat_board).items) == 1


def test_same_file_twice_is_refused(tmp_path, flat_board):
    files = toy_files(tmp_path, flat_board)
    rest = files["rest"]
    link = tmp_path / "link.csv"
    link.symlink_to(rest)
    copy = tmp_path / "copy.csv"
    copy.write_bytes(rest.read_bytes())
    for second in (rest, tmp_path / "." / "rest.csv", link):
        with pytest.raises(UserError, match="given twice"):
            load_all([rest, files["tilt"], second], flat_board)
    with pytest.raises(UserError, match="same contents"):
        load_all([rest, copy], flat_board)


def test_unknown_header_names_unknown_and_expected_columns(tmp_path, flat_board):
    p = _write(tmp_path, "shot,x0,y0,angle0,vx0,vy0,omega_0,x1,y1,angle1\na,0,0,0,1,0,0,0.2,0,0\n")
    msg = _error(p, flat_board)
    assert f"{p}:1:" in msg and "missing column 'omega0'" in msg and "'omega_0'" in msg
    assert "shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1" in msg
    p = _write(tmp_path, "foo,bar\n1,2\n", "none.csv")
    msg = _error(p, flat_board)
    assert "matches none of the five formats" in msg and "'foo', 'bar'" in msg
    assert "angle_deg,slipped" in msg and "quarter_turns,face,travel,hopped" in msg
    p = _write(tmp_path, "angle_deg,slipped,slipped\n10,0,0\n", "dup.csv")
    assert f"{p}:1:3:" in _error(p, flat_board) and "appears twice" in _error(p, flat_board)


def test_not_utf8_and_byte_order_mark(tmp_path, flat_board):
    p = tmp_path / "latin1.csv"
    p.write_bytes(b"# measured by J\xfcrgen\nangle_deg,slipped\n10,0\n")
    msg = _error(p, flat_board)
    assert str(p) in msg and "not UTF-8" in msg and "line 1" in msg
    p = tmp_path / "bom.csv"
    p.write_bytes(b"\xef\xbb\xbfangle_deg,slipped\n10,0\n")
    assert load_data(p, flat_board).kind == TILT


def test_non_finite_values_in_every_format(tmp_path, flat_board):
    cases = {
        "r.csv": f"{REST_HEADER}\na,0,0,0,1,0,0,0.2,0,-inf\n",
        "c.csv": f"{COL_HEADER}\nc,-0.1,0,0,1,0,0,0,0,0,0.2,0,0,0.4,NaN,0\n",
        "t.csv": "shot,t,x,y,angle\na,0,0,0,0\na,infinity,0.1,0,0\na,1,0.2,0,0\n",
        "s.csv": "angle_deg,slipped\n1e999,0\n",
    }
    for name, text in cases.items():
        msg = _error(_write(tmp_path, text, name), flat_board)
        assert "not a finite number" in msg and f"{name}:" in msg


def test_huge_files_stop_at_the_limits(tmp_path, flat_board, monkeypatch):
    from jamsumo_sim.calibration import limits

    monkeypatch.setattr(limits, "MAX_LINES", 50)
    p = _write(tmp_path, "angle_deg,slipped\n" + "10,0\n" * 60, "many.csv")
    assert "more than 50 lines" in _error(p, flat_board)
    p = _write(tmp_path, "angle_deg,slipped\n10,0," + "x" * 20_000 + "\n", "wide.csv")
    assert f"{p}:2:" in _error(p, flat_board) and "characters long" in _error(p, flat_board)
    monkeypatch.setattr(limits, "MAX_SHOTS", 3)
    rows = "".join(f"s{i},0,0,0,1,0,0,0.2,0,0\n" for i in range(5))
    p = _write(tmp_path, f"{REST_HEADER}\n{rows}", "shots.csv")
    assert f"{p}:5:" in _error(p, flat_board) and "more than 3 shots" in _error(p, flat_board)
    rows2 = "".join(f"u{i},0,0,0,1.1,0,0,0.2,0,0\n" for i in range(2))
    a = _write(tmp_path, f"{REST_HEADER}\n{rows2}", "a.csv")
    b = _write(tmp_path, f"{REST_HEADER}\n{rows2.replace('1.1', '1.2')}", "b.csv")
    with pytest.raises(UserError, match="more than 3 shots in all"):
        load_all([a, b], flat_board)
