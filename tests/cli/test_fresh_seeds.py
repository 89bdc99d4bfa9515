"""Without --seed every match, game and tournament gets a fresh seed from the operating system,
stated on stderr and in --json output and kept in the record, so --seed replays it; a resumed
match keeps its recorded seed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from card_games.cli import main as cards_main
from jamsumo_sim.cli import main
from jamsumo_sim.limits import MAX_SEED
from jamsumo_sim.seeds import chosen_seed, fresh_seed, seed_line

SEED_LINE = re.compile(r"^(jamsumo|card-games): seed (\d+) \(replay this (\w+) with --seed \2\)$")

JAM_MATCH = ["match", "--mode", "jam", "--seats", "random,random", "--rounds", "1"]
JAM_MATCH += ["--max-turns", "2", "--json"]
CARD_GAME = ["play", "jellyfish", "--players", "2", "--seats", "random,random", "--json"]


def stated_seed(err: str) -> int:
    """The seed of the one line on stderr that states a fresh seed."""
    found = [m for line in err.splitlines() if (m := SEED_LINE.match(line))]
    assert len(found) == 1, err
    return int(found[0].group(2))


def run(entry, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[dict, str]:  # noqa: ANN001
    assert entry(argv) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def test_fresh_seeds_are_64_bit_and_a_given_seed_is_used_silently(capsys) -> None:
    seeds = {fresh_seed() for _ in range(64)}
    assert len(seeds) == 64 and all(0 <= s <= MAX_SEED for s in seeds)
    assert max(seeds) > 2**56  # 64 draws all below 2**56: one chance in 2**511
    assert chosen_seed(7, "jamsumo") == 7 and capsys.readouterr().err == ""
    seed = chosen_seed(None, "card-games")
    assert capsys.readouterr().err == seed_line("card-games", seed, "game") + "\n"
    assert stated_seed(seed_line("jamsumo", seed, "match")) == seed


@pytest.mark.parametrize("entry, argv", [(main, JAM_MATCH), (cards_main, CARD_GAME)])
def test_two_runs_get_different_seeds_and_the_stated_seed_replays_the_game(
    entry, argv, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, err1 = run(entry, [*argv, "--record", str(tmp_path / "1.json")], capsys)
    second, err2 = run(entry, argv, capsys)
    assert first["seed"] == stated_seed(err1) and second["seed"] == stated_seed(err2)
    assert first["seed"] != second["seed"]
    assert json.loads((tmp_path / "1.json").read_text())["seed"] == first["seed"]
    again, err = run(entry, [*argv, "--seed", str(first["seed"])], capsys)
    assert again == first and err == ""  # the same game; a given seed is not stated again


def test_a_resumed_match_keeps_its_recorded_seed(tmp_path: Path, monkeypatch, capsys) -> None:
    from jamsumo_sim.rules import match_cli

    written: list[dict] = []
    real_write = match_cli.write_json

    def spy(path, data, what="output file"):  # noqa: ANN001, ANN202
        written.append(json.loads(json.dumps(data)))
        return real_write(path, data, what)

    monkeypatch.setattr(match_cli, "CHECKPOINT_INTERVAL_S", 0.0)  # a checkpoint after every shot
    monkeypatch.setattr(match_cli, "write_json", spy)
    rec = tmp_path / "m.json"
    argv = ["match", "--mode", "jam", "--seats", "random,random", "--rounds", "1", "--json"]
    first, err = run(main, [*argv, "--max-turns", "4", "--record", str(rec)], capsys)
    assert json.loads(rec.read_text())["seed"] == first["seed"] == stated_seed(err)
    mid = tmp_path / "mid.json"  # the match after its first shot
    mid.write_text(json.dumps(next(d for d in written if len(d["shots"]) == 1)))
    resumed, err = run(main, ["match", "--resume", str(mid), "--json"], capsys)
    assert resumed == first and "seed" not in err  # the same seed, the same end, nothing drawn


def test_card_games_resume_keeps_the_recorded_seed(tmp_path: Path, capsys) -> None:
    from jamsumo_sim.turnloop import get_game
    from jamsumo_sim.turnloop.recording import save_record

    game = get_game("jellyfish")
    state = game.new_initial_state(game.validate_params({"players": 2}), seed=2**63 + 5)
    save_record(tmp_path / "g.json", state, ["random", "random"])
    out, err = run(cards_main, ["resume", str(tmp_path / "g.json"), "--json"], capsys)
    assert out["seed"] == 2**63 + 5 and "seed" not in err
    assert json.loads((tmp_path / "g.json").read_text())["seed"] == 2**63 + 5


@pytest.mark.parametrize(
    "entry, argv",
    [
        (main, ["tournament", "--mode", "jam", "--rounds", "1", "--max-turns", "2"]),
        (cards_main, ["tournament", "jellyfish"]),
    ],
)
def test_a_tournament_without_seed_states_and_records_a_fresh_one(
    entry, argv, tmp_path: Path, capsys
) -> None:
    argv = [*argv, "--seats", "random,random", "--matches", "2", "--json"]
    first, err = run(entry, [*argv, "--out", str(tmp_path)], capsys)
    seed = stated_seed(err)
    assert first["seed"] == seed and "tournament" in err
    saved = json.loads((tmp_path / "tournament.json").read_text())
    assert saved["seed"] == saved["spec"]["seed"] == seed
    second, err = run(entry, argv, capsys)
    assert second["seed"] == stated_seed(err) != seed
    again, err = run(entry, [*argv, "--seed", str(seed)], capsys)
    assert again == first and "seed" not in err


@pytest.mark.parametrize(
    "entry, argv",
    [
        (main, ["match", "--help"]),
        (main, ["play", "--help"]),
        (main, ["host", "--help"]),
        (main, ["tournament", "--help"]),
        (cards_main, ["play", "--help"]),
        (cards_main, ["host", "--help"]),
        (cards_main, ["tournament", "--help"]),
    ],
)
def test_help_says_the_default_is_a_fresh_seed(entry, argv, capsys) -> None:
    with pytest.raises(SystemExit):
        entry(argv)
    text = " ".join(capsys.readouterr().out.split())
    assert "default: a fresh random seed" in text and "default 0)" not in text


def test_a_bad_argument_is_the_only_line_no_seed_is_drawn(capsys) -> None:
    assert main(["match", "--mode", "jam", "--seats", "random,wizard"]) == 2
    assert cards_main(["play", "jellyfish", "--players", "2", "--seats", "random,wizard"]) == 2
    assert main(["tournament", "--mode", "jam", "--seats", "random,wizard", "--matches", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 3 and "seed" not in err
