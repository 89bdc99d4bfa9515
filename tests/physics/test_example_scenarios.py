"""The example scenarios shipped for `jamsumo sim` (issue 31) run and show what their descriptions
say: a break scatters the pack, a hole skim crosses the hole, a high flick tumbles."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import pytest

from jamsumo_sim import scenario as sc

ROOT = Path(__file__).resolve().parents[2]


def run_example(name: str) -> tuple[dict, dict]:
    path = sc.example_path(name)
    data = sc.read_scenario(str(path))
    return data, sc.run_scenario(data, base_dir=path.parent)


def events(out: dict, kind: str, die: str | None = None) -> list[dict]:
    return [e for e in out["events"] if e["type"] == kind and (die is None or die in e["dice"])]


def test_every_example_is_shipped_and_in_the_checkout() -> None:
    for name in sc.EXAMPLES:
        shipped = sc.example_path(name)
        data = json.loads(shipped.read_text(encoding="utf-8"))
        assert data["version"] == 1 and data["description"], name
        in_checkout = ROOT / "examples" / "scenarios" / f"{name}.json"
        assert in_checkout.read_bytes() == shipped.read_bytes(), name
    listed = {p.stem for p in (ROOT / "examples" / "scenarios").glob("*.json")}
    assert listed == set(sc.EXAMPLES)


def test_break_scatters_the_pack() -> None:
    data, out = run_example("break")
    assert out["rested"] is True
    start = {d["id"]: (d["x"], d["y"]) for d in data["dice"]}
    pack = [d for d in out["dice"] if d["id"] != "s"]
    moved = [d for d in pack if math.dist((d["x"], d["y"]), start[d["id"]]) > 0.005]
    assert len(moved) >= len(pack) // 2, [d["id"] for d in moved]
    hits = [e for e in events(out, "collision") if e.get("kind") == "die"]
    assert len(hits) >= 5 and any("s" in e["dice"] for e in hits)
    # "the shooter turns over": struck at 0.85 of its face it pitches at 65.7 rad/s (model 0.13's
    # grip: at model 0.12's 0.55 it no longer pitches at all, and nothing turned over)
    assert events(out, "tumble", "s")


def test_hole_skim_crosses_the_hole() -> None:
    _, out = run_example("hole-skim")
    assert out["rested"] is True
    (die,) = out["dice"]
    assert len(events(out, "skim", "s")) == 1 and not events(out, "hole")
    assert die["status"] == "on_board" and die["flat"]
    assert die["x"] > 0.035 / 2 + 0.008  # past the far rim (flicked east from x = -0.1)
    assert [e["cause"] for e in events(out, "tumble")] == ["rim"]  # turned over at the far rim


def test_high_flick_tumbles() -> None:
    """1.2 m/s at 0.9 of the face: it hops, lands on an edge and bounces on, two quarter turns,
    and rests 32 cm on (model 0.15: a tumbling die's landings keep its slide, as the 3D
    reference's; model 0.14's 2.4 m/s now runs off the board's edge)."""
    _, out = run_example("high-flick")
    assert out["rested"] is True
    (die,) = out["dice"]
    turns = events(out, "tumble", "s")
    assert len(turns) >= 2 and all(t["cause"] == "flick" for t in turns)
    assert events(out, "hop") and events(out, "land")
    assert die["status"] == "on_board" and die["face"] != 1 and die["face"] == turns[-1]["after"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="jamsumo")
    sc.register(p.add_subparsers(dest="command", required=True))
    return p


def test_example_flag_equals_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(["sim", "--example", "hole-skim"])
    assert args.func(args) == 0
    by_name = json.loads(capsys.readouterr().out)
    args = _parser().parse_args(["sim", str(ROOT / "examples" / "scenarios" / "hole-skim.json")])
    assert args.func(args) == 0
    assert json.loads(capsys.readouterr().out) == by_name


@pytest.mark.parametrize("argv", [["sim"], ["sim", "x.json", "--example", "break"]])
def test_a_file_or_an_example_not_both(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    args = _parser().parse_args(argv)
    assert args.func(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--example NAME" in err


def test_help_says_how_to_run_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["sim", "--help"])
    text = capsys.readouterr().out
    assert "examples/scenarios/" in text
    for name in sc.EXAMPLES:
        assert f"jamsumo sim --example {name}" in text
