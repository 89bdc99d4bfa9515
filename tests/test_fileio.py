"""The shared file readers and writers: bounded parsing, checked outputs, atomic writes."""

from __future__ import annotations

import json
import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jamsumo_sim import fileio
from jamsumo_sim.errors import UserError
from jamsumo_sim.limits import MAX_SEED, check_count, check_seed

# --- reading ------------------------------------------------------------------------------------


def test_latin1_text_names_file_byte_and_line(tmp_path) -> None:
    p = tmp_path / "params.toml"
    p.write_bytes(b"version = 1\n# friction \xb5 of the board\n")
    with pytest.raises(UserError, match=r"params\.toml is not UTF-8 text \(byte 0xb5 on line 2\)"):
        fileio.read_toml(p, "params file")


@pytest.mark.parametrize(
    "text,fragment",
    [
        ("[" + "1" * 5000 + "]", "5000 digits"),
        ('{"a": 1e999}', "out of range"),
        ('{"a": NaN}', "NaN is not a JSON number"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper than 64"),
        ('{"a": [' + "[" * 70 + "]" * 70 + "]}", "nested deeper than 64"),
        ("   ", "is empty"),
        ('{"a": 1,}', "line 1"),
    ],
)
def test_hostile_json_is_one_line(text: str, fragment: str) -> None:
    with pytest.raises(UserError) as info:
        fileio.parse_json(text, "replay x.json")
    msg = str(info.value)
    assert fragment in msg and "\n" not in msg and msg.startswith("replay x.json")


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"log": "[" * 500, "n": [1, 2]})
    assert fileio.parse_json(text, "x")["n"] == [1, 2]


def test_largest_seed_still_parses() -> None:
    assert fileio.parse_json(json.dumps({"seed": MAX_SEED}), "x")["seed"] == MAX_SEED


def test_directory_and_missing_file(tmp_path) -> None:
    with pytest.raises(UserError, match="is a directory"):
        fileio.read_json(tmp_path, "record")
    with pytest.raises(UserError, match="no such file"):
        fileio.read_json(tmp_path / "nope.json", "record")


def test_toml_integer_out_of_range() -> None:
    with pytest.raises(UserError, match="out of range"):
        fileio.parse_toml("n = 123456789012345678901234567890", "board b.toml")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='{}[]",:0123456789.eE-+ tfnaulrsNI\\', max_size=200))
def test_fuzz_parse_json_raises_only_user_errors(text: str) -> None:
    try:
        fileio.parse_json(text, "f")
    except UserError as exc:
        assert "\n" not in str(exc)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_decode_raises_only_user_errors(data: bytes) -> None:
    try:
        fileio.parse_toml(fileio.decode_utf8(data, "f"), "f")
    except UserError as exc:
        assert "\n" not in str(exc)


# --- output paths -------------------------------------------------------------------------------


def test_output_path_checks(tmp_path) -> None:
    src = tmp_path / "data.csv"
    src.write_text("x\n")
    with pytest.raises(UserError, match="is also an input"):
        fileio.check_output_path(src, "--out", inputs=[src])
    with pytest.raises(UserError, match="is also an input"):
        fileio.check_output_path(tmp_path / "." / "data.csv", "--out", inputs=[str(src)])
    with pytest.raises(UserError, match="path is empty"):
        fileio.check_output_path("", "--record")
    with pytest.raises(UserError, match="is a directory"):
        fileio.check_output_path(tmp_path, "--record")
    with pytest.raises(UserError, match="data.csv is a file, not a folder"):
        fileio.check_output_path(src / "x.json", "--record")
    with pytest.raises(UserError, match="unsupported file type '.xyz'"):
        fileio.check_output_path(tmp_path / "fit.xyz", "--plot", suffixes=[".png", ".pdf"])
    assert (
        fileio.check_output_path(tmp_path / "new" / "deep" / "r.json", "--record").name == "r.json"
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_output_in_read_only_folder(tmp_path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    with pytest.raises(UserError, match="cannot be written"):
        fileio.check_output_path(ro / "x.json", "--record")


# --- atomic writes ------------------------------------------------------------------------------


def test_write_keeps_old_file_when_writer_fails(tmp_path) -> None:
    p = tmp_path / "rec.json"
    fileio.write_json(p, {"a": 1})

    def broken(handle) -> None:
        handle.write('{"half')
        raise RuntimeError("killed mid-write")

    with pytest.raises(RuntimeError):
        fileio.write_atomic(p, broken)
    assert json.loads(p.read_text()) == {"a": 1}
    assert [q.name for q in tmp_path.iterdir()] == ["rec.json"]


def test_stale_temp_files_are_removed_on_next_write(tmp_path) -> None:
    p = tmp_path / "rec.json"
    stale = tmp_path / ".rec.json.abc123.tmp"
    stale.write_text("left by a killed writer")
    other = tmp_path / ".other.json.abc123.tmp"
    other.write_text("another file's temp: not ours to remove")
    fileio.write_json(p, [1])
    assert not stale.exists() and other.exists()


def test_new_files_get_the_umask_mode(tmp_path) -> None:
    old = os.umask(0o022)
    try:
        fileio._umask_cache = None
        p = fileio.write_atomic(tmp_path / "x.txt", "hi")
    finally:
        os.umask(old)
        fileio._umask_cache = None
    assert stat.S_IMODE(p.stat().st_mode) == 0o644


def test_write_into_a_file_as_folder_is_one_line(tmp_path) -> None:
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(UserError, match="is a file"):
        fileio.write_json(f / "x.json", {}, "record")


# --- command-line bounds ------------------------------------------------------------------------


def test_seed_bounds() -> None:
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED
    for bad in (-1, MAX_SEED + 1, True, 1.5, "3"):
        with pytest.raises(UserError):
            check_seed(bad)
    with pytest.raises(UserError, match="--rounds must be a whole number from 1 to 100"):
        check_count(10**12, "--rounds", 1, 100)


def test_two_million_open_brackets_are_refused_not_recursed() -> None:
    with pytest.raises(UserError, match="nested deeper"):
        fileio.parse_json("[" * 2_000_000, "x")
