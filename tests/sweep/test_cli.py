"""`jamsumo sweep`: the --json contract, the data file (spec and program version inside) and the
heat maps."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from jamsumo_sim import __version__
from jamsumo_sim.cli import main
from jamsumo_sim.sweep.output import read_data

SPEC = {
    "version": 1,
    "board": "standard",
    "mode": "sumo",
    "die": {"x": 0.0, "y": -0.18, "face": 3},
    "dice": [{"id": "a", "x": 0.0, "y": -0.12, "face": 5}],
    "aim": {"from": 1.5, "to": 1.65, "steps": 2},
    "speed": {"from": 0.8, "to": 1.6, "steps": 2},
    "repeats": 2,
    "noise": "practice",
    "seed": 4,
}


def test_json_output_data_file_and_heat_maps(tmp_path: Path, capsys) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    out = tmp_path / "maps"
    assert main(["sweep", str(spec), "--workers", "0", "--out", str(out), "--json"]) == 0
    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    assert captured.err == ""  # --json: no progress bar
    assert printed["version"] == 1 and printed["shots"] == 8
    assert [(c["aim"], c["speed"]) for c in printed["cells"]] == [
        (1.5, 0.8), (1.5, 1.6), (1.65, 0.8), (1.65, 1.6)
    ]  # fmt: skip
    assert "mean_points" in printed["cells"][0]
    assert any(c["p_struck"] > 0 for c in printed["cells"])  # the die in front gets hit
    data = read_data(out / "sweep.npz")
    assert data["spec"]["die"] == {"x": 0.0, "y": -0.18, "angle": 0.0, "face": 3}
    assert str(data["program_version"]) == __version__
    assert data["shot_status"].shape == (2, 2, 1, 1, 2)
    assert np.allclose(data["p_off"].reshape(-1), [c["p_off"] for c in printed["cells"]])
    for name in ("p_hole", "p_off", "p_platform", "p_struck", "mean_points"):
        png = out / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_bar_on_a_terminal_only_and_summary_without_json(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({**SPEC, "dice": [], "repeats": 1}))
    out = tmp_path / "o"
    assert main(["sweep", str(spec), "--workers", "0", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "4 shots in 4 cells" in captured.out
    assert captured.err == ""  # stderr is a file or a pipe here: no bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    assert main(["sweep", str(spec), "--workers", "0", "--out", str(out)]) == 0
    assert "4/4" in tty.getvalue() and "shot" in tty.getvalue()  # tqdm's bar


def test_workers_and_scheduler_exclude_each_other(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["sweep", "x.json", "--workers", "2", "--scheduler", "tcp://127.0.0.1:1"])
    assert exc.value.code == 2


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["sweep", "--help"], ["tournament", "--help"]],
)
def test_help_texts_render(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    assert "usage:" in capsys.readouterr().out


def test_card_games_help_renders(capsys) -> None:
    from card_games.cli import main as cards_main

    with pytest.raises(SystemExit) as exc:
        cards_main(["tournament", "--help"])
    assert exc.value.code == 0 and "--matches" in capsys.readouterr().out
