"""`card-games` never loses a game: a failed `save` goes on playing, quitting falls back to another
file, output paths are checked before play, and `resume` updates the file it resumed from."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

import card_games.cli as cli
from card_games.cli import main
from jamsumo_sim.errors import UserError

# every game with one person and bots (JumbleJack needs four players)
TABLES = {
    "jumble-jam": "human,random",
    "jellyfish": "human,random",
    "jumblejack": "human,random,random,random",
    "the-jam": "human,random",
}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def play_args(game: str, record: Path) -> list[str]:
    seats = TABLES[game]
    players = str(seats.count(",") + 1)
    return [
        "play",
        game,
        "--players",
        players,
        "--seats",
        seats,
        "--seed",
        "2",
        "--record",
        str(record),
    ]


@pytest.fixture
def unwritable(monkeypatch: pytest.MonkeyPatch) -> set[Path]:
    """Paths whose save fails as a full disk would (running as root, permissions cannot)."""
    bad: set[Path] = set()
    real = cli.save_record

    def save_record(path, state, seats, **kw):  # noqa: ANN001, ANN202 - the wrapped function's signature
        if Path(path) in bad or Path(path).parent in bad:
            raise UserError(f"cannot write record {path}: No space left on device")
        real(path, state, seats, **kw)

    monkeypatch.setattr(cli, "save_record", save_record)
    return bad


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_failed_save_goes_on_and_quitting_keeps_the_game(
    game: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    unwritable: set[Path],
) -> None:
    record = tmp_path / "game.json"
    unwritable.add(record)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("save\n1\nquit\n"))
    code, out, err = run(capsys, *play_args(game, record))
    assert code == 0, err
    lines = err.splitlines()
    # `save`: the reason, and the game goes on (the person moved once more, then quit)
    assert (
        f"Could not save: cannot write record {record}: No space left on device; the game goes on."
        in lines
    )
    assert out.count("your move:") >= 3
    # `quit`: the record cannot be written either, so the game goes to the default save folder
    saved = sorted((tmp_path / "data" / "jamsumo" / "saves").glob("*.json"))
    assert len(saved) == 1 and f"Saved to {saved[0]}" in err
    data = json.loads(saved[0].read_text())
    assert data["finished"] is False and len(data["history"]) > 1
    # and it resumes to the end
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    seats = TABLES[game].replace("human", "random")
    code, out, err = run(capsys, "resume", str(saved[0]), "--seats", seats, "--json")
    assert code == 0, err
    assert json.loads(saved[0].read_text())["finished"] is True


def test_quitting_when_nothing_can_be_written_returns_to_the_game(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    unwritable: set[Path],
) -> None:
    record = tmp_path / "game.json"
    elsewhere = tmp_path / "elsewhere.json"
    data_home = tmp_path / "data"
    unwritable.update({record, data_home / "jamsumo" / "saves"})
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"quit\nsave {elsewhere}\nquit\n"))
    code, _, err = run(capsys, *play_args("jellyfish", record))
    assert code == 0, err
    assert "type 'save FILE' to save elsewhere." in err  # the first quit: nothing written
    assert err.count(f"Saved to {elsewhere}") == 2  # `save FILE`, then quit falls back to it
    assert json.loads(elsewhere.read_text())["finished"] is False


def test_end_of_input_when_nothing_can_be_written_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    unwritable: set[Path],
) -> None:
    record = tmp_path / "game.json"
    data_home = tmp_path / "data"
    unwritable.update({record, data_home / "jamsumo" / "saves"})
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code, _, err = run(capsys, *play_args("jellyfish", record))
    assert code == 2 and "Traceback" not in err
    (line,) = [ln for ln in err.splitlines() if ln.startswith("card-games:")]
    assert "the match could not be saved" in line


def test_a_finished_game_whose_record_fails_is_kept(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    unwritable: set[Path],
) -> None:
    record = tmp_path / "game.json"
    unwritable.add(record)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    args = [
        "play",
        "jellyfish",
        "--players",
        "2",
        "--seats",
        "random,random",
        "--seed",
        "0",
        "--record",
        str(record),
    ]
    code, _, err = run(capsys, *args)
    saved = sorted((tmp_path / "data" / "jamsumo" / "saves").glob("*.json"))
    assert code == 2 and len(saved) == 1 and len(err.strip().splitlines()) == 1
    assert f"the game was saved to {saved[0]} instead" in err
    assert json.loads(saved[0].read_text())["finished"] is True


@pytest.mark.parametrize(
    ("where", "fragment"),
    [
        ("file/x.json", "is a file, not a folder"),
        ("", "the path is empty"),
        (".", "is a directory"),
    ],
)
def test_the_record_path_is_checked_before_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, fragment: str
) -> None:
    (tmp_path / "file").write_text("")
    target = str(tmp_path / where) if where else ""
    args = ["play", "the-jam", "--players", "2", "--seats", "random,random", "--record", target]
    code, out, err = run(capsys, *args)
    assert code == 2 and fragment in err and out == ""  # refused before a single move


def test_the_default_save_folder_is_checked_when_a_person_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").write_text("")  # XDG_DATA_HOME is a file
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n"))
    argv = ["play", "jellyfish", "--players", "2", "--seed", "0", "--seats"]
    code, out, err = run(capsys, *argv, "human,random")
    assert code == 2 and "is a file, not a folder" in err and "give --record FILE" in err
    assert out == ""
    # bots alone never save: the same folder does not matter to them
    assert run(capsys, *argv, "random,random")[0] == 0


def _saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch) -> Path:  # noqa: ANN001
    save = tmp_path / "save.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    assert run(capsys, *play_args("jellyfish", save))[0] == 0
    return save


def test_resume_updates_the_file_resumed_from_also_when_record_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = _saved_game(tmp_path, capsys, monkeypatch)
    moves = len(json.loads(save.read_text())["history"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    code, _, err = run(capsys, "resume", str(save), "--record", str(save))
    assert code == 0, err
    assert len(json.loads(save.read_text())["history"]) > moves


def test_resume_with_another_record_leaves_the_old_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    save = _saved_game(tmp_path, capsys, monkeypatch)
    before = save.read_bytes()
    other = tmp_path / "other.json"
    code, _, err = run(
        capsys, "resume", str(save), "--record", str(other), "--seats", "random,random"
    )
    assert code == 0, err
    assert save.read_bytes() == before and json.loads(other.read_text())["finished"] is True
    # a bad --record is refused before the game goes on
    (tmp_path / "f").write_text("")
    code, out, err = run(capsys, "resume", str(save), "--record", str(tmp_path / "f" / "x.json"))
    assert code == 2 and "is a file, not a folder" in err and "Resuming" not in err


def test_verify_reports_a_divergence_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "game.json"
    args = [
        "play",
        "jumble-jam",
        "--players",
        "2",
        "--seats",
        "random,random",
        "--seed",
        "0",
        "--record",
        str(record),
    ]
    assert run(capsys, *args)[0] == 0
    code, out, err = run(capsys, "replay", str(record), "--verify")
    assert code == 0 and "OK" in out and err == ""
    data = json.loads(record.read_text())
    data["finished"] = False
    record.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(record), "--verify")
    assert code == 1 and out == "" and "the final state differs" in err and str(record) in err
