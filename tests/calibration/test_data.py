"""Loading and validating the four measurement formats; every error names file, line and column."""

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
    assert "cannot read" in _error(tmp_path / "missing.csv", flat_board)
    with pytest.raises(UserError):
        load_all([], flat_board)
