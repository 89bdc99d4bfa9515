"""`jamsumo play` without --seed: a fresh seed, stated on stderr and kept in the match (and so in
its autosave); --seed as given; a resumed match keeps its saved seed."""

from __future__ import annotations

import pytest

from jamsumo_sim import turnloop
from jamsumo_sim.cli import build_parser, main
from jamsumo_sim.ui import autosave
from jamsumo_sim.ui.cli import make_session
from tests.cli.test_fresh_seeds import stated_seed

ARGS = ["play", "--mode", "jam", "--seats", "human,random", "--frames", "1"]


def _session(argv: list[str]):  # noqa: ANN202
    args = build_parser().parse_args(argv)
    return make_session(args, {}, headless=True)[0]


def test_a_window_match_gets_a_fresh_seed_stated_and_saved(capsys) -> None:
    first = _session(ARGS)
    seed = stated_seed(capsys.readouterr().err)
    assert first.state.seed == seed and first.save_data()["state"]["seed"] == seed
    second = _session(ARGS)
    assert second.state.seed == stated_seed(capsys.readouterr().err) != seed
    again = _session([*ARGS, "--seed", str(seed)])
    assert again.state.seed == seed and capsys.readouterr().err == ""
    # the autosaved match resumes with its own seed; none is drawn
    autosave.save(first.save_data())
    resumed = _session([*ARGS, "--resume"])
    assert resumed.state.seed == seed and capsys.readouterr().err == ""


def test_the_headless_demo_match_states_the_seed_it_plays(monkeypatch, capsys) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    played: list[int] = []

    class Played(Exception):
        pass

    def play(game, agents, seed, **_):  # noqa: ANN001, ANN202 - stops before a whole match
        played.append(seed)
        raise Played

    monkeypatch.setattr(turnloop, "play", play)
    with pytest.raises(Played):
        main(["play", "--mode", "jam", "--seats", "random,random"])
    out, err = capsys.readouterr()
    assert played == [stated_seed(err)] and f"(seed {played[0]})" in out
    with pytest.raises(Played):
        main(["play", "--mode", "jam", "--seats", "random,random", "--seed", "12"])
    out, err = capsys.readouterr()
    assert played[1] == 12 and "(seed 12)" in out and "seed" not in err
