"""`jamsumo calibrate`: JSON shape, params file round trip, one-line errors with exit 2."""

from __future__ import annotations

import json
import tomllib

import pytest

from jamsumo_sim.cli import main
from jamsumo_sim.physics.params_file import load_params

from .conftest import FLAT, toy_files


@pytest.fixture()
def flat_toml(tmp_path):
    p = tmp_path / "flat.toml"
    p.write_text(
        'version = 1\nname = "flat"\nplatforms = []\n[board]\n'
        + "".join(f"{k} = {v}\n" for k, v in FLAT.items() if k != "platforms")
    )
    return p


def test_json_shape_and_params_round_trip(tmp_path, flat_toml, flat_board, capsys):
    paths = toy_files(tmp_path, flat_board, mu=0.3)
    out = tmp_path / "fitted.toml"
    plot = tmp_path / "fit.png"
    argv = [
        "calibrate",
        str(paths["rest"]),
        str(paths["tilt"]),
        "--board",
        str(flat_toml),
        "--model",
        "toy",
        "--json",
        "--holdout",
        "0.2",
        "--out",
        str(out),
        "--plot",
        str(plot),
        "--starts",
        "1",
    ]
    assert main(argv) == 0
    cap = capsys.readouterr()
    doc = json.loads(cap.out)
    assert cap.err == ""  # quiet with --json
    assert set(doc) >= {"params", "rms_mm", "holdout_rms_mm", "shots"}
    assert set(doc["params"]) == {"mu_board", "mu_static"}
    for v in doc["params"].values():
        assert set(v) == {"value", "stderr"} and v["stderr"] > 0
    assert doc["shots"] == 16 and doc["holdout_rms_mm"] > 0
    assert abs(doc["params"]["mu_board"]["value"] - 0.3) < 0.01
    # the params file: loadable, carries the fitted values and is stamped with its data
    params = load_params(out)
    assert params.mu_board == doc["params"]["mu_board"]["value"]
    assert params.mu_static == doc["params"]["mu_static"]["value"]
    stamp = tomllib.loads(out.read_text())["stamp"]
    assert stamp["data_files"] == ["rest.csv", "tilt.csv"]
    assert (
        stamp["data_sha256"][0] == doc["data"][0]["sha256"] and len(stamp["data_sha256"][0]) == 64
    )
    assert stamp["mu_board_stderr"] == doc["params"]["mu_board"]["stderr"] and "date" in stamp
    assert plot.stat().st_size > 10_000


def test_text_report(tmp_path, flat_toml, flat_board, capsys):
    paths = toy_files(tmp_path, flat_board, mu=0.3)
    assert (
        main(
            [
                "calibrate",
                str(paths["rest"]),
                "--board",
                str(flat_toml),
                "--model",
                "toy",
                "--starts",
                "1",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "mu_board" in out and "RMS residual" in out and "±" in out


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        ("shot,x0,y0\n", "missing column"),
        ("shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1\na,0,0,0,x,0,0,0.2,0,0\n", ":2:5:"),
        ("", "empty file"),
        ("shot,x0,y0,angle0,vx0,vy0,omega0,x1,y1,angle1\na,9,0,0,1,0,0,0.2,0,0\n", "off the board"),
    ],
)
def test_bad_data_is_one_line_exit_2(tmp_path, flat_toml, capsys, text, expect):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    assert main(["calibrate", str(p), "--board", str(flat_toml), "--model", "toy"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and expect in err and "bad.csv" in err


def test_bad_options(tmp_path, flat_toml, flat_board, capsys):
    paths = toy_files(tmp_path, flat_board)
    common = [str(paths["rest"]), "--board", str(flat_toml), "--model", "toy"]
    assert main(["calibrate", *common, "--fit", "restitution"]) == 2
    assert "collision" in capsys.readouterr().err
    assert main(["calibrate", *common, "--holdout", "1.5"]) == 2
    assert "--holdout" in capsys.readouterr().err
    assert main(["calibrate", *common, "--fit", ""]) == 2
    assert "--fit: no parameter names" in capsys.readouterr().err
    for starts in ("0", "7"):
        assert main(["calibrate", *common, "--starts", starts]) == 2
        assert "--starts must be a whole number from 1 to 6" in capsys.readouterr().err
    for seed in ("-1", str(2**64)):
        with pytest.raises(SystemExit) as exc:  # argparse's usage error, as for every --seed
            main(["calibrate", *common, "--holdout", "0.2", "--seed", seed])
        assert exc.value.code == 2
        assert "2**64-1" in capsys.readouterr().err


def test_outputs_written_atomically_and_stale_temps_removed(
    tmp_path, flat_toml, flat_board, capsys
):
    paths = toy_files(tmp_path, flat_board)
    stale = [tmp_path / ".fit.svg.123.tmp", tmp_path / ".fitted.toml.9.tmp"]
    for f in stale:
        f.write_bytes(b"left by a killed run")
    (tmp_path / "fit.svg").write_text("old plot")
    argv = ["calibrate", str(paths["tilt"]), "--board", str(flat_toml), "--model", "toy", "--json"]
    assert (
        main([*argv, "--out", str(tmp_path / "fitted.toml"), "--plot", str(tmp_path / "fit.svg")])
        == 0
    )
    capsys.readouterr()
    assert (tmp_path / "fit.svg").read_text().lstrip().startswith("<?xml")
    assert load_params(tmp_path / "fitted.toml").mu_static > 0
    assert not any(f.exists() for f in stale)
    assert not list(tmp_path.glob(".*.tmp"))


def test_outputs_checked_before_the_data_are_read(tmp_path, flat_toml, capsys, monkeypatch):
    import jamsumo_sim.calibration.data as data

    def boom(*a, **k):
        raise AssertionError("the data were read before the outputs were checked")

    monkeypatch.setattr(data, "load_all", boom)
    common = ["calibrate", "d.csv", "--board", str(flat_toml)]
    for extra, expect in (
        (["--plot", str(tmp_path / "x.xyz")], "'xyz'"),
        (["--plot", str(tmp_path)], "directory"),
        (["--out", "d.csv"], "also an input"),
        (["--out", str(flat_toml)], "also an input"),
        (["--out", str(tmp_path / "a.png"), "--plot", str(tmp_path / "a.png")], "both name"),
        (["--out", ""], "empty"),
    ):
        assert main([*common, *extra]) == 2
        assert expect in capsys.readouterr().err
